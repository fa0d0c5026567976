# DECLARE (QuestDB): `DECLARE @x := expr [, @y := expr ...] [WITH ...] SELECT ...`. Variables are
# replaced by their expressions when the statement is parsed (build/declare.ts), so the query that
# is bound has none left. `@x` in an expression is read here as a variable reference.
@lexer lexer

# A DECLARE may open any query, also a subquery or a CTE's (queries.ne `query`): its bindings
# shadow the outer ones there. `OVERRIDABLE` marks a view's variable a caller's DECLARE may override
# (build/declare.ts withOverrides). A binding may be a duration (`@p := 1h`, for `SAMPLE BY @p`) or a list
# (`@s := ('a', 'b')`, for `IN @s`).
declareList -> declareItem {% ([d]) => L.one(d) %} | declareList "," declareItem {% ([l, , d]) => L.add(l, d) %}
declareItem -> declareBinding {% id %} | name declareBinding {% ([w, b], _l, reject) => V.overridable(w, b) ?? reject %}
declareBinding ->
    %variable ":=" expr               {% ([v, , e]) => V.binding(v, e) %}
  | %variable ":=" %duration          {% ([v, , d], _l, reject) => E.decimalLiteral(d) === null ? V.durationBinding(v, d) : reject %}
  | %variable ":=" "(" exprList ")"   {% ([v, , , l], _l, reject) => V.listBinding(v, l) ?? reject %}
  | %variable "=" expr                {% ([, o]) => V.missingWalrus(o) %}
