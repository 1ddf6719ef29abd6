/**
 * `mongodb` driver errors → typed ApiErrors. Read by name and code (no import of the driver, so
 * this module loads nothing): server errors carry MongoDB's numeric `code`; failures to reach or
 * log in to the server surface as MongoServerSelectionError / MongoNetwork* errors, or as the
 * AuthenticationFailed (18) server error.
 */
import { type DriverErrors, errorMessage, networkReason, tlsReason } from '../errors.js'

/** MaxTimeMSExpired: the server stopped the aggregate at our maxTimeMS. */
const TIME_LIMIT_CODES = new Set([50])
/** AuthenticationFailed, MechanismUnavailable. */
const AUTH_CODES = new Set([18, 334])
const CONNECTION_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
])

const nameOf = (err: unknown) => (err as { name?: unknown } | null)?.name
const codeOf = (err: unknown) => {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'number' ? code : undefined
}
/** A server selection error keeps the last connection failure of the server as its `cause`/`reason`. */
function causeOf(err: unknown): unknown {
  const e = err as { cause?: unknown; reason?: { servers?: Map<string, { error?: unknown }> } } | null
  if (e?.cause !== undefined) return e.cause
  for (const server of e?.reason?.servers?.values() ?? []) if (server.error) return server.error
  return undefined
}

export function isConnectionFailure(err: unknown): boolean {
  const code = codeOf(err)
  return (
    CONNECTION_ERRORS.has(String(nameOf(err))) ||
    (code !== undefined && AUTH_CODES.has(code)) ||
    networkReason(err) !== undefined
  )
}

function connectionReason(err: unknown, message: string): string {
  const cause = causeOf(err)
  const inner = cause === undefined ? undefined : errorMessage(cause)
  if (codeOf(err) === 18 || codeOf(cause) === 18) return 'authentication failed (wrong user or password)'
  // a certificate refused (docs/datasources.md#tls): the network error's own cause says why
  const tls = tlsReason(err) ?? tlsReason(cause)
  if (tls !== undefined) return tls
  return networkReason(err) ?? networkReason(cause) ?? inner ?? message
}

export const MONGODB_ERRORS: DriverErrors = {
  isTimeout: (err) => {
    const code = codeOf(err)
    return (code !== undefined && TIME_LIMIT_CODES.has(code)) || nameOf(err) === 'MongoOperationTimeoutError'
  },
  isConnectionFailure,
  connectionReason: (err, message) => connectionReason(err, message),
}
