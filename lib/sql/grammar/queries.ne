# Queries: WITH, set operations, SELECT blocks, FROM items, joins and the time-series clauses,
@lexer lexer
# in the clause order of QuestDB's SqlParser.

query ->
    queryBody                 {% id %}
  | %WITH cteList queryBody   {% ([w, c, b]) => Q.withQuery(w, c, b) %}
  # DECLARE @x := ... (grammar/declare.ne), also inside subqueries and CTEs
  | %DECLARE declareList query {% ([t, l, q]) => V.declare(t, l, q) %}
cteList -> cte {% ([c]) => L.one(c) %} | cteList "," cte {% ([l, , c]) => L.add(l, c) %}
cte -> name %AS "(" query ")" {% ([n, , , q]) => ({ name: n.name, pos: n.pos, query: q }) %}

# ORDER BY / LIMIT after the last operand apply to the whole set operation.
queryBody -> setExpr orderBy:? limit:? {% ([q, o, l]) => Q.withTail(q, o, l) %}

# UNION and EXCEPT are left-associative; INTERSECT binds tighter.
setExpr -> setExpr setOpKw %ALL:? setTerm {% ([l, o, a, r]) => Q.setOp(l, o, a, r) %} | setTerm {% id %}
setOpKw -> %UNION {% id %} | %EXCEPT {% id %}
setTerm -> setTerm %INTERSECT %ALL:? setPrimary {% ([l, o, a, r]) => Q.setOp(l, o, a, r) %} | setPrimary {% id %}

setPrimary ->
    selectBlock                    {% id %}
  | "(" query ")"                  {% ([, q]) => Q.bareCopy(q) %}
  # `(query) WHERE ...`: at least one clause (else it is the line above).
  | "(" query ")" timestampClause:? shortTail {% ([o, q, , ts, tail], _l, reject) => ts === null && Object.keys(tail).length === 0 ? reject : Q.shorthand(Q.tableRef({ kind: 'subquery', pos: o.offset, query: q }, { alias: null, timestamp: ts }), tail) %}
  # `(q) a JOIN (q2) b ON (k) ...`: joins of parenthesised queries without SELECT * FROM (at least one join)
  | "(" query ")" alias:? joins shortTail {% ([o, q, , a, js, tail], _l, reject) => js.length === 0 ? reject : { ...Q.shorthand(Q.tableRef({ kind: 'subquery', pos: o.offset, query: q }, { alias: a, timestamp: null }), tail), joins: js } %}
  # `trades`, `trades WHERE ...` mean `SELECT * FROM trades ...`.
  | shortName timestampClause:? shortTail {% ([n, ts, tail]) => Q.shorthandTable(n, ts, tail) %}
  # `trades PIVOT (...)`, `(q) WHERE ... PIVOT (...)` (grammar/pivot.ne)
  | pivotSource where:? pivotClause alias:? {% ([s, w, c, a]) => Q.shorthand(P.pivot(s, w, c, a), {}) %}
  # DuckDB's `PIVOT t ON col USING agg` (grammar/pivot.ne)
  | duckPivot {% ([p]) => Q.shorthand(p, {}) %}
shortTail -> where:? latestOn:? sampleBy:? {% ([where, latestOn, sampleBy]) => Q.compact({ where, latestOn, sampleBy }) %}

selectBlock -> %SELECT %DISTINCT:? selectList fromClause:? {% ([s, d, cols, from]) => Q.select(s, d, cols, from) %}

# A trailing comma before FROM is tolerated.
selectList -> selectItems ",":? {% id %}
selectItems -> selectItem {% ([i]) => L.one(i) %} | selectItems "," selectItem {% ([l, , i]) => L.add(l, i) %}
selectItem ->
    expr alias:?     {% ([e, a]) => Q.selectItem(e, a) %}
  # an implicit alias a FROM item could not have: `SELECT now() timestamp` (build/terminals.ts)
  | expr %t_selectAliasKw {% ([e, t]) => Q.selectItem(e, nameOf(t)) %}
  | "*"              {% ([t]) => ({ expr: { kind: 'star', pos: t.offset } }) %}
  | name "." "*"     {% ([n]) => ({ expr: { kind: 'star', pos: n.pos, table: n.name } }) %}

fromClause -> %FROM tableRef latestBy:? joins where:? latestOn:? sampleBy:? groupBy:? windows:?
  {% ([, from, lb, joins, where, lo, sampleBy, groupBy, windows]) => ({ from, joins, ...Q.compact({ where, latestOn: Q.latest(lb, lo), sampleBy, groupBy, windows }) }) %}

