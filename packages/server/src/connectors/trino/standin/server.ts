/**
 * A stand-in for a Trino coordinator: its client REST protocol
 * (https://trino.io/docs/current/develop/client-protocol.html) over HTTP or HTTPS, executing the
 * SQL on DuckDB (../duckdb-engine.ts). DuckDB is not Trino: this proves the transport, never
 * Trino's SQL. What it implements, as Trino does:
 * - `nextUri` and `infoUri` built from the request's Host header, as Trino builds them (from the
 *   request URI: https://trino.io/docs/current/develop/client-protocol.html, "the client must
 *   follow nextUri"; behind a proxy from X-Forwarded-*): a client that called
 *   https://trino.example:443 gets https://trino.example/… back;
 * - POST /v1/statement → QUEUED with a nextUri; GET nextUri → RUNNING (long poll, up to 100 ms)
 *   while DuckDB works, then FINISHED with the rows in pages of `pageSize`, each page but the last
 *   with a nextUri; DELETE nextUri → the query is cancelled (DuckDB interrupted), 204;
 * - GET /v1/info → { nodeVersion: { version }, coordinator, starting };
 * - X-Trino-User required (400 without); Basic authentication when `users` is given (401 without
 *   or with a wrong password); X-Trino-Catalog must name the one catalog `memory` (else
 *   CATALOG_NOT_FOUND); X-Trino-Schema becomes the search path (SCHEMA_NOT_FOUND if absent);
 *   X-Trino-Time-Zone is applied (DuckDB TimeZone; zoned values rendered `… <zone>` as Trino does);
 *   X-Trino-Session query_max_execution_time stops the query with EXCEEDED_TIME_LIMIT;
 * - X-Trino-Prepared-Statement `name=<url-encoded SQL>` with `EXECUTE name [USING …]`, and
 *   `EXECUTE IMMEDIATE '<SQL>' [USING …]` (servers of version 418 or later, like Trino);
 * - failures as QueryResults.error { message, errorCode, errorName, errorType }, state FAILED;
 * - values in Trino's JSON encoding (decimals as strings, dates and timestamps as text).
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import type { DuckDBValue } from '@duckdb/node-api'
import { DuckdbEngine, type EngineResult, type RunningStatement } from '../../../../test/standins/duckdb-engine.js'

export const CATALOG = 'memory'

export interface TrinoStandInOptions {
  /** Required Basic credentials (user → password); absent: any user, no password. */
  readonly users?: Readonly<Record<string, string>>
  /** The version /v1/info reports (default 435): below 418 EXECUTE IMMEDIATE is refused. */
  readonly version?: string
  readonly pageSize?: number
  readonly tls?: { readonly cert: string; readonly key: string }
}

type State = 'QUEUED' | 'RUNNING' | 'FINISHED' | 'FAILED' | 'CANCELED'

interface Query {
  readonly id: string
  readonly sql: string
  readonly headers: http.IncomingHttpHeaders
  state: State
  token: number
  running?: RunningStatement
  result?: EngineResult
  error?: { message: string; errorCode: number; errorName: string; errorType: string }
  sent: number
  timer?: ReturnType<typeof setTimeout>
  timeZone: string
  /** DuckDB has stopped (finished, failed or interrupted). */
  done: boolean
}

export interface TrinoStandIn {
  readonly url: string
  readonly port: number
  readonly engine: DuckdbEngine
  /** Every POST's headers, in order (what the connector sent). */
  readonly posts: { readonly headers: http.IncomingHttpHeaders; readonly body: string }[]
  /** DELETE requests received. */
  readonly deletes: string[]
  /** GET requests on a nextUri received. */
  readonly gets: string[]
  /** Queries whose SQL contains `marker` and that DuckDB is still executing. */
  running(marker: string): number
  close(): Promise<void>
}

const error = (message: string, errorName: string, errorCode: number, errorType = 'USER_ERROR') => ({
  message,
  errorCode,
  errorName,
  errorType,
})

