/**
 * mysql2 errors → typed ApiErrors. Server errors carry `errno` (and usually a `code` name);
 * socket errors a Node code.
 */
import type { ApiError } from '../../errors.js'
import {
  type DriverErrors,
  errorCode,
  networkReason,
  type TranslationContext,
  translateDriverError,
} from '../errors.js'

/** Server errors that mean the connection or the credentials are unusable. */
const CONNECTION_ERRNOS = new Set([
  1044, // ER_DBACCESS_DENIED_ERROR
  1045, // ER_ACCESS_DENIED_ERROR
  1049, // ER_BAD_DB_ERROR
  1040, // ER_CON_COUNT_ERROR
  1129, // ER_HOST_IS_BLOCKED
  1130, // ER_HOST_NOT_PRIVILEGED
  1203, // ER_TOO_MANY_USER_CONNECTIONS
  1251, // ER_NOT_SUPPORTED_AUTH_MODE
  1698, // ER_ACCESS_DENIED_NO_PASSWORD_ERROR
  1862, // ER_MUST_CHANGE_PASSWORD_LOGIN
  2013, // CR_SERVER_LOST
])

const CONNECTION_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'HANDSHAKE_NO_SSL_SUPPORT',
  'HANDSHAKE_SSL_ERROR',
])

const TIMEOUT_ERRNOS = new Set([
  1969, // MariaDB ER_STATEMENT_TIMEOUT: max_statement_time exceeded
  3024, // MySQL ER_QUERY_TIMEOUT: max_execution_time exceeded
  1317, // ER_QUERY_INTERRUPTED: our KILL QUERY after the deadline
])

function errno(err: unknown): number | undefined {
  const n = (err as { errno?: unknown } | null)?.errno
  return typeof n === 'number' ? n : undefined
}

export function isConnectionFailure(err: unknown): boolean {
  const n = errno(err)
  if (n !== undefined && CONNECTION_ERRNOS.has(n)) return true
  const code = errorCode(err)
  if (code !== undefined && CONNECTION_CODES.has(code)) return true
  return networkReason(err) !== undefined || (err as { fatal?: unknown } | null)?.fatal === true
}

export const MYSQL_ERRORS: DriverErrors = {
  isTimeout: (err) => {
    const n = errno(err)
    return n !== undefined && TIMEOUT_ERRNOS.has(n)
  },
  isConnectionFailure,
}

/** With `connecting: true` (a pool's connect), every failure is a connection failure. */
export function translateMysqlError(err: unknown, ctx: TranslationContext): ApiError {
  return translateDriverError(err, ctx, MYSQL_ERRORS)
}
