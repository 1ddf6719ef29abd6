/**
 * A local stand-in for Databricks' SQL Statement Execution API 2.0 (test code, not shipped).
 * It speaks the documented REST protocol over HTTP on 127.0.0.1
 * (docs.databricks.com/api/workspace/statementexecution):
 * - `Authorization: Bearer <token>` on every call (401 with a JSON error otherwise);
 * - `POST /api/2.0/sql/statements` with `warehouse_id` (404 for another warehouse), `statement`,
 *   `parameters` ({ name, value, type }), `catalog`, `schema`, `row_limit`, `format: JSON_ARRAY`
 *   and `disposition` INLINE or EXTERNAL_LINKS (others 400), `wait_timeout` (`0s` or 5–50 s) with
 *   `on_wait_timeout` CONTINUE or CANCEL;
 * - states PENDING → RUNNING → SUCCEEDED | FAILED (error_code, message, sql_state) | CANCELED;
 * - `GET /api/2.0/sql/statements/{id}`: status, and once SUCCEEDED the manifest (schema with
 *   type_name/type_text, total_row_count, total_chunk_count, truncated) and the first chunk;
 * - results in chunks of `chunkRows` rows, each with `next_chunk_index` and
 *   `next_chunk_internal_link`, read with `GET …/result/chunks/{n}`;
 * - INLINE: the rows in the chunk's `data_array`, and a statement whose result is larger than
 *   the inline limit (25 MiB at Databricks; `inlineLimitBytes` here) FAILS, as the API's
 *   disposition docs say ("Statement Execution API", `disposition`);
 * - EXTERNAL_LINKS: each chunk names `external_links` ({ chunk_index, row_offset, row_count,
 *   byte_count, external_link, expiration, next_chunk_index, next_chunk_internal_link }); the
 *   link is a presigned URL (`/presigned/…?sig=…` on this server) whose body is the chunk's
 *   JSON array of rows, and which refuses a request carrying an Authorization header, as cloud
 *   storage refuses a second credential beside a presigned one;
 * - `POST …/{id}/cancel` → CANCELED (the running statement is interrupted).
 * The statements themselves run on DuckDB (@duckdb/node-api, in-process), with the named
 * parameters bound as DuckDB parameters of the requested type; `catalog`/`schema` become
 * DuckDB's current catalog and schema. It proves the transport, never Databricks' SQL.
 */
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBPreparedStatement,
  DuckDBTimestampTZValue,
  type DuckDBType,
  quotedIdentifier,
} from '@duckdb/node-api'
import { toDuckSql } from './sql.js'

export interface StandInOptions {
  readonly token: string
  readonly warehouseId: string
  /** Rows per result chunk (small values exercise paging). */
  readonly chunkRows?: number
  /** Bytes of JSON rows an INLINE result may have (Databricks: 25 MiB). */
  readonly inlineLimitBytes?: number
  /** How long a statement stays PENDING (a warehouse starting), default 0. */
  readonly pendingMs?: number
}

type State = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'CLOSED'

interface Parameter {
  readonly name: string
  readonly value?: string | null
  readonly type?: string
}

interface Column {
  readonly name: string
  readonly type_name: string
  readonly type_text: string
  readonly position: number
}

interface Statement {
  readonly id: string
  readonly sql: string
  state: State
  error?: { error_code: string; message: string }
  sqlState?: string
  columns?: Column[]
  chunks?: (string | null)[][][]
  disposition?: string
  secret?: string
  totalRows?: number
  truncated?: boolean
  conn?: DuckDBConnection
  /** Until the warehouse "starts" it (pendingMs). */
  timer?: ReturnType<typeof setTimeout>
  readonly finished: Promise<void>
  finish: () => void
}

/** What the stand-in was asked, for tests to check what went over the wire. */
export interface Logged {
  readonly method: string
  readonly path: string
  readonly body: unknown
}

const PREFIX = '/api/2.0/sql/statements'

export class DatabricksStandIn {
  readonly log: Logged[] = []
  readonly #statements = new Map<string, Statement>()
  readonly #options: Required<StandInOptions>
  readonly #instance: DuckDBInstance
  readonly #server: Server
  #url = ''

