/**
 * postgres, redshift, cockroachdb through node-postgres. One pool for the configured database
 * and a bounded LRU of pools for tenant databases (DATABASE tenancy). Each pooled connection's
 * session is configured once (and again only when the settings change): `statement_timeout`
 * (the server cancels the query itself), `search_path` (credentials.schema), `TimeZone` and
 * `default_transaction_read_only = on`, so that every statement, sent alone through the
 * extended protocol, is its own read-only transaction: one round trip per query.
 *
 * A statement could still switch the session back to read-write for the next caller
 * (`set_config('default_transaction_read_only', 'off', false)`). The server reports that
 * setting and `TimeZone` (ParameterStatus, PostgreSQL 14+): a connection whose reported values
 * changed during a statement is destroyed instead of going back to the pool. On a server that
 * does not report it (older PostgreSQL, Redshift, CockroachDB) each statement runs inside
 * `BEGIN READ ONLY` … `ROLLBACK`, which also undoes any setting it changed (three round trips).
 *
 * Redshift documents no `default_transaction_read_only` parameter, so on a redshift datasource
 * the session never sets it and every statement runs in `BEGIN READ ONLY` … `ROLLBACK` (BEGIN's
 * documented `READ ONLY` mode); the user's grants remain the first line of defence there.
 */
import pg from 'pg'
import Cursor from 'pg-cursor'
import { errorCode } from '../errors.js'
import {
  CANCEL_GRACE_MS,
  checkMaxRows,
  guarded,
  IDLE_TIMEOUT_MS,
  METADATA_TIMEOUT_MS,
  type Statement,
  throwIfAborted,
} from '../shared/execution.js'
import { columnsListing, doubleQuoted, type ListedColumn, tablesOfListing } from '../shared/introspection.js'
import { PoolCache, tenantPoolLimit } from '../shared/pool-cache.js'
import { SshTunnel } from '../shared/ssh-tunnel.js'
import { checkBatchRows } from '../shared/stream.js'
import { resolveTlsMode, silentTlsMode, tlsConnectionOptions } from '../shared/tls.js'
import { checkTimeZone, decimalNumber, isoDateTime, safeInteger } from '../shared/values.js'
import type {
  BatchHandler,
  Connector,
  ConnectorOptions,
  ExecuteOptions,
  PostgresCredentials,
  QueryResult,
  StreamOptions,
  StreamResult,
  TableInfo,
} from '../types.js'
import { PG_ERRORS, translatePgError } from './errors.js'
import { dataTypeOfName, dataTypeOfOid } from './type-mapping.js'

export type PostgresFamily = 'postgres' | 'redshift' | 'cockroachdb'

/** Text parsers for values JSON cannot carry as pg parses them by default (Date loses the zone). */
const PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  20: (t) => safeInteger(t), // int8
  1700: (t) => decimalNumber(t), // numeric
  1082: (t) => t, // date
  1114: (t) => isoDateTime(t), // timestamp
  1184: (t) => isoDateTime(t), // timestamptz, rendered by the server in the session TimeZone
  1083: (t) => t, // time
  1266: (t) => t, // timetz
  1186: (t) => t, // interval
  17: (t) => t, // bytea, as \x…
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const parser = format === 'binary' ? undefined : PARSERS[oid]
    return parser ?? pg.types.getTypeParser(oid, format ?? 'text')
  }) as typeof pg.types.getTypeParser,
}

interface SessionSettings {
  readonly timeoutMs: number
  readonly timezone?: string
  readonly signal?: AbortSignal
}

/** What each pooled connection's session is set to (see #configure). */
const sessions = new WeakMap<pg.PoolClient, { signature: string; defaultTimezone: string | undefined }>()

/** The settings each connection's server last reported (ParameterStatus messages). */
const reported = new WeakMap<object, Map<string, string>>()

/** pg.Client that records ParameterStatus from the first message on (startup included). */
class ReportingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config)
    const values = new Map<string, string>()
    reported.set(this, values)
    const connection = (this as unknown as { connection: import('node:events').EventEmitter }).connection
    connection.on('parameterStatus', (m: { parameterName: string; parameterValue: string }) => {
      values.set(m.parameterName, m.parameterValue)
    })
  }
}

