/**
 * A local stand-in for Firebolt's HTTP API, speaking what firebolt-sdk (1.13) sends — a
 * TRANSPORT PROOF, NOT THE ENGINE. SQL runs on DuckDB (@duckdb/node-api), not on Firebolt:
 * where the two engines differ, only a live test (connector.live.test.ts) proves anything.
 *
 * What it implements of the protocol:
 * - `POST /oauth/token`, form-encoded client credentials (`client_id`, `client_secret`,
 *   `grant_type=client_credentials`, `audience`) → `{ access_token, expires_in, token_type }`;
 *   a wrong secret → 401 `{ error: "access_denied", error_description }` (the SDK derives this
 *   endpoint from apiEndpoint: a host not named api.* is used as it is);
 * - `GET /web/v3/account/<account>/engineUrl` (bearer token) → `{ engineUrl }` of the system
 *   engine; an unknown account → 404;
 * - `POST /query` on the system engine: `USE DATABASE "<db>"` answers the
 *   `Firebolt-Update-Parameters: database=<db>` header, `USE ENGINE "<engine>"` the
 *   `Firebolt-Update-Endpoint: <engine url>?engine=<engine>` header; unknown ones are errors;
 * - `POST /engine/query?engine=…&database=…&output_format=JSON_Compact&…`: the SQL is the body,
 *   settings are URL parameters: `query_parameters` (fb_numeric: `[{ name: "$1", value }]`,
 *   bound by DuckDB as a prepared statement's parameters), `time_zone` (DuckDB's TimeZone),
 *   `statement_timeout` (ms; the statement is interrupted and answers a timeout error),
 *   `query_label`. The answer is JSON_Compact: `{ meta: [{ name, type }], data: [[…]], rows,
 *   statistics }` with Firebolt's type names (`int`, `bigint`, `numeric(p, s)`, `text`, `date`,
 *   `timestamp`, `timestamptz`, `boolean`, `double precision`, a ` null` suffix when nullable)
 *   and Firebolt's text renderings of dates and timestamps (`2024-01-01 09:00:00+09`);
 * - errors in Firebolt's structured format: HTTP 400, `{ "errors": [{ "description", "name",
 *   "severity", "source" }] }` (the timeout's and the cancel's wording are ours);
 * - `SELECT query_id FROM information_schema.engine_running_queries WHERE query_label = $1` and
 *   `CANCEL QUERY WHERE query_id = '<id>'` (reference-sql/commands/queries/cancel): the running
 *   statement is interrupted and its request answers the cancellation;
 * - `information_schema.catalogs` (the databases; DuckDB's catalogs here) and
 *   `information_schema.columns` (DuckDB's, its data_type values renamed to Firebolt's).
 * Each Firebolt database is an attached in-memory DuckDB catalog with a schema `public`.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type DuckDBConnection, DuckDBInstance, DuckDBTimestampTZValue, type DuckDBType } from '@duckdb/node-api'
import { formatInstant } from '../../shared/values.js'

export interface StandInOptions {
  readonly clientId: string
  readonly clientSecret: string
  readonly account: string
  readonly engine: string
  readonly databases: readonly string[]
}

/** One statement the engine received: what the SDK sent. */
export interface Received {
  readonly path: string
  readonly params: URLSearchParams
  readonly sql: string
}

interface Running {
  readonly id: string
  readonly label: string | null
  readonly sql: string
  readonly conn: DuckDBConnection
  cancelled: boolean
  timedOut: boolean
}

export class FireboltStandIn {
  readonly options: StandInOptions
  readonly received: Received[] = []
  readonly #running = new Map<string, Running>()
  readonly #tokens = new Set<string>()
  #server: Server | undefined
  #instance: DuckDBInstance | undefined
  #port = 0

