/**
 * Field groups that several types' credential schemas share: the TLS fields, the CA field, the
 * four server fields, and the mark of a field that is our addition to the hosted API. Each type's
 * own schema is in its folder (`connectors/<folder>/credentials.ts`).
 */
import Type from 'typebox'
import { TLS_MODES } from '../shared/tls.js'
import { choice, host, longText, password, port, text } from './fields.js'

const { Optional } = Type
/** Marks a field that is our addition to the hosted API's fields. */
export const ours = { addition: true } as const

/**
 * The CA field (docs/datasources.md#tls): every type that connects over TLS to a server the
 * company runs, TCP or HTTP.
 */
export const tlsCa = () =>
  Optional(
    longText(
      'TLS CA certificate',
      "PEM certificate(s) of the CA that signs the server's certificate (a private CA); without it, the public roots.",
      ours,
    ),
  )

/** TLS of the engines we reach over TCP: one naming for every type (shared/tls.ts). */
export const tlsFields = (whenSilent: string) => ({
  tlsMode: Optional(
    choice(
      TLS_MODES,
      'TLS mode',
      `off: plain TCP; required: encrypted, the certificate is not checked; verify: encrypted, the certificate must chain to a trusted CA and name the host. Default: ${whenSilent}`,
      ours,
    ),
  ),
  tlsCaCertificate: tlsCa(),
  tlsClientCertificate: Optional(
    longText(
      'TLS client certificate',
      'PEM client certificate, for servers that authenticate clients by certificate.',
      ours,
    ),
  ),
  tlsClientKey: Optional(
    longText('TLS client key', 'PEM private key (unencrypted) of tlsClientCertificate.', { secret: true, ...ours }),
  ),
})

/** What the connector does when the credentials name no TLS field (shared/tls.ts resolveTlsMode). */
export const SILENT_OFF =
  'verify when sslMode is true or a CA or client certificate is given; off when nothing is said.'
export const SILENT_OFF_NO_SSLMODE = 'verify when a CA or client certificate is given; off when nothing is said.'

/** The hosted API's four fields of mysql, mongodb, clickhouse (and singlestore). */
export const serverFields = (engine: string) => ({
  host: host('Host', `Hostname or IP address of the ${engine} server.`),
  port: port('Port', `TCP port of the ${engine} server.`),
  user: text('User', 'Database user.'),
  password: password('Password of the database user.'),
})
