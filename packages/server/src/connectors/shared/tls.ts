/**
 * TLS to the servers we connect to (docs/datasources.md#tls). Every type that speaks TCP names
 * its fields the same way: `tlsMode` (off, required, verify), `tlsCaCertificate` (PEM, for a
 * private CA), `tlsClientCertificate` and `tlsClientKey` (PEM, client authentication; the key
 * is a secret). HTTP engines take `tlsCaCertificate` only.
 *
 * - off: plain TCP.
 * - required: encrypted, the server's certificate is not checked (anyone on the path can
 *   present one): an explicit opt-out.
 * - verify: encrypted, the chain must lead to a trusted CA (the CA field, else Node's public
 *   roots) and the certificate must name the host of the credentials.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { isIP } from 'node:net'
import { type ConnectionOptions, checkServerIdentity, type PeerCertificate } from 'node:tls'

export const TLS_MODES = ['off', 'required', 'verify'] as const
export type TlsMode = (typeof TLS_MODES)[number]

/**
 * What credentials that name no TLS mode get, recorded on each datasource row when it is
 * created: `verify` for every datasource created since TLS became verified by default
 * (`off` still for a loopback host, whose traffic never leaves the machine), `off` for one
 * created before (it connected in plain text and keeps doing so until its credentials name a
 * mode). Connectors built without a row (tests, a probe) get `verify`.
 */
export const SILENT_TLS_POLICIES = ['off', 'verify'] as const
export type SilentTlsPolicy = (typeof SILENT_TLS_POLICIES)[number]

/** `localhost`, 127.0.0.0/8, ::1 (also as an IPv4-mapped address): a connection that stays on the machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
  if (h === 'localhost' || h.endsWith('.localhost')) return true
  if (isIP(h) === 4) return h.startsWith('127.')
  if (isIP(h) === 6) {
    if (h === '::1' || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(h)) return true
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h)
    return mapped?.[1]?.startsWith('127.') === true
  }
  return false
}

/**
 * The mode silent credentials get on a type that encrypts by choice (postgres family, mysql,
 * singlestore): `off` under the legacy policy or for a loopback host, else `verify`.
 */
export function silentTlsMode(host: string, policy: SilentTlsPolicy | undefined): TlsMode {
  if (policy === 'off' || isLoopbackHost(host)) return 'off'
  return 'verify'
}

/** The TLS fields of a credentials object (all optional). */
export interface TlsFields {
  readonly tlsMode?: TlsMode
  readonly tlsCaCertificate?: string
  readonly tlsClientCertificate?: string
  readonly tlsClientKey?: string
}

/**
 * The mode in force: `tlsMode` when given; else verify when any other TLS field asks for TLS
 * (`sslMode: true`, a CA or client certificate); else the type's default for credentials that
 * say nothing.
 */
export function resolveTlsMode(c: TlsFields & { readonly sslMode?: boolean }, whenSilent: TlsMode): TlsMode {
  if (c.tlsMode !== undefined) return c.tlsMode
  if (c.sslMode === false) return 'off'
  if (c.sslMode === true || c.tlsCaCertificate !== undefined || c.tlsClientCertificate !== undefined) return 'verify'
  return whenSilent
}

/**
 * Node's TLS options for `mode`, or undefined for off. `host` is the host of the credentials:
 * the certificate must name it even when the socket goes elsewhere (an SSH tunnel's local end).
 */
export function tlsConnectionOptions(c: TlsFields, mode: TlsMode, host: string): ConnectionOptions | undefined {
  if (mode === 'off') return undefined
  const verify = mode === 'verify'
  return {
    rejectUnauthorized: verify,
    ...(c.tlsCaCertificate === undefined ? {} : { ca: c.tlsCaCertificate }),
    ...(c.tlsClientCertificate === undefined ? {} : { cert: c.tlsClientCertificate }),
    ...(c.tlsClientKey === undefined ? {} : { key: c.tlsClientKey }),
    ...(isIP(host) === 0 ? { servername: host } : {}),
    checkServerIdentity: verify
      ? (_socketHost: string, cert: PeerCertificate) => checkServerIdentity(host, cert)
      : () => undefined,
  }
}

/** Only the CA (HTTP engines): undefined when the credentials carry none. */
export function caOptions(c: Pick<TlsFields, 'tlsCaCertificate'>): { ca: string } | undefined {
  return c.tlsCaCertificate === undefined ? undefined : { ca: c.tlsCaCertificate }
}

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

/** Why a PEM field is unusable (a problem for the field's message), or undefined when it is fine. */
export function pemProblem(kind: 'certificate' | 'private key', text: string): string | undefined {
  if (kind === 'certificate') {
    const blocks = text.match(CERTIFICATE_BLOCK)
    if (!blocks) return 'must be a PEM certificate (-----BEGIN CERTIFICATE-----)'
    for (const block of blocks) {
      try {
        new X509Certificate(block)
      } catch {
        return 'must be a PEM certificate: a certificate block could not be read'
      }
    }
    return undefined
  }
  try {
    createPrivateKey(text)
    return undefined
  } catch {
    return 'must be an unencrypted PEM private key'
  }
}

/** The TLS fields' checks: the first unusable PEM, or a client certificate without its key (or the reverse). */
export function tlsFieldProblem(c: TlsFields): { field: string; problem: string } | undefined {
  const checks: [keyof TlsFields, 'certificate' | 'private key'][] = [
    ['tlsCaCertificate', 'certificate'],
    ['tlsClientCertificate', 'certificate'],
    ['tlsClientKey', 'private key'],
  ]
  for (const [field, kind] of checks) {
    const value = c[field]
    const problem = value === undefined ? undefined : pemProblem(kind, value)
    if (problem) return { field, problem }
  }
  if ((c.tlsClientCertificate === undefined) !== (c.tlsClientKey === undefined)) {
    const missing = c.tlsClientCertificate === undefined ? 'tlsClientCertificate' : 'tlsClientKey'
    const other = missing === 'tlsClientKey' ? 'tlsClientCertificate' : 'tlsClientKey'
    return { field: missing, problem: `is required with ${other}` }
  }
  return undefined
}