tableRef -> tablePrimary alias:? timestampClause:? {% ([t, alias, timestamp]) => Q.tableRef(t, { alias, timestamp }) %}
  # `UNNEST(...) u(a, b)`: names for the output columns (plan/bind-unnest.ts)
  | tablePrimary alias "(" nameList ")" {% ([t, alias, , l]) => AR.columnAliased(t, alias, l) %}
  | tablePrimary alias:? pivotClause alias:? {% ([t, a, c, pa]) => P.pivot(Q.tableRef(t, { alias: a, timestamp: null }), null, c, pa) %}
tablePrimary ->
    tableName        {% ([n]) => ({ kind: 'table', pos: n.pos, name: n.name }) %}
  | call             {% ([c]) => ({ kind: 'function', pos: c.pos, call: c }) %}
  | call %WITH name  {% ([c, , n], _l, reject) => AR.withOrdinality(c, n) ?? reject %}
  # JSON UNNEST: `UNNEST(varchar COLUMNS(name TYPE, ...)) [WITH ORDINALITY]` (build/array.ts)
  | name "(" expr name "(" jsonColumns ")" ")" {% ([f, , e, kw, , cols], _l, reject) => AR.jsonUnnest(f, e, kw, cols, null) ?? reject %}
  | name "(" expr name "(" jsonColumns ")" ")" %WITH name {% ([f, , e, kw, , cols, , , , o], _l, reject) => AR.jsonUnnest(f, e, kw, cols, o) ?? reject %}
  | "(" query ")"    {% ([o, q]) => ({ kind: 'subquery', pos: o.offset, query: q }) %}
  # `FROM @v`: a table name or subquery a DECLARE holds
  | %variable        {% ([v]) => V.tableVariable(v) %}
timestampClause -> %TIMESTAMP "(" name ")" {% ([, , n]) => n %}
jsonColumns -> name typeName {% ([n, t]) => L.one([n, t]) %} | jsonColumns "," name typeName {% ([l, , n, t]) => L.add(l, [n, t]) %}

# Zero or more joins: `[]` or a Seq.
joins -> null {% () => [] %} | joins join {% ([l, j]) => L.add(l.length === 0 ? null : l, j) %}
join ->
    %INNER:? %JOIN tableRef joinOn:?                        {% ([i, j, t, on]) => Q.join((i ?? j).offset, 'inner', t, on, null) %}
  | outerKind %OUTER:? %JOIN tableRef joinOn:?              {% ([k, , , t, on]) => Q.join(k.offset, Q.joinType(k), t, on, null) %}
  | timeKind %JOIN tableRef joinOn:? tolerance:?            {% ([k, , t, on, tol]) => Q.join(k.offset, Q.joinType(k), t, on, tol) %}
  | %CROSS %JOIN tableRef                                   {% ([k, , t]) => Q.join(k.offset, 'cross', t, null, null) %}
  | "," tableRef                                            {% ([k, t]) => Q.comma(Q.join(k.offset, 'cross', t, null, null)) %}
  # LATERAL: the subquery may name columns of the FROM items before it (plan/bind-lateral.ts)
  | %INNER:? %JOIN %LATERAL tableRef joinOn:?               {% ([i, j, , t, on]) => Q.lateral(Q.join((i ?? j).offset, 'inner', t, on, null)) %}
  | %LEFT %OUTER:? %JOIN %LATERAL tableRef joinOn:?         {% ([k, , , , t, on]) => Q.lateral(Q.join(k.offset, 'left', t, on, null)) %}
  | %CROSS %JOIN %LATERAL tableRef                          {% ([k, , , t]) => Q.lateral(Q.join(k.offset, 'cross', t, null, null)) %}
  | "," %LATERAL tableRef                                   {% ([k, , t]) => Q.lateral(Q.join(k.offset, 'cross', t, null, null)) %}
  | %LATERAL tableRef                                       {% ([k, t]) => Q.lateral(Q.join(k.offset, 'cross', t, null, null)) %}
  # QuestDB 9's time-series joins (plan/bind-window-join.ts, plan/bind-horizon-join.ts)
  | %WINDOW %JOIN tableRef joinOn:? %RANGE %BETWEEN windowJoinBound %AND windowJoinBound prevailing:?
      {% ([k, , t, on, r, , lo, , hi, p]) => Q.windowJoin(k, t, on, r, lo, hi, p) %}
  | %HORIZON %JOIN tableRef joinOn:? horizonOffsets %AS name {% ([k, , t, on, h, , a]) => Q.horizonJoin(k, t, on, h, a) %}
# a bound with its position (errors point at it); UNBOUNDED parses to be refused with QuestDB's message
windowJoinBound ->
    %UNBOUNDED boundDir   {% ([, d]) => ({ kind: d.type === 'PRECEDING' ? 'unbounded preceding' : 'unbounded following', pos: d.offset }) %}
  | %CURRENT %ROW         {% ([c]) => ({ kind: 'current row', pos: c.offset }) %}
  | exprAdd name:? boundDir {% ([e, u, dir]) => ({ ...E.offsetBound(e, u, dir), pos: e.pos }) %}
