/**
 * @google-cloud/bigquery errors → typed ApiErrors. The API answers errors in Google's format
 * (`{ error: { code, message, errors: [{ reason, message }] } }`,
 * https://cloud.google.com/bigquery/docs/error-messages), which the SDK turns into an ApiError
 * with `code` (HTTP status) and `errors`; the OAuth token endpoint answers `{ error,
 * error_description }` (RFC 6749 §5.2), which google-auth-library reports as a GaxiosError with
 * `response.data`. Network failures carry Node's socket code, on the error or its `cause`.
 */
import { type DriverErrors, errorMessage, networkReason } from '../errors.js'

interface GoogleError {
  readonly code?: unknown
  readonly errors?: readonly { readonly reason?: unknown; readonly message?: unknown }[]
  readonly response?: { readonly status?: unknown; readonly data?: unknown }
  readonly cause?: unknown
}

/** BigQuery's error reason (invalidQuery, accessDenied, notFound, stopped …), if any. */
export function reasonOf(err: unknown): string | undefined {
  const reason = (err as GoogleError | null)?.errors?.[0]?.reason
  return typeof reason === 'string' ? reason : undefined
}

/** The OAuth error (invalid_grant …) of a refused token request, if this is one. */
function oauthError(err: unknown): { error: string; description?: string } | undefined {
  const data = (err as GoogleError | null)?.response?.data as
    | { error?: unknown; error_description?: unknown }
    | undefined
  if (typeof data?.error !== 'string') return undefined
  return {
    error: data.error,
    ...(typeof data.error_description === 'string' ? { description: data.error_description } : {}),
  }
}

function httpStatus(err: unknown): number | undefined {
  const e = err as GoogleError | null
  const status = typeof e?.code === 'number' ? e.code : e?.response?.status
  return typeof status === 'number' ? status : undefined
}

/** A socket-level failure, read from the error or its cause (fetch wraps them). */
function network(err: unknown): string | undefined {
  return networkReason(err) ?? networkReason((err as GoogleError | null)?.cause)
}

/** 403 reasons that are about load, not about the credentials: the query failed, the connection did not. */
const QUOTA_REASONS = new Set(['quotaExceeded', 'rateLimitExceeded', 'billingNotEnabled', 'responseTooLarge'])

export function isConnectionFailure(err: unknown): boolean {
  if (network(err) !== undefined || oauthError(err) !== undefined) return true
  const status = httpStatus(err)
  if (status === 401) return true
  if (status === 403) return !QUOTA_REASONS.has(reasonOf(err) ?? '')
  // an HTTP answer that is not Google's error format: something else answered
  return status !== undefined && reasonOf(err) === undefined
}

/** The longest server text a connection error repeats. */
const MAX_REASON_LENGTH = 200

function connectionReason(err: unknown, message: string): string {
  const net = network(err)
  if (net !== undefined) return net
  const oauth = oauthError(err)
  if (oauth !== undefined) {
    return `the token endpoint refused the service account key: ${oauth.error}${oauth.description ? ` (${oauth.description})` : ''}`
  }
  const status = httpStatus(err)
  if (status !== undefined && reasonOf(err) === undefined) {
    // never repeat another service's body (an endpoint aimed at an internal service)
    return `the endpoint did not answer as the BigQuery API (HTTP ${status})`
  }
  return message.length <= MAX_REASON_LENGTH ? message : `${message.slice(0, MAX_REASON_LENGTH - 1)}…`
}

export const BIGQUERY_ERRORS: DriverErrors = {
  // jobTimeoutMs exceeded: the job stops with "Job execution was cancelled: Job timed out after …"
  isTimeout: (err) => reasonOf(err) === 'timeout' || /\btimed out\b/i.test(errorMessage(err)),
  isConnectionFailure,
  message: (err) => {
    const first = (err as GoogleError | null)?.errors?.[0]?.message
    return typeof first === 'string' ? first : errorMessage(err)
  },
  connectionReason: (err, message) => connectionReason(err, message),
}
