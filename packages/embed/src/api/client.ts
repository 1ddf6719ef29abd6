import { abortError, EMBED_GONE, errorFromBody, StrataApiError } from './errors.js'
import type { QueryRequest, QueryResult, RuntimeEmbed } from './types.js'

export interface ClientHooks {
  /** Called once each time the token stops working (401); calls then wait for `setToken`. */
  onTokenExpired(): void
  /**
   * Called once when the client stops for good: the embed no longer exists (a 401 with
   * `details.reason: "EMBED_GONE"`), or renewing the token kept failing. Every call waiting and
   * every later one fails with `error` until `restart()`.
   */
  onStopped?(error: StrataApiError): void
}

/** Expiries in a row, with no call answered in between, after which the client stops (the first is the token's own). */
export const MAX_EXPIRIES_IN_A_ROW = 3
/** How long the client waits for a new token after an expiry before it stops. */
export const RENEWAL_TIMEOUT_MS = 30_000

/** The stop of a token refresh that keeps failing (`strata-error` code). */
export const TOKEN_REFRESH_FAILED = 'TOKEN_REFRESH_FAILED'

/**
 * The runtime API client. Every call carries the guest token; a 401 does not fail the call:
 * the client reports the expiry once, parks every call until the host hands over a new token,
 * then retries them, so a dashboard survives a token refresh without a reload. Two things end
 * that: an embed that no longer exists (a new token cannot help), and renewals that keep
 * failing — MAX_EXPIRIES_IN_A_ROW expiries with no answer in between (new tokens that are
 * refused, or the same expired one again), or no new token within the renewal timeout. Then
 * the client stops, fails every call, and tells the host once.
 */
export class RuntimeClient {
  private token: string
  private expired = false
  private waiters: (() => void)[] = []
  private expiries = 0
  /** Why the client stopped (the embed is gone, or the token could not be renewed); undefined while it works. Read only. */
  stopped: StrataApiError | undefined
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    readonly baseUrl: string,
    readonly embedId: string,
    token: string,
    private readonly hooks: ClientHooks,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
    private readonly renewMs = RENEWAL_TIMEOUT_MS,
  ) {
    this.token = token
  }

  get isExpired(): boolean {
    return this.expired
  }

  /** A new token: retries the calls that were waiting for one. */
  setToken(token: string): void {
    if (token === this.token && !this.expired) return
    this.token = token
    if (!token || this.stopped) return
    this.expired = false
    clearTimeout(this.timer)
    const waiting = this.waiters
    this.waiters = []
    for (const resume of waiting) resume()
  }

  /** After a stop: works again with the token at hand (a 401 asks for a new one, as at first). */
  restart(): void {
    clearTimeout(this.timer)
    this.stopped = undefined
    this.expiries = 0
  }

  async load(signal?: AbortSignal): Promise<RuntimeEmbed> {
    const body = await this.json<RuntimeEmbed | { data: RuntimeEmbed }>('', { method: 'GET' }, signal)
    // Tolerates the hosted API's `{ data, error: null }` envelope as well as the bare embed.
    return 'embedId' in body ? body : body.data
  }

  async query(body: QueryRequest, signal?: AbortSignal): Promise<QueryResult> {
    const res = await this.send(
      '/query',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      signal,
    )
    const result = (await res.json()) as QueryResult
    return res.headers.get('strata-truncated') === 'true' ? { ...result, truncated: true } : result
  }

  /** The metric's rows as CSV. */
  async download(
    metricId: string,
    dashboardFilter: Readonly<Record<string, unknown>> | undefined,
    signal?: AbortSignal,
  ): Promise<Blob> {
    const qs = dashboardFilter ? `?dashboardFilter=${encodeURIComponent(JSON.stringify(dashboardFilter))}` : ''
    const res = await this.send(`/metrics/${encodeURIComponent(metricId)}/download${qs}`, { method: 'GET' }, signal)
    return res.blob()
  }

  /** A JSON call to a path under the embed (the self-serve calls): same token handling and errors as every call. */
  async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    const init: RequestInit =
      body === undefined
        ? { method }
        : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
    return this.json<T>(path, init, signal)
  }

  private async json<T>(path: string, init: RequestInit, signal?: AbortSignal): Promise<T> {
    const res = await this.send(path, init, signal)
    return (await res.json()) as T
  }

  private async send(path: string, init: RequestInit, signal?: AbortSignal): Promise<Response> {
    const url = `${this.baseUrl.replace(/\/+$/, '')}/api/v2/embed/runtime/${encodeURIComponent(this.embedId)}${path}`
    for (;;) {
      await this.tokenReady(signal)
      const used = this.token
      let res: Response
      try {
        res = await this.fetchImpl(url, {
          ...init,
          headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${used}` },
          signal: signal ?? null,
        })
      } catch (e) {
        if (signal?.aborted) throw abortError()
        throw new StrataApiError('NETWORK_ERROR', 0, e instanceof Error ? e.message : 'The server cannot be reached')
      }
      if (res.status !== 401) this.expiries = 0
      if (res.ok) return res
      const body = await res.json().catch(() => null)
      const error = errorFromBody(res.status, body, res.statusText)
      if (res.status === 401) {
        if (error.reason === EMBED_GONE) throw this.stop(error)
        // A token replaced while this call was in flight: retry at once with the new one.
        if (used === this.token) this.expire()
        continue
      }
      throw error
    }
  }

  private expire(): void {
    if (this.expired || this.stopped) return
    // the tokens that came were refused, or none came in time
    const failed = () => this.stop(new StrataApiError(TOKEN_REFRESH_FAILED, 401, 'Your session could not be renewed'))
    if (++this.expiries >= MAX_EXPIRIES_IN_A_ROW) {
      failed()
      return
    }
    this.expired = true
    clearTimeout(this.timer)
    this.timer = setTimeout(() => this.expired && failed(), this.renewMs)
    this.hooks.onTokenExpired()
  }

  /** Stops for good (until restart): every waiting call and every later one fails with `error`; the host is told once. */
  private stop(error: StrataApiError): StrataApiError {
    clearTimeout(this.timer)
    if (this.stopped) return this.stopped
    this.stopped = error
    this.expired = false
    // the waiting calls go on, and fail at once in tokenReady
    const waiting = this.waiters
    this.waiters = []
    for (const resume of waiting) resume()
    this.hooks.onStopped?.(error)
    return error
  }

  private tokenReady(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError())
    if (this.stopped) return Promise.reject(this.stopped)
    if (!this.expired && this.token) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const resume = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== resume)
        reject(abortError())
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiters.push(resume)
    }).then(() => this.tokenReady(signal))
  }
}
