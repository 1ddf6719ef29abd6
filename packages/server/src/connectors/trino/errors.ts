/**
 * Trino protocol failures → typed ApiErrors. A query's own failure is the QueryResults `error`
 * (errorName per https://trino.io/docs/current/admin/properties-query-management.html and
 * Trino's StandardErrorCode); transport failures are Node's fetch errors (the socket error is
 * the `cause`); a non-200 status is TrinoHttpError (401: the credentials).
 */
import { type DriverErrors, errorMessage, networkReason } from '../errors.js'
import { NotTrinoError, TrinoHttpError, TrinoQueryError } from './client.js'

/** query_max_execution_time (ours, set per query) or the cluster's own limits. */
const TIMEOUT_NAMES = new Set(['EXCEEDED_TIME_LIMIT', 'EXCEEDED_CPU_LIMIT', 'EXCEEDED_SCAN_LIMIT'])
/** The session names something that is not there, or the user may not use it. */
const CONNECTION_NAMES = new Set(['CATALOG_NOT_FOUND', 'SCHEMA_NOT_FOUND', 'PERMISSION_DENIED', 'SERVER_STARTING_UP'])

function socketReason(err: unknown): string | undefined {
  return networkReason(err) ?? networkReason((err as { cause?: unknown } | null)?.cause)
}

export function isConnectionFailure(err: unknown): boolean {
  if (err instanceof TrinoQueryError) return CONNECTION_NAMES.has(err.info.errorName ?? '')
  if (err instanceof TrinoHttpError) return err.status === 401 || err.status === 403 || err.status >= 500
  return err instanceof NotTrinoError || socketReason(err) !== undefined
}

function connectionReason(err: unknown, message: string): string {
  if (err instanceof TrinoHttpError && err.status === 401)
    return 'authentication failed (HTTP 401): check user and password'
  if (err instanceof TrinoHttpError && err.status === 403) return 'access denied (HTTP 403)'
  return socketReason(err) ?? message
}

export const TRINO_ERRORS: DriverErrors = {
  isTimeout: (err) => err instanceof TrinoQueryError && TIMEOUT_NAMES.has(err.info.errorName ?? ''),
  isConnectionFailure,
  message: (err) => (err instanceof TrinoQueryError ? (err.info.message ?? errorMessage(err)) : errorMessage(err)),
  connectionReason,
}
