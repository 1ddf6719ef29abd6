/**
 * @clickhouse/client errors → typed ApiErrors. Server exceptions arrive as text beginning with
 * `Code: <n>` (newer servers add `(TYPE_NAME)`, which the client parses; 18.x does not, so the
 * code is read from the text here); transport failures are Node socket errors.
 */
import type { ApiError } from '../../errors.js'
import {
  type DriverErrors,
  errorMessage,
  networkReason,
  type TranslationContext,
  translateDriverError,
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

export const CLICKHOUSE_ERRORS: DriverErrors = {
  isTimeout: (err) => {
    const code = serverCode(err)
    return code !== undefined && (TIMEOUT_CODES.has(code) || CANCELLED_CODES.has(code))
  },
  isConnectionFailure,
  message: (err) => cleanMessage(errorMessage(err)),
  connectionReason: (err, message) => connectionReason(err, message),
}

/** With `connecting: true` (test(), the server probe), every failure is a connection failure. */
export function translateClickhouseError(err: unknown, ctx: TranslationContext): ApiError {
  return translateDriverError(err, ctx, CLICKHOUSE_ERRORS)
}
