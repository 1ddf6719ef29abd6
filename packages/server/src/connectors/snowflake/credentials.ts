/** The credentials schema of `snowflake`: the fields, their docs and which are secret. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { choice, credentials, host, longText, password, text } from '../credentials/fields.js'
import type { CredentialRule } from '../credentials/rule-builders.js'

const { Optional } = Type

/** The credentials of `snowflake`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const snowflakeCredentials = credentials('Snowflake credentials', {
  host: host('Host', 'Account host, e.g. xy12345.eu-west-1.snowflakecomputing.com.'),
  username: text('Username', 'Snowflake user.'),
  role: text('Role', 'Role the session uses.'),
  warehouse: text('Warehouse', 'Virtual warehouse that runs the queries.'),
  database: text('Database', 'Database to connect to.'),
  schema: text('Schema', 'Default schema.'),
  service: choice(['username/password', 'Key-pair authentication'], 'Authentication', 'How the user authenticates.'),
  password: Optional(password('Password of the user. Required when service is username/password.')),
  privateKey: Optional(
    longText('Private key', 'PEM private key. Required when service is Key-pair authentication.', { secret: true }),
  ),
  privateKeyPass: Optional(text('Private key passphrase', 'Passphrase of an encrypted private key.', { secret: true })),
})

/** The authentication method's field. */
export const snowflakeRules: CredentialRule<Static<typeof snowflakeCredentials>> = {
  doc: [
    '`password` is required (non-empty) when `service` is `username/password`.',
    '`privateKey` is required when `service` is `Key-pair authentication`; `privateKeyPass` only when the key is encrypted.',
    'The field of the other method is accepted and ignored.',
  ],
  check: (c) => {
    if (c.service === 'username/password' && !c.password) {
      return { field: 'password', problem: 'is required when service is username/password' }
    }
    if (c.service === 'Key-pair authentication' && c.privateKey === undefined) {
      return { field: 'privateKey', problem: 'is required when service is Key-pair authentication' }
    }
    return undefined
  },
}