  constructor(options: StandInOptions) {
    this.options = options
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`
  }

  async start(): Promise<void> {
    this.#instance = await DuckDBInstance.create(':memory:')
    const conn = await this.#instance.connect()
    for (const db of this.options.databases) {
      await conn.run(`ATTACH ':memory:' AS "${db}"`)
      await conn.run(`CREATE SCHEMA "${db}".public`)
    }
    conn.closeSync()
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) json(res, 500, { message: String(err) })
      })
    })
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve))
    this.#port = (this.#server.address() as AddressInfo).port
  }

  /** Fixture data: runs DuckDB SQL in a database (schema public). */
  async exec(database: string, sql: string): Promise<void> {
    const conn = await this.#instance!.connect()
    try {
      await conn.run(`USE "${database}".public`)
      await conn.run(sql)
    } finally {
      conn.closeSync()
    }
  }

  /** Statements still running whose SQL contains `marker`. */
  running(marker: string): number {
    return [...this.#running.values()].filter((r) => r.sql.includes(marker)).length
  }

  async stop(): Promise<void> {
    for (const r of this.#running.values()) r.conn.interrupt()
    this.#server?.closeAllConnections()
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()))
    this.#instance?.closeSync()
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<undefined> {
    const url = new URL(req.url ?? '/', this.url)
    const body = await read(req)
    if (req.method === 'POST' && url.pathname === '/oauth/token') return this.#token(body, res)
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    if (token === undefined || !this.#tokens.has(token)) return json(res, 401, { message: 'Unauthorized' })
    const account = /^\/web\/v3\/account\/([^/]+)\/engineUrl$/.exec(url.pathname)?.[1]
    if (req.method === 'GET' && account !== undefined) {
      if (decodeURIComponent(account) !== this.options.account) return json(res, 404, { message: 'account not found' })
      return json(res, 200, { engineUrl: `${this.url}/system` })
    }
    if (req.method === 'POST' && url.pathname === '/query') return this.#system(body, res)
    if (req.method === 'POST' && url.pathname === '/engine/query') return this.#engine(url, body, res)
    json(res, 404, { message: 'not found' })
  }

  #token(body: string, res: ServerResponse): undefined {
    const form = new URLSearchParams(body)
    if (form.get('grant_type') !== 'client_credentials') {
      return json(res, 400, {
        error: 'unsupported_grant_type',
        error_description: 'grant_type must be client_credentials',
      })
    }
    if (form.get('client_id') !== this.options.clientId || form.get('client_secret') !== this.options.clientSecret) {
      return json(res, 401, { error: 'access_denied', error_description: 'Wrong client ID or client secret.' })
    }
    const token = randomBytes(16).toString('hex')
    this.#tokens.add(token)
    json(res, 200, { access_token: token, expires_in: 3600, token_type: 'Bearer' })
  }

  #system(sql: string, res: ServerResponse): undefined {
    const database = /^USE DATABASE "([^"]*)"$/i.exec(sql.trim())?.[1]
    if (database !== undefined) {
      if (!this.options.databases.includes(database))
        return error(res, `Database '${database}' does not exist or not authorized.`)
      res.setHeader('Firebolt-Update-Parameters', `database=${database}`)
      return end(res)
    }
    const engine = /^USE ENGINE "([^"]*)"$/i.exec(sql.trim())?.[1]
    if (engine !== undefined) {
      if (engine !== this.options.engine) return error(res, `Engine '${engine}' does not exist or not authorized.`)
      res.setHeader('Firebolt-Update-Endpoint', `${this.url}/engine/query?engine=${encodeURIComponent(engine)}`)
      return end(res)
    }
    error(res, 'the stand-in system engine answers USE DATABASE and USE ENGINE only')
  }

  async #engine(url: URL, sql: string, res: ServerResponse): Promise<undefined> {
    const params = url.searchParams
    this.received.push({ path: url.pathname, params, sql })
    if (params.get('engine') !== this.options.engine) return error(res, 'unknown engine')
    const database = params.get('database') ?? ''
    if (!this.options.databases.includes(database))
      return error(res, `Database '${database}' does not exist or not authorized.`)
    const bound = parseParameters(params.get('query_parameters'))
    const cancel = /^CANCEL QUERY WHERE query_id = '([^']+)'$/i.exec(sql.trim())?.[1]
    if (cancel !== undefined) {
      const r = this.#running.get(cancel)
      if (r) {
        r.cancelled = true
        r.conn.interrupt()
      }
      return end(res)
    }
    if (/^SELECT query_id FROM information_schema\.engine_running_queries WHERE query_label = \$1$/i.test(sql.trim())) {
      const ids = [...this.#running.values()].filter((r) => r.label === bound[0]).map((r) => [r.id])
      return json(res, 200, { meta: [{ name: 'query_id', type: 'text' }], data: ids, rows: ids.length })
    }
    const conn = await this.#instance!.connect()
    const running: Running = {
      id: randomUUID(),
      label: params.get('query_label'),
      sql,
      conn,
      cancelled: false,
      timedOut: false,
    }
    this.#running.set(running.id, running)
    const limit = Number(params.get('statement_timeout') ?? '0')
    const timer =
      limit > 0
        ? setTimeout(() => {
            running.timedOut = true
            conn.interrupt()
          }, limit)
        : undefined
    try {
      const zone = params.get('time_zone') ?? 'UTC'
      await conn.run(`USE "${database}".public`)
      const set = await conn.prepare('SET TimeZone = $1')
      set.bind([zone])
      await set.run()
      const prepared = await conn.prepare(duckSql(sql))
      if (bound.length > 0) prepared.bind(bound as never)
      const reader = await prepared.runAndReadAll()
      const names = reader.columnNames()
      const types = reader.columnTypes()
      const renames = names.map((n) => n === 'data_type')
      const data = reader.getRows().map((row) =>
        row.map((v, i) => {
          const text = value(v, types[i], zone)
          return renames[i] && typeof text === 'string' ? fireboltTypeName(text) : text
        }),
      )
      json(res, 200, {
        meta: names.map((name, i) => ({ name, type: `${fireboltTypeName(String(types[i]))} null` })),
        data,
        rows: data.length,
        statistics: { elapsed: 0, rows_read: data.length, bytes_read: 0 },
      })
    } catch (err) {
      if (running.timedOut) return error(res, `Query exceeded the statement_timeout of ${limit} ms and was canceled.`)
      if (running.cancelled) return error(res, 'Query was canceled.')
      error(res, err instanceof Error ? err.message : String(err))
    } finally {
      clearTimeout(timer)
      this.#running.delete(running.id)
      conn.closeSync()
    }
  }
}

/** An empty 200 answer. */
function end(res: ServerResponse): undefined {
  res.end('')
  return undefined
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      body += chunk
    })
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })
}

function json(res: ServerResponse, status: number, body: unknown): undefined {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
  return undefined
}

/** Firebolt's structured error body. */
function error(res: ServerResponse, description: string): undefined {
  return json(res, 400, { errors: [{ name: 'QueryError', severity: 'ERROR', source: 'User Error', description }] })
}

function parseParameters(text: string | null): unknown[] {
  if (text === null || text === '') return []
  const list = JSON.parse(text) as { name: string; value: unknown }[]
  return list
    .sort((a, b) => Number(a.name.slice(1)) - Number(b.name.slice(1)))
    .map((p) => (typeof p.value === 'number' && Number.isInteger(p.value) ? BigInt(p.value) : p.value))
}

/** Firebolt catalog views DuckDB names otherwise. */
function duckSql(sql: string): string {
  return sql.replace(
    /information_schema\.catalogs/gi,
    "(SELECT database_name AS catalog_name FROM duckdb_databases() WHERE NOT internal AND database_name NOT IN ('memory', 'system', 'temp'))",
  )
}

/** DuckDB's type name → Firebolt's. */
export function fireboltTypeName(duck: string): string {
  const t = duck.toUpperCase()
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t)
  if (decimal) return `numeric(${decimal[1]}, ${decimal[2]})`
  const names: Record<string, string> = {
    INTEGER: 'integer',
    BIGINT: 'bigint',
    HUGEINT: 'numeric(38, 0)',
    SMALLINT: 'integer',
    TINYINT: 'integer',
    VARCHAR: 'text',
    DATE: 'date',
    TIMESTAMP: 'timestamp',
    'TIMESTAMP WITH TIME ZONE': 'timestamptz',
    BOOLEAN: 'boolean',
    DOUBLE: 'double precision',
    FLOAT: 'real',
    BLOB: 'bytea',
  }
  return names[t] ?? duck.toLowerCase()
}

/** A DuckDB value as Firebolt's JSON writes it. */
function value(v: unknown, type: DuckDBType | undefined, zone: string): unknown {
  if (v === null || v === undefined) return null
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v
  if (v instanceof DuckDBTimestampTZValue) {
    // 2024-01-01T09:00:00+09:00 → 2024-01-01 09:00:00+09 (Firebolt: hh, else hh:mm)
    return formatInstant(v.micros, zone)
      .replace('T', ' ')
      .replace(/([+-]\d{2}):00$/, '$1')
  }
  const text = String(v)
  if (type !== undefined && /^DECIMAL/.test(String(type))) return Number(text)
  return text
}
