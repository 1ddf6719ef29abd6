/** The credentials schemas of `postgres`, `redshift`, `cockroachdb`: one per type. */

import type { Static } from 'typebox'
import Type from 'typebox'
import { choice, credentials, flag, host, longText, password, port, text } from '../credentials/fields.js'
import { both, type CredentialRule, tlsRule } from '../credentials/rule-builders.js'
import { SILENT_VERIFY, tlsFields } from '../credentials/shared-fields.js'

const { Optional } = Type

/** postgres, redshift, cockroachdb: the same fields, engine-specific wording. */
const postgresFamily = (engine: string, defaultPort: number) =>
  credentials(`${engine} credentials`, {
    host: host('Host', `Hostname or IP address of the ${engine} server.`),
    port: port('Port', `TCP port of the ${engine} server (usually ${defaultPort}).`),
    username: text('Username', 'Database user.'),
    password: password('Password of the database user.'),
    database: text('Database', 'Database to connect to.'),
    schema: text('Schema', 'Default schema for introspection and queries.'),
    sslMode: Optional(
      flag('SSL', 'Connect over TLS: true is tlsMode verify (unless tlsMode says otherwise), false is tlsMode off.'),
    ),
    ...tlsFields(SILENT_VERIFY),
    sshTunnel: Optional(choice(['enable', 'disable'], 'SSH tunnel', 'Connect through an SSH bastion host.')),
    sshHost: Optional(host('SSH host', 'Bastion host. Required when sshTunnel is enable.')),
    sshPort: Optional(port('SSH port', 'Bastion SSH port (usually 22). Required when sshTunnel is enable.')),
    sshUsername: Optional(text('SSH username', 'User on the bastion host. Required when sshTunnel is enable.')),
    sshPrivateKey: Optional(
      longText('SSH private key', 'PEM private key for the bastion. Required when sshTunnel is enable.', {
        secret: true,
      }),
    ),
  })

/** The credentials of `postgres`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const postgresCredentials = postgresFamily('PostgreSQL', 5432)

/** The credentials of `redshift`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const redshiftCredentials = postgresFamily('Redshift', 5439)

/** The credentials of `cockroachdb`: the API validates them with this schema; docs/datasources.md and the studio's form are drawn from it. */
export const cockroachdbCredentials = postgresFamily('CockroachDB', 26257)

const SSH_FIELDS = ['sshHost', 'sshPort', 'sshUsername', 'sshPrivateKey'] as const

/** The SSH tunnel's fields, and the TLS fields (the same for the three types). */
export const postgresRules: CredentialRule<Static<typeof postgresCredentials>> = both<
  Static<typeof postgresCredentials>
>(
  {
    doc: ['`sshHost`, `sshPort`, `sshUsername` and `sshPrivateKey` are required when `sshTunnel` is `enable`.'],
    check: (c) => {
      if (c.sshTunnel !== 'enable') return undefined
      const missing = SSH_FIELDS.find((field) => c[field] === undefined)
      return missing && { field: missing, problem: 'is required when sshTunnel is enable' }
    },
  },
  tlsRule,
)
