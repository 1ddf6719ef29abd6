/**
 * A local STAND-IN for Snowflake (test code, not a Snowflake): an HTTP server speaking the
 * session protocol that the official snowflake-sdk uses, so the connector is tested through the
 * real SDK. It is never a live test: the SQL runs on DuckDB (@duckdb/node-api), not on
 * Snowflake, so it proves the transport — login, binds, polling, chunks, abort, session
 * deletion, error codes — and never Snowflake's SQL semantics.
 *
 * What it implements:
 * - POST /session/v1/login-request (gzipped JSON, as the SDK sends it): LOGIN_NAME + PASSWORD,
 *   or AUTHENTICATOR SNOWFLAKE_JWT + TOKEN, an RS256 JWT verified against the user's registered
 *   public key (signature, issuer `ACCOUNT.USER.SHA256:<fingerprint>` of that key, subject,
 *   expiry). Wrong credentials: `390100 Incorrect username or password was specified.`; a bad
 *   JWT: `390144 JWT token is invalid.`. The login's databaseName/schemaName (quoted: exact,
 *   else upper-cased) pick the session's DuckDB catalog and schema; an unknown database gives a
 *   session without one (an empty catalog), as Snowflake logs in without a current database.
 * - POST /queries/v1/query-request: `bindings` ({"1": {type, value}}) for `:n` and `?`
 *   placeholders, bound as DuckDB parameters (never spliced); more than one statement is
 *   refused (000008). The request is held for `holdMs`; a statement still running then answers
 *   333334 with a getResultUrl, which GET /queries/<id>/result polls the same way.
 *   Results use Snowflake's JSON result format (rowtype, rowset as text, numbers as text,
 *   DATE as days, TIMESTAMP_NTZ/LTZ as epoch seconds.nanoseconds, the session's parameters);
 *   past `chunkRows` rows the rest is served as result chunks (GET /chunks/<id>/<n>, checked
 *   against the chunk header the result names), counted in `chunkDownloads`.
 * - ALTER SESSION SET/UNSET of TIMEZONE (DuckDB's TimeZone follows it),
 *   STATEMENT_TIMEOUT_IN_SECONDS (the statement is interrupted at that limit: 000630), WEEK_START.
 * - POST /queries/<id>/abort-request and /queries/v1/abort-request {requestId}: the DuckDB
 *   statement is interrupted and answers `000604 SQL execution canceled`; recorded in `aborts`.
 * - POST /session?delete=true ends the session; POST /telemetry/send is accepted and ignored.
 * - INFORMATION_SCHEMA.COLUMNS and .DATABASES: Snowflake-shaped tables the stand-in keeps per
 *   database (sql.ts rewrites the name), filled by createDatabase/createTable.
 * Column names come back as DuckDB gives them (Snowflake would upper-case unquoted aliases).
 */