/** Reads one SQL string literal at the start of `text` (quote doubled): [value, rest]. */
function readLiteral(text: string): [string, string] | undefined {
  if (text[0] !== "'") return undefined
  let out = ''
  for (let i = 1; i < text.length; i++) {
    if (text[i] === "'") {
      if (text[i + 1] === "'") {
        out += "'"
        i++
        continue
      }
      return [out, text.slice(i + 1)]
    }
    out += text[i]
  }
  return undefined
}

/** The statement to run and its USING list, resolving EXECUTE forms as Trino does. */
function resolve(body: string, headers: http.IncomingHttpHeaders, version: number): { sql: string; using?: string } {
  const trimmed = body.trim()
  const immediate = /^EXECUTE\s+IMMEDIATE\s+/i.exec(trimmed)
  if (immediate) {
    if (version < 418) throw error("line 1:9: mismatched input 'IMMEDIATE'", 'SYNTAX_ERROR', 1)
    const read = readLiteral(trimmed.slice(immediate[0].length))
    if (!read) throw error('EXECUTE IMMEDIATE expects a string literal', 'SYNTAX_ERROR', 1)
    const using = /^\s*USING\s+([\s\S]*)$/i.exec(read[1])
    if (!using && read[1].trim() !== '') throw error('unexpected text after the statement', 'SYNTAX_ERROR', 1)
    return { sql: read[0], ...(using ? { using: using[1] } : {}) }
  }
  const execute = /^EXECUTE\s+([A-Za-z_][A-Za-z0-9_]*)(?:\s+USING\s+([\s\S]*))?$/i.exec(trimmed)
  if (execute) {
    const prepared = new Map<string, string>()
    const header = headers['x-trino-prepared-statement']
    for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
      const eq = part.indexOf('=')
      if (eq > 0) prepared.set(decodeURIComponent(part.slice(0, eq).trim()), decodeURIComponent(part.slice(eq + 1)))
    }
    const sql = prepared.get(execute[1] as string)
    if (sql === undefined) throw error(`Prepared statement not found: ${execute[1]}`, 'NOT_FOUND', 5)
    return { sql, ...(execute[2] !== undefined ? { using: execute[2] } : {}) }
  }
  return { sql: trimmed }
}

/** DuckDB type name → Trino's. */
function trinoType(duck: string): string {
  const t = duck.toUpperCase()
  if (t === 'INTEGER') return 'integer'
  if (t === 'BIGINT' || t === 'HUGEINT' || t === 'UBIGINT') return 'bigint'
  if (t === 'SMALLINT' || t === 'TINYINT') return t.toLowerCase()
  if (t.startsWith('DECIMAL')) return t.toLowerCase()
  if (t === 'DOUBLE' || t === 'FLOAT') return t === 'DOUBLE' ? 'double' : 'real'
  if (t === 'BOOLEAN') return 'boolean'
  if (t === 'DATE') return 'date'
  if (t === 'TIMESTAMP WITH TIME ZONE') return 'timestamp(3) with time zone'
  if (t.startsWith('TIMESTAMP')) return 'timestamp(3)'
  if (t.endsWith('[]')) return `array(${trinoType(t.slice(0, -2))})`
  return 'varchar'
}

const pad = (n: number | bigint, w = 2) => String(n).padStart(w, '0')

