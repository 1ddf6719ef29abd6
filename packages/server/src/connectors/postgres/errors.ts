/**
 * node-postgres errors → typed ApiErrors. Server errors carry a SQLSTATE `code`; socket errors a
 * Node code; pool and protocol failures only a message.
 */
import type { ApiError } from '../../errors.js'
import {
  type DriverErrors,
  errorCode,
  errorMessage,
  networkReason,
  type TranslationContext,
  translateDriverError,
} from '../errors.js'

/** SQLSTATEs that mean "you cannot use this connection/database", not "your query is wrong". */
const CONNECTION_STATES = new Set([
  '28000', // invalid_authorization_specification
  '28P01', // invalid_password
  '3D000', // invalid_catalog_name: the database does not exist
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
])

const CONNECTION_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /connection timeout/i,
  /server does not support ssl/i,
  /the server does not support ssl/i,
  /self[- ]signed certificate/i,
  /password authentication failed/i,
  /SASL/,
  /Client has encountered a connection error/i,
]

export function isConnectionFailure(err: unknown): boolean {
  const code = errorCode(err)
  if (code !== undefined && (CONNECTION_STATES.has(code) || code.startsWith('08'))) return true
  if (networkReason(err) !== undefined) return true
  // Errors raised by pg itself (no SQLSTATE) while connecting or after the socket died.
  const isSqlState = code !== undefined && /^[0-9A-Z]{5}$/.test(code)
  return !isSqlState && CONNECTION_MESSAGES.some((re) => re.test(errorMessage(err)))
}

export const PG_ERRORS: DriverErrors = {
  isTimeout: (err) => errorCode(err) === '57014', // query_canceled: statement_timeout (or our cancel)
  isConnectionFailure,
}

export function translatePgError(err: unknown, ctx: TranslationContext): ApiError {
  return translateDriverError(err, ctx, PG_ERRORS)
}
