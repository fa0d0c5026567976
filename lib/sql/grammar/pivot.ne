# PIVOT (QuestDB 9): `source [WHERE ...] PIVOT (aggs FOR col IN (...) [col2 IN (...)] [GROUP BY ...])`
# as a query on its own (`trades PIVOT (...)`, `(q) PIVOT (...)`) and as a FROM item
# (`SELECT * FROM t PIVOT (...) AS p`). Included by queries.ne's rules `setPrimary` and `tableRef`.
@lexer lexer

pivotClause -> %PIVOT "(" pivotAggs pivotFors pivotGroupBy:? ")"
  {% ([p, , aggs, fors, groupBy]) => P.pivotClause(p, aggs, fors, groupBy) %}
pivotAggs -> pivotAgg {% ([a]) => L.one(a) %} | pivotAggs "," pivotAgg {% ([l, , a]) => L.add(l, a) %}
pivotAgg -> expr alias:? {% ([e, a]) => Q.selectItem(e, a) %}
# `FOR a IN (...) b IN (...)`; the docs also write `FOR` before each list
pivotFors -> %FOR pivotFor {% ([, f]) => L.one(f) %} | pivotFors %FOR:? pivotFor {% ([l, , f]) => L.add(l, f) %}
pivotFor ->
    pivotColumn %IN "(" pivotValues ")" {% ([c, , , v]) => P.pivotFor(c, v, null) %}
  | pivotColumn %IN "(" query ")"       {% ([c, , , q]) => P.pivotFor(c, null, q) %}
  | pivotColumn %IN "(" ")"             {% ([, , o]) => P.emptyIn(o) %}
  | pivotColumn %IN "(" "*" ")"         {% ([, , , s]) => P.starIn(s) %}
# a column or an expression (`FOR extract(year FROM ts) IN (...)`): the level below IN, so that
# the IN of the FOR is not read as part of it
pivotColumn -> exprBor {% ([e]) => P.pivotColumn(e) %}
pivotValues -> pivotValue {% ([v]) => L.one(v) %} | pivotValues "," pivotValue {% ([l, , v]) => L.add(l, v) %}
pivotValue -> expr alias:? {% ([e, a]) => P.pivotValue(e, a) %}
pivotGroupBy -> %GROUP %BY exprList {% ([, , l]) => l %}

# DuckDB's statement form, which QuestDB's sqllogictest files quote beside their translations:
# `PIVOT source ON col [IN (...)] [, col2 ...] [USING aggs] [GROUP BY keys]`. A column without IN
# takes its distinct values (in order); without GROUP BY the keys are the other source columns;
# without USING the aggregate is count(*) (build/pivot.ts duckPivot).
duckPivot -> %PIVOT pivotSource %ON duckOns duckUsing:? pivotGroupBy:?
  {% ([p, s, , ons, aggs, g]) => P.duckPivot(p, s, ons, aggs, g) %}
duckOns -> duckOn {% ([f]) => L.one(f) %} | duckOns "," duckOn {% ([l, , f]) => L.add(l, f) %}
duckOn ->
    pivotColumn                         {% ([c]) => P.pivotFor(c, null, null) %}
  | pivotColumn %IN "(" pivotValues ")" {% ([c, , , v]) => P.pivotFor(c, v, null) %}
  | pivotColumn %IN "(" query ")"       {% ([c, , , q]) => P.pivotFor(c, null, q) %}
  | pivotColumn %IN "(" ")"             {% ([, , o]) => P.emptyIn(o) %}
duckUsing -> name pivotAggs {% ([u, a], _l, reject) => u.name.toLowerCase() === 'using' ? a : reject %}

# The source of a query-level PIVOT: a table name or a parenthesised query, with an optional WHERE.
pivotSource ->
    shortName         {% ([n]) => ({ kind: 'table', pos: n.pos, name: n.name }) %}
  | "(" query ")"     {% ([o, q]) => ({ kind: 'subquery', pos: o.offset, query: q }) %}
