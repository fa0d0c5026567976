# DOUBLE arrays: the `ARRAY[...]` literal and subscripts `arr[i]`, `arr[i, j]`, `arr[lo:hi]`,
# `arr[lo:]`, `arr[i][j]`. Built as calls the binder recognizes (build/array.ts): `array(...)`
# for a literal (a nested `[...]` is a nested `array(...)`), `[](base, sel...)` for a
# subscript, `:(lo[, hi])` for a range selector.
@lexer lexer

exprSub -> exprSub "[" subscriptList "]" {% ([b, o, l], _l, reject) => AR.subscript(b, o, l) ?? reject %} | primary {% id %}
subscriptList -> subscript {% ([s]) => L.one(s) %} | subscriptList "," subscript {% ([l, , s]) => L.add(l, s) %}
subscript -> expr {% id %} | expr ":" expr:? {% ([lo, c, hi]) => AR.range(c, lo, hi) %}

# `ARRAY[...]` (the name must be ARRAY: anything else is a subscript of a column)
arrayLiteral -> name "[" arrayItems:? "]" {% ([n, o, l], _l, reject) => AR.literal(n, o, l) ?? reject %}
arrayItems -> arrayItem {% ([x]) => L.one(x) %} | arrayItems "," arrayItem {% ([l, , x]) => L.add(l, x) %}
arrayItem -> expr {% id %} | "[" arrayItems:? "]" {% ([o, l]) => AR.nested(o, l) %}