  private constructor(options: StandInOptions, instance: DuckDBInstance) {
    this.#options = { chunkRows: 1000, pendingMs: 0, inlineLimitBytes: 25 * 1024 * 1024, ...options }
    this.#instance = instance
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch((err: unknown) =>
        send(res, 500, { error_code: 'INTERNAL_ERROR', message: String(err) }),
      )
    })
  }

  /** Starts on 127.0.0.1 with catalog `workspace` and its default schema `default`. */
  static async start(options: StandInOptions): Promise<DatabricksStandIn> {
    const instance = await DuckDBInstance.create(':memory:')
    const setup = await instance.connect()
    await setup.run(`ATTACH ':memory:' AS workspace`)
    await setup.run('CREATE SCHEMA workspace."default"')
    setup.closeSync()
    const standIn = new DatabricksStandIn(options, instance)
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve))
    standIn.#url = `http://127.0.0.1:${(standIn.#server.address() as AddressInfo).port}`
    return standIn
  }

  /** `http://127.0.0.1:<port>`: a serverHostname override. */
  get url(): string {
    return this.#url
  }

  /** The operator's statements (fixture data), run in catalog `workspace`. */
  async admin(sql: string): Promise<void> {
    const conn = await this.#instance.connect()
    try {
      await conn.run('USE workspace')
      await conn.run(sql)
    } finally {
      conn.closeSync()
    }
  }

  /** Statements with `marker` in their text that the service reports PENDING or RUNNING. */
  running(marker: string): number {
    return [...this.#statements.values()].filter(
      (s) => (s.state === 'PENDING' || s.state === 'RUNNING') && s.sql.includes(marker),
    ).length
  }

  /** The state the service reports for the statement whose text carries `marker`. */
  states(marker: string): State[] {
    return [...this.#statements.values()].filter((s) => s.sql.includes(marker)).map((s) => s.state)
  }

  async close(): Promise<void> {
    for (const s of this.#statements.values()) this.#cancel(s)
    await Promise.all([...this.#statements.values()].map((s) => s.finished.catch(() => undefined)))
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
    this.#server.closeAllConnections()
    this.#instance.closeSync()
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://standin')
    const text = await readBody(req)
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      return send(res, 400, { error_code: 'MALFORMED_REQUEST', message: 'The request body is not JSON' })
    }
    this.log.push({ method: req.method ?? '', path: url.pathname, body })
    const presigned = /^\/presigned\/([^/]+)\/(\d+)$/.exec(url.pathname)
    if (presigned)
      return this.#download(req, res, presigned[1] ?? '', Number(presigned[2]), url.searchParams.get('sig'))
    if (req.headers.authorization !== `Bearer ${this.#options.token}`) {
      return send(res, 401, { error_code: 'UNAUTHENTICATED', message: 'Invalid access token.' })
    }
    const path = url.pathname
    if (req.method === 'POST' && path === PREFIX) return this.#submit(res, body)
    const m = /^\/api\/2\.0\/sql\/statements\/([^/]+)(\/cancel|\/result\/chunks\/(\d+))?$/.exec(path)
    const statement = m?.[1] ? this.#statements.get(m[1]) : undefined
    if (!m || !statement) {
      return send(res, 404, { error_code: 'RESOURCE_DOES_NOT_EXIST', message: `No such statement or API: ${path}` })
    }
    if (req.method === 'POST' && m[2] === '/cancel') {
      this.#cancel(statement)
      return send(res, 200, {})
    }
    if (req.method === 'GET' && m[3] !== undefined) {
      const chunk = this.#chunk(statement, Number(m[3]))
      if (chunk === undefined) {
        return send(res, 400, { error_code: 'INVALID_PARAMETER_VALUE', message: `No chunk ${m[3]} for this statement` })
      }
      return send(res, 200, chunk)
    }
    if (req.method === 'GET' && m[2] === undefined) return send(res, 200, this.#response(statement))
    return send(res, 405, { error_code: 'BAD_REQUEST', message: 'Method not allowed' })
  }

  async #submit(res: ServerResponse, body: unknown): Promise<void> {
    const b = (body ?? {}) as Record<string, unknown>
    if (b.warehouse_id !== this.#options.warehouseId) {
      return send(res, 404, {
        error_code: 'RESOURCE_DOES_NOT_EXIST',
        message: `SQL warehouse ${String(b.warehouse_id)} does not exist.`,
      })
    }
    const bad = (message: string) => send(res, 400, { error_code: 'INVALID_PARAMETER_VALUE', message })
    if (typeof b.statement !== 'string' || b.statement.trim() === '') return bad('statement is required')
    if ((b.format ?? 'JSON_ARRAY') !== 'JSON_ARRAY') return bad('this stand-in serves format JSON_ARRAY only')
    const disposition = String(b.disposition ?? 'INLINE')
    if (disposition !== 'INLINE' && disposition !== 'EXTERNAL_LINKS')
      return bad(`disposition ${disposition} is not served here`)
    const wait = /^(\d+)s$/.exec(String(b.wait_timeout ?? '10s'))
    const waitSeconds = wait ? Number(wait[1]) : Number.NaN
    if (!(waitSeconds === 0 || (waitSeconds >= 5 && waitSeconds <= 50))) {
      return bad('wait_timeout must be 0s or between 5s and 50s')
    }
    const onWaitTimeout = b.on_wait_timeout ?? 'CONTINUE'
    if (onWaitTimeout !== 'CONTINUE' && onWaitTimeout !== 'CANCEL')
      return bad('on_wait_timeout must be CONTINUE or CANCEL')
    const rowLimit = b.row_limit === undefined ? undefined : Number(b.row_limit)
    if (rowLimit !== undefined && !(Number.isSafeInteger(rowLimit) && rowLimit > 0))
      return bad('row_limit must be positive')
    const parameters = (b.parameters ?? []) as Parameter[]
    if (!Array.isArray(parameters) || parameters.some((p) => typeof p?.name !== 'string')) {
      return bad('parameters must be a list of { name, value, type }')
    }
    const id = randomUUID()
    let finish: () => void = () => undefined
    const finished = new Promise<void>((resolve) => {
      finish = resolve
    })
    const statement: Statement = {
      id,
      sql: b.statement,
      state: 'PENDING',
      finished,
      finish,
      disposition,
      secret: randomUUID().replaceAll('-', ''),
    }
    this.#statements.set(id, statement)
    statement.timer = setTimeout(() => {
      statement.timer = undefined
      this.#execute(statement, {
        catalog: typeof b.catalog === 'string' ? b.catalog : undefined,
        schema: typeof b.schema === 'string' ? b.schema : undefined,
        parameters,
        rowLimit,
      }).finally(finish)
    }, this.#options.pendingMs)
    if (waitSeconds > 0) {
      const waited = await Promise.race([
        statement.finished.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitSeconds * 1000)),
      ])
      if (!waited && onWaitTimeout === 'CANCEL') this.#cancel(statement)
    }
    return send(res, 200, this.#response(statement))
  }

  async #execute(
    s: Statement,
    request: { catalog?: string; schema?: string; parameters: readonly Parameter[]; rowLimit?: number },
  ): Promise<void> {
    if (s.state !== 'PENDING') return // cancelled while pending
    s.state = 'RUNNING'
    const conn = await this.#instance.connect()
    s.conn = conn
    try {
      await conn.run("SET TimeZone = 'UTC'")
      await conn.run(`USE ${quotedIdentifier(request.catalog ?? 'workspace')}`)
      if (request.schema !== undefined) {
        try {
          await conn.run(`USE ${quotedIdentifier(request.catalog ?? 'workspace')}.${quotedIdentifier(request.schema)}`)
        } catch {
          throw Object.assign(new Error(`[SCHEMA_NOT_FOUND] The schema \`${request.schema}\` cannot be found.`), {
            sqlState: '42704',
          })
        }
      } else {
        await conn.run(`USE ${quotedIdentifier(request.catalog ?? 'workspace')}."default"`)
      }
      const prepared = await conn.prepare(toDuckSql(s.sql))
      bindParameters(prepared, request.parameters)
      const reader = await prepared.runAndReadAll()
      if (s.state !== 'RUNNING') return // cancelled meanwhile
      const names = reader.columnNames()
      const types = reader.columnTypes()
      s.columns = names.map((name, i) => ({ name, ...databricksType(types[i] as DuckDBType), position: i }))
      const all = reader.getRowsJson().map((row) => row.map((v, i) => render(v, s.columns?.[i]?.type_name ?? '')))
      const limit = request.rowLimit ?? all.length
      const rows = all.slice(0, limit)
      s.truncated = all.length > limit
      s.totalRows = rows.length
      s.chunks = []
      for (let i = 0; i < rows.length; i += this.#options.chunkRows)
        s.chunks.push(rows.slice(i, i + this.#options.chunkRows))
      if (s.chunks.length === 0) s.chunks.push([])
      if (
        s.disposition !== 'EXTERNAL_LINKS' &&
        Buffer.byteLength(JSON.stringify(rows)) > this.#options.inlineLimitBytes
      ) {
        throw new Error(
          'Inline byte limit exceeded: use disposition EXTERNAL_LINKS for results larger than the inline limit',
        )
      }
      s.state = 'SUCCEEDED'
    } catch (err) {
      if (s.state !== 'RUNNING') return // the interrupt of a cancel
      s.state = 'FAILED'
      s.error = { error_code: 'BAD_REQUEST', message: err instanceof Error ? err.message : String(err) }
      s.sqlState = (err as { sqlState?: string }).sqlState ?? '42000'
    } finally {
      s.conn = undefined
      conn.closeSync()
    }
  }

  #cancel(s: Statement): void {
    if (s.state !== 'PENDING' && s.state !== 'RUNNING') return
    s.state = 'CANCELED'
    if (s.timer !== undefined) {
      clearTimeout(s.timer) // never started: nothing runs
      s.finish()
    }
    s.conn?.interrupt()
  }

  #response(s: Statement): Record<string, unknown> {
    const status: Record<string, unknown> = { state: s.state }
    if (s.state === 'FAILED') {
      status.error = s.error
      status.sql_state = s.sqlState
    }
    const out: Record<string, unknown> = { statement_id: s.id, status }
    if (s.state === 'SUCCEEDED' && s.chunks && s.columns) {
      out.manifest = {
        format: 'JSON_ARRAY',
        schema: { column_count: s.columns.length, columns: s.columns },
        total_chunk_count: s.chunks.length,
        chunks: s.chunks.map((c, i) => ({ chunk_index: i, row_offset: this.#offset(i), row_count: c.length })),
        total_row_count: s.totalRows,
        truncated: s.truncated,
      }
      out.result = this.#chunk(s, 0)
    }
    return out
  }

  #offset(index: number): number {
    return index * this.#options.chunkRows
  }

  #chunk(s: Statement, index: number): Record<string, unknown> | undefined {
    const rows = s.state === 'SUCCEEDED' ? s.chunks?.[index] : undefined
    if (rows === undefined) return undefined
    const chunk: Record<string, unknown> = {
      chunk_index: index,
      row_offset: this.#offset(index),
      row_count: rows.length,
    }
    if (index + 1 < (s.chunks?.length ?? 0)) {
      chunk.next_chunk_index = index + 1
      chunk.next_chunk_internal_link = `${PREFIX}/${s.id}/result/chunks/${index + 1}`
    }
    if (s.disposition !== 'EXTERNAL_LINKS') return { ...chunk, data_array: rows }
    const link = {
      ...chunk,
      byte_count: Buffer.byteLength(JSON.stringify(rows)),
      external_link: `${this.url}/presigned/${s.id}/${index}?sig=${s.secret}`,
      expiration: new Date(Date.now() + 15 * 60_000).toISOString(),
    }
    return { external_links: [link] }
  }

  /** A presigned URL: its own signature, no Authorization header (cloud storage refuses a second credential). */
  #download(req: IncomingMessage, res: ServerResponse, id: string, index: number, sig: string | null): void {
    const s = this.#statements.get(id)
    if (req.headers.authorization !== undefined) {
      res
        .writeHead(400, { 'Content-Type': 'application/xml' })
        .end('<Error><Code>InvalidArgument</Code><Message>Only one auth mechanism allowed</Message></Error>')
      return
    }
    const rows =
      s !== undefined && s.disposition === 'EXTERNAL_LINKS' && sig === s.secret ? s.chunks?.[index] : undefined
    if (rows === undefined) {
      res.writeHead(403, { 'Content-Type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>')
      return
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(JSON.stringify(rows))
  }
}

/** Binds each `{ name, value, type }` to DuckDB's `$name`, as the warehouse casts value to type. */
function bindParameters(prepared: DuckDBPreparedStatement, parameters: readonly Parameter[]): void {
  for (const p of parameters) {
    let index: number
    try {
      index = prepared.parameterIndex(p.name)
    } catch {
      continue // a supplied parameter need not be referenced
    }
    const type = (p.type ?? 'STRING').toUpperCase().replace(/\(.*$/, '')
    const value = p.value
    if (value === undefined || value === null) {
      prepared.bindNull(index)
    } else if (type === 'STRING') {
      prepared.bindVarchar(index, value)
    } else if (['TINYINT', 'SMALLINT', 'INT', 'INTEGER', 'BIGINT'].includes(type)) {
      if (!/^-?\d+$/.test(value)) throw new Error(`[CAST_INVALID_INPUT] The value '${value}' cannot be cast to ${type}`)
      prepared.bindBigInt(index, BigInt(value))
    } else if (['FLOAT', 'DOUBLE', 'DECIMAL'].includes(type)) {
      prepared.bindDouble(index, Number(value))
    } else if (type === 'BOOLEAN') {
      prepared.bindBoolean(index, value.toLowerCase() === 'true')
    } else if (type === 'TIMESTAMP') {
      prepared.bindTimestampTZ(index, new DuckDBTimestampTZValue(BigInt(Date.parse(value)) * 1000n))
    } else {
      prepared.bindVarchar(index, value)
    }
  }
}

/** DuckDB's result type → the manifest's `type_name` and `type_text`. */
function databricksType(type: DuckDBType): { type_name: string; type_text: string } {
  const text = type.toString().toUpperCase()
  const base = text.replace(/\(.*$/, '')
  const simple: Record<string, [string, string]> = {
    TINYINT: ['BYTE', 'tinyint'],
    SMALLINT: ['SHORT', 'smallint'],
    INTEGER: ['INT', 'int'],
    BIGINT: ['LONG', 'bigint'],
    HUGEINT: ['DECIMAL', 'decimal(38,0)'],
    FLOAT: ['FLOAT', 'float'],
    DOUBLE: ['DOUBLE', 'double'],
    VARCHAR: ['STRING', 'string'],
    BOOLEAN: ['BOOLEAN', 'boolean'],
    DATE: ['DATE', 'date'],
    TIMESTAMP: ['TIMESTAMP_NTZ', 'timestamp_ntz'],
    'TIMESTAMP WITH TIME ZONE': ['TIMESTAMP', 'timestamp'],
    BLOB: ['BINARY', 'binary'],
  }
  if (base === 'DECIMAL') return { type_name: 'DECIMAL', type_text: text.toLowerCase() }
  const known = simple[base]
  if (known) return { type_name: known[0], type_text: known[1] }
  if (text.endsWith('[]')) return { type_name: 'ARRAY', type_text: 'array<string>' }
  return { type_name: 'STRING', type_text: 'string' }
}

/** A DuckDB JSON value → its JSON_ARRAY string representation (or null). */
function render(value: unknown, typeName: string): string | null {
  if (value === null || value === undefined) return null
  if (typeName === 'TIMESTAMP' && typeof value === 'string') {
    // `2024-01-01 00:00:00+00` (the session is UTC) → `2024-01-01T00:00:00.000Z`
    return new Date(value.replace(' ', 'T').replace(/\+00(:00)?$/, 'Z')).toISOString()
  }
  if (typeName === 'TIMESTAMP_NTZ' && typeof value === 'string') return value.replace(' ', 'T')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      data += chunk
    })
    req.on('end', () => resolve(data))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}
