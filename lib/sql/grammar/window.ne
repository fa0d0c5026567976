# Window functions: OVER (...) / OVER w, named windows, frames.
@lexer lexer

over ->
    %OVER "(" windowSpec ")" {% ([o, , s]) => ({ ...s, pos: o.offset }) %}
  | %OVER name               {% ([o, n]) => E.windowSpec(o.offset, n, null, null, null) %}

# `[base] [PARTITION BY ...] [ORDER BY ...] [frame]`; `over` / `namedWindow` set its `pos`.
windowSpec -> name:? partitionBy:? orderBy:? frame:? {% (d) => E.windowSpec(-1, d[0], d[1], d[2], d[3]) %}

partitionBy -> %PARTITION %BY exprList {% ([, , l]) => l %}

frame ->
    frameUnits %BETWEEN frameBound %AND frameBound frameExclude:? {% ([u, , s, , e, x]) => E.frame(u, s, e, x) %}
  | frameUnits frameBound frameExclude:?                         {% ([u, s, x]) => E.frame(u, s, { kind: 'current row' }, x) %}
  | %CUMULATIVE {% ([t]) => E.frame({ ...t, type: 'ROWS' }, { kind: 'unbounded preceding' }, { kind: 'current row' }, null) %}
frameUnits -> %ROWS {% id %} | %RANGE {% id %} | %GROUPS {% id %}
frameBound ->
    %UNBOUNDED %PRECEDING {% () => ({ kind: 'unbounded preceding' }) %}
  | %UNBOUNDED %FOLLOWING {% () => ({ kind: 'unbounded following' }) %}
  | %CURRENT %ROW         {% () => ({ kind: 'current row' }) %}
  | exprAdd name:? boundDir {% ([e, u, dir]) => E.offsetBound(e, u, dir) %}
boundDir -> %PRECEDING {% id %} | %FOLLOWING {% id %}
frameExclude -> %EXCLUDE %CURRENT %ROW {% (d) => d %} | %EXCLUDE %NO %OTHERS {% (d) => d %}

namedWindow -> name %AS "(" windowSpec ")" {% ([n, , , s]) => ({ name: n.name, spec: { ...s, pos: n.pos } }) %}