import { createHash, createPublicKey, randomBytes, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import {
  type DuckDBConnection,
  type DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBInstance,
  type DuckDBTimestampTZValue,
  type DuckDBTimestampValue,
  DuckDBTypeId,
  type DuckDBValue,
} from '@duckdb/node-api'
import { importSPKI, jwtVerify } from 'jose'
import { alterSession, loginIdentifier, translate } from './sql.js'

export interface StandInUser {
  readonly name: string
  readonly password?: string
  /** PEM (SPKI) public key for key-pair authentication. */
  readonly publicKeyPem?: string
}

export interface StandInOptions {
  readonly users: readonly StandInUser[]
  /** How long a query or result request waits for the statement before answering "in progress". */
  readonly holdMs?: number
  /** Rows inline in the first answer; the rest in chunks of this size. */
  readonly chunkRows?: number
  /** false: ignore STATEMENT_TIMEOUT_IN_SECONDS (a server whose own limit never answers). */
  readonly honourStatementTimeout?: boolean
  /** true: the query request always answers "in progress" (the client must poll for the result). */
  readonly alwaysPoll?: boolean
}

/** A column of a table the stand-in creates, in Snowflake's terms. */
export interface StandInColumn {
  readonly name: string
  /** NUMBER, FLOAT, TEXT, BOOLEAN, DATE, TIMESTAMP_NTZ, TIMESTAMP_LTZ. */
  readonly type: string
  readonly precision?: number
  readonly scale?: number
}

interface SessionState {
  readonly id: number
  readonly token: string
  readonly user: string
  readonly database: string | undefined
  readonly schema: string | undefined
  readonly connection: DuckDBConnection
  readonly parameters: Map<string, string>
}

interface Query {
  readonly id: string
  readonly requestId: string
  readonly sql: string
  readonly session: SessionState
  done: boolean
  aborted: boolean
  outcome: { body: unknown } | undefined
  readonly finished: Promise<void>
  readonly chunks: unknown[][][]
  readonly chunkKey: string
}

const NO_DATABASE = 'STANDIN_NO_DATABASE'
const DEFAULT_PARAMETERS: Readonly<Record<string, string>> = {
  TIMEZONE: 'America/Los_Angeles', // Snowflake's default
  WEEK_START: '0',
  STATEMENT_TIMEOUT_IN_SECONDS: '172800',
  TIMESTAMP_OUTPUT_FORMAT: 'YYYY-MM-DD HH24:MI:SS.FF3 TZHTZM',
  TIMESTAMP_NTZ_OUTPUT_FORMAT: 'YYYY-MM-DD HH24:MI:SS.FF3',
  TIMESTAMP_LTZ_OUTPUT_FORMAT: '',
  TIMESTAMP_TZ_OUTPUT_FORMAT: '',
  DATE_OUTPUT_FORMAT: 'YYYY-MM-DD',
  TIME_OUTPUT_FORMAT: 'HH24:MI:SS',
}

const DUCK_TYPE: Readonly<Record<string, (c: StandInColumn) => string>> = {
  NUMBER: (c) => ((c.scale ?? 0) === 0 ? 'BIGINT' : `DECIMAL(${Math.min(c.precision ?? 38, 38)}, ${c.scale})`),
  FLOAT: () => 'DOUBLE',
  TEXT: () => 'VARCHAR',
  BOOLEAN: () => 'BOOLEAN',
  DATE: () => 'DATE',
  TIMESTAMP_NTZ: () => 'TIMESTAMP',
  TIMESTAMP_LTZ: () => 'TIMESTAMPTZ',
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`

export class SnowflakeStandIn {
  readonly #server: Server
  readonly #duck: DuckDBInstance
  readonly #admin: DuckDBConnection
  readonly #options: StandInOptions
  readonly #sessions = new Map<string, SessionState>()
  readonly #queries = new Map<string, Query>()
  readonly #databases = new Set<string>()
  #nextSession = 1
  /** SQL text of every statement an abort request stopped. */
  readonly aborts: string[] = []
  /** Logins accepted: user and authenticator. */
  readonly logins: { user: string; authenticator: string }[] = []
  chunkDownloads = 0
  /** Result polls (GET /queries/<id>/result) served. */
  polls = 0
  /** Every statement text received, in order. */
  readonly statements: string[] = []

  private constructor(server: Server, duck: DuckDBInstance, admin: DuckDBConnection, options: StandInOptions) {
    this.#server = server
    this.#duck = duck
    this.#admin = admin
    this.#options = options
  }

  static async start(options: StandInOptions): Promise<SnowflakeStandIn> {
    const duck = await DuckDBInstance.create(':memory:')
    const admin = await duck.connect()
    const server = createServer()
    const standIn = new SnowflakeStandIn(server, duck, admin, options)
    server.on('request', (req, res) => {
      standIn.#handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(err))
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    await standIn.#createCatalog(NO_DATABASE)
    return standIn
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port
  }

  /** The endpoint override the connector's `host` takes. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /** Sessions open (logged in and not deleted). */
  get sessions(): number {
    return this.#sessions.size
  }

  /** Statements with `marker` in their text still running. */
  running(marker: string): number {
    return [...this.#queries.values()].filter((qy) => !qy.done && qy.sql.includes(marker)).length
  }

  async createDatabase(name: string, schemas: readonly string[]): Promise<void> {
    await this.#createCatalog(name)
    for (const schema of schemas) await this.#admin.run(`CREATE SCHEMA IF NOT EXISTS ${q(name)}.${q(schema)}`)
    this.#databases.add(name)
    for (const db of [...this.#databases, NO_DATABASE]) {
      await this.#admin.run(`DELETE FROM ${q(db)}.SF_INFORMATION_SCHEMA.DATABASES`)
      for (const listed of this.#databases) {
        await this.#admin.run(`INSERT INTO ${q(db)}.SF_INFORMATION_SCHEMA.DATABASES VALUES ($1)`, [listed])
      }
    }
  }

  async createTable(
    database: string,
    schema: string,
    table: string,
    columns: readonly StandInColumn[],
    rows: readonly (readonly DuckDBValue[])[],
  ): Promise<void> {
    const defs = columns.map((c) => `${q(c.name)} ${(DUCK_TYPE[c.type] ?? (() => 'VARCHAR'))(c)}`)
    const target = `${q(database)}.${q(schema)}.${q(table)}`
    await this.#admin.run(`CREATE TABLE ${target} (${defs.join(', ')})`)
    for (const row of rows) {
      await this.#admin.run(
        `INSERT INTO ${target} VALUES (${row.map((_, i) => `$${i + 1}`).join(', ')})`,
        row as DuckDBValue[],
      )
    }
    for (const [i, c] of columns.entries()) {
      const numeric = c.type === 'NUMBER'
      await this.#admin.run(
        `INSERT INTO ${q(database)}.SF_INFORMATION_SCHEMA.COLUMNS VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          database,
          schema,
          table,
          c.name,
          i + 1,
          c.type,
          numeric ? (c.precision ?? 38) : null,
          numeric ? (c.scale ?? 0) : null,
          'YES',
        ],
      )
    }
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
    for (const s of this.#sessions.values()) s.connection.closeSync()
    this.#sessions.clear()
    this.#admin.closeSync()
    this.#duck.closeSync()
  }

  async #createCatalog(name: string): Promise<void> {
    await this.#admin.run(`ATTACH ':memory:' AS ${q(name)}`)
    await this.#admin.run(`CREATE SCHEMA ${q(name)}.SF_INFORMATION_SCHEMA`)
    await this.#admin.run(
      `CREATE TABLE ${q(name)}.SF_INFORMATION_SCHEMA.COLUMNS (TABLE_CATALOG VARCHAR, TABLE_SCHEMA VARCHAR, TABLE_NAME VARCHAR, COLUMN_NAME VARCHAR, ORDINAL_POSITION INTEGER, DATA_TYPE VARCHAR, NUMERIC_PRECISION INTEGER, NUMERIC_SCALE INTEGER, IS_NULLABLE VARCHAR)`,
    )
    await this.#admin.run(`CREATE TABLE ${q(name)}.SF_INFORMATION_SCHEMA.DATABASES (DATABASE_NAME VARCHAR)`)
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://standin')
    const raw = await readBody(req)
    const body: unknown = raw.length === 0 ? {} : JSON.parse(raw.toString('utf8'))
    const path = url.pathname
    if (req.method === 'POST' && path === '/session/v1/login-request') return this.#login(url, body, res)
    const chunk = /^\/chunks\/([^/]+)\/(\d+)$/.exec(path)
    if (req.method === 'GET' && chunk) return this.#chunk(chunk[1] as string, Number(chunk[2]), req, res)
    const session = this.#sessionOf(req)
    if (session === undefined) {
      return json(
        res,
        { success: false, code: '390104', message: 'Authentication token has expired.', data: null },
        401,
      )
    }
    if (req.method === 'POST' && path === '/session' && url.searchParams.get('delete') === 'true') {
      this.#sessions.delete(session.token)
      session.connection.closeSync()
      return json(res, { success: true, code: null, message: null, data: null })
    }
    if (req.method === 'POST' && path === '/telemetry/send') return json(res, { success: true, data: null })
    if (req.method === 'POST' && path === '/queries/v1/query-request') {
      return this.#submit(session, url.searchParams.get('requestId') ?? randomUUID(), body, res)
    }
    const result = /^\/queries\/([^/]+)\/result$/.exec(path)
    if (req.method === 'GET' && result) return this.#answer(result[1] as string, res)
    const abort = /^\/queries\/([^/]+)\/abort-request$/.exec(path)
    if (req.method === 'POST' && abort) {
      const requestId = (body as { requestId?: string }).requestId
      const query =
        abort[1] === 'v1'
          ? [...this.#queries.values()].find((qy) => qy.requestId === requestId)
          : this.#queries.get(abort[1] as string)
      if (query && !query.done) {
        query.aborted = true
        this.aborts.push(query.sql)
        query.session.connection.interrupt()
      }
      return json(res, { success: true, code: null, message: null, data: null })
    }
    json(res, { success: false, code: '000001', message: `stand-in: no ${req.method} ${path}`, data: null }, 404)
  }

  async #login(url: URL, body: unknown, res: ServerResponse): Promise<void> {
    const data = (body as { data?: Record<string, unknown> }).data ?? {}
    const loginName = String(data.LOGIN_NAME ?? '')
    const user = this.#options.users.find((u) => u.name.toUpperCase() === loginName.toUpperCase())
    const authenticator = String(data.AUTHENTICATOR ?? 'SNOWFLAKE').toUpperCase()
    if (authenticator === 'SNOWFLAKE_JWT') {
      const ok = user?.publicKeyPem !== undefined && (await verifyJwt(String(data.TOKEN ?? ''), user, data))
      if (!ok) return json(res, failure('390144', 'JWT token is invalid.'))
    } else if (user?.password === undefined || user.password !== data.PASSWORD) {
      return json(res, failure('390100', 'Incorrect username or password was specified.'))
    }
    const database = loginIdentifier(url.searchParams.get('databaseName') ?? undefined)
    const schema = loginIdentifier(url.searchParams.get('schemaName') ?? undefined)
    const exists = database !== undefined && this.#databases.has(database)
    const connection = await this.#duck.connect()
    await connection.run(
      `USE ${q(exists ? (database as string) : NO_DATABASE)}${exists && schema ? `.${q(schema)}` : ''}`,
    )
    const parameters = new Map(Object.entries(DEFAULT_PARAMETERS))
    await connection.run(`SET TimeZone = '${parameters.get('TIMEZONE')}'`)
    const session: SessionState = {
      id: this.#nextSession++,
      token: randomBytes(24).toString('hex'),
      user: loginName,
      database: exists ? database : undefined,
      schema,
      connection,
      parameters,
    }
    this.#sessions.set(session.token, session)
    this.logins.push({ user: loginName, authenticator })
    json(res, {
      success: true,
      code: null,
      message: null,
      data: {
        token: session.token,
        masterToken: `master-${session.token}`,
        validityInSeconds: 3600,
        masterValidityInSeconds: 14400,
        sessionId: session.id,
        parameters: parametersOf(session),
        sessionInfo: { databaseName: session.database ?? null, schemaName: schema ?? null },
      },
    })
  }

  #sessionOf(req: IncomingMessage): SessionState | undefined {
    const m = /Snowflake Token="([^"]+)"/.exec(req.headers.authorization ?? '')
    return m ? this.#sessions.get(m[1] as string) : undefined
  }

  async #submit(session: SessionState, requestId: string, body: unknown, res: ServerResponse): Promise<void> {
    const request = body as { sqlText?: string; bindings?: Record<string, { type: string; value: unknown }> }
    const sqlText = String(request.sqlText ?? '')
    this.statements.push(sqlText)
    const alter = alterSession(sqlText)
    if (alter) {
      if (alter.value === undefined) session.parameters.set(alter.name, DEFAULT_PARAMETERS[alter.name] ?? '')
      else session.parameters.set(alter.name, alter.value)
      if (alter.name === 'TIMEZONE') {
        const zone = session.parameters.get('TIMEZONE') ?? 'UTC'
        await session.connection.run('SET TimeZone = $1', [zone])
      }
      return json(
        res,
        success(session, randomUUID(), [{ name: 'status', type: 'text' }], [['Statement executed successfully.']]),
      )
    }
    const translated = translate(sqlText)
    if (translated.statements !== 1) {
      return json(
        res,
        failure(
          '000008',
          `Actual statement count ${translated.statements} did not match the desired statement count 1.`,
          '0A000',
        ),
      )
    }
    const values = translated.bindOrder.map((n) => bindValue(request.bindings?.[String(n)]))
    const query: Query = this.#start(session, requestId, sqlText, translated.sql, values)
    await this.#respond(query, res, this.#options.alwaysPoll === true)
  }

  #start(session: SessionState, requestId: string, sqlText: string, sql: string, values: DuckDBValue[]): Query {
    const id = randomUUID()
    const chunks: unknown[][][] = []
    const query = {
      id,
      requestId,
      sql: sqlText,
      session,
      done: false,
      aborted: false,
      outcome: undefined,
      chunks,
      chunkKey: randomBytes(12).toString('hex'),
    } as Omit<Query, 'finished'> & { finished?: Promise<void> }
    this.#queries.set(id, query as Query)
    const seconds = Number(session.parameters.get('STATEMENT_TIMEOUT_IN_SECONDS'))
    let timedOut = false
    const limit =
      this.#options.honourStatementTimeout !== false && seconds > 0 && seconds < 172800
        ? setTimeout(() => {
            timedOut = true
            session.connection.interrupt()
          }, seconds * 1000)
        : undefined
    ;(query as { finished: Promise<void> }).finished = (async () => {
      try {
        const reader = await session.connection.runAndReadAll(sql, values)
        const names = reader.columnNames()
        const types = reader.columnTypes()
        const rowtype = names.map((name, i) => rowTypeOf(name, types[i]?.typeId, types[i]))
        const rows = reader.getRows().map((r) => r.map((v, i) => encode(v, rowtype[i]?.type)))
        query.outcome = { body: this.#result(query as Query, rowtype, rows) }
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err)
        query.outcome = {
          body: timedOut
            ? failure(
                '000630',
                `Statement reached its statement or warehouse timeout of ${seconds} second(s) and was canceled.`,
                '57014',
                id,
              )
            : query.aborted
              ? failure('000604', 'SQL execution canceled', '57014', id)
              : failure('001003', `SQL compilation error:\n${message}`, '42000', id),
        }
      } finally {
        clearTimeout(limit)
        query.done = true
      }
    })()
    return query as Query
  }

  #result(query: Query, rowtype: RowType[], rows: unknown[][]): unknown {
    const size = this.#options.chunkRows ?? 1000
    const first = rows.slice(0, size)
    for (let i = size; i < rows.length; i += size) query.chunks.push(rows.slice(i, i + size))
    const body = success(query.session, query.id, rowtype, first) as { data: Record<string, unknown> }
    // `total` and `returned` count the whole result, chunks included (the client reads getNumRows from `returned`)
    body.data.total = rows.length
    body.data.returned = rows.length
    if (query.chunks.length > 0) {
      body.data.chunks = query.chunks.map((c, i) => ({
        url: `http://127.0.0.1:${this.port}/chunks/${query.id}/${i}`,
        rowCount: c.length,
        uncompressedSize: JSON.stringify(c).length,
        compressedSize: JSON.stringify(c).length,
      }))
      body.data.chunkHeaders = { 'x-standin-chunk-key': query.chunkKey }
    }
    return body
  }

  async #respond(query: Query, res: ServerResponse, inProgress = false): Promise<void> {
    const hold = this.#options.holdMs ?? 200
    await Promise.race([query.finished, new Promise((resolve) => setTimeout(resolve, hold))])
    if (!inProgress && query.done && query.outcome) return json(res, query.outcome.body)
    json(res, {
      success: true,
      code: '333334',
      message: 'Asynchronous execution in progress. Use provided query id to perform query monitoring and management.',
      data: { queryId: query.id, getResultUrl: `/queries/${query.id}/result` },
    })
  }

  async #answer(id: string, res: ServerResponse): Promise<void> {
    const query = this.#queries.get(id)
    if (!query) return json(res, failure('000709', `Statement ${id} not found`))
    this.polls++
    await this.#respond(query, res)
  }

  #chunk(id: string, index: number, req: IncomingMessage, res: ServerResponse): void {
    const query = this.#queries.get(id)
    const rows = query?.chunks[index]
    if (!query || !rows || req.headers['x-standin-chunk-key'] !== query.chunkKey) {
      res.writeHead(403, { 'content-type': 'application/xml' })
      res.end('<Error><Code>AccessDenied</Code></Error>')
      return
    }
    this.chunkDownloads++
    res.writeHead(200, { 'content-type': 'application/octet-stream' })
    res.end(rows.map((r) => JSON.stringify(r)).join(','))
  }
}

