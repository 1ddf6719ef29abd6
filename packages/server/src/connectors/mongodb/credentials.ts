/** The credentials schema of `mongodb`: the fields, their docs and which are secret. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { credentials, host, password, port, text } from '../credentials/fields.js'
import { both, type CredentialRule, caRule } from '../credentials/rule-builders.js'
import { ours, tlsCa } from '../credentials/shared-fields.js'
import { connectionStringProblem } from './connection-string.js'

const { Optional } = Type

/** The credentials of `mongodb`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const mongodbCredentials = credentials('MongoDB credentials', {
  host: Optional(
    host('Host', 'Hostname or IP address of the MongoDB server. Required unless connectionString is given.'),
  ),
  port: Optional(port('Port', 'TCP port of the MongoDB server. Required unless connectionString is given.')),
  user: Optional(text('User', 'Database user. Required unless connectionString is given.')),
  password: Optional(password('Password of the database user.')),
  authSource: Optional(
    text(
      'Authentication database',
      "Database the user was created in (default `admin`, or the connection string's).",
      ours,
    ),
  ),
  connectionString: Optional(
    text(
      'Connection string',
      'A mongodb:// or mongodb+srv:// URI with its options (tls, authSource, replicaSet …), as MongoDB Atlas shows it; read by the driver.',
      { secret: true, addition: true, maxLength: 4000 },
    ),
  ),
  // a connection string cannot name the CA (tlsCAFile would read this server's disk): it goes here, and turns TLS on
  tlsCaCertificate: tlsCa(),
})

/** A connection string, or host, port and user. */
const connectionRules: CredentialRule<Static<typeof mongodbCredentials>> = {
  doc: [
    'Either `connectionString`, or `host`, `port` and `user`: `host` and `port` are refused beside a connection string.',
    '`connectionString` must be a `mongodb://` or `mongodb+srv://` URI the MongoDB driver parses (its options included).',
    'A connection string naming a file of the server (`tlsCAFile`, `tlsCertificateKeyFile`, `tlsCRLFile`) or an `authMechanism` other than SCRAM or PLAIN (`MONGODB-AWS`, `MONGODB-OIDC`, `GSSAPI`, `MONGODB-X509` would use what the server holds) is refused.',
    '`user`, `password` and `authSource`, given beside a connection string, take precedence over the ones in it.',
  ],
  check: (c) => {
    if (c.connectionString !== undefined) {
      for (const field of ['host', 'port'] as const) {
        if (c[field] !== undefined) return { field, problem: 'is not allowed beside connectionString' }
      }
      const problem = connectionStringProblem(c.connectionString)
      return problem ? { field: 'connectionString', problem } : undefined
    }
    for (const field of ['host', 'port', 'user'] as const) {
      if (c[field] === undefined) return { field, problem: 'is required unless connectionString is given' }
    }
    return undefined
  },
}

/** The connection rules, then the CA's. */
export const mongodbRules = both<Static<typeof mongodbCredentials>>(connectionRules, caRule)
