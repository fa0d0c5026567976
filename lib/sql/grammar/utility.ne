# Utility statements: SHOW, EXPLAIN, transactions, SET, and statements recognised only to be
@lexer lexer
# refused (kind 'unsupported').

utility -> show {% id %} | explain {% id %} | transaction {% id %} | setStatement {% id %} | unsupported {% id %}

show ->
    %SHOW %TABLES                       {% ([s]) => ({ kind: 'show', pos: s.offset, what: 'tables' }) %}
  | %SHOW %COLUMNS %FROM tableName      {% ([s, , , t]) => ({ kind: 'show', pos: s.offset, what: 'columns', table: t.name, tablePos: t.pos }) %}
  | %SHOW %PARTITIONS %FROM tableName   {% ([s, , , t]) => ({ kind: 'show', pos: s.offset, what: 'partitions', table: t.name, tablePos: t.pos }) %}
  | %SHOW %CREATE %TABLE tableName      {% ([s, , , t]) => ({ kind: 'show', pos: s.offset, what: 'create_table', table: t.name, tablePos: t.pos }) %}
  | %SHOW showWhat                      {% ([s, w]) => ({ kind: 'show', pos: s.offset, what: w }) %}
  | %SHOW showParameter                 {% ([s, name]) => ({ kind: 'show', pos: s.offset, what: 'parameter', name }) %}
showWhat -> %USER {% () => 'user' %} | %USERS {% () => 'users' %} | %GROUPS {% () => 'groups' %} | %PARAMETERS {% () => 'parameters' %}
# `SHOW server_version`, `SHOW TIME ZONE`, `SHOW transaction isolation level`: names lower-cased.
showParameter ->
    %ident:+                 {% ([ws]) => S.words(ws) %}
  | %TIME %ZONE              {% () => 'timezone' %}
  | %TRANSACTION %ident:*    {% ([t, ws]) => S.words([t, ...ws]) %}

explain -> %EXPLAIN explainFormat:? statement {% ([e, f, statement]) => ({ kind: 'explain', pos: e.offset, statement, ...(f === null ? {} : { format: f }) }) %}
explainFormat -> "(" %FORMAT name ")" {% ([, , n]) => S.explainFormat(n) %}

transaction ->
    %BEGIN txWord:?          {% ([t]) => S.transaction(t, 'begin') %}
  | %START %TRANSACTION      {% ([t]) => S.transaction(t, 'begin') %}
  | %COMMIT txWord:?         {% ([t]) => S.transaction(t, 'commit') %}
  | %END txWord:?            {% ([t]) => S.transaction(t, 'commit') %}
  | %ROLLBACK txWord:?       {% ([t]) => S.transaction(t, 'rollback') %}
  | %ABORT txWord:?          {% ([t]) => S.transaction(t, 'rollback') %}
txWord -> %TRANSACTION {% id %} | %WORK {% id %}

setStatement ->
    %SET name ("." name):? setAssign %t_any:+  {% ([s, a, b, , v]) => S.set(s, dotted(a, b === null ? null : b[1]).name, v) %}
  | %SET %TIME %ZONE %t_any:+                  {% ([s, , , v]) => S.set(s, 'timezone', v) %}
  | %SET %SESSION %CHARACTERISTICS %AS %t_any:+ {% ([s, , , , v]) => S.set(s, 'session characteristics', v) %}
setAssign -> "=" {% id %} | %TO {% id %}

unsupported ->
    %DELETE %t_any:*                  {% ([t]) => S.unsupported(t, 'DELETE') %}
  | %DECLARE %t_any:*                 {% ([t, rest]) => S.unsupported(t, S.hasWord(rest, 'cursor') ? 'DECLARE CURSOR' : 'DECLARE') %}
  | %FETCH %t_any:*                   {% ([t]) => S.unsupported(t, 'FETCH') %}
  | %MOVE %t_any:*                    {% ([t]) => S.unsupported(t, 'MOVE') %}
  | %CLOSE %t_any:*                   {% ([t]) => S.unsupported(t, 'CLOSE') %}
  | %COPY %t_any:*                    {% ([t]) => S.unsupported(t, 'COPY') %}
  | %CREATE %INDEX %t_any:*           {% ([t]) => S.unsupported(t, 'CREATE INDEX') %}
  | %CREATE %VIEW %t_any:*            {% ([t]) => S.unsupported(t, 'CREATE VIEW') %}
  | %CREATE %MATERIALIZED %VIEW %t_any:* {% ([t]) => S.unsupported(t, 'CREATE MATERIALIZED VIEW') %}