interface RowType {
  readonly name: string
  readonly type: string
  readonly precision?: number | null
  readonly scale?: number | null
  readonly nullable?: boolean
}

function rowTypeOf(name: string, typeId: DuckDBTypeId | undefined, type: unknown): RowType {
  const base = { name, nullable: true, database: '', schema: '', table: '', length: null, byteLength: null }
  switch (typeId) {
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
      return { ...base, type: 'fixed', precision: 38, scale: 0 }
    case DuckDBTypeId.DECIMAL: {
      const t = type as { width: number; scale: number }
      return { ...base, type: 'fixed', precision: t.width, scale: t.scale }
    }
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return { ...base, type: 'real' }
    case DuckDBTypeId.BOOLEAN:
      return { ...base, type: 'boolean' }
    case DuckDBTypeId.DATE:
      return { ...base, type: 'date' }
    case DuckDBTypeId.TIMESTAMP:
      return { ...base, type: 'timestamp_ntz', scale: 9 }
    case DuckDBTypeId.TIMESTAMP_TZ:
      return { ...base, type: 'timestamp_ltz', scale: 9 }
    default:
      return { ...base, type: 'text' }
  }
}

/** A DuckDB value in Snowflake's JSON result format (everything is text). */
function encode(value: DuckDBValue, type: string | undefined): unknown {
  if (value === null) return null
  switch (type) {
    case 'boolean':
      return value ? '1' : '0'
    case 'date':
      return String((value as DuckDBDateValue).days)
    case 'timestamp_ntz':
    case 'timestamp_ltz': {
      const micros = (value as DuckDBTimestampValue | DuckDBTimestampTZValue).micros
      const seconds = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n)
      const fraction = micros - seconds * 1_000_000n
      return `${seconds}.${String(fraction).padStart(6, '0')}000`
    }
    default:
      return value instanceof DuckDBDecimalValue ? value.toString() : String(value)
  }
}

