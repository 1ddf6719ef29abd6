import type { components } from './generated/openapi.js'

/** Every failure the API answers: `{ error: { code, message, details? } }`. */
export type ErrorBody = components['schemas']['ErrorResponse']

/** The API's error codes (docs/errors.md explains each). */
export type ApiErrorCode = ErrorBody['error']['code']

/**
 * The client's own code for an answer that is not the API's error shape: a proxy's HTML page,
 * an empty body. The status is the answer's.
 */
export type UnexpectedResponseCode = 'UNEXPECTED_RESPONSE'

export type StrataErrorCode = ApiErrorCode | UnexpectedResponseCode

/**
 * A failure the server answered. `code` is the API's error code (switch on it), `status` the
 * HTTP status, `message` the server's explanation; `requestId` is the `x-request-id` the server
 * logged it under; `retryAfter` the seconds a 429 or a draining 503 asks to wait.
 * A request that got no answer (refused connection, timeout) rejects with fetch's own error.
 */
export class StrataError extends Error {
  override readonly name = 'StrataError'
  constructor(
    readonly code: StrataErrorCode,
    readonly status: number,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    readonly requestId?: string,
    readonly retryAfter?: number,
  ) {
    super(message)
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false
  const error = (body as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  return typeof code === 'string' && typeof message === 'string'
}

/** The StrataError of a failed answer, from its parsed body (openapi-fetch's `error`). */
export function errorFrom(body: unknown, response: Response): StrataError {
  const requestId = response.headers.get('x-request-id') ?? undefined
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN)
  const wait = Number.isFinite(retryAfter) ? retryAfter : undefined
  if (!isErrorBody(body)) {
    const text = typeof body === 'string' ? body.slice(0, 200) : ''
    return new StrataError(
      'UNEXPECTED_RESPONSE',
      response.status,
      `HTTP ${response.status} without the API's error body${text ? `: ${text}` : ''}`,
      undefined,
      requestId,
      wait,
    )
  }
  const { code, message, details } = body.error
  return new StrataError(code, response.status, message, details, requestId, wait)
}
