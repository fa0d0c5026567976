# Names: identifiers, quoted identifiers and soft keywords.
@lexer lexer

# Any name: column, table, alias after AS, CTE, window.
name -> %ident {% ([t]) => nameOf(t) %} | %qident {% ([t]) => nameOf(t) %} | %t_softName {% ([t]) => nameOf(t) %}

# An implicit alias (no AS): not a keyword that can start the next clause.
bareAlias -> %ident {% ([t]) => nameOf(t) %} | %qident {% ([t]) => nameOf(t) %} | %t_aliasKw {% ([t]) => nameOf(t) %}


# A column name in a column definition: also a reserved keyword but LIKE (build/terminals.ts).
columnName -> name {% id %} | %t_columnKw {% ([t]) => nameOf(t) %}

alias -> %AS name {% ([, n]) => n %} | %AS %string {% ([, t]) => nameOf(t) %} | bareAlias {% id %}

# The table of the query shorthand `trades WHERE ...`: not a statement keyword (`commit`).
shortName -> %ident {% ([t]) => nameOf(t) %} | %qident {% ([t]) => nameOf(t) %} | %t_shortKw {% ([t]) => nameOf(t) %}

# A table name: `t`, `schema.t`, `"t"`, or a string `'t'`.
tableName -> name ("." name):? {% ([a, b]) => dotted(a, b === null ? null : b[1]) %} | %string {% ([t]) => nameOf(t) %}

nameList -> name {% ([n]) => L.one(n) %} | nameList "," name {% ([l, , n]) => L.add(l, n) %}

# A type name as written: `double`, `symbol`, `geohash(8c)`, `decimal(18, 3)`, `double[]`, and
# PostgreSQL's multi-word names (`timestamp with[out] time zone`, `double precision`,
# `character varying(n)`), which tools such as SQLAlchemy write in CREATE TABLE and casts.
typeName -> name typeArgs:? typeDims {% ([n, args, dims]) => D.typeName(n, args, dims) %}
  | name (%WITH | %WITHOUT) %TIME %ZONE {% ([n, w]) => D.typeName({ name: `${n.name} ${w[0].text} time zone`, pos: n.pos }, null, 0) %}
  | name %PRECISION {% ([n]) => D.typeName({ name: `${n.name} precision`, pos: n.pos }, null, 0) %}
  | name %VARYING typeArgs:? {% ([n, , args]) => D.typeName({ name: `${n.name} varying`, pos: n.pos }, args, 0) %}
typeDims -> null {% () => 0 %} | typeDims "[" "]" {% ([n]) => n + 1 %}
typeArgs -> "(" typeArgList ")" {% ([, l]) => L.toArray(l) %}
typeArgList -> typeArg {% ([a]) => L.one(a) %} | typeArgList "," typeArg {% ([l, , a]) => L.add(l, a) %}
typeArg -> %integer {% id %} | %duration {% id %} | name {% id %}