const READ_ONLY = 'default_transaction_read_only'

export class PostgresConnector implements Connector {
  readonly dialect = 'postgres' as const
  readonly #credentials: PostgresCredentials
  readonly #options: ConnectorOptions
  readonly #family: PostgresFamily
  readonly #pools: PoolCache<pg.Pool>
  readonly #tunnel: SshTunnel | undefined
  #endpoint: { host: string; port: number }

  constructor(credentials: PostgresCredentials, options: ConnectorOptions, family: PostgresFamily = 'postgres') {
    this.#credentials = credentials
    this.#options = options
    this.#family = family
    this.#endpoint = { host: credentials.host, port: credentials.port }
    this.#tunnel =
      credentials.sshTunnel === 'enable'
        ? new SshTunnel({
            sshHost: credentials.sshHost ?? '',
            sshPort: credentials.sshPort ?? 22,
            sshUsername: credentials.sshUsername ?? '',
            sshPrivateKey: credentials.sshPrivateKey ?? '',
            targetHost: credentials.host,
            targetPort: credentials.port,
            readyTimeoutMs: options.connectTimeoutMs,
          })
        : undefined
    this.#pools = new PoolCache<pg.Pool>({
      max: tenantPoolLimit(options),
      create: (database) => this.#createPool(database),
      close: (pool) => pool.end(),
    })
  }

  async test(): Promise<void> {
    await this.#session(undefined, { timeoutMs: this.#options.connectTimeoutMs }, (client) => client.query('select 1'))
  }

  async databases(): Promise<string[]> {
    const result = await this.#session(undefined, { timeoutMs: METADATA_TIMEOUT_MS }, (client) =>
      client.query<{ datname: string }>(
        `select datname from pg_catalog.pg_database
          where not datistemplate and datallowconn and has_database_privilege(datname, 'CONNECT')
          order by datname`,
      ),
    )
    return result.rows.map((r) => r.datname)
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    // The datasource is its credentials' schema (its required `schema`, docs/datasources.md#postgres).
    const listing = columnsListing({
      placeholder: (i) => `$${i + 1}`,
      quote: doubleQuoted,
      schema: { equals: this.#credentials.schema },
      extraColumns: ['udt_name'],
    })
    const result = await this.#session(database, { timeoutMs: METADATA_TIMEOUT_MS }, (client) =>
      client.query<ListedColumn>(listing.sql, listing.params),
    )
    return tablesOfListing(result.rows, {
      // arrays and user-defined types: their own name (`_int4`, an enum's)
      nativeType: (row) =>
        row.data_type === 'ARRAY' || row.data_type === 'USER-DEFINED' ? String(row.udt_name) : String(row.data_type),
      dataType: (nativeType) => dataTypeOfName(nativeType),
    })
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const result = await this.#session(options.database, options, (client) =>
      // Extended protocol always: one statement, never a `;`-separated batch.
      client.query({
        text: limited(sql, maxRows),
        values: [...options.params],
        queryMode: 'extended',
      } as pg.QueryConfig),
    )
    const truncated = result.rows.length > maxRows
    return {
      columns: result.fields.map((f) => ({ name: f.name, dataType: dataTypeOfOid(f.dataTypeID) })),
      rows: truncated ? result.rows.slice(0, maxRows) : result.rows,
      truncated,
    }
  }

  /**
   * `execute`'s statement (the same row cap, session, type parsers and limits) read through a
   * cursor (pg-cursor: a portal fetched `batchRows` rows at a time), the next batch asked for
   * before `onBatch` handles the current one, so the server's sending and our parsing overlap
   * the caller's work while at most two batches are held. A portal fetched in parts runs without
   * parallel workers. The session's statement_timeout still applies on the server, and our own
   * deadline (`guarded`) covers the whole stream, also checked between batches: a caller that
   * is slow to handle them cannot keep the statement open past it.
   */
  async stream(sql: string, options: StreamOptions, onBatch: BatchHandler): Promise<StreamResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const batchRows = checkBatchRows(options.batchRows)
    return this.#session(options.database, options, async (client, statement) => {
      // rows as arrays of values in the columns' order (RowBatch): no object built per row
      const cursor = client.query(
        new Cursor<unknown[]>(limited(sql, maxRows), [...options.params], { types, rowMode: 'array' }),
      )
      const read = () =>
        new Promise<Fetched>((resolve, reject) =>
          cursor.read(batchRows, (err, rows, result) => (err ? reject(err) : resolve({ rows, fields: result.fields }))),
        )
      // a failed fetch (an error from the server, a lost connection) leaves no portal to close
      let fetchFailed = false
      const fetch = () => {
        const fetched = read().catch((err: unknown) => {
          fetchFailed = true
          throw err
        })
        // awaited later (after the batch before it is handled): a failure meanwhile is not unhandled
        fetched.catch(() => undefined)
        return fetched
      }
      let next: Promise<Fetched> | undefined = fetch()
      let columns: QueryResult['columns'] = []
      let seen = 0
      try {
        while (next !== undefined) {
          const { rows, fields }: Fetched = await next
          if (seen === 0) columns = fields.map((f) => ({ name: f.name, dataType: dataTypeOfOid(f.dataTypeID) }))
          // a short batch is the last: the portal is done
          next = rows.length === batchRows ? fetch() : undefined
          // the extra row of the cap only says the result was truncated
          const kept = seen + rows.length > maxRows ? rows.slice(0, maxRows - seen) : rows
          seen += rows.length
          if (kept.length > 0) await onBatch({ columns, rows: kept })
          if (statement.timedOut || statement.aborted) throw new Error('the stream was stopped')
          if (seen > maxRows) break
        }
        return { columns, rows: Math.min(seen, maxRows), truncated: seen > maxRows }
      } finally {
        // a fetch still in flight answers before the portal closes; its rows are dropped
        await next?.catch(() => undefined)
        if (fetchFailed) statement.discard()
        else await cursor.close().catch(() => statement.discard())
      }
    })
  }

  async close(): Promise<void> {
    await this.#pools.closeAll()
    await this.#tunnel?.close()
  }

  /** Runs `work` in a read-only transaction with the session settings applied; translates errors. */
  async #session<T>(
    database: string | undefined,
    settings: SessionSettings,
    work: (client: pg.PoolClient, statement: Statement) => Promise<T>,
  ): Promise<T> {
    if (settings.timezone !== undefined) checkTimeZone(settings.timezone)
    throwIfAborted(settings.signal)
    if (this.#tunnel) this.#endpoint = await this.#tunnel.ensure()
    const key = database ?? this.#credentials.database
    return this.#pools.use(key, (pool) => this.#transaction(pool, key, settings, work))
  }

  /**
   * Session settings, applied once per pooled connection and again only when they change:
   * every statement then runs alone, read only (`default_transaction_read_only`), under the
   * statement timeout, in the datasource's schema and the requested time zone: one round trip
   * per query instead of begin / set / query / commit.
   */
  async #configure(client: pg.PoolClient, settings: SessionSettings): Promise<void> {
    const known = sessions.get(client)
    const timezone = settings.timezone ?? known?.defaultTimezone
    const signature = `${settings.timeoutMs}|${timezone ?? ''}`
    if (known && known.signature === signature) return
    const values: unknown[] = [String(settings.timeoutMs), searchPath(this.#credentials.schema)]
    let set =
      "select current_setting('TimeZone') as tz, set_config('statement_timeout', $1, false), " +
      "set_config('search_path', $2, false)"
    if (this.#family !== 'redshift') set += ", set_config('default_transaction_read_only', 'on', false)"
    if (timezone !== undefined) {
      values.push(timezone)
      set += ", set_config('TimeZone', $3, false)"
    }
    const { rows } = await client.query<{ tz: string }>(set, values)
    const defaultTimezone = known?.defaultTimezone ?? rows[0]?.tz
    const applied = timezone ?? defaultTimezone
    sessions.set(client, { signature: `${settings.timeoutMs}|${applied ?? ''}`, defaultTimezone })
  }

  async #transaction<T>(
    pool: pg.Pool,
    key: string,
    settings: SessionSettings,
    work: (client: pg.PoolClient, statement: Statement) => Promise<T>,
  ): Promise<T> {
    const client = await this.#connect(pool, key)
    const pid = (client as unknown as { processID?: number | null }).processID ?? undefined
    const status = reported.get(client)
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        cancelGraceMs: CANCEL_GRACE_MS, // statement_timeout, set on the session, fires first
        errors: PG_ERRORS,
        secrets: [this.#credentials.password],
        cancel: () => this.#cancelBackend(pid),
        drop: () =>
          (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy(),
        release: ({ reusable }) => client.release(reusable ? undefined : true),
      },
      async (statement) => {
        await this.#configure(client, settings)
        if (this.#family === 'redshift' || status?.get(READ_ONLY) !== 'on') {
          // Redshift, or a server that does not report the setting: a read-only transaction, always rolled back.
          await client.query('BEGIN READ ONLY')
          try {
            return await work(client, statement)
          } finally {
            await client.query('ROLLBACK').catch(() => statement.discard())
          }
        }
        const before = status.get('TimeZone')
        try {
          return await work(client, statement)
        } finally {
          // A statement that switched the session's read-only default or time zone (set_config):
          // the connection must not serve the next caller.
          if (before !== undefined && (status.get(READ_ONLY) !== 'on' || status.get('TimeZone') !== before)) {
            statement.discard()
          }
        }
      },
    )
  }

  async #connect(pool: pg.Pool, key: string): Promise<pg.PoolClient> {
    try {
      return await pool.connect()
    } catch (err) {
      if (errorCode(err) === '3D000' && key !== this.#credentials.database) this.#pools.delete(key)
      throw translatePgError(err, { connecting: true, secrets: [this.#credentials.password] })
    }
  }

  /** Asks the server to cancel a running statement, over a separate short-lived connection. */
  #cancelBackend(pid: number | undefined): void {
    if (pid === undefined || this.#family === 'cockroachdb') return // cockroach: statement_timeout only
    const client = new pg.Client(this.#clientConfig(this.#credentials.database))
    client.on('error', () => undefined)
    client
      .connect()
      .then(() => client.query('select pg_cancel_backend($1)', [pid]))
      .catch(() => undefined)
      .finally(() => client.end().catch(() => undefined))
  }

  #clientConfig(database: string): pg.ClientConfig {
    const c = this.#credentials
    return {
      host: this.#endpoint.host,
      port: this.#endpoint.port,
      user: c.username,
      password: c.password,
      database,
      // TLS (docs/datasources.md#tls): the certificate must name credentials.host, also through a tunnel.
      ssl: tlsConnectionOptions(c, resolveTlsMode(c, silentTlsMode(c.host, this.#options.silentTls)), c.host) ?? false,
      connectionTimeoutMillis: this.#options.connectTimeoutMs,
      application_name: 'strata',
      keepAlive: true,
      types,
    }
  }

  #createPool(database: string): pg.Pool {
    const pool = new pg.Pool({
      ...this.#clientConfig(database),
      Client: ReportingClient,
      max: this.#options.poolMax,
      idleTimeoutMillis: IDLE_TIMEOUT_MS,
      allowExitOnIdle: true,
    })
    // An idle connection that dies (server restart, network, its database dropped WITH (FORCE))
    // is dropped by the pool; without a listener the 'error' event would crash the process.
    pool.on('error', () => undefined)
    // A checked-out connection that dies emits 'error' too (after failing its query, or when the
    // socket closes after a FATAL answer, before it is released): the query or the next one on
    // it reports the loss, so the event itself is only heard.
    pool.on('connect', (client) => client.on('error', () => undefined))
    return pool
  }
}

/** One fetch of a cursor: its rows, and the result's fields (known from the first fetch on). */
interface Fetched {
  readonly rows: unknown[][]
  readonly fields: readonly pg.FieldDef[]
}

/** `search_path` takes identifiers: quote the schema so its exact name is used. */
function searchPath(schema: string): string {
  return `"${schema.replace(/"/g, '""')}"`
}

/**
 * Caps the rows the server produces: the compiled statement becomes a subquery under a LIMIT of
 * maxRows + 1 (the extra row tells `truncated`). The planner keeps parallel plans, unlike a
 * cursor or a row-limited portal. The limit is our own validated integer, not a request value.
 */
function limited(sql: string, maxRows: number): string {
  const body = sql.replace(/[\s;]+$/, '')
  return `select * from (\n${body}\n) as strata_result limit ${maxRows + 1}`
}