/** A Snowflake binding (`{type: 'TEXT', value: '…'}`) as a DuckDB parameter. */
function bindValue(binding: { type: string; value: unknown } | undefined): DuckDBValue {
  if (binding === undefined || binding.value === null || binding.value === undefined) return null
  const text = String(binding.value)
  switch (binding.type) {
    case 'FIXED':
      return BigInt(text)
    case 'REAL':
      return Number(text)
    case 'BOOLEAN':
      return text === 'true'
    default:
      return text
  }
}

function parametersOf(session: SessionState): { name: string; value: unknown }[] {
  return [...session.parameters].map(([name, value]) => ({
    name,
    value: name === 'WEEK_START' || name === 'STATEMENT_TIMEOUT_IN_SECONDS' ? Number(value) : value,
  }))
}

function success(
  session: SessionState,
  queryId: string,
  rowtype: readonly Partial<RowType>[],
  rowset: unknown[][],
): unknown {
  return {
    success: true,
    code: null,
    message: null,
    data: {
      parameters: parametersOf(session),
      rowtype,
      rowset,
      total: rowset.length,
      returned: rowset.length,
      queryId,
      databaseProvider: null,
      finalDatabaseName: session.database ?? null,
      finalSchemaName: session.schema ?? null,
      finalWarehouseName: null,
      finalRoleName: null,
      numberOfBinds: 0,
      statementTypeId: 4096,
      version: 1,
      queryResultFormat: 'json',
    },
  }
}

