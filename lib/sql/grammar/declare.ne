# DECLARE (QuestDB): `DECLARE @x := expr [, @y := expr ...] [WITH ...] SELECT ...`. Variables are
# replaced by their expressions when the statement is parsed (build/declare.ts), so the query that
# is bound has none left. `@x` in an expression is read here as a variable reference.
@lexer lexer

declare -> %DECLARE declareList query {% ([t, l, q]) => V.declare(t, l, q) %}
declareList -> declareItem {% ([d]) => L.one(d) %} | declareList "," declareItem {% ([l, , d]) => L.add(l, d) %}
declareItem ->
    %variable ":=" expr {% ([v, , e]) => V.binding(v, e) %}
  | %variable "=" expr  {% ([, o]) => V.missingWalrus(o) %}
