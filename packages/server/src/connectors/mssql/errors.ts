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
import { EncryptionRefused } from './encryption-guard.js'

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

/** The first error along the wrappers (mssql's `originalError`, tedious's `cause`) that `test` picks. */
function along(err: unknown, test: (e: unknown) => boolean): unknown {
  for (let e = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; depth++) {
    if (test(e)) return e
    const wrapper = e as { originalError?: unknown; cause?: unknown }
    e = wrapper.originalError ?? wrapper.cause
  }
  return undefined
}

/** Why a connect failed over encryption, in our settings' words; undefined when it did not. */
function encryptionReason(err: unknown): string | undefined {
  const refused = along(err, (e) => e instanceof EncryptionRefused)
  if (refused instanceof EncryptionRefused) return refused.message
  // tedious with encrypt off, to a server that requires encryption
  if (along(err, (e) => errorCode(e) === 'EENCRYPT') !== undefined)
    return 'the server requires encryption: set tlsMode to verify (or required)'
  return undefined
}

export const MSSQL_ERRORS: DriverErrors = {
  // ECANCEL: our request.cancel() at the deadline; ETIMEOUT: the driver's own request timeout.
  isTimeout: (err) => errorCode(err) === 'ECANCEL' || errorCode(err) === 'ETIMEOUT',
  isConnectionFailure,
  connectionReason: (err, message, connecting) =>
    encryptionReason(err) ??
    (connecting && errorCode(err) === 'ETIMEOUT'
      ? `connection timed out (${message})`
      : (networkReason(inner(err)) ?? message)),
}

/** With `connecting: true` (a pool's connect), every failure is a connection failure. */
export function translateMssqlError(err: unknown, ctx: TranslationContext): ApiError {
  return translateDriverError(err, ctx, MSSQL_ERRORS)
}
