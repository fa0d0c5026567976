# Utility statements: SHOW, EXPLAIN, transactions, SET, and statements recognised only to be
@lexer lexer
# refused (kind 'unsupported').

utility -> show {% id %} | explain {% id %} | transaction {% id %} | setStatement {% id %} | cancelQuery {% id %} | compileView {% id %} | unsupported {% id %}

# QuestDB 9's COMPILE VIEW v: checks the view's query now (its status in views())
compileView -> %COMPILE %VIEW tableName {% ([c, , n]) => ({ kind: 'compile_view', pos: c.offset, name: n.name, namePos: n.pos }) %}

show ->
    %SHOW %TABLES                       {% ([s]) => ({ kind: 'show', pos: s.offset, what: 'tables' }) %}
  | %SHOW %COLUMNS %FROM tableName      {% ([s, , , t]) => ({ kind: 'show', pos: s.offset, what: 'columns', table: t.name, tablePos: t.pos }) %}
  | %SHOW %PARTITIONS %FROM tableName   {% ([s, , , t]) => ({ kind: 'show', pos: s.offset, what: 'partitions', table: t.name, tablePos: t.pos }) %}
  | %SHOW %CREATE %TABLE tableName      {% ([s, , , t]) => ({ kind: 'show', pos: s.offset, what: 'create_table', table: t.name, tablePos: t.pos }) %}
  | %SHOW %CREATE %VIEW tableName       {% ([s, , , t]) => ({ kind: 'show', pos: s.offset, what: 'create_view', table: t.name, tablePos: t.pos }) %}
  | %SHOW %CREATE %MATERIALIZED %VIEW tableName {% ([s, , , , t]) => ({ kind: 'show', pos: s.offset, what: 'create_mat_view', table: t.name, tablePos: t.pos }) %}
  | %SHOW showWhat                      {% ([s, w]) => ({ kind: 'show', pos: s.offset, what: w }) %}
  | %SHOW showParameter                 {% ([s, name]) => ({ kind: 'show', pos: s.offset, what: 'parameter', name }) %}
showWhat -> %PARAMETERS {% () => 'parameters' %}
# `SHOW server_version`, `SHOW TIME ZONE`, `SHOW transaction isolation level`: names lower-cased.
showParameter ->
    idents                   {% ([ws]) => L.deferred(() => S.words(L.toArray(ws))) %}
  | %TIME %ZONE              {% () => 'timezone' %}
  | %TRANSACTION             {% () => 'transaction' %}
  | %TRANSACTION idents      {% ([t, ws]) => L.deferred(() => S.words([t, ...L.toArray(ws)])) %}
idents -> %ident {% ([t]) => L.one(t) %} | idents %ident {% ([l, t]) => L.add(l, t) %}

explain -> %EXPLAIN explainFormat:? statement {% ([e, f, statement]) => ({ kind: 'explain', pos: e.offset, statement, ...(f === null ? {} : { format: f }) }) %}
explainFormat -> "(" %FORMAT name ")" {% ([, , n]) => S.explainFormat(n) %}

# QuestDB's CANCEL QUERY id (an id from query_activity())
cancelQuery ->
    %CANCEL %QUERY (%integer | %long)      {% ([c, , [n]]) => S.cancelQuery(c, n) %}
  | %CANCEL %QUERY "-" (%integer | %long)  {% ([c, , m, [n]]) => S.cancelQuery(c, n, m) %}

transaction ->
    %BEGIN txWord:?          {% ([t]) => S.transaction(t, 'begin') %}
  | %START %TRANSACTION      {% ([t]) => S.transaction(t, 'begin') %}
  | %COMMIT txWord:?         {% ([t]) => S.transaction(t, 'commit') %}
  | %END txWord:?            {% ([t]) => S.transaction(t, 'commit') %}
  | %ROLLBACK txWord:?       {% ([t]) => S.transaction(t, 'rollback') %}
  | %ABORT txWord:?          {% ([t]) => S.transaction(t, 'rollback') %}
txWord -> %TRANSACTION {% id %} | %WORK {% id %}

setStatement ->
    %SET name ("." name):? setAssign anyTokens  {% ([s, a, b, , v]) => L.deferred(() => S.set(s, dotted(a, b === null ? null : b[1]).name, L.toArray(v))) %}
  | %SET %TIME %ZONE anyTokens                  {% ([s, , , v]) => L.deferred(() => S.set(s, 'timezone', L.toArray(v))) %}
  | %SET %SESSION %CHARACTERISTICS %AS anyTokens {% ([s, , , , v]) => L.deferred(() => S.set(s, 'session characteristics', L.toArray(v))) %}
# One or more tokens of any kind (a Seq), and zero or more (`[]` or a Seq).
anyTokens -> %t_any {% ([t]) => L.one(t) %} | anyTokens %t_any {% ([l, t]) => L.add(l, t) %}
restTokens -> null {% () => [] %} | restTokens %t_any {% ([l, t]) => L.add(l.length === 0 ? null : l, t) %}
setAssign -> "=" {% id %} | %TO {% id %}

unsupported ->
    %DELETE restTokens                  {% ([t]) => S.unsupported(t, 'DELETE') %}
  # `DECLARE name CURSOR ...` (PostgreSQL); `DECLARE @x := ...` is QuestDB's (grammar/declare.ne)
  | %DECLARE name restTokens            {% ([t, n, rest], _l, reject) => n.name.toLowerCase() === 'overridable' ? reject : L.deferred(() => S.unsupported(t, S.hasWord(L.toArray(rest), 'cursor') ? 'DECLARE CURSOR' : 'DECLARE')) %}
  | %FETCH restTokens                   {% ([t]) => S.unsupported(t, 'FETCH') %}
  | %MOVE restTokens                    {% ([t]) => S.unsupported(t, 'MOVE') %}
  | %CLOSE restTokens                   {% ([t]) => S.unsupported(t, 'CLOSE') %}
  | %COPY tableName %FROM restTokens    {% ([t]) => S.unsupported(t, 'COPY') %}
  | %CREATE %INDEX restTokens           {% ([t]) => S.unsupported(t, 'CREATE INDEX') %}
