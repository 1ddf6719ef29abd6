/**
 * mysql, singlestore (and MariaDB behind the mysql type) through mysql2. One pool for the
 * configured database and a bounded LRU of pools for tenant databases. Statements run as
 * server-side prepared statements (`?` bound by the server, never spliced). Before each one the
 * connection's session is set in one statement: time zone, server-side time limit
 * (MariaDB `max_statement_time`, MySQL `max_execution_time`), `sql_select_limit` (the row cap)
 * and read-only transactions (`tx_read_only` / `transaction_read_only`; not on SingleStore).
 * `stream` reads the same statement's rows as they arrive, pausing the socket between batches.
 */
import type { EventEmitter } from 'node:events'
import net from 'node:net'
import type { Readable } from 'node:stream'
import mysql from 'mysql2/promise'
import { ApiError } from '../../errors.js'
import {
  CANCEL_GRACE_MS,
  checkMaxRows,
  guarded,
  IDLE_TIMEOUT_MS,
  METADATA_TIMEOUT_MS,
  type Statement,
  throwIfAborted,
} from '../shared/execution.js'
import { columnsListing, tablesOfListing } from '../shared/introspection.js'
import { PoolCache, tenantPoolLimit } from '../shared/pool-cache.js'
import { checkBatchRows } from '../shared/stream.js'
import { resolveTlsMode, silentTlsMode, type TlsMode } from '../shared/tls.js'
import { bytesToJson, checkTimeZone, isoDateTime, offsetAt, safeInteger } from '../shared/values.js'
import type {
  BatchHandler,
  Connector,
  ConnectorOptions,
  ExecuteOptions,
  MysqlCredentials,
  QueryResult,
  StreamOptions,
  StreamResult,
  TableInfo,
} from '../types.js'
import { MYSQL_ERRORS, translateMysqlError } from './errors.js'
import { DATETIME_CODES, dataTypeOfCode, dataTypeOfName } from './type-mapping.js'

export type MysqlFamily = 'mysql' | 'singlestore'
type Flavor = 'mysql' | 'mariadb' | 'singlestore'

const NO_LIMIT = '18446744073709551615'
const ER_UNKNOWN_TIME_ZONE = 1298

const SYSTEM_SCHEMAS = new Set(['information_schema', 'mysql', 'performance_schema', 'sys', 'memsql', 'cluster'])

interface SessionSettings {
  readonly timeoutMs: number
  readonly timezone?: string
  readonly signal?: AbortSignal
  /** sql_select_limit: top-level SELECTs return at most this many rows. */
  readonly selectLimit?: number
}

/** What a stream uses of mysql2's core connection (the callback API under the promise wrapper). */
interface CoreConnection {
  execute(sql: string, values: ExecuteValue[]): CoreCommand
  on(event: 'error', listener: (err: unknown) => void): unknown
  removeListener(event: 'error', listener: (err: unknown) => void): unknown
}

/** A statement run without a callback: its result as events, or as a readable of rows that pauses the connection. */
type CoreCommand = EventEmitter & { stream(options: { highWaterMark: number }): Readable }

export class MysqlConnector implements Connector {
  readonly dialect = 'mysql' as const
  readonly #credentials: MysqlCredentials
  readonly #options: ConnectorOptions
  readonly #family: MysqlFamily
  readonly #pools: PoolCache<mysql.Pool>
  #flavor: Flavor | undefined
  /** Whether the server knows IANA zone names (MariaDB/MySQL need their time zone tables loaded). */
  #namedZones: boolean | undefined

