/**
 * mssql (tedious) errors → typed ApiErrors. ConnectionErrors carry ELOGIN/ETIMEOUT/ESOCKET…;
 * RequestErrors EREQUEST with the server's error `number`, or ECANCEL after request.cancel().
 */
import type { ApiError } from '../../errors.js'
import {
  connectionError,
  errorCode,
  errorMessage,
  networkReason,
  queryCancelled,
  queryError,
  queryTimeout,
  redact,
} from '../errors.js'

const CONNECTION_CODES = new Set(['ELOGIN', 'ESOCKET', 'ECONNCLOSED', 'EINSTLOOKUP', 'ENOTOPEN', 'ENOCONN'])
/** Server error numbers that mean the login or database is unusable. */
const CONNECTION_NUMBERS = new Set([
  4060, // cannot open database requested by the login
  18456, // login failed
  18452, // untrusted domain login
  916, // principal cannot access the database
])

export interface MssqlErrorContext {
  readonly timeoutMs?: number
  readonly timedOut?: boolean
  readonly aborted?: boolean
  readonly connecting?: boolean
  readonly secrets: readonly (string | undefined)[]
}

function inner(err: unknown): unknown {
  return (err as { originalError?: unknown } | null)?.originalError ?? err
}

export function isConnectionFailure(err: unknown): boolean {
  const code = errorCode(err)
  const number = (err as { number?: unknown } | null)?.number
  return (
    (code !== undefined && CONNECTION_CODES.has(code)) ||
    (typeof number === 'number' && CONNECTION_NUMBERS.has(number)) ||
    networkReason(inner(err)) !== undefined
  )
}

export function translateMssqlError(err: unknown, ctx: MssqlErrorContext): ApiError {
  const message = redact(errorMessage(err), ctx.secrets)
  if (ctx.aborted) return queryCancelled(err)
  const code = errorCode(err)
  if (ctx.connecting) {
    const reason = code === 'ETIMEOUT' ? `connection timed out (${message})` : (networkReason(inner(err)) ?? message)
    return connectionError(reason, err)
  }
  if (ctx.timeoutMs !== undefined && (ctx.timedOut || code === 'ECANCEL' || code === 'ETIMEOUT')) {
    return queryTimeout(ctx.timeoutMs, err)
  }
  if (isConnectionFailure(err)) return connectionError(networkReason(inner(err)) ?? message, err)
  return queryError(message, err)
}
