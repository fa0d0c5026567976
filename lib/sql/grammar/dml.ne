# DML: INSERT and UPDATE.
@lexer lexer

insert -> %INSERT %ATOMIC:? %INTO tableName ("(" nameList ")"):? insertSource
  {% ([i, a, , t, cols, source]) => ({ kind: 'insert', pos: i.offset, table: t.name, tablePos: t.pos, ...(cols === null ? {} : { columns: cols[1] }), source, atomic: a !== null }) %}
insertSource ->
    %VALUES valuesRows                  {% ([, rows]) => ({ kind: 'values', rows }) %}
  | query                               {% ([q]) => ({ kind: 'query', query: q }) %}
valuesRows -> valuesRow {% ([r]) => L.one(r) %} | valuesRows "," valuesRow {% ([l, , r]) => L.add(l, r) %}
valuesRow -> "(" exprList ")" {% ([, l]) => l %}

update -> %UPDATE tableName alias:? %SET assignments (%FROM tableRef joins):? where:?
  {% ([u, t, a, , set, from, where]) => ({
    kind: 'update', pos: u.offset, table: t.name, tablePos: t.pos, ...(a === null ? {} : { alias: a.name }),
    set,
    ...(from === null ? {} : { from: from[1] }), joins: from === null ? [] : from[2],
    ...(where === null ? {} : { where }),
  }) %}
assignments -> assignment {% ([x]) => L.one(x) %} | assignments "," assignment {% ([l, , x]) => L.add(l, x) %}
assignment -> name "=" expr {% ([n, , value]) => ({ column: n.name, pos: n.pos, value }) %}
