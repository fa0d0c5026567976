# Materialized views (QuestDB 9): CREATE / REFRESH / DROP / ALTER MATERIALIZED VIEW.
# BASE, IMMEDIATE, MANUAL, EVERY, DEFERRED, INCREMENTAL, PERIOD, LENGTH and DELAY are names checked by build/matview.ts.
@lexer lexer

matView -> createMatView {% id %} | refreshMatView {% id %} | dropMatView {% id %} | alterMatView {% id %}

createMatView ->
    %CREATE %MATERIALIZED %VIEW ifNotExists:? tableName matBase:? matRefresh:? %AS "(" query ")" matPartition:?
      {% ([c, , , ine, n, b, r, , l, q, rp, p], _l, reject) => M.createMatView(c, ine !== null, n, b, r, l, q, rp, p) ?? reject %}
  | %CREATE %MATERIALIZED %VIEW ifNotExists:? tableName matBase:? matRefresh:? %AS query
      {% ([c, , , ine, n, b, r, as, q], _l, reject) => M.createMatView(c, ine !== null, n, b, r, as, q, null, null) ?? reject %}
matBase -> %WITH name tableName {% ([, w, t], _l, reject) => M.isWord(w, 'base') ? t : reject %}
matRefresh ->
    %REFRESH name name:? matPeriod:?                  {% ([, k, d, p], _l, reject) => M.refreshKind(k, d, p) ?? reject %}
  | %REFRESH name %duration name:? (%START %string):? (%TIME %ZONE %string):? matPeriod:? {% ([, e, i, d, s, z, p], _l, reject) => M.refreshEvery(e, i, d, s, z, p) ?? reject %}
  | %REFRESH matPeriod                                {% ([, p]) => ({ kind: 'immediate', deferred: false, period: p }) %}
# PERIOD (LENGTH 1d [TIME ZONE 'Europe/London'] [DELAY 2h]) or PERIOD (SAMPLE BY INTERVAL); PERIOD, LENGTH, DELAY and INTERVAL are names
matPeriod -> name "(" name %duration (%TIME %ZONE %string):? (name %duration):? ")"
      {% ([p, , l, len, z, d], _l, reject) => M.period(p, l, len, z, d) ?? reject %}
  | name "(" %SAMPLE %BY name ")"
      {% ([p, , , , i], _l, reject) => M.isWord(p, 'period') && M.isWord(i, 'interval') ? { pos: p.pos } : reject %}
matPartition -> %PARTITION %BY name ttl:? {% ([t, , unit, ttl]) => D.partitionOpt(t, unit, ttl, null) %}

refreshMatView ->
    %REFRESH %MATERIALIZED %VIEW tableName %FULL
      {% ([r, , , n]) => ({ kind: 'mat_view', op: 'refresh', pos: r.offset, name: n.name, namePos: n.pos, mode: 'full' }) %}
  | %REFRESH %MATERIALIZED %VIEW tableName name
      {% ([r, , , n, w], _l, reject) => M.isWord(w, 'incremental') ? { kind: 'mat_view', op: 'refresh', pos: r.offset, name: n.name, namePos: n.pos, mode: 'incremental' } : reject %}
  | %REFRESH %MATERIALIZED %VIEW tableName %RANGE %FROM %string %TO %string
      {% ([r, , , n, , , a, , b]) => ({ kind: 'mat_view', op: 'refresh', pos: r.offset, name: n.name, namePos: n.pos, mode: 'range', from: D.stringValue(a), to: D.stringValue(b) }) %}

dropMatView -> %DROP %MATERIALIZED %VIEW ifExists:? tableName
  {% ([d, , , ie, n]) => ({ kind: 'mat_view', op: 'drop', pos: d.offset, name: n.name, namePos: n.pos, ifExists: ie !== null }) %}

alterMatView ->
    %ALTER %MATERIALIZED %VIEW tableName %SET %TTL ttlValue
      {% ([a, , , n, s, , v]) => ({ kind: 'mat_view', op: 'alter', pos: a.offset, name: n.name, namePos: n.pos, action: { kind: 'set_ttl', pos: s.offset, count: v.count, unit: v.unit } }) %}
  | %ALTER %MATERIALIZED %VIEW tableName %SET %REFRESH %LIMIT ttlValue
      {% ([a, , , n, s, , , v]) => ({ kind: 'mat_view', op: 'alter', pos: a.offset, name: n.name, namePos: n.pos, action: { kind: 'set_refresh_limit', pos: s.offset, count: v.count, unit: v.unit } }) %}
  | %ALTER %MATERIALIZED %VIEW tableName %SET %REFRESH %LIMIT name
      {% ([, , , , , , , w]) => M.badLimit(w) %}
  | %ALTER %MATERIALIZED %VIEW tableName %SET matRefresh
      {% ([a, , , n, s, r]) => ({ kind: 'mat_view', op: 'alter', pos: a.offset, name: n.name, namePos: n.pos, action: { kind: 'set_refresh', pos: s.offset, refresh: r } }) %}
