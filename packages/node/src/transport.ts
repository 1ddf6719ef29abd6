import createClient, { type Client, type Middleware } from 'openapi-fetch'
import { errorFrom } from './errors.js'
import { credentials } from './generated/credentials.js'
import type { paths } from './generated/openapi.js'

/** The typed openapi-fetch client over the backend's operations. */
export type Api = Client<paths>

/** The secrets a backend holds; each operation takes one of them (src/generated/credentials.ts). */
export interface Secrets {
  /** The data app API key (`sk_…`): guest tokens, embeds, queries, lists of one data app. */
  readonly apiKey?: string | undefined
  /** The organization's service token: datasources, datamarts, workspaces, data apps, keys, dashboards. */
  readonly serviceToken?: string | undefined
}

export interface TransportOptions extends Secrets {
  /** The server's URL, with its BASE_PATH if it has one: `https://analytics.example.com`. */
  readonly baseUrl: string | URL
  /** Milliseconds before a request is abandoned (its promise rejects with a TimeoutError); 30 s by default. */
  readonly timeoutMs?: number
  /** A fetch to call instead of the global one (a proxy agent, instrumentation). */
  readonly fetch?: (request: Request) => Promise<Response>
}

type OperationKey = keyof typeof credentials

/** Sets the bearer of each request to the secret its operation takes, or refuses before sending. */
function authorize(secrets: Secrets): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const operation = `${request.method} ${schemaPath}`
      const kind = credentials[operation as OperationKey]
      if (!kind) throw new Error(`${operation} is not an operation of this client`)
      const secret = secrets[kind]
      if (!secret) throw new Error(`${operation} takes the ${kind}: pass { ${kind} } to new Strata()`)
      request.headers.set('authorization', `Bearer ${secret}`)
      return request
    },
  }
}

export function createTransport(options: TransportOptions): Api {
  const base = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  const timeoutMs = options.timeoutMs ?? 30_000
  const api = createClient<paths>({
    baseUrl: String(options.baseUrl).replace(/\/+$/, ''),
    fetch: (request) =>
      base(new Request(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) })),
  })
  api.use(authorize({ apiKey: options.apiKey, serviceToken: options.serviceToken }))
  return api
}

/** An openapi-fetch result: the 2xx body, or a thrown StrataError carrying the API's code. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call
  if (!response.ok) throw errorFrom(error, response)
  return data as T
}
