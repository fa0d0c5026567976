# Expressions, one rule per precedence level (QuestDB 8+, loosest first):
@lexer lexer
# OR, AND, NOT, = != <> ~ !~ LIKE ILIKE IS, < <= > >=, IN BETWEEN, |, ^, &, ||, << >> <<= >>=,
# + -, * / %, unary - + ~, ::, primary.

expr -> expr %OR exprAnd {% ([l, o, r]) => E.binary(l, o, r) %} | exprAnd {% id %}

exprAnd -> exprAnd %AND exprNot {% ([l, o, r]) => E.binary(l, o, r) %} | exprNot {% id %}

exprNot -> %NOT exprNot {% ([o, e]) => E.unary(o, e) %} | exprEq {% id %}

exprEq ->
    exprEq eqOp exprRel                 {% ([l, o, r]) => E.binary(l, o, r) %}
  | exprEq %NOT:? likeOp exprRel        {% ([e, n, o, p]) => E.like(e, n, o, p) %}
  | exprEq %IS %NOT:? %NULL             {% ([e, i, n]) => E.isNull(e, i, n) %}
  | exprRel                             {% id %}
eqOp -> "=" {% id %} | "!=" {% id %} | "<>" {% id %} | "~" {% id %} | "!~" {% id %}
likeOp -> %LIKE {% id %} | %ILIKE {% id %}

exprRel -> exprRel relOp exprIn {% ([l, o, r]) => E.binary(l, o, r) %} | exprIn {% id %}
relOp -> "<" {% id %} | "<=" {% id %} | ">" {% id %} | ">=" {% id %}

exprIn ->
    exprIn %NOT:? %IN inList                          {% ([e, n, i, l]) => E.inList(e, n, i, l) %}
  | exprIn %NOT:? %BETWEEN exprBor %AND exprBor       {% ([e, n, b, lo, , hi]) => E.between(e, n, b, lo, hi) %}
  # `g WITHIN (#u33, #u34)`: the geohash prefix test, bound as the call within(g, ...)
  | exprIn %t_within "(" exprList ")"                 {% ([e, w, , l]) => E.within(e, w, l) %}
  | exprBor                                           {% id %}
# `IN (a, b)`, `IN (SELECT ...)`, or one value without parentheses: `ts IN '2024-01'`, `IN $1`.
inList ->
    "(" exprList ")"       {% ([, l]) => l %}
  | "(" query ")"          {% ([, q], _l, reject) => Q.isBare(q) ? reject : q %}
  | %string                {% ([t]) => [E.stringLiteral(t)] %}
  | %param                 {% ([t]) => [{ kind: 'param', pos: t.offset, index: Number(t.text.slice(1)) }] %}
  | %variable              {% ([t]) => [V.variableRef(t)] %}
  | call                   {% ([c]) => [c] %}

exprBor -> exprBor "|" exprXor {% ([l, o, r]) => E.binary(l, o, r) %} | exprXor {% id %}
exprXor -> exprXor "^" exprBand {% ([l, o, r]) => E.binary(l, o, r) %} | exprBand {% id %}
exprBand -> exprBand "&" exprCat {% ([l, o, r]) => E.binary(l, o, r) %} | exprCat {% id %}
exprCat -> exprCat "||" exprShift {% ([l, o, r]) => E.binary(l, o, r) %} | exprShift {% id %}
exprShift -> exprShift shiftOp exprAdd {% ([l, o, r]) => E.binary(l, o, r) %} | exprAdd {% id %}
shiftOp -> "<<" {% id %} | ">>" {% id %} | "<<=" {% id %} | ">>=" {% id %}
exprAdd -> exprAdd addOp exprMul {% ([l, o, r]) => E.binary(l, o, r) %} | exprMul {% id %}
addOp -> "+" {% id %} | "-" {% id %}
exprMul -> exprMul mulOp exprUnary {% ([l, o, r]) => E.binary(l, o, r) %} | exprUnary {% id %}
mulOp -> "*" {% id %} | "/" {% id %} | "%" {% id %}
exprUnary -> unaryOp exprUnary {% ([o, e]) => E.unary(o, e) %} | exprCast {% id %}
unaryOp -> "-" {% id %} | "+" {% id %} | "~" {% id %}
exprCast -> exprCast "::" typeName {% ([e, o, t]) => E.cast(o.offset, e, t, true) %} | exprSub {% id %}