function failure(code: string, message: string, sqlState?: string, queryId?: string): unknown {
  return {
    success: false,
    code,
    message,
    data: { errorCode: code, sqlState: sqlState ?? null, queryId: queryId ?? null, internalError: false },
  }
}

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const part of req) parts.push(part as Buffer)
  const raw = Buffer.concat(parts)
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw
}

/**
 * The key-pair JWT the SDK signs: RS256 with the user's private key, issuer
 * `ACCOUNT.USER.SHA256:<base64 sha256 of the public key's DER>`, subject `ACCOUNT.USER`, and an
 * expiry (the SDK writes iat/exp in milliseconds; both units are accepted here).
 */
async function verifyJwt(token: string, user: StandInUser, data: Record<string, unknown>): Promise<boolean> {
  try {
    const pem = user.publicKeyPem as string
    const key = await importSPKI(pem, 'RS256')
    const { payload } = await jwtVerify(token, key, { algorithms: ['RS256'] })
    const der = createPublicKey(pem).export({ type: 'spki', format: 'der' })
    const fingerprint = `SHA256:${createHash('sha256').update(der).digest('base64')}`
    const subject = `${String(data.ACCOUNT_NAME ?? '').toUpperCase()}.${user.name.toUpperCase()}`
    const exp = Number(payload.exp)
    const expiresMs = exp > 1e12 ? exp : exp * 1000
    return payload.iss === `${subject}.${fingerprint}` && payload.sub === subject && expiresMs > Date.now()
  } catch {
    return false
  }
}
