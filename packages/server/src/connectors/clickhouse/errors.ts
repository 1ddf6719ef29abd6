/**
 * @clickhouse/client errors → typed ApiErrors. Server exceptions arrive as text beginning with
 * `Code: <n>` (newer servers add `(TYPE_NAME)`, which the client parses; 18.x does not, so the
 * code is read from the text here); transport failures are Node socket errors.
 */
import type { ApiError } from '../../errors.js'
import {
  connectionError,
  errorMessage,
  networkReason,
  queryCancelled,
  queryError,
  queryTimeout,
  redact,
} from '../errors.js'

const TIMEOUT_CODES = new Set([159]) // TIMEOUT_EXCEEDED
const CANCELLED_CODES = new Set([394]) // QUERY_WAS_CANCELLED (our KILL QUERY)
const CONNECTION_CODES = new Set([
  81, // UNKNOWN_DATABASE
  192, // UNKNOWN_USER
  193, // WRONG_PASSWORD
  194, // REQUIRED_PASSWORD
  195, // IP_ADDRESS_NOT_ALLOWED
  202, // TOO_MANY_SIMULTANEOUS_QUERIES
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  516, // AUTHENTICATION_FAILED
])

/** The server's exception code, from the client's parsed error or from the raw text. */
export function serverCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code)
  const m = /Code: (\d+)/.exec(errorMessage(err))
  return m?.[1] ? Number(m[1]) : undefined
}

/** `Code: 60, e.displayText() = DB::Exception: Table x doesn't exist., e.what() = …` → the middle. */
export function cleanMessage(message: string): string {
  const m = /DB::Exception: (.*?)(?:, e\.what\(\) = .*|\s*\(version .*\)\s*)?$/s.exec(message)
  return (m?.[1] ?? message).trim()
}

export interface ClickhouseErrorContext {
  readonly timeoutMs?: number
  readonly timedOut?: boolean
  readonly aborted?: boolean
  /** The request was still connecting (test(), server probe): every failure is a connection failure. */
  readonly connecting?: boolean
  readonly secrets: readonly (string | undefined)[]
}

export function isConnectionFailure(err: unknown): boolean {
  const code = serverCode(err)
  return (code !== undefined && CONNECTION_CODES.has(code)) || networkReason(err) !== undefined
}

/** The longest server text a connection error repeats. */
export const MAX_REASON_LENGTH = 200

/**
 * Why a connection failed, in the driver's terms: the socket error, or a ClickHouse exception
 * (cut to MAX_REASON_LENGTH). Any other answer is some other HTTP service's body (the client
 * reports a failed response's body as its message): never repeated, so that a datasource aimed
 * at an internal service cannot read it back through the error.
 */
function connectionReason(err: unknown, message: string): string {
  const network = networkReason(err)
  if (network !== undefined) return network
  if (serverCode(err) === undefined || !errorMessage(err).includes('DB::Exception')) {
    return 'the server did not answer as ClickHouse'
  }
  return message.length <= MAX_REASON_LENGTH ? message : `${message.slice(0, MAX_REASON_LENGTH - 1)}…`
}

export function translateClickhouseError(err: unknown, ctx: ClickhouseErrorContext): ApiError {
  const message = redact(cleanMessage(errorMessage(err)), ctx.secrets)
  if (ctx.aborted) return queryCancelled(err)
  const code = serverCode(err)
  if (ctx.timeoutMs !== undefined && !ctx.connecting) {
    if (ctx.timedOut || (code !== undefined && (TIMEOUT_CODES.has(code) || CANCELLED_CODES.has(code)))) {
      return queryTimeout(ctx.timeoutMs, err)
    }
  }
  if (ctx.timedOut && ctx.connecting) return connectionError(`no answer within ${ctx.timeoutMs} ms`, err)
  if (ctx.connecting || isConnectionFailure(err)) return connectionError(connectionReason(err, message), err)
  return queryError(message, err)
}
