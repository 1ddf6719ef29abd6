import { abortError, errorFromBody, StrataApiError } from './errors.js'
import type { QueryRequest, QueryResult, RuntimeEmbed } from './types.js'

export interface ClientHooks {
  /** Called once each time the token stops working (401); calls then wait for `setToken`. */
  onTokenExpired(): void
}

/**
 * The runtime API client. Every call carries the guest token; a 401 does not fail the call:
 * the client reports the expiry once, parks every call until the host hands over a new token,
 * then retries them, so a dashboard survives a token refresh without a reload.
 */
export class RuntimeClient {
  private token: string
  private expired = false
  private waiters: (() => void)[] = []

  constructor(
    readonly baseUrl: string,
    readonly embedId: string,
    token: string,
    private readonly hooks: ClientHooks,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
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
    if (!token) return
    this.expired = false
    const waiting = this.waiters
    this.waiters = []
    for (const resume of waiting) resume()
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
      if (res.ok) return res
      const body = await res.json().catch(() => null)
      if (res.status === 401) {
        // A token replaced while this call was in flight: retry at once with the new one.
        if (used === this.token) this.expire()
        continue
      }
      throw errorFromBody(res.status, body, res.statusText)
    }
  }

  private expire(): void {
    if (this.expired) return
    this.expired = true
    this.hooks.onTokenExpired()
  }

  private tokenReady(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError())
    if (!this.expired && this.token) return Promise.resolve()
    return new Promise((resolve, reject) => {
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
    })
  }
}
