# DML: INSERT and UPDATE.
@lexer lexer

insert -> %INSERT %ATOMIC:? %INTO tableName ("(" nameList ")"):? insertSource
  {% ([i, a, , t, cols, source]) => ({ kind: 'insert', pos: i.offset, table: t.name, tablePos: t.pos, ...(cols === null ? {} : { columns: cols[1] }), source, atomic: a !== null }) %}
insertSource ->
    %VALUES valuesRow ("," valuesRow):* {% ([, h, t]) => ({ kind: 'values', rows: [h, ...t.map((x: any[]) => x[1])] }) %}
  | query                               {% ([q]) => ({ kind: 'query', query: q }) %}
valuesRow -> "(" exprList ")" {% ([, l]) => l %}

update -> %UPDATE tableName alias:? %SET assignment ("," assignment):* (%FROM tableRef join:*):? where:?
  {% ([u, t, a, , h, rest, from, where]) => ({
    kind: 'update', pos: u.offset, table: t.name, tablePos: t.pos, ...(a === null ? {} : { alias: a.name }),
    set: [h, ...rest.map((x: any[]) => x[1])],
    ...(from === null ? {} : { from: from[1] }), joins: from === null ? [] : from[2],
    ...(where === null ? {} : { where }),
  }) %}
assignment -> name "=" expr {% ([n, , value]) => ({ column: n.name, pos: n.pos, value }) %}
