/** An error answered by the Strata server (`{ error: { code, message } }`) or raised on the way there. */
export class StrataApiError extends Error {
  override readonly name = 'StrataApiError'
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    /** The server's `error.details.reason`, when it gives one (`EMBED_GONE`). */
    readonly reason?: string,
  ) {
    super(message)
  }
}

/** `details.reason` of the 401 for an embed that no longer exists: a new token will not help. */
export const EMBED_GONE = 'EMBED_GONE'

/** The server's error envelope, or a generic one when the body is not JSON. */
export function errorFromBody(status: number, body: unknown, statusText = ''): StrataApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: { reason?: string } } } | null)?.error
  if (error && typeof error.code === 'string') {
    const message = typeof error.message === 'string' ? error.message : error.code
    return new StrataApiError(error.code, status, message, error.details?.reason)
  }
  return new StrataApiError(`HTTP_${status}`, status, statusText || `The server answered ${status}`)
}

export const isAbortError = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError'

export const abortError = (): Error => {
  const e = new Error('The operation was aborted')
  e.name = 'AbortError'
  return e
}
