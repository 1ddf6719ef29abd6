import { CliError } from './args.js'

export const DEFAULT_URL = 'http://127.0.0.1:8080'
const REQUEST_TIMEOUT_MS = 30_000

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
type Query = Record<string, string | undefined>

/**
 * The CLI's HTTP client of a running server, and its output rules: a command prints its bare
 * result (a token, a key, an id), a list one item a line (tab-separated fields, the id first),
 * and `--json` prints the whole response instead.
 */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly json: boolean,
  ) {}

  /** POSTs JSON; answers the parsed body of a 200, else throws the server's error. */
  post(path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
    return this.send('POST', path, body, token)
  }

  /** PUTs JSON, like post. */
  put(path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
    return this.send('PUT', path, body, token)
  }

  /** GETs `path` with a query string (undefined values left out), like post. */
  get(path: string, query: Query, token?: string): Promise<Record<string, unknown>> {
    return this.send('GET', withQuery(path, query), undefined, token)
  }

  /** DELETEs `path` with a query string, like get. */
  delete(path: string, query: Query, token?: string): Promise<Record<string, unknown>> {
    return this.send('DELETE', withQuery(path, query), undefined, token)
  }

  private async send(method: Method, path: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
    const url = `${this.baseUrl}${path}`
    let res: Response
    try {
      res = await fetch(url, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      const reason = cause?.code ?? cause?.message ?? (err as Error).message
      throw new CliError('CONNECTION_ERROR', `cannot reach ${this.baseUrl} (${reason}); is the server running?`)
    }
    const text = await res.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      throw new CliError(`HTTP_${res.status}`, `${url} answered something other than JSON`)
    }
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error
    if (!res.ok || (error && typeof error === 'object')) {
      throw new CliError(
        String(error?.code ?? `HTTP_${res.status}`),
        String(error?.message ?? `${url} answered ${res.status}`),
      )
    }
    return parsed as Record<string, unknown>
  }

  /** Prints `value` alone, or the whole response with --json. */
  print(response: unknown, value: unknown): void {
    console.log(this.json ? JSON.stringify(response, null, 2) : String(value))
  }

  /** Prints one result per line (nothing for none), or the whole response with --json. */
  printLines(response: unknown, values: readonly unknown[]): void {
    if (this.json) console.log(JSON.stringify(response, null, 2))
    else if (values.length > 0) console.log(values.map(String).join('\n'))
  }

  /** Prints a list: one row a line, its fields tab-separated (empty for null), or the whole response with --json. */
  printRows(response: unknown, rows: readonly (readonly unknown[])[]): void {
    this.printLines(
      response,
      rows.map((row) => row.map((field) => (field === null || field === undefined ? '' : String(field))).join('\t')),
    )
  }
}

function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value)
  const search = params.toString()
  return search === '' ? path : `${path}?${search}`
}
