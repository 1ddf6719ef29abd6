/** The credentials schema of `mssql`: the fields, their docs and which are secret. */
import Type from 'typebox'
import { credentials, flag, host, password, port, text } from '../credentials/fields.js'
import { tlsFields } from '../credentials/shared-fields.js'

const { Optional } = Type

/** The credentials of `mssql`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const mssqlCredentials = credentials('SQL Server credentials', {
  server: host('Server', 'Hostname or IP address of the SQL Server.'),
  port: port('Port', 'TCP port of the SQL Server (usually 1433).'),
  user: text('User', 'SQL login.'),
  password: password('Password of the SQL login.'),
  database: Optional(text('Database', 'Database to connect to (else the login default).')),
  isDisableDatabase: Optional(flag('Disable database', 'Ignore `database`: use the login default database.')),
  readOnlyIntent: Optional(flag('Read-only intent', 'Connect with ApplicationIntent=ReadOnly (read replicas).')),
  ...tlsFields('verify.'),
})