/** A DuckDB value in Trino's JSON encoding, zoned timestamps rendered in the session zone. */
function encode(value: DuckDBValue, type: string, timeZone: string): unknown {
  if (value === null) return null
  if (typeof value === 'bigint') return Number(value) // Trino writes bigint as a JSON number
  if (typeof value !== 'object') return value
  if (type === 'TIMESTAMP WITH TIME ZONE' && 'micros' in value) {
    const micros = (value as { micros: bigint }).micros
    const ms = Number(micros / 1000n)
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
        .formatToParts(new Date(ms))
        .map((p) => [p.type, p.value]),
    )
    return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}.${pad(((ms % 1000) + 1000) % 1000, 3)} ${timeZone}`
  }
  if (type.startsWith('TIMESTAMP')) {
    const text = String(value)
    return /\.\d+$/.test(text) ? text : `${text}.000`
  }
  if (Array.isArray((value as { items?: unknown }).items)) {
    return (value as { items: DuckDBValue[] }).items.map((v) => encode(v, type.slice(0, -2), timeZone))
  }
  return String(value) // DECIMAL, DATE … as Trino's text
}

function headerText(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name]
  return Array.isArray(v) ? v[0] : v
}

/** `query_max_execution_time=1500ms` (X-Trino-Session, comma-separated) → milliseconds. */
function maxExecutionMs(headers: http.IncomingHttpHeaders): number | undefined {
  const session = headerText(headers, 'x-trino-session') ?? ''
  for (const part of session.split(',')) {
    const m = /^\s*query_max_execution_time=(\d+(?:\.\d+)?)(ms|s|m)\s*$/.exec(part)
    if (m) return Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 's' ? 1000 : 60_000)
  }
  return undefined
}

export async function startTrinoStandIn(options: TrinoStandInOptions = {}): Promise<TrinoStandIn> {
  const engine = await DuckdbEngine.create()
  const queries = new Map<string, Query>()
  const posts: TrinoStandIn['posts'] = []
  const deletes: string[] = []
  const gets: string[] = []
  const pageSize = options.pageSize ?? 7
  const version = options.version ?? '435'
  let base = ''
  /**
   * The address the client called, as Trino derives it for `nextUri` and `infoUri`: the scheme
   * and the request's Host header (which a client writes without the default port, and in
   * lower case), never the address this server listens on.
   */
  const publicBase = (req: http.IncomingMessage) =>
    `${options.tls ? 'https' : 'http'}://${req.headers.host ?? new URL(base).host}`

  const results = (q: Query, base: string): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      id: q.id,
      infoUri: `${base}/ui/query.html?${q.id}`,
      stats: { state: q.state },
    }
    if (q.state === 'FAILED') return { ...out, error: q.error }
    if (q.state === 'CANCELED') return { ...out, error: error('Query was canceled', 'USER_CANCELED', 3) }
    const next = () => `${base}/v1/statement/executing/${q.id}/${++q.token}`
    if (q.state !== 'FINISHED' || !q.result) return { ...out, nextUri: next() }
    const columns = q.result.columns.map((c) => ({ name: c.name, type: trinoType(c.type) }))
    const page = q.result.rows.slice(q.sent, q.sent + pageSize)
    q.sent += page.length
    const data = page.map((row) => row.map((v, i) => encode(v, q.result!.columns[i]!.type, q.timeZone)))
    return {
      ...out,
      columns,
      ...(data.length > 0 ? { data } : {}),
      ...(q.sent < q.result.rows.length ? { nextUri: next() } : {}),
    }
  }

  const begin = (q: Query, body: string) => {
    let resolved: { sql: string; using?: string }
    try {
      resolved = resolve(body, q.headers, Number(/^\d+/.exec(version)?.[0] ?? 0))
    } catch (e) {
      q.state = 'FAILED'
      q.error = e as Query['error']
      return
    }
    const schema = headerText(q.headers, 'x-trino-schema')
    q.running = engine.start(resolved.sql, {
      ...(resolved.using !== undefined ? { literals: [resolved.using] } : {}),
      ...(schema !== undefined ? { schema } : {}),
      timeZone: q.timeZone,
    })
    q.state = 'RUNNING'
    const limit = maxExecutionMs(q.headers)
    if (limit !== undefined) {
      q.timer = setTimeout(() => {
        if (q.state !== 'RUNNING') return
        q.state = 'FAILED'
        q.error = error(
          `Query exceeded maximum time limit of ${limit}ms`,
          'EXCEEDED_TIME_LIMIT',
          131075,
          'INSUFFICIENT_RESOURCES',
        )
        q.running?.interrupt()
      }, limit)
    }
    q.running.result.then(
      (result) => {
        q.done = true
        clearTimeout(q.timer)
        if (q.state !== 'RUNNING') return
        q.result = result
        q.state = 'FINISHED'
      },
      (e: unknown) => {
        q.done = true
        clearTimeout(q.timer)
        if (q.state !== 'RUNNING') return
        q.state = 'FAILED'
        q.error = error((e as Error).message, 'GENERIC_USER_ERROR', 0)
      },
    )
  }

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const send = (status: number, json?: unknown, text?: string) => {
      if (json !== undefined) {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(json))
      } else {
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end(text ?? '')
      }
    }
    const url = new URL(req.url ?? '/', base)
    if (options.users) {
      const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '')
      const [user, password] = auth
        ? Buffer.from(auth[1] as string, 'base64')
            .toString('utf8')
            .split(':')
        : []
      if (user === undefined || options.users[user] === undefined || options.users[user] !== password) {
        res.setHeader('WWW-Authenticate', 'Basic realm="Trino"')
        return send(401, undefined, 'Unauthorized')
      }
    }
    if (req.method === 'GET' && url.pathname === '/v1/info') {
      return send(200, { nodeVersion: { version }, environment: 'standin', coordinator: true, starting: false })
    }
    if (req.method === 'POST' && url.pathname === '/v1/statement') {
      posts.push({ headers: req.headers, body })
      const user = headerText(req.headers, 'x-trino-user')
      if (!user) return send(400, undefined, 'User must be set')
      const timeZone = headerText(req.headers, 'x-trino-time-zone') ?? 'UTC'
      const q: Query = {
        id: randomUUID().replaceAll('-', '_'),
        sql: body,
        headers: req.headers,
        state: 'QUEUED',
        token: 0,
        sent: 0,
        timeZone,
        done: false,
      }
      queries.set(q.id, q)
      const catalog = headerText(req.headers, 'x-trino-catalog')
      const schema = headerText(req.headers, 'x-trino-schema')
      if (catalog !== undefined && catalog !== CATALOG) {
        q.state = 'FAILED'
        q.error = error(`Catalog '${catalog}' not found`, 'CATALOG_NOT_FOUND', 44)
      } else if (schema !== undefined) {
        const found = await engine.start(
          `SELECT count(*) FROM information_schema.schemata WHERE catalog_name = '${CATALOG}' AND schema_name = ?`,
          { literals: [`'${schema.replaceAll("'", "''")}'`] },
        ).result
        if (Number(found.rows[0]?.[0]) !== 1) {
          q.state = 'FAILED'
          q.error = error(`Schema '${schema}' does not exist`, 'SCHEMA_NOT_FOUND', 1)
        }
      }
      if (q.state === 'QUEUED') setImmediate(() => begin(q, body))
      return send(200, results(q, publicBase(req)))
    }
    const m = /^\/v1\/statement\/executing\/([^/]+)\/(\d+)$/.exec(url.pathname)
    const q = m ? queries.get(m[1] as string) : undefined
    if (!q) return send(404, undefined, 'Query not found')
    if (req.method === 'DELETE') {
      deletes.push(url.pathname)
      if (q.state === 'RUNNING' || q.state === 'QUEUED') {
        q.state = 'CANCELED'
        clearTimeout(q.timer)
        q.running?.interrupt()
      }
      q.sent = q.result?.rows.length ?? 0
      res.writeHead(204).end()
      return
    }
    if (req.method === 'GET') {
      gets.push(url.pathname)
      // long poll: wait a little for the engine, as Trino does (up to 1 s there)
      for (let i = 0; i < 10 && (q.state === 'RUNNING' || q.state === 'QUEUED'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      return send(200, results(q, publicBase(req)))
    }
    return send(405, undefined, 'Method not allowed')
  }

  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    handler(req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(e))
    })
  }
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  base = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`
  return {
    url: base,
    port,
    engine,
    posts,
    deletes,
    gets,
    running: (marker) =>
      [...queries.values()].filter((q) => q.sql.includes(marker) && q.running !== undefined && !q.done).length,
    close: async () => {
      for (const q of queries.values()) {
        clearTimeout(q.timer)
        q.running?.interrupt()
      }
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.allSettled([...queries.values()].map((q) => q.running?.result))
      engine.close()
    },
  }
}
