/** The credentials schemas of `mysql`, `singlestore`: one per type. */
import Type from 'typebox'
import { credentials, text } from '../credentials/fields.js'
import { ours, SILENT_VERIFY_NO_SSLMODE, serverFields, tlsFields } from '../credentials/shared-fields.js'

const { Optional } = Type

/** The credentials of `mysql`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const mysqlCredentials = credentials('MySQL credentials', {
  ...serverFields('MySQL'),
  database: Optional(text('Database', 'Default database (else every database the user can reach).', ours)),
  ...tlsFields(SILENT_VERIFY_NO_SSLMODE),
})

/** The credentials of `singlestore`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const singlestoreCredentials = credentials('SingleStore credentials', {
  ...serverFields('SingleStore'),
  database: text('Database', 'Database to connect to.'),
  ...tlsFields(SILENT_VERIFY_NO_SSLMODE),
})
