/**
 * The error catalogue. Every failure the API returns is an ApiError, mapped once to
 * `{ error: { code, message } }` by the error-handler plugin. docs/errors.md lists every code.
 */
export const ERROR_CODES = [
  // the hosted API's codes (docs/errors.md)
  'INVALID_REQUEST_BODY',
  'AUTHENTICATION_ERROR',
  'AUTHENTICATION_ERR',
  'AUTH_ERROR',
  'INVALID_DATA_APP_API_KEY',
  'UNAUTHORIZED',
  'INVALID_WORKSPACE_NAME',
  'WORKSPACE_ID_ERROR',
  'INVALID_DASHBOARD_ID',
  'TEMPLATE_DASHBOARD_ERROR',
  'INVALID_METRIC_ID',
  'EMBED_NOT_FOUND',
  'INVALID_EMBED_ID',
  'EMBED_PARAM_ERROR',
  'INVALID_DATAMART',
  'INSUFFICIENT_PERMISSIONS',
  'INVALID_ACCESS_SETTINGS',
  'CONFLICTING_UPDATE',
  'RATE_LIMIT_EXCEEDED',
  'DATA_APP_NOT_FOUND',
  'DATASOURCE_NAME_ERROR',
  'DATAMART_NAME_ERROR',
  'DATASOURCE_ID_ERROR',
  'WORKSPACE_DOES_NOT_EXIST',
  'INVALID_DATASOURCE_NAME',
  'INVALID_DATAMART_NAME',
  'RESET_PASSWORD_ERROR',
  'SELFHOSTED_APP_ERROR',
  'INTERNAL_SERVER_ERROR',
  // codes the hosted service's own documentation names where the API left the code open
  // (guest tokens, metric queries; docs/errors.md)
  'APP_FILTER_PARAM_ERROR',
  'RLS_SETTINGS_PARAM_ERROR',
  'CLIENT_ID_ERROR',
  'DASHBOARD_PARAM_ERROR',
  // administration (docs/administration.md)
  'INVALID_REQUEST',
  'USER_NOT_FOUND',
  'INVALID_CREDENTIALS',
  'DATA_APP_ALREADY_EXISTS',
  // ours: transport-level failures the hosted API leaves open
  'NOT_FOUND',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'SERVICE_UNAVAILABLE',
  // email reports (docs/runtime-api.md#email-reports)
  'EMAIL_NOT_CONFIGURED',
  'EMAIL_SEND_FAILED',
  // connectors
  'DATASOURCE_CONNECTION_ERROR',
  'DATASOURCE_NOT_SUPPORTED',
  'QUERY_TIMEOUT',
  'QUERY_ERROR',
  // AI pilot (docs/runtime-api.md#ai-pilot)
  'AI_NOT_CONFIGURED',
  'AI_PROVIDER_ERROR',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** How an auth hook answers a missing or bad credential; endpoints differ (docs/api.md#token-kinds-per-route-group). */
export interface AuthFailure {
  readonly code: Extract<
    ErrorCode,
    'AUTHENTICATION_ERROR' | 'AUTHENTICATION_ERR' | 'AUTH_ERROR' | 'INVALID_DATA_APP_API_KEY'
  >
  readonly status: 400 | 401
}

export const badRequest = (message: string, details?: Record<string, unknown>): ApiError =>
  new ApiError('INVALID_REQUEST_BODY', 400, message, details)

/**
 * A refusal the guest token's own claims cause, whatever the request says: an RLS variable it
 * gives no value, a token filter that names no filter or holds no valid value. Answered as the
 * same 4xx as any other; told apart so that the AI pilot answers it at once (the token's 400,
 * as `/preview` answers it) instead of asking the model again: no answer of the model can fix it.
 */
export class TokenRefusal extends ApiError {}

/** Runs `fn`; a 4xx ApiError it throws becomes the token's refusal (same code, status, message). */
export function blamingToken<T>(fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (err instanceof ApiError && err.status < 500 && !(err instanceof TokenRefusal)) {
      throw new TokenRefusal(err.code, err.status, err.message, err.details, { cause: err })
    }
    throw err
  }
}
