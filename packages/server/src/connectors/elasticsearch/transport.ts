/**
 * One HTTP request to the cluster through the official client of its product: @elastic/elasticsearch
 * (9.4.x: 9.5 needs Node 22) or @opensearch-project/opensearch. Both are used through their
 * documented raw-request API (`client.transport.request`), so one connector speaks to both; each
 * SDK is imported here, on the first connection of its type only.
 *
 * server_type self-managed → `server_url` (the endpoint override, docs/datasources.md#fields-that-need-a-word); elastic-cloud /
 * open-cloud → `cloud_id`. Basic auth unless disableAuth. Retries are off: a search is not
 * retried behind the caller's deadline.
 */
import type { CredentialsByType } from '../credentials/schemas.js'

export type Flavour = 'elasticsearch' | 'opensearch'
export type SearchCredentials = CredentialsByType[Flavour]

export interface RequestOptions {
  readonly querystring?: Record<string, string | number | boolean>
  /** The client's own socket timeout (a backstop: our deadline aborts first). */
  readonly requestTimeout: number
  readonly signal: AbortSignal
}

export interface SearchTransport {
  request(method: 'GET' | 'POST', path: string, body: unknown, options: RequestOptions): Promise<unknown>
  close(): Promise<void>
}

function node(credentials: SearchCredentials): { node?: string; cloud?: { id: string } } {
  if (credentials.server_type === 'self-managed') {
    let url = credentials.server_url ?? ''
    if (!/^https?:\/\//i.test(url)) url = `${credentials.isIgnoreSsl ? 'http' : 'https'}://${url}`
    return { node: url }
  }
  return { cloud: { id: credentials.cloud_id ?? '' } }
}

const auth = (c: SearchCredentials) =>
  c.disableAuth === true ? {} : { auth: { username: c.username ?? '', password: c.password ?? '' } }

export async function openTransport(flavour: Flavour, credentials: SearchCredentials): Promise<SearchTransport> {
  const tlsVerify = credentials.isIgnoreVerifyCert !== true
  // a private CA (docs/datasources.md#tls) replaces the public roots
  const ca = credentials.tlsCaCertificate === undefined ? {} : { ca: credentials.tlsCaCertificate }
  if (flavour === 'elasticsearch') {
    const { Client } = await import('@elastic/elasticsearch')
    const client = new Client({
      ...node(credentials),
      ...auth(credentials),
      maxRetries: 0,
      tls: { rejectUnauthorized: tlsVerify, ...ca },
    })
    return {
      request: (method, path, body, o) =>
        client.transport.request(
          { method, path, ...(body === undefined ? {} : { body: body as Record<string, unknown> }) },
          { querystring: o.querystring ?? {}, requestTimeout: o.requestTimeout, signal: o.signal, meta: false },
        ),
      close: () => client.close(),
    }
  }
  const { Client } = await import('@opensearch-project/opensearch')
  const client = new Client({
    ...node(credentials),
    ...auth(credentials),
    maxRetries: 0,
    ssl: { rejectUnauthorized: tlsVerify, ...ca },
  })
  return {
    request: async (method, path, body, o) => {
      const pending = client.transport.request(
        { method, path, querystring: o.querystring ?? {}, ...(body === undefined ? {} : { body: body as object }) },
        { requestTimeout: o.requestTimeout },
      )
      // this client takes no AbortSignal: its promise has abort(), which closes the socket. abort()
      // returns the (thenable) request: an event listener must not return it (EventTarget would
      // rethrow its rejection as an uncaught exception)
      const abort = (): void => {
        pending.abort()
      }
      if (o.signal.aborted) abort()
      o.signal.addEventListener('abort', abort, { once: true })
      try {
        return (await pending).body as unknown
      } finally {
        o.signal.removeEventListener('abort', abort)
      }
    },
    close: () => client.close(),
  }
}
