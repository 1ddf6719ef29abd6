/** The credentials schema of `mongodb`: the fields, their docs and which are secret. */
import Type from 'typebox'
import { credentials, host, password, port, text } from '../credentials/fields.js'
import { ours } from '../credentials/shared-fields.js'

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
})
