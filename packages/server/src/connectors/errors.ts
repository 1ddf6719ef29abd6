/**
 * The typed errors every connector throws. Each family's `errors.ts` classifies its driver's
 * errors and builds them with these constructors, so codes, statuses and wording stay the same
 * across engines. The driver error is always kept as `cause`; a message never carries a password.
 */
import { ApiError } from '../errors.js'

/** Unreachable host, DNS failure, refused or timed-out connection, bad credentials, missing database. */
export function connectionError(reason: string, cause?: unknown): ApiError {
  return new ApiError(
    'DATASOURCE_CONNECTION_ERROR',
    400,
    `Could not connect to the datasource: ${reason}`,
    undefined,
    cause === undefined ? undefined : { cause },
  )
}

/** The engine rejected or failed the query; the message is the engine's own. */
export function queryError(message: string, cause?: unknown): ApiError {
  return new ApiError(
    'QUERY_ERROR',
    400,
    `The query failed: ${message}`,
    undefined,
    cause === undefined ? undefined : { cause },
  )
}

/** The query ran past its time limit and was cancelled (on the database side too). */
export function queryTimeout(timeoutMs: number, cause?: unknown): ApiError {
  return new ApiError(
    'QUERY_TIMEOUT',
    400,
    `The query did not finish within ${timeoutMs} ms and was cancelled`,
    undefined,
    cause === undefined ? undefined : { cause },
  )
}

/** The caller's AbortSignal fired: the query was cancelled on request. */
export function queryCancelled(cause?: unknown): ApiError {
  return queryError('the query was cancelled', cause)
}

export function notSupported(message: string): ApiError {
  return new ApiError('DATASOURCE_NOT_SUPPORTED', 400, message)
}

/** Node's socket-level error codes: the host could not be reached or the connection broke. */
const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  EADDRNOTAVAIL: 'address not available',
  ERR_SOCKET_CONNECTION_TIMEOUT: 'connection timed out',
}

/** A readable reason when `err` is a socket-level failure, else undefined. */
export function networkReason(err: unknown): string | undefined {
  const code = errorCode(err)
  if (code === undefined) return undefined
  const reason = NETWORK_CODES[code]
  if (reason === undefined) return undefined
  const e = err as { address?: unknown; port?: unknown; hostname?: unknown }
  const where =
    typeof e.address === 'string'
      ? ` (${e.address}${typeof e.port === 'number' ? `:${e.port}` : ''})`
      : typeof e.hostname === 'string'
        ? ` (${e.hostname})`
        : ''
  return `${reason}${where}`
}

export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}

/**
 * Removes a secret from a driver message before it reaches a response or a log. Drivers do not
 * echo passwords, but connection strings in exotic messages could; short secrets are skipped
 * because replacing one or two characters everywhere would garble the message for nothing.
 */
export function redact(message: string, secrets: readonly (string | undefined)[]): string {
  let out = message
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}
