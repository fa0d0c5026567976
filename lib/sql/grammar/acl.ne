# Access-control statements (QuestDB Enterprise's RBAC): users, groups with external aliases,
# service accounts, GRANT/REVOKE and their SHOW statements. One statement kind, 'acl', told
# apart by `action` (lib/sql/ast-acl.ts). Names may be bare, "quoted" or 'strings'.
@lexer lexer

acl ->
    %CREATE %USER ifNotExists:? aclName withPassword:?
      {% ([c, , ine, name, pw]) => ({ kind: 'acl', pos: c.offset, action: 'create_user', name, ifNotExists: ine !== null, ...(pw === null || pw.password === undefined ? {} : { password: pw.password, passwordPos: pw.pos }) }) %}
  | %ALTER %USER aclName alterAccount                 {% ([a, , name, alter]) => ({ kind: 'acl', pos: a.offset, action: 'alter_user', name, alter }) %}
  | %ALTER %SERVICE %ACCOUNT aclName alterAccount     {% ([a, , , name, alter]) => ({ kind: 'acl', pos: a.offset, action: 'alter_service_account', name, alter }) %}
  | %DROP %USER ifExists:? aclName                    {% ([d, , ie, name]) => ({ kind: 'acl', pos: d.offset, action: 'drop_user', name, ifExists: ie !== null }) %}
  | %DROP %GROUP ifExists:? aclName                   {% ([d, , ie, name]) => ({ kind: 'acl', pos: d.offset, action: 'drop_group', name, ifExists: ie !== null }) %}
  | %DROP %SERVICE %ACCOUNT ifExists:? aclName        {% ([d, , , ie, name]) => ({ kind: 'acl', pos: d.offset, action: 'drop_service_account', name, ifExists: ie !== null }) %}
  | %CREATE %GROUP ifNotExists:? aclName externalAlias:?
      {% ([c, , ine, name, alias]) => ({ kind: 'acl', pos: c.offset, action: 'create_group', name, ifNotExists: ine !== null, ...(alias === null ? {} : { alias }) }) %}
  | %ALTER %GROUP aclName externalAlias               {% ([a, , name, alias]) => ({ kind: 'acl', pos: a.offset, action: 'alter_group', name, alter: 'add_alias', alias }) %}
  | %ALTER %GROUP aclName %DROP %EXTERNAL %ALIAS aclName {% ([a, , name, , , , alias]) => ({ kind: 'acl', pos: a.offset, action: 'alter_group', name, alter: 'drop_alias', alias }) %}
  | %ADD %USER aclName %TO aclNames                   {% ([a, , user, , groups]) => ({ kind: 'acl', pos: a.offset, action: 'add_user', user, groups }) %}
  | %REMOVE %USER aclName %FROM aclNames              {% ([r, , user, , groups]) => ({ kind: 'acl', pos: r.offset, action: 'remove_user', user, groups }) %}
  | %CREATE %SERVICE %ACCOUNT ifNotExists:? aclName (%OWNED %BY aclName):?
      {% ([c, , , ine, name, o]) => ({ kind: 'acl', pos: c.offset, action: 'create_service_account', name, ifNotExists: ine !== null, ...(o === null ? {} : { owner: o[2] }) }) %}
  | %ASSUME %SERVICE %ACCOUNT aclName                 {% ([a, , , name]) => ({ kind: 'acl', pos: a.offset, action: 'assume_service_account', name }) %}
  | %EXIT %SERVICE %ACCOUNT aclName:?                 {% ([e, , , name]) => ({ kind: 'acl', pos: e.offset, action: 'exit_service_account', ...(name === null ? {} : { name }) }) %}
  | %GRANT permissionList grantOn:? %TO aclName grantOption:? withVerification:?
      {% ([g, permissions, on, , to, go, v]) => ({ kind: 'acl', pos: g.offset, action: 'grant', permissions, on: on ?? { kind: 'database' }, to, grantOption: go !== null, verification: v !== null }) %}
  | %REVOKE permissionList grantOn:? %FROM aclName
      {% ([r, permissions, on, , from]) => ({ kind: 'acl', pos: r.offset, action: 'revoke', permissions, on: on ?? { kind: 'database' }, from }) %}
  | %GRANT %ASSUME %SERVICE %ACCOUNT aclName %TO aclName grantOption:?
      {% ([g, , , , account, , to, go]) => ({ kind: 'acl', pos: g.offset, action: 'grant_assume', account, to, grantOption: go !== null }) %}
  | %REVOKE %ASSUME %SERVICE %ACCOUNT aclName %FROM aclName
      {% ([r, , , , account, , from]) => ({ kind: 'acl', pos: r.offset, action: 'revoke_assume', account, from }) %}
  | %SHOW %USERS                                      {% ([s]) => ({ kind: 'acl', pos: s.offset, action: 'show_users' }) %}
  | %SHOW %USER aclName:?                             {% ([s, , name]) => ({ kind: 'acl', pos: s.offset, action: 'show_user', ...(name === null ? {} : { name }) }) %}
  | %SHOW %GROUPS aclName:?                           {% ([s, , name]) => ({ kind: 'acl', pos: s.offset, action: 'show_groups', ...(name === null ? {} : { name }) }) %}
  | %SHOW %SERVICE %ACCOUNTS aclName:?                {% ([s, , , name]) => ({ kind: 'acl', pos: s.offset, action: 'show_service_accounts', ...(name === null ? {} : { name }) }) %}
  | %SHOW %SERVICE %ACCOUNT aclName:?                 {% ([s, , , name]) => ({ kind: 'acl', pos: s.offset, action: 'show_service_account', ...(name === null ? {} : { name }) }) %}
  | %SHOW %PERMISSIONS aclName:?                      {% ([s, , name]) => ({ kind: 'acl', pos: s.offset, action: 'show_permissions', ...(name === null ? {} : { name }) }) %}

