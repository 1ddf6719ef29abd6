/**
 * mssql through the `mssql` package (tedious). One pool for the configured database and a
 * bounded LRU of pools for tenant databases. Results stream: after maxRows + 1 rows, or at the
 * deadline, the request is cancelled (a TDS attention: the server stops the statement).
 * SQL Server has no session time zone, so `timezone` is not applied here (the dialect converts
 * with AT TIME ZONE where a query needs it).
 */
import sql from 'mssql'
import { checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { columnsListing, tablesOfListing } from '../shared/introspection.js'
import { PoolCache, tenantPoolLimit } from '../shared/pool-cache.js'
import type {
  Connector,
  ConnectorOptions,
  DataType,
  ExecuteOptions,
  MssqlCredentials,
  QueryResult,
  TableInfo,
} from '../types.js'
import { MSSQL_ERRORS, translateMssqlError } from './errors.js'
import { buildRequest, mssqlConfig } from './request.js'
import { convertValue, dataTypeOfName, declarationOf } from './type-mapping.js'

interface PoolEntry {
  readonly pool: sql.ConnectionPool
  connected: Promise<sql.ConnectionPool> | undefined
}

interface RunSettings {
  readonly timeoutMs: number
  readonly maxRows: number
  readonly signal?: AbortSignal
}

export class MssqlConnector implements Connector {
  readonly dialect = 'mssql' as const
  readonly #credentials: MssqlCredentials
  readonly #options: ConnectorOptions
  readonly #pools: PoolCache<PoolEntry>

  constructor(credentials: MssqlCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
    this.#pools = new PoolCache<PoolEntry>({
      max: tenantPoolLimit(options),
      create: (key) => {
        const pool = new sql.ConnectionPool(mssqlConfig(credentials, options, key === '' ? undefined : key))
        pool.on('error', () => undefined)
        return { pool, connected: undefined }
      },
      close: (entry) => entry.pool.close(),
    })
  }

  async test(): Promise<void> {
    await this.#run(undefined, 'SELECT 1 AS ok', [], { timeoutMs: this.#options.connectTimeoutMs, maxRows: 1 })
  }

  async databases(): Promise<string[]> {
    if (this.#credentials.isDisableDatabase) {
      const current = await this.#run(undefined, 'SELECT DB_NAME() AS name', [], {
        timeoutMs: METADATA_TIMEOUT_MS,
        maxRows: 1,
      })
      return current.rows.map((r) => String(r.name))
    }
    const result = await this.#run(
      undefined,
      `SELECT name FROM sys.databases
        WHERE database_id > 4 AND state = 0 AND HAS_DBACCESS(name) = 1
        ORDER BY name`,
      [],
      { timeoutMs: METADATA_TIMEOUT_MS, maxRows: 100_000 },
    )
    return result.rows.map((r) => String(r.name))
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    // every schema of the connected database (the tenant's, with DATABASE tenancy)
    const listing = columnsListing({ placeholder: (i) => `@p${i}`, quote: (alias) => `[${alias}]` })
    const result = await this.#run(database, listing.sql, listing.params, {
      timeoutMs: METADATA_TIMEOUT_MS,
      maxRows: 1_000_000,
    })
    return tablesOfListing(result.rows, { dataType: (nativeType) => dataTypeOfName(nativeType) })
  }

  execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    checkMaxRows(options.maxRows)
    return this.#run(options.database, sql, options.params, options)
  }

  async close(): Promise<void> {
    await this.#pools.closeAll()
  }

  async #connected(entry: PoolEntry, key: string): Promise<sql.ConnectionPool> {
    if (!entry.connected) {
      const attempt = entry.pool.connect()
      entry.connected = attempt
      attempt.catch(() => {
        if (entry.connected === attempt) entry.connected = undefined
      })
    }
    try {
      return await entry.connected
    } catch (err) {
      if (key !== '') this.#pools.delete(key)
      throw translateMssqlError(err, { connecting: true, secrets: [this.#credentials.password] })
    }
  }

  async #run(
    database: string | undefined,
    text: string,
    params: readonly unknown[],
    settings: RunSettings,
  ): Promise<QueryResult> {
    throwIfAborted(settings.signal)
    const key = database ?? ''
    return this.#pools.use(key, async (entry) =>
      this.#stream(await this.#connected(entry, key), text, params, settings),
    )
  }

  /**
   * One streamed request through the execution core. SQL Server has no per-statement time
   * limit a login can set, so our deadline is the limit: at `timeoutMs` the request is cancelled
   * (a TDS attention: the server stops the statement, the connection stays usable).
   */
  #stream(
    pool: sql.ConnectionPool,
    text: string,
    params: readonly unknown[],
    settings: RunSettings,
  ): Promise<QueryResult> {
    const request = buildRequest(pool, params)
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        cancelGraceMs: 0,
        errors: MSSQL_ERRORS,
        secrets: [this.#credentials.password],
        cancel: () => request.cancel(),
      },
      (statement) =>
        new Promise<QueryResult>((resolve, reject) => {
          let columns: { name: string; declaration: string; dataType: DataType }[] | undefined
          const rows: Record<string, unknown>[] = []
          let truncated = false
          let failure: unknown
          let recordsets = 0
          request.on('recordset', (meta: sql.IColumnMetadata) => {
            recordsets++
            if (recordsets > 1) return // only the first result set is the answer
            columns = Object.values(meta)
              .sort((a, b) => a.index - b.index)
              .map((c) => {
                const declaration = declarationOf(c.type)
                return { name: c.name, declaration, dataType: dataTypeOfName(declaration) }
              })
          })
          request.on('row', (row: Record<string, unknown>) => {
            if (recordsets > 1 || truncated) return
            if (rows.length === settings.maxRows) {
              truncated = true
              request.cancel()
              return
            }
            const out: Record<string, unknown> = {}
            for (const c of columns ?? []) out[c.name] = convertValue(row[c.name], c.declaration)
            rows.push(out)
          })
          request.on('error', (err: unknown) => {
            // Cancelling after maxRows + 1 rows is how we stop early; that is not a failure.
            if (truncated && !statement.timedOut && !statement.aborted) return
            failure ??= err
          })
          request.on('done', () => {
            if (failure !== undefined) reject(failure)
            else
              resolve({ columns: (columns ?? []).map(({ name, dataType }) => ({ name, dataType })), rows, truncated })
          })
          // The callback form: in stream mode results arrive as events, and no promise can go unhandled.
          request.query(text, () => undefined)
        }),
    )
  }
}