  constructor(credentials: MysqlCredentials, options: ConnectorOptions, family: MysqlFamily = 'mysql') {
    this.#credentials = credentials
    this.#options = options
    this.#family = family
    this.#pools = new PoolCache<mysql.Pool>({
      max: tenantPoolLimit(options),
      create: (database) => this.#createPool(database === '' ? undefined : database),
      close: (pool) => pool.end(),
    })
  }

  async test(): Promise<void> {
    await this.#session(undefined, { timeoutMs: this.#options.connectTimeoutMs }, (conn) => conn.query('select 1'))
  }

  async databases(): Promise<string[]> {
    const [rows] = await this.#session(undefined, { timeoutMs: METADATA_TIMEOUT_MS }, (conn) =>
      conn.query<mysql.RowDataPacket[]>('SHOW DATABASES'),
    )
    return rows.map((r) => String(Object.values(r)[0])).filter((name) => !SYSTEM_SCHEMAS.has(name.toLowerCase()))
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    const schema = database ?? this.#credentials.database
    const listing = columnsListing({
      placeholder: () => '?',
      quote: (alias) => `\`${alias}\``,
      schema: schema === undefined ? { notIn: [...SYSTEM_SCHEMAS] } : { equals: schema },
      extraColumns: ['column_type'],
    })
    const [rows] = await this.#session(database, { timeoutMs: METADATA_TIMEOUT_MS }, (conn) =>
      conn.execute<mysql.RowDataPacket[]>(listing.sql, listing.params),
    )
    return tablesOfListing(rows, {
      nativeType: (row) => String(row.column_type),
      dataType: (columnType, row) =>
        /^tinyint\(1\)/i.test(columnType) ? 'boolean' : dataTypeOfName(String(row.data_type)),
    })
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const [rows, fields] = await this.#session(options.database, { ...options, selectLimit: maxRows + 1 }, (conn) =>
      conn.execute<mysql.RowDataPacket[]>(sql, options.params.map(toMysqlParam)),
    )
    const list = Array.isArray(rows) ? rows : []
    const columns = (fields ?? []).map((f) => ({ name: f.name, dataType: dataTypeOfCode(f.columnType) }))
    const datetimeColumns = (fields ?? []).filter((f) => DATETIME_CODES.has(f.columnType ?? -1)).map((f) => f.name)
    const truncated = list.length > maxRows
    const kept = truncated ? list.slice(0, maxRows) : list
    return { columns, rows: kept.map((row) => toJsonRow(row, datetimeColumns)), truncated }
  }

  /**
   * `execute`'s statement (the same session, row cap through sql_select_limit, server-side
   * prepared statement and value conversion) read as the server sends it: mysql2's row stream,
   * which stops reading the socket once `batchRows` rows wait (the server then waits too), so
   * while `onBatch` handles one batch at most one more is read: two batches held at most. Our
   * deadline covers the whole stream and is also checked between batches. A stream that does
   * not run to its end (a failed handler, the deadline, an abort, an error mid-stream) never
   * gives its connection back to the pool: it is closed, and the server stops sending.
   */
  async stream(sql: string, options: StreamOptions, onBatch: BatchHandler): Promise<StreamResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const batchRows = checkBatchRows(options.batchRows)
    const settings = { ...options, selectLimit: maxRows + 1 }
    return this.#session(options.database, settings, async (conn, statement) => {
      const core = conn.connection as unknown as CoreConnection
      const command = core.execute(sql, options.params.map(toMysqlParam))
      let columns: QueryResult['columns'] = []
      let datetime: boolean[] = []
      command.on('fields', (fields: mysql.FieldPacket[] | undefined) => {
        columns = (fields ?? []).map((f) => ({ name: f.name, dataType: dataTypeOfCode(f.columnType) }))
        datetime = (fields ?? []).map((f) => DATETIME_CODES.has(f.columnType ?? -1))
      })
      // an error the server sends after the stream let go of the command (read while the rest drains) is heard
      command.on('error', () => undefined)
      const rows = command.stream({ highWaterMark: batchRows })
      // a connection lost mid-stream is reported to the connection, not the command: it ends the stream
      const lost = (err: unknown) => rows.destroy(err instanceof Error ? err : new Error(String(err)))
      core.on('error', lost)
      let batch: unknown[][] = []
      let seen = 0
      let complete = false
      const hand = async () => {
        if (batch.length === 0) return
        const handed = batch
        batch = []
        await onBatch({ columns, rows: handed })
        if (statement.timedOut || statement.aborted) throw new Error('the stream was stopped')
      }
      try {
        for await (const row of rows) {
          // the extra row of the cap only says the result was truncated
          if (++seen > maxRows) continue
          const values = row as mysql.RowDataPacket
          batch.push(columns.map((c, i) => toJsonValue(values[c.name], datetime[i] === true)))
          if (batch.length === batchRows) await hand()
        }
        await hand()
        complete = true
        return { columns, rows: Math.min(seen, maxRows), truncated: seen > maxRows }
      } finally {
        core.removeListener('error', lost)
        if (!complete) {
          rows.destroy()
          statement.discard()
        }
      }
    })
  }

  async close(): Promise<void> {
    await this.#pools.closeAll()
  }

  async #session<T>(
    database: string | undefined,
    settings: SessionSettings,
    work: (conn: mysql.PoolConnection, statement: Statement) => Promise<T>,
  ): Promise<T> {
    if (settings.timezone !== undefined) checkTimeZone(settings.timezone)
    throwIfAborted(settings.signal)
    const key = database ?? this.#credentials.database ?? ''
    return this.#pools.use(key, (pool) => this.#sessionOn(pool, key, settings, work))
  }

  async #sessionOn<T>(
    pool: mysql.Pool,
    key: string,
    settings: SessionSettings,
    work: (conn: mysql.PoolConnection, statement: Statement) => Promise<T>,
  ): Promise<T> {
    const conn = await this.#connect(pool, key)
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        // SingleStore has no per-statement time limit variable: the KILL is the limit there.
        cancelGraceMs: this.#flavor === 'singlestore' ? 0 : CANCEL_GRACE_MS,
        errors: MYSQL_ERRORS,
        secrets: [this.#credentials.password],
        cancel: () => this.#kill(conn.threadId),
        drop: () => conn.destroy(),
        release: ({ reusable }) => (reusable ? conn.release() : conn.destroy()),
      },
      async (statement) => {
        await this.#applySession(conn, settings)
        return work(conn, statement)
      },
    )
  }

  async #connect(pool: mysql.Pool, key: string): Promise<mysql.PoolConnection> {
    let conn: mysql.PoolConnection
    try {
      conn = await pool.getConnection()
    } catch (err) {
      if ((err as { errno?: number }).errno === 1049 && key !== (this.#credentials.database ?? '')) {
        this.#pools.delete(key)
      }
      throw plainRefusal(
        translateMysqlError(err, { connecting: true, secrets: [this.#credentials.password] }),
        err,
        this.#tlsMode(),
      )
    }
    if (this.#flavor === undefined) {
      try {
        this.#flavor = await this.#detectFlavor(conn)
      } catch (err) {
        conn.destroy()
        throw translateMysqlError(err, { connecting: true, secrets: [this.#credentials.password] })
      }
    }
    return conn
  }

  async #detectFlavor(conn: mysql.PoolConnection): Promise<Flavor> {
    if (this.#family === 'singlestore') return 'singlestore'
    const [rows] = await conn.query<mysql.RowDataPacket[]>('select version() as v')
    return /mariadb/i.test(String(rows[0]?.v ?? '')) ? 'mariadb' : 'mysql'
  }

  /**
   * One SET per statement, so a pooled connection never carries the previous caller's settings.
   * Named zones need the server's time zone tables; without them (MariaDB/MySQL default) the
   * zone becomes its numeric UTC offset at this instant — exact for the query's own "now", but a
   * query spanning a DST change renders the other side with the same offset.
   */
  async #applySession(conn: mysql.PoolConnection, settings: SessionSettings): Promise<void> {
    const flavor = this.#flavor ?? 'mysql'
    const limit = settings.selectLimit === undefined ? NO_LIMIT : String(settings.selectLimit)
    if (flavor === 'singlestore') {
      await conn.query(`SET SESSION sql_select_limit = ${/^\d+$/.test(limit) ? limit : NO_LIMIT}`)
      return
    }
    const timeLimit = flavor === 'mariadb' ? 'max_statement_time = ?' : 'max_execution_time = CAST(? AS UNSIGNED)'
    const timeValue = flavor === 'mariadb' ? settings.timeoutMs / 1000 : Math.ceil(settings.timeoutMs)
    // Read only, set again before every statement: the statement runs in a read-only
    // transaction (writes, CREATE … AS, temporary tables: error 1792), and nothing it does can
    // leave the session writable for the next caller. MariaDB names it tx_read_only.
    const readOnly = flavor === 'mariadb' ? 'tx_read_only = 1' : 'transaction_read_only = 1'
    const set = `SET SESSION time_zone = COALESCE(?, @@global.time_zone), ${timeLimit}, sql_select_limit = CAST(? AS UNSIGNED), ${readOnly}`
    const tz = settings.timezone
    const zone = tz === undefined ? null : this.#namedZones === false ? offsetAt(tz, Date.now()) : tz
    try {
      await conn.execute(set, [zone, timeValue, limit])
      if (tz !== undefined && zone === tz) this.#namedZones = true
    } catch (err) {
      if ((err as { errno?: number }).errno !== ER_UNKNOWN_TIME_ZONE || tz === undefined || zone !== tz) throw err
      this.#namedZones = false
      await conn.execute(set, [offsetAt(tz, Date.now()), timeValue, limit])
    }
  }

  /** KILL QUERY from a separate connection: the server stops the statement, the session lives. */
  #kill(threadId: number): void {
    if (!Number.isSafeInteger(threadId)) return
    const c = this.#credentials
    mysql
      .createConnection({
        host: c.host,
        port: c.port,
        user: c.user,
        password: c.password,
        ...this.#ssl(),
        connectTimeout: this.#options.connectTimeoutMs,
      })
      .then(async (killer) => {
        killer.on('error', () => undefined)
        try {
          await killer.query(`KILL QUERY ${threadId}`) // a driver-given integer, checked above
        } finally {
          await killer.end()
        }
      })
      .catch(() => undefined)
  }

  /**
   * TLS (docs/datasources.md#tls) as mysql2 takes it: its own `verifyIdentity` checks the host
   * name (against credentials.host, the host it connects to); the CA and client pair build the
   * secure context.
   */
  #ssl(): { ssl?: mysql.SslOptions; stream?: () => net.Socket } {
    const c = this.#credentials
    const mode = this.#tlsMode()
    if (mode === 'off') return {}
    return {
      // mysql2 gives Node's TLS no host name for an IP address, and Node then checks the
      // certificate against 'localhost': a socket that knows its host (the field Node's TLS
      // falls back to) makes the check name the address of the credentials.
      ...(mode === 'verify' && net.isIP(c.host) !== 0 ? { stream: () => socketTo(c.host, c.port) } : {}),
      ssl: {
        rejectUnauthorized: mode === 'verify',
        verifyIdentity: mode === 'verify',
        ...(c.tlsCaCertificate === undefined ? {} : { ca: c.tlsCaCertificate }),
        ...(c.tlsClientCertificate === undefined ? {} : { cert: c.tlsClientCertificate }),
        ...(c.tlsClientKey === undefined ? {} : { key: c.tlsClientKey }),
      },
    }
  }

  /** The mode in force: the credentials' own, else the row's policy for silent ones. */
  #tlsMode(): TlsMode {
    return resolveTlsMode(this.#credentials, silentTlsMode(this.#credentials.host, this.#options.silentTls))
  }

  #createPool(database: string | undefined): mysql.Pool {
    const c = this.#credentials
    return mysql.createPool({
      host: c.host,
      port: c.port,
      user: c.user,
      password: c.password,
      database,
      ...this.#ssl(),
      connectionLimit: this.#options.poolMax,
      maxIdle: this.#options.poolMax,
      idleTimeout: IDLE_TIMEOUT_MS,
      connectTimeout: this.#options.connectTimeoutMs,
      enableKeepAlive: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
      decimalNumbers: true,
      dateStrings: true,
      multipleStatements: false,
      maxPreparedStatements: 64,
      charset: 'utf8mb4',
      timezone: 'Z',
    })
  }
}

/**
 * Servers that require TLS refuse a plain login as a denied access (MariaDB) or with their own
 * error (MySQL 3159): the message says the connection was plain, so the fix is in sight.
 */
function plainRefusal(error: ApiError, err: unknown, mode: TlsMode): ApiError {
  const errno = (err as { errno?: unknown } | null)?.errno
  if (mode !== 'off' || (errno !== 1045 && errno !== 3159)) return error
  return new ApiError(
    error.code,
    error.status,
    `${error.message} (the connection was not encrypted: a server that requires TLS refuses it; see tlsMode)`,
    error.details,
    { cause: err },
  )
}

/** A TCP socket to an IP address, carrying the address as the host Node's TLS checks the certificate against. */
function socketTo(host: string, port: number): net.Socket {
  const socket = net.connect({ host, port, noDelay: true, keepAlive: true })
  ;(socket as net.Socket & { _host?: string })._host = host
  return socket
}

type ExecuteValue = string | number | boolean | Date | Buffer | null

function toMysqlParam(value: unknown): ExecuteValue {
  if (value === undefined) return null
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'boolean') return value ? 1 : 0
  if (Array.isArray(value) || (typeof value === 'object' && value !== null && !(value instanceof Date))) {
    return Buffer.isBuffer(value) ? value : JSON.stringify(value)
  }
  return value as ExecuteValue
}

function toJsonRow(row: mysql.RowDataPacket, datetimeColumns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) out[key] = toJsonValue(value, false)
  for (const key of datetimeColumns) out[key] = toJsonValue(out[key], true)
  return out
}

/** A value as a result holds it: 64-bit integers safe, bytes as JSON, a DATETIME's text as ISO. */
function toJsonValue(value: unknown, datetime: boolean): unknown {
  if (typeof value === 'bigint') return safeInteger(value)
  if (Buffer.isBuffer(value)) return bytesToJson(value)
  if (datetime && typeof value === 'string') return isoDateTime(value)
  return value
}