# A principal or alias name: bare, "quoted" or 'string'.
aclName -> name {% ([n]) => A.aclName(n) %} | %string {% ([t]) => A.aclName(nameOf(t)) %}
aclNames -> aclName {% ([n]) => L.one(n) %} | aclNames "," aclName {% ([l, , n]) => L.add(l, n) %}

externalAlias -> %WITH %EXTERNAL %ALIAS aclName {% ([, , , a]) => a %}

withPassword ->
    %WITH %PASSWORD %string    {% ([, , p]) => A.password(p) %}
  | %WITH %NO %PASSWORD        {% () => A.password(null) %}

alterAccount ->
    %ENABLE                    {% () => ({ change: 'enable' }) %}
  | %DISABLE                   {% () => ({ change: 'disable' }) %}
  | withPassword               {% ([p]) => (p.password === undefined ? { change: 'no_password' } : { change: 'password', password: p.password, passwordPos: p.pos }) %}
  | %CREATE %TOKEN %TYPE name (%WITH %TTL tokenTtl):? %REFRESH:?
      {% ([, , , type, ttl, r]) => A.createToken(type, ttl === null ? null : ttl[2], r !== null) %}
  | %DROP %TOKEN %TYPE name %string:?   {% ([, , , type, tok]) => A.dropToken(type, tok) %}
tokenTtl -> %string {% id %} | %duration {% id %}

# Permissions are words (`SELECT`, `CREATE TABLE`, `DATABASE ADMIN`), checked when the statement runs.
permissionList -> permission {% ([p]) => L.one(p) %} | permissionList "," permission {% ([l, , p]) => L.add(l, p) %}
permission -> permissionWords {% ([w]) => A.permission(w) %}
permissionWords -> %t_permWord {% ([t]) => L.one(t) %} | permissionWords %t_permWord {% ([l, t]) => L.add(l, t) %}

grantOn ->
    %ON %ALL %TABLES           {% () => ({ kind: 'all_tables' }) %}
  | %ON grantTables            {% ([, l]) => A.onTables(l) %}
grantTables -> grantTable {% ([t]) => L.one(t) %} | grantTables "," grantTable {% ([l, , t]) => L.add(l, t) %}
grantTable -> tableName ("(" nameList ")"):? {% ([t, c]) => A.tableTarget(t, c === null ? null : c[1]) %}
  | tableName "(" "*" (%EXCLUDE "(" nameList ")"):? ")" {% ([t, , star, x]) => A.tableWildcard(t, star, x === null ? null : x[2]) %}

grantOption -> %WITH %GRANT %OPTION {% id %}
withVerification -> %WITH %VERIFICATION {% id %}