prevailing -> %INCLUDE %PREVAILING {% id %} | %EXCLUDE %PREVAILING {% id %}
horizonOffsets ->
    %RANGE %FROM horizonOffset %TO horizonOffset %STEP horizonOffset {% ([r, , from, , to, , step]) => ({ kind: 'range', pos: r.offset, from, to, step }) %}
  | %LIST "(" horizonOffsetList ")" {% ([l, , offs]) => ({ kind: 'list', pos: l.offset, offsets: L.toArray(offs) }) %}
  # `LIST ()`: refused when bound with QuestDB's message
  | %LIST "(" ")" {% ([, p]) => ({ kind: 'list', pos: p.offset + 1, offsets: [] }) %}
horizonOffsetList -> horizonOffset {% ([o]) => L.one(o) %} | horizonOffsetList "," horizonOffset {% ([l, , o]) => L.add(l, o) %}
horizonOffset -> "-":? horizonUnit {% ([m, t]) => Q.horizonOffset(m, t) %}
horizonUnit -> %duration {% id %} | %integer {% id %}
outerKind -> %LEFT {% id %} | %RIGHT {% id %} | %FULL {% id %}
timeKind -> %ASOF {% id %} | %LT {% id %} | %SPLICE {% id %}
# `ON expr`; `ON col` and `ON (a, b)` (same names on both sides) become `using`.
joinOn ->
    %ON expr                                  {% ([, e]) => e %}
  | %ON "(" name "," nameList ")"             {% ([, , h, , t]) => [h, ...L.toArray(t)] %}
tolerance ->
    %TOLERANCE %duration      {% ([, t]) => ({ value: t.text, pos: t.offset }) %}
  | %TOLERANCE %integer       {% ([, t]) => ({ value: t.text, pos: t.offset }) %}
  | %TOLERANCE "-" %duration  {% ([, m, t]) => ({ value: `-${t.text}`, pos: m.offset }) %}

where -> %WHERE expr {% ([, e]) => e %}
latestBy -> %LATEST %BY exprList {% ([t, , l]) => ({ pos: t.offset, partitionBy: l, legacy: true }) %}
latestOn -> %LATEST %ON name %PARTITION %BY exprList {% ([t, , n, , , l]) => ({ pos: t.offset, timestamp: n.name, partitionBy: l, legacy: false }) %}

sampleBy -> %SAMPLE %BY sampleInterval (%FROM expr):? (%TO expr):? fill:? align:?
  {% ([t, , i, f, to, fill, al]) => Q.sampleBy(t, i, f === null ? null : f[1], to === null ? null : to[1], fill, al) %}
# `SAMPLE BY @p`: a DECLAREd duration (build/declare.ts)
sampleInterval -> %duration {% id %} | %variable {% id %}
fill -> %FILL "(" exprList ")" {% ([, , l]) => L.toArray(l) %}
align ->
    %ALIGN %TO %CALENDAR (%TIME %ZONE expr):? (%WITH %OFFSET expr):?
      {% ([, , , tz, off]) => ({ kind: 'calendar', ...(tz === null ? {} : { timeZone: tz[2] }), ...(off === null ? {} : { offset: off[2] }) }) %}
  | %ALIGN %TO %FIRST %OBSERVATION {% () => ({ kind: 'first observation' }) %}

groupBy -> %GROUP %BY exprList {% ([, , l]) => l %}
windows -> %WINDOW namedWindows {% ([, l]) => l %}
namedWindows -> namedWindow {% ([w]) => L.one(w) %} | namedWindows "," namedWindow {% ([l, , w]) => L.add(l, w) %}

orderBy -> %ORDER %BY orderItems {% ([, , l]) => l %}
orderItems -> orderItem {% ([i]) => L.one(i) %} | orderItems "," orderItem {% ([l, , i]) => L.add(l, i) %}
orderItem -> expr orderDir:? (%NULLS firstLast):? {% ([e, d, n]) => E.orderItem(e, d, n === null ? null : n[1]) %}
orderDir -> %ASC {% id %} | %DESC {% id %}
firstLast -> %FIRST {% id %} | %LAST {% id %}

limit -> %LIMIT expr ("," expr):? {% ([t, lo, hi]) => Q.limit(t, lo, hi === null ? null : hi[1]) %}
  # QuestDB's edge-case forms: `LIMIT n,` and `LIMIT , n` are `LIMIT n`
  | %LIMIT expr "," {% ([t, lo]) => Q.limit(t, lo, null) %}
  | %LIMIT "," expr {% ([t, , lo]) => Q.limit(t, lo, null) %}
