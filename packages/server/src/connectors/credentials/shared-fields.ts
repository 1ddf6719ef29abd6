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

/** What the connector does when the credentials name no TLS mode (shared/tls.ts resolveTlsMode, silentTlsMode). */
export const SILENT_VERIFY =
  'off when sslMode is false; otherwise verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.'
export const SILENT_VERIFY_NO_SSLMODE =
  'verify, except off for a loopback host (localhost, 127.0.0.0/8, ::1) and for a datasource saved before TLS was verified by default.'

/** The hosted API's four fields of mysql, mongodb, clickhouse (and singlestore). */
export const serverFields = (engine: string) => ({
  host: host('Host', `Hostname or IP address of the ${engine} server.`),
  port: port('Port', `TCP port of the ${engine} server.`),
  user: text('User', 'Database user.'),
  password: password('Password of the database user.'),
})
