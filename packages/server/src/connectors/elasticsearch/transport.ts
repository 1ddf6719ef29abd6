/**
 * One HTTP request to the cluster through the official client of its product: @elastic/elasticsearch
 * (9.4.x: 9.5 needs Node 22) or @opensearch-project/opensearch. Both are used through their
 * documented raw-request API (`client.transport.request`), so one connector speaks to both; each
 * SDK is imported here, on the first connection of its type only.
 *
 * server_type self-managed → `server_url` (the endpoint override, docs/datasources.md#fields-that-need-a-word); elastic-cloud /
 * open-cloud → `cloud_id`. Basic auth unless disableAuth. Retries are off: a search is not
 * retried behind the caller's deadline. Elasticsearch: the cluster's version is read once (GET /
 * in plain JSON) and every request then carries the media types that version accepts
 * (`mediaTypesFor`).
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

/** The `Accept` and `Content-Type` of every request to an Elasticsearch cluster. */
type MediaTypes = { readonly accept: string; readonly 'content-type': string }

const PLAIN_JSON: MediaTypes = { accept: 'application/json', 'content-type': 'application/json' }
const compatibleWith = (major: number): MediaTypes => ({
  accept: `application/vnd.elasticsearch+json; compatible-with=${major}`,
  'content-type': `application/vnd.elasticsearch+json; compatible-with=${major}`,
})
/** The major version of the client's API (@elastic/elasticsearch 9.x). */
const CLIENT_MAJOR = 9

/** `version.number` of the cluster's info document (GET /), if it has one. */
export function versionOf(info: unknown): string | undefined {
  const number = (info as { version?: { number?: unknown } } | null)?.version?.number
  return typeof number === 'string' ? number : undefined
}

/**
 * The media types a cluster of this version accepts and answers in the shape the client reads.
 * The client asks for its own API (compatible-with=9), which 8.x and 7.x refuse with 400
 * `media_type_header_exception`: a cluster accepts compatible-with only for its own major and
 * the one before (docs/datasources.md#elasticsearch-7-8-and-9). So: 8.x gets
 * compatible-with=8; 7.x, which knows no later API, plain application/json (its own API); 9.x
 * and later compatible-with=9, the API the client was written for (a 10.x cluster serves it in
 * compatibility mode). An unknown version gets plain JSON, which every version accepts.
 */
export function mediaTypesFor(version: string | undefined): MediaTypes {
  const major = Number(/^(\d+)\./.exec(version ?? '')?.[1])
  if (!Number.isInteger(major) || major <= 7) return PLAIN_JSON
  return compatibleWith(Math.min(major, CLIENT_MAJOR))
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

/**
 * OpenSearch's authentication: basic auth, or with `awsRegion` AWS SigV4 through the client's own
 * signer (@opensearch-project/opensearch/aws, signing with the aws4 package) for the service
 * `es` (a domain) or `aoss` (serverless), with the datasource's static key pair.
 */
async function openSearchAuth(c: SearchCredentials): Promise<object> {
  if (!('awsRegion' in c) || c.awsRegion === undefined) return auth(c)
  const { AwsSigv4Signer } = await import('@opensearch-project/opensearch/aws')
  const credentials = {
    accessKeyId: c.awsAccessKeyId ?? '',
    secretAccessKey: c.awsSecretAccessKey ?? '',
    ...(c.awsSessionToken !== undefined ? { sessionToken: c.awsSessionToken } : {}),
  }
  return AwsSigv4Signer({
    region: c.awsRegion,
    service: c.awsService ?? 'es',
    getCredentials: () => Promise.resolve(credentials),
  })
}

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
    const send = (method: string, path: string, body: unknown, o: RequestOptions, headers: MediaTypes) =>
      client.transport.request(
        { method, path, ...(body === undefined ? {} : { body: body as Record<string, unknown> }) },
        { querystring: o.querystring ?? {}, requestTimeout: o.requestTimeout, signal: o.signal, meta: false, headers },
      )
    // the cluster's version, read once with media types every version accepts; a failed read is
    // not kept, so the next request asks again
    let detected: Promise<MediaTypes> | undefined
    const mediaTypes = (o: RequestOptions): Promise<MediaTypes> => {
      detected ??= send('GET', '/', undefined, o, PLAIN_JSON).then(
        (info) => mediaTypesFor(versionOf(info)),
        (err: unknown) => {
          detected = undefined
          throw err
        },
      )
      return detected
    }
    return {
      request: async (method, path, body, o) => send(method, path, body, o, await mediaTypes(o)),
      close: () => client.close(),
    }
  }
  const { Client } = await import('@opensearch-project/opensearch')
  const client = new Client({
    ...node(credentials),
    ...(await openSearchAuth(credentials)),
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
