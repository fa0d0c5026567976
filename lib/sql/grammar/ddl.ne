# DDL: CREATE / DROP / TRUNCATE / RENAME / ALTER TABLE.
@lexer lexer

ddl ->
    createTable {% id %} | createTableAs {% id %} | createTableLike {% id %}
  | dropTable {% id %} | truncateTable {% id %} | renameTable {% id %} | alterTable {% id %}
  | createView {% id %} | dropView {% id %} | matView {% id %}

ifNotExists -> %IF %NOT %EXISTS {% id %}
ifExists -> %IF %EXISTS {% id %}
tableNames -> tableName {% ([n]) => L.one(n) %} | tableNames "," tableName {% ([l, , n]) => L.add(l, n) %}

# createTable reads both lists, and this rule completes after every clause: deferred to finishAst.
createTable -> %CREATE %ATOMIC:? %TABLE ifNotExists:? tableName "(" columnDefs ")" indexClauses tableOptions ownedBy:?
  {% ([c, , , ine, n, , cols, , idx, opts, o]) => L.deferred(() => ({ ...D.createTable(c, ine, n, L.toArray(cols), L.toArray(idx), opts), ...(o === null ? {} : { owner: o }) })) %}
createTableAs -> %CREATE %ATOMIC:? %TABLE ifNotExists:? tableName %AS "(" query ")" ctasCasts tableOptions ownedBy:?
  {% ([c, , , ine, n, , , q, , casts, options, o]) => ({ kind: 'create_table_as', pos: c.offset, name: n.name, namePos: n.pos, ifNotExists: ine !== null, query: q, casts, options, ...(o === null ? {} : { owner: o }) }) %}
# QuestDB Enterprise: the owner grants go to this user, group or service account instead of the creator
ownedBy -> %OWNED %BY aclName {% ([, , n]) => n %}
indexClauses -> null {% () => [] %} | indexClauses indexClause {% ([l, i]) => L.add(l.length === 0 ? null : l, i) %}
ctasCasts -> null {% () => [] %} | ctasCasts ctasCast {% ([l, c]) => L.add(l.length === 0 ? null : l, c) %}
createTableLike -> %CREATE %TABLE ifNotExists:? tableName "(" %LIKE tableName ")" ownedBy:?
  {% ([c, , ine, n, , , l, , o]) => ({ kind: 'create_table_like', pos: c.offset, name: n.name, namePos: n.pos, ifNotExists: ine !== null, like: l.name, likePos: l.pos, ...(o === null ? {} : { owner: o }) }) %}

columnDefs -> columnDef {% ([c]) => L.one(c) %} | columnDefs "," columnDef {% ([l, , c]) => L.add(l, c) %}
# `name type`, with the SYMBOL options in their fixed order.
columnDef -> columnName typeName (%CAPACITY %integer):? cacheOpt:? (%INDEX (%CAPACITY %integer):?):?
  {% ([n, t, cap, cache, idx]) => D.columnDef(n, t, cap, cache, idx) %}
cacheOpt -> %CACHE {% id %} | %NOCACHE {% id %}
indexClause -> "," %INDEX "(" name (%CAPACITY %integer):? ")" {% ([, , , n, cap]) => ({ name: n, capacity: cap === null ? null : cap[1] }) %}
ctasCast -> "," %CAST "(" name %AS typeName ")" {% ([, c, , n, , t]) => ({ column: n.name, type: t.name, pos: c.offset }) %}

# TIMESTAMP(ts) [PARTITION BY unit [TTL n unit] [WAL | BYPASS WAL]] [DEDUP UPSERT KEYS(...)] [WITH k = v, ...]
tableOptions -> timestampOpt:? dedupOpt:? withParams:? {% ([ts, dedup, params]) => D.tableOptions(ts, dedup, params) %}
timestampOpt -> %TIMESTAMP "(" name ")" partitionOpt:? {% ([, , n, , p]) => ({ name: n, partition: p }) %}
partitionOpt -> %PARTITION %BY name ttl:? walOpt:? {% ([t, , unit, ttl, wal]) => D.partitionOpt(t, unit, ttl, wal) %}
ttl -> %TTL %integer name {% ([t, n, u]) => D.ttl(t, n.text, u) %} | %TTL %duration {% ([t, d]) => D.ttl(t, d.text, null) %}
walOpt -> %WAL {% () => true %} | %BYPASS %WAL {% () => false %}
dedupOpt -> %DEDUP %UPSERT %KEYS "(" nameList ")" {% ([, , , , l]) => l %}
withParams -> %WITH params {% ([, l]) => l %}
params -> param {% ([p]) => L.one(p) %} | params "," param {% ([l, , p]) => L.add(l, p) %}
param -> name "=" paramValue {% ([n, , v]) => ({ name: n.name, value: v }) %}
paramValue -> (%integer | %long | %float | %duration | %string | name) {% ([[v]]) => D.paramValue(v) %}

dropTable ->
    %DROP %TABLE ifExists:? tableNames (%CASCADE %PERMISSIONS):?
      {% ([d, , ie, names, c]) => ({ kind: 'drop_table', pos: d.offset, names, ifExists: ie !== null, all: false, ...(c === null ? {} : { cascadePermissions: true }) }) %}
  | %DROP %ALL %TABLES                 {% ([d]) => ({ kind: 'drop_table', pos: d.offset, names: [], ifExists: false, all: true }) %}
