/**
 * The permissions an access-control statement needs (CREATE USER, DATABASE ADMIN, ...), checked
 * before it runs like any statement's. What depends on who runs it is checked when it runs
 * (execute.ts, show.ts): GRANT/REVOKE need the grant option on what they grant; ASSUME SERVICE
 * ACCOUNT needs that account's ASSUME grant; one's own details (SHOW USER, SHOW PERMISSIONS) and
 * REST tokens need nothing, another's USER DETAILS, CREATE REST TOKEN or DROP REST TOKEN.
 */
import type { AclStatement } from '../../sql/ast-acl.js'
import type { RequiredPermission } from '../../statement-info.js'

const need = (permission: string): RequiredPermission[] => [{ permission }]

/** What `stmt` requires of the principal that runs it. */
export function aclStatementPermissions(stmt: AclStatement): RequiredPermission[] {
  switch (stmt.action) {
    case 'create_user': return stmt.password === undefined ? need('CREATE USER') : [{ permission: 'CREATE USER' }, { permission: 'ADD PASSWORD' }]
    case 'drop_user': return need('DROP USER')
    case 'alter_user': case 'alter_service_account':
      switch (stmt.alter.change) {
        case 'enable': return need('ENABLE USER')
        case 'disable': return need('DISABLE USER')
        case 'password': return need('ADD PASSWORD')
        case 'no_password': return need('REMOVE PASSWORD')
        default: return []
      }
    case 'create_group': return stmt.alias === undefined ? need('CREATE GROUP') : [{ permission: 'CREATE GROUP' }, { permission: 'ADD EXTERNAL ALIAS' }]
    case 'alter_group': return need(stmt.alter === 'add_alias' ? 'ADD EXTERNAL ALIAS' : 'REMOVE EXTERNAL ALIAS')
    case 'drop_group': return need('DROP GROUP')
    case 'add_user': return need('ADD USER')
    case 'remove_user': return need('REMOVE USER')
    case 'create_service_account': return need('CREATE SERVICE ACCOUNT')
    case 'drop_service_account': return need('DROP SERVICE ACCOUNT')
    case 'show_users': return need('LIST USERS')
    case 'show_service_accounts': return stmt.name === undefined ? need('LIST USERS') : []
    case 'show_groups': return []
    case 'assume_service_account': case 'exit_service_account':
    case 'grant': case 'revoke': case 'grant_assume': case 'revoke_assume':
    case 'show_user': case 'show_service_account': case 'show_permissions':
      return []
  }
}