primary ->
    literal                                   {% id %}
  | %param                                    {% ([t]) => ({ kind: 'param', pos: t.offset, index: Number(t.text.slice(1)) }) %}
  | %variable                                 {% ([t]) => V.variableRef(t) %}
  | name                                      {% ([n]) => E.columnRef(n, null) %}
  | name "." name                             {% ([a, , b]) => E.columnRef(a, b) %}
  | call                                      {% id %}
  | arrayLiteral                              {% id %}
  | "(" expr ")"                              {% ([, e]) => e %}
  | "(" query ")"                             {% ([o, q], _l, reject) => Q.isBare(q) ? reject : { kind: 'subquery', pos: o.offset, query: q } %}
  | %CASE expr:? whenThens (%ELSE expr):? %END {% ([c, op, w, el]) => E.caseExpr(c, op, L.toArray(w), el === null ? null : el[1]) %}
  | %CAST "(" expr %AS typeName ")"           {% ([c, , e, , t]) => E.cast(c.offset, e, t, false) %}
  # typed literals `DATE '2000-01-01'`, `TIMESTAMP '2000-01-01T10:00'`: a cast of the string
  | name %string                              {% ([n, s], _l, reject) => E.typedLiteral(n, s) ?? reject %}
  | %EXISTS "(" query ")"                     {% ([t, , q]) => ({ kind: 'exists', pos: t.offset, query: q, not: false }) %}
  | %EXTRACT "(" name %FROM expr ")"          {% ([t, , u, , e]) => ({ kind: 'extract', pos: t.offset, unit: u.name, expr: e }) %}
whenThens -> whenThen {% ([w]) => L.one(w) %} | whenThens whenThen {% ([l, w]) => L.add(l, w) %}
whenThen -> %WHEN expr %THEN expr {% (d) => d %}

literal ->
    %integer {% ([t]) => E.numberLiteral(t) %}
  | %long    {% ([t]) => E.numberLiteral(t) %}
  | %float   {% ([t]) => E.numberLiteral(t) %}
  | %decimal {% ([t]) => E.decimalLiteral(t) %}
  # `5m` lexes as a duration; in an expression it is the DECIMAL literal 5
  | %duration {% ([t], _l, reject) => V.rememberDuration(E.decimalLiteral(t), t) ?? reject %}
  | %hex     {% ([t]) => E.numberLiteral(t) %}
  | %geohash {% ([t]) => ({ kind: 'literal', pos: t.offset, type: 'geohash', text: t.text }) %}
  | %NAN     {% ([t]) => E.numberLiteral(t) %}
  | %string  {% ([t]) => E.stringLiteral(t) %}
  | %TRUE    {% ([t]) => E.keywordLiteral(t) %}
  | %FALSE   {% ([t]) => E.keywordLiteral(t) %}
  | %NULL    {% ([t]) => E.keywordLiteral(t) %}

# A function call: `f(a, b)`, `count(*)`, `count(DISTINCT x)`, `lag(x) IGNORE NULLS OVER (...)`.
call -> funcName "(" callArgs:? ")" nullTreatment:? over:? {% ([n, , a, , nt, o]) => E.call(n, a, nt, o) %}
funcName ->
    name ("." name):?  {% ([a, b]) => dotted(a, b === null ? null : b[1]) %}
  | %LEFT              {% ([t]) => nameOf(t) %}
  | %RIGHT             {% ([t]) => nameOf(t) %}
callArgs ->
    "*"                {% ([t]) => ({ args: [], distinct: false, star: true, starPos: t.offset }) %}
  | %DISTINCT exprList {% ([, args]) => ({ args, distinct: true, star: false }) %}
  | exprList           {% ([args]) => ({ args, distinct: false, star: false }) %}
nullTreatment -> %IGNORE %NULLS {% id %} | %RESPECT %NULLS {% id %}

# A Seq (build/seq.ts): finishAst makes it an array after the parse.
exprList -> expr {% ([x]) => L.one(x) %} | exprList "," expr {% ([l, , x]) => L.add(l, x) %}
