/**
 * mssql (tedious) errors → typed ApiErrors. ConnectionErrors carry ELOGIN/ETIMEOUT/ESOCKET…;
 * RequestErrors EREQUEST with the server's error `number`, or ECANCEL after request.cancel().
 */
import type { ApiError } from '../../errors.js'
import {
  type DriverErrors,
  errorCode,
  networkReason,
  type TranslationContext,
  translateDriverError,
} from '../errors.js'

const CONNECTION_CODES = new Set(['ELOGIN', 'ESOCKET', 'ECONNCLOSED', 'EINSTLOOKUP', 'ENOTOPEN', 'ENOCONN'])
/** Server error numbers that mean the login or database is unusable. */
const CONNECTION_NUMBERS = new Set([
  4060, // cannot open database requested by the login
  18456, // login failed
  18452, // untrusted domain login
  916, // principal cannot access the database
])

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

export const MSSQL_ERRORS: DriverErrors = {
  // ECANCEL: our request.cancel() at the deadline; ETIMEOUT: the driver's own request timeout.
  isTimeout: (err) => errorCode(err) === 'ECANCEL' || errorCode(err) === 'ETIMEOUT',
  isConnectionFailure,
  connectionReason: (err, message, connecting) =>
    connecting && errorCode(err) === 'ETIMEOUT'
      ? `connection timed out (${message})`
      : (networkReason(inner(err)) ?? message),
}

/** With `connecting: true` (a pool's connect), every failure is a connection failure. */
export function translateMssqlError(err: unknown, ctx: TranslationContext): ApiError {
  return translateDriverError(err, ctx, MSSQL_ERRORS)
}
