/**
 * How both official clients' errors read (they share the shape of the Elastic transport):
 * ConnectionError / TimeoutError / NoLivingConnectionsError: unreachable; ResponseError with
 * status 401/403: bad credentials or missing privileges (connection errors, with the cluster's
 * reason); ProductNotSupportedError: the server is not Elasticsearch; other ResponseErrors: the
 * engine's reason (`search_phase_execution_exception` → the shard failure's own reason).
 */
import { type DriverErrors, errorMessage, tlsReason } from '../errors.js'

interface ErrorBody {
  error?: {
    type?: string
    reason?: string
    root_cause?: { type?: string; reason?: string }[]
    failed_shards?: { reason?: { type?: string; reason?: string; caused_by?: { reason?: string } } }[]
    caused_by?: { reason?: string }
  }
}

const name = (err: unknown) => (err as { name?: unknown } | null)?.name
const status = (err: unknown): number | undefined => {
  const meta = (err as { meta?: { statusCode?: unknown } } | null)?.meta
  return typeof meta?.statusCode === 'number' ? meta.statusCode : undefined
}
const body = (err: unknown): ErrorBody | undefined => {
  const b = (err as { meta?: { body?: unknown } } | null)?.meta?.body
  if (typeof b === 'string') {
    try {
      return JSON.parse(b) as ErrorBody
    } catch {
      return undefined
    }
  }
  return b !== null && typeof b === 'object' ? (b as ErrorBody) : undefined
}

/** The cluster's own reason: the shard failure's (search_phase_execution_exception), else the error's. */
export function reasonOf(err: unknown): string | undefined {
  const e = body(err)?.error
  if (e === undefined) return undefined
  const shard = e.failed_shards?.[0]?.reason
  const cause = shard?.caused_by?.reason ?? shard?.reason ?? e.root_cause?.[0]?.reason ?? e.caused_by?.reason
  const reason = e.type === 'search_phase_execution_exception' && cause ? cause : (e.reason ?? cause)
  return e.type === undefined ? reason : `${e.type}: ${reason ?? ''}`.trim()
}

const CONNECTION = new Set(['ConnectionError', 'NoLivingConnectionsError', 'ProductNotSupportedError', 'TimeoutError'])

export const SEARCH_ERRORS: DriverErrors = {
  // a search past its `timeout` answers timed_out: true (connector.ts); a client TimeoutError is our backstop
  isTimeout: (err) => name(err) === 'TimeoutError',
  isConnectionFailure: (err) => {
    const s = status(err)
    return CONNECTION.has(String(name(err))) || s === 401 || s === 403
  },
  message: (err) => {
    const s = status(err)
    const reason = reasonOf(err)
    if (reason !== undefined) return s === undefined ? reason : `${reason} (HTTP ${s})`
    // never a foreign body (an HTML proxy page): the status only
    return s === undefined ? errorMessage(err) : `HTTP ${s}`
  },
  connectionReason: (err, message) => {
    const s = status(err)
    if (s === 401) return `authentication failed: ${message}`
    if (s === 403) return `not authorised: ${message}`
    if (name(err) === 'ProductNotSupportedError') return 'the server is not Elasticsearch (product check failed)'
    const cause = (err as { cause?: unknown } | null)?.cause
    // a certificate the https server_url does not verify (docs/datasources.md#tls): the clients
    // keep Node's message and drop its code
    const tls = tlsReason(err)
    if (tls !== undefined) return tls
    const text = cause instanceof Error ? cause.message : errorMessage(err)
    if (CONNECTION.has(String(name(err))) && /certificate|altnames/i.test(text)) {
      return `TLS certificate verification failed: ${text}`
    }
    return cause instanceof Error ? `${message} (${cause.message})` : message
  },
}
