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

/**
 * How one driver's errors read: the only part of translation that differs between engines.
 * Each family's `errors.ts` defines one; `translateDriverError` applies the common order.
 */
export interface DriverErrors {
  /** The engine stopped the statement at its own time limit (statement_timeout, max_statement_time …). */
  isTimeout(err: unknown): boolean
  /** The connection or the credentials are unusable (not the query): the connection is dropped too. */
  isConnectionFailure(err: unknown): boolean
  /** The engine's message, cleaned of echoes (default: the error's message). Redacted afterwards. */
  message?(err: unknown): string
  /** Why the connection failed (default: the socket-level reason, else the message). */
  connectionReason?(err: unknown, message: string, connecting: boolean): string
}

export interface TranslationContext {
  /** The statement's time limit; without it no error is read as a timeout. */
  readonly timeoutMs?: number
  /** Our own deadline fired (the server's limit did not answer first). */
  readonly timedOut?: boolean
  /** The caller's AbortSignal fired. */
  readonly aborted?: boolean
  /** Still connecting (a pool's connect, a server probe): every failure is a connection failure. */
  readonly connecting?: boolean
  /** Values never repeated in a message (the password). */
  readonly secrets: readonly (string | undefined)[]
}

/**
 * A driver error → the typed ApiError, in one order for every engine: a cancel the caller asked
 * for, our deadline, a failure while connecting, the engine's own time limit, an unusable
 * connection, and otherwise the engine's message as QUERY_ERROR. The driver error is the cause.
 */
export function translateDriverError(err: unknown, ctx: TranslationContext, driver: DriverErrors): ApiError {
  if (ctx.aborted) return queryCancelled(err)
  if (ctx.timedOut && ctx.timeoutMs !== undefined) {
    return ctx.connecting
      ? connectionError(`no answer within ${ctx.timeoutMs} ms`, err)
      : queryTimeout(ctx.timeoutMs, err)
  }
  const message = redact(driver.message?.(err) ?? errorMessage(err), ctx.secrets)
  const connecting = ctx.connecting === true
  const tls = tlsReason(err)
  if (tls !== undefined) return connectionError(tls, err)
  if (!connecting && ctx.timeoutMs !== undefined && driver.isTimeout(err)) return queryTimeout(ctx.timeoutMs, err)
  if (connecting || driver.isConnectionFailure(err)) {
    return connectionError(driver.connectionReason?.(err, message, connecting) ?? networkReason(err) ?? message, err)
  }
  return queryError(message, err)
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

/** Node's codes of a server certificate that fails verification (OpenSSL's names, and Node's own). */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

/**
 * A readable reason when `err` (or what it wraps) is a TLS failure:
 * a certificate that fails verification (docs/datasources.md#tls), or a handshake that failed.
 */
export function tlsReason(err: unknown): string | undefined {
  for (let e = err, depth = 0; e !== null && typeof e === 'object' && depth < 3; depth++) {
    const code = errorCode(e)
    if (code !== undefined && CERTIFICATE_CODES.has(code)) {
      return `TLS certificate verification failed (${code}): ${errorMessage(e)}`
    }
    if (code?.startsWith('ERR_SSL_')) return `TLS handshake failed (${code}): ${errorMessage(e)}`
    // mysql2 replaces the code of any TLS failure with its own; Node's message stays
    if (code === 'HANDSHAKE_SSL_ERROR') {
      const message = errorMessage(e)
      return /certificate|altnames/i.test(message)
        ? `TLS certificate verification failed: ${message}`
        : `TLS handshake failed: ${message}`
    }
    // fetch puts the socket's error in `cause`; mssql keeps tedious's error in `originalError`
    const wrapper = e as { cause?: unknown; originalError?: unknown }
    e = wrapper.originalError ?? wrapper.cause
  }
  return undefined
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