truncateTable -> %TRUNCATE %TABLE ifExists:? tableNames {% ([t, , ie, names]) => ({ kind: 'truncate_table', pos: t.offset, names, ifExists: ie !== null }) %}
renameTable -> %RENAME %TABLE tableName %TO tableName
  {% ([r, , a, , b]) => ({ kind: 'rename_table', pos: r.offset, from: a.name, fromPos: a.pos, to: b.name, toPos: b.pos }) %}

alterTable -> %ALTER %TABLE tableName alterAction {% ([a, , t, action]) => ({ kind: 'alter_table', pos: a.offset, table: t.name, tablePos: t.pos, action }) %}
alterAction ->
    %ADD %COLUMN ifNotExists:? columnDefs ownedBy:? {% ([a, , ine, columns, o]) => ({ kind: 'add_column', pos: a.offset, columns, ifNotExists: ine !== null, ...(o === null ? {} : { owner: o }) }) %}
  | %DROP %COLUMN nameList                {% ([d, , names]) => ({ kind: 'drop_column', pos: d.offset, names }) %}
  | %RENAME %COLUMN name %TO name         {% ([r, , a, , b]) => ({ kind: 'rename_column', pos: r.offset, from: a.name, fromPos: a.pos, to: b.name, toPos: b.pos }) %}
  | %ALTER %COLUMN name %TYPE typeName    {% ([a, , c, , t]) => ({ kind: 'alter_column_type', pos: a.offset, column: c.name, columnPos: c.pos, type: t.name, typePos: t.pos }) %}
  | %ALTER %COLUMN name %ADD %INDEX (%CAPACITY %integer):? {% ([a, , c, , , cap]) => ({ kind: 'column_index', pos: a.offset, column: c.name, columnPos: c.pos, add: true, ...(cap === null ? {} : { capacity: D.indexCapacity(cap[1]) }) }) %}
  | %ALTER %COLUMN name %DROP %INDEX      {% ([a, , c]) => ({ kind: 'column_index', pos: a.offset, column: c.name, columnPos: c.pos, add: false }) %}
  | %ALTER %COLUMN name cacheOpt          {% ([a, , c, k]) => ({ kind: 'column_cache', pos: a.offset, column: c.name, columnPos: c.pos, cache: k.type === 'CACHE' }) %}
  | %DROP %PARTITION %LIST partitionNames {% ([d, , , list]) => ({ kind: 'drop_partition', pos: d.offset, list }) %}
  | %DROP %PARTITION where                {% ([d, , where]) => ({ kind: 'drop_partition', pos: d.offset, where }) %}
  | convertPartition                      {% id %}
  | %DEDUP %ENABLE %UPSERT %KEYS "(" nameList ")" {% ([d, , , , , keys]) => ({ kind: 'dedup', pos: d.offset, enable: true, keys }) %}
  | %DEDUP %DISABLE                       {% ([d]) => ({ kind: 'dedup', pos: d.offset, enable: false, keys: [] }) %}
  | %SET %TTL ttlValue                    {% ([s, , v]) => ({ kind: 'set_ttl', pos: s.offset, count: v.count, unit: v.unit }) %}
  | %SET %PARAM param                     {% ([s, , p]) => ({ kind: 'set_param', pos: s.offset, name: p.name, value: p.value }) %}
  | %SET %TYPE %BYPASS:? %WAL             {% ([s, , b]) => ({ kind: 'set_type_wal', pos: s.offset, wal: b === null }) %}
partitionNames -> %string {% ([t]) => L.one(D.stringValue(t)) %} | partitionNames "," %string {% ([l, , t]) => L.add(l, D.stringValue(t)) %}
ttlValue -> %integer name {% ([n, u]) => D.ttl(n, n.text, u) %} | %duration {% ([d]) => D.ttl(d, d.text, null) %}

# Views (QuestDB 9): `CREATE [OR REPLACE] VIEW [IF NOT EXISTS] v AS (query)`, `ALTER VIEW v AS (query)`,
# `DROP VIEW [IF EXISTS] v`. The query's text is cut from the statement by the parser (parse.ts).
createView ->
    %CREATE orReplace:? %VIEW ifNotExists:? tableName %AS "(" query ")"
      {% ([c, r, , ine, n, , l, q, rp]) => D.createView(c, r !== null, ine !== null, false, n, l, q, rp) %}
  | %ALTER %VIEW tableName %AS "(" query ")"
      {% ([a, , n, , l, q, rp]) => D.createView(a, false, false, true, n, l, q, rp) %}
  # QuestDB's tests also write the query bare (`ALTER VIEW v AS SELECT ...`); a query in
  # parentheses is the form above (the bare rule rejects it)
  | %ALTER %VIEW tableName %AS query
      {% ([a, , n, as, q], _l, reject) => D.bareView(a, true, n, as, q) ?? reject %}
  | %CREATE orReplace:? %VIEW ifNotExists:? tableName %AS query
      {% ([c, r, , ine, n, as, q], _l, reject) => D.bareView(c, true, n, as, q, r !== null, ine !== null) ?? reject %}
orReplace -> %OR name {% ([, w], _l, reject) => w.name.toLowerCase() === 'replace' ? true : reject %}
dropView -> %DROP %VIEW ifExists:? tableName
  {% ([d, , ie, n]) => ({ kind: 'drop_view', pos: d.offset, name: n.name, namePos: n.pos, ifExists: ie !== null }) %}
