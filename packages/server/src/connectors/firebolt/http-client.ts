/**
 * The SDK's own HTTP client (NodeHttpClient: bearer token, re-authentication on 401/403,
 * Firebolt's headers and error handling), with two changes, handed to the SDK through its
 * `dependencies.httpClient` option:
 * - an `http://` endpoint gets a plain HTTP agent: NodeHttpClient always uses an HTTPS agent,
 *   so Node refuses an `http://` apiEndpoint ("Protocol "http:" not supported") although the
 *   SDK accepts one (a private link or a local stand-in, docs/datasources.md#fields-that-need-a-word);
 * - requests in flight are tracked so a connect that ran past its deadline, or a cancelled
 *   statement, can be aborted (the SDK has no connect timeout of its own).
 */
import { Agent as HttpAgent } from 'node:http'
import type { HttpsAgent } from 'agentkeepalive'
import { NodeHttpClient } from 'firebolt-sdk/build/src/http/node.js'

type Request = ReturnType<NodeHttpClient['request']>

export class StrataHttpClient extends NodeHttpClient {
  readonly #plain = new HttpAgent({ keepAlive: true })
  /** Requests in flight, by URL (a statement's URL carries its query_label). */
  readonly #active = new Map<Request, string>()

  constructor() {
    super()
    const secure = this.getAgent
    this.getAgent = (url: string) => (url.startsWith('http://') ? (this.#plain as unknown as HttpsAgent) : secure(url))
  }

  override request<T>(method: string, url: string, options?: Parameters<NodeHttpClient['request']>[2]) {
    const request = super.request<T>(method, url, options)
    this.#active.set(request, url)
    request.ready().then(
      () => this.#active.delete(request),
      () => this.#active.delete(request),
    )
    return request
  }

  /** Aborts every request in flight (their promises reject with an AbortError). */
  abortAll(): void {
    this.abortWhere(() => true)
  }

  /** Aborts the requests whose URL matches (one statement's, by its query_label). */
  abortWhere(match: (url: string) => boolean): void {
    for (const [request, url] of this.#active) {
      if (!match(url)) continue
      this.#active.delete(request)
      request.abort()
    }
  }

  /** Closes the kept-alive sockets. */
  destroy(): void {
    this.abortAll()
    this.#plain.destroy()
    for (const agent of this.agentCache.values()) agent.destroy()
  }
}
