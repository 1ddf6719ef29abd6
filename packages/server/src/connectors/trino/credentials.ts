/** The credentials schema of `trino`: the fields, their docs and which are secret. */
import Type from 'typebox'
import { credentials, flag, host, password, port, text } from '../credentials/fields.js'
import { tlsCa } from '../credentials/shared-fields.js'

const { Optional } = Type

/** The credentials of `trino`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const trinoCredentials = credentials('Trino credentials', {
  host: host('Host', 'Hostname or IP address of the Trino coordinator.'),
  port: port('Port', 'TCP port of the coordinator (usually 8080, or 443 with TLS).'),
  user: text('User', 'Trino user.'),
  password: Optional(password('Password, for password authentication (Trino accepts it over https only).')),
  catalog: text('Catalog', 'Catalog to query.'),
  schema: Optional(text('Schema', 'Default schema.')),
  ssl: Optional(flag('SSL', 'Use https (the certificate is verified).')),
  tlsCaCertificate: tlsCa(),
})
