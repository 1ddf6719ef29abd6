/**
 * snowflake through the official snowflake-sdk (loaded on first use, sdk.ts). The SDK speaks
 * Snowflake's session protocol: a login request (username/password, or a key-pair JWT signed
 * with the PEM key, optionally encrypted), query requests with bound values (`:1` …), polling
 * of long statements, result chunks, abort requests and session deletion.
 *
 * - One session pool for the configured database and a bounded LRU of pools for DATABASE
 *   tenancy, whose unit is the Snowflake database: the compiled SQL names `"SCHEMA"."TABLE"`,
 *   which a session in the tenant's database resolves there. A tenant database is passed to the
 *   login quoted (its exact stored name); a session whose CURRENT_DATABASE() is not the one asked
 *   for (Snowflake logs in without one when it does not exist or the role cannot use it) is a
 *   DATASOURCE_CONNECTION_ERROR.
 * - Every session starts with `WEEK_START = 1` (the dialect's DATE_TRUNC('WEEK') starts on
 *   Monday whatever the account's default), and gets TIMEZONE and STATEMENT_TIMEOUT_IN_SECONDS
 *   whenever they differ from what it last had (literals: a time zone checked by
 *   checkTimeZone's strict character set and ICU, a whole number of seconds).
 * - Timeouts: Snowflake stops the statement at STATEMENT_TIMEOUT_IN_SECONDS (error 000630);
 *   CANCEL_GRACE_MS later our deadline sends the SDK's abort request (statement.cancel()), and
 *   after that the session is dropped. An aborted signal sends the abort request at once.
 * - Rows: the SDK streams the result's chunks; at most maxRows rows are read (the result's total
 *   row count says whether there were more), so the chunks after the cap are never fetched.
 */
import type { Connection, RowStatement, SnowflakeError } from 'snowflake-sdk'
import { connectionError, errorMessage, redact } from '../errors.js'
import { CANCEL_GRACE_MS, checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { columnsListing, doubleQuoted, tablesOfListing } from '../shared/introspection.js'
import { PoolCache, tenantPoolLimit } from '../shared/pool-cache.js'
import { checkTimeZone } from '../shared/values.js'
import type {
  Connector,
  ConnectorOptions,
  ExecuteOptions,
  QueryResult,
  SnowflakeCredentials,
  TableInfo,
} from '../types.js'
import { connectionOptions } from './config.js'
import { SNOWFLAKE_ERRORS } from './errors.js'
import { loadSdk } from './sdk.js'
import { type Session, SessionPool } from './sessions.js'
import { convertValue, dataTypeOfColumn, dataTypeOfResult, type ResultColumn } from './type-mapping.js'

interface RunSettings {
  readonly timeoutMs: number
  readonly maxRows: number
  readonly timezone?: string | undefined
  readonly signal?: AbortSignal | undefined
}

type Bind = string | number | boolean | null

/** The session's schema in the session's database (credentials' `schema`, the tenant's database). */
const INTROSPECT = columnsListing({
  placeholder: (i) => `:${i + 1}`,
  quote: doubleQuoted,
  catalog: { current: 'CURRENT_DATABASE()' },
  schema: { current: 'CURRENT_SCHEMA()' },
  extraColumns: ['numeric_scale'],
})

export class SnowflakeConnector implements Connector {
  readonly dialect = 'snowflake' as const
  readonly #credentials: SnowflakeCredentials
  readonly #options: ConnectorOptions
  readonly #pools: PoolCache<SessionPool>
  readonly #secrets: readonly (string | undefined)[]

  constructor(credentials: SnowflakeCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
    this.#secrets = [credentials.password, credentials.privateKey, credentials.privateKeyPass]
    this.#pools = new PoolCache<SessionPool>({
      max: tenantPoolLimit(options),
      create: (key) => new SessionPool(Math.max(1, options.poolMax), () => this.#open(key === '' ? undefined : key)),
      close: (pool) => pool.close(),
    })
  }

  async test(): Promise<void> {
    await this.#run(undefined, 'SELECT 1 AS "ok"', [], { timeoutMs: this.#options.connectTimeoutMs, maxRows: 1 })
  }

  async databases(): Promise<string[]> {
    const result = await this.#run(
      undefined,
      'SELECT DATABASE_NAME AS "name" FROM INFORMATION_SCHEMA.DATABASES ORDER BY DATABASE_NAME',
      [],
      { timeoutMs: METADATA_TIMEOUT_MS, maxRows: 100_000 },
    )
    return result.rows.map((r) => String(r.name))
  }

  /** The tables of the session's schema (the credentials' `schema`) in the database. */
  async introspect(database?: string): Promise<TableInfo[]> {
    const result = await this.#run(database, INTROSPECT.sql, INTROSPECT.params, {
      timeoutMs: METADATA_TIMEOUT_MS,
      maxRows: 1_000_000,
    })
    return tablesOfListing(result.rows, {
      dataType: (nativeType, row) =>
        dataTypeOfColumn(
          nativeType,
          row.numeric_scale === null || row.numeric_scale === undefined ? null : Number(row.numeric_scale),
        ),
    })
  }

  execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    checkMaxRows(options.maxRows)
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    return this.#run(options.database, sql, options.params, options)
  }

  async close(): Promise<void> {
    await this.#pools.closeAll()
  }

  async #run(
    database: string | undefined,
    text: string,
    params: readonly unknown[],
    settings: RunSettings,
  ): Promise<QueryResult> {
    throwIfAborted(settings.signal)
    const binds = params.map(toBind)
    const key = database ?? ''
    return this.#pools.use(key, async (pool) => {
      let session: Session
      try {
        session = await pool.acquire()
      } catch (err) {
        if (key !== '') this.#pools.delete(key)
        throw err
      }
      let reusable = true
      try {
        await this.#prepare(session, settings)
        return await this.#statement(session.connection, text, binds, settings, (outcome) => {
          reusable = outcome
        })
      } catch (err) {
        reusable = false
        throw err
      } finally {
        pool.release(session, reusable)
      }
    })
  }

  /** Opens one session: login, WEEK_START, and the check that it is in the database asked for. */
  async #open(database: string | undefined): Promise<Session> {
    const sdk = await loadSdk()
    let connection: Connection
    try {
      // the SDK checks its options here (a private key that is not PEM throws): a refusal, not a 500
      connection = sdk.createConnection(connectionOptions(this.#credentials, database))
    } catch (err) {
      throw connectionError(redact(errorMessage(err), this.#secrets))
    }
    const connect = { timeoutMs: this.#options.connectTimeoutMs, maxRows: 1 }
    const drop = () => connection.destroy(() => undefined)
    let giveUp: ((reason: Error) => void) | undefined
    try {
      await guarded(
        {
          timeoutMs: this.#options.connectTimeoutMs,
          cancelGraceMs: 0,
          connecting: true,
          errors: SNOWFLAKE_ERRORS,
          secrets: this.#secrets,
          // A login request cannot be aborted: we stop waiting (the connection is dropped below).
          cancel: () => giveUp?.(new Error('the login request was abandoned')),
        },
        () =>
          new Promise<void>((resolve, reject) => {
            giveUp = reject
            connection.connect((err) => (err ? reject(err) : resolve()))
          }),
      )
      await this.#statement(connection, 'ALTER SESSION SET WEEK_START = 1', [], connect, () => undefined, true)
      const current = await this.#statement(
        connection,
        'SELECT CURRENT_DATABASE() AS "db"',
        [],
        connect,
        () => undefined,
        true,
      )
      const actual = current.rows[0]?.db
      const wanted = database ?? this.#credentials.database
      const matches = typeof actual === 'string' && (database === undefined ? actual.length > 0 : actual === database)
      if (!matches) {
        throw connectionError(`database ${JSON.stringify(wanted)} does not exist or the role cannot use it`)
      }
    } catch (err) {
      drop()
      throw err
    }
    return { connection, timezone: undefined, timeoutSeconds: undefined }
  }

  /** Sets TIMEZONE and STATEMENT_TIMEOUT_IN_SECONDS on the session when they changed. */
  async #prepare(session: Session, settings: RunSettings): Promise<void> {
    const seconds = Math.max(1, Math.ceil(settings.timeoutMs / 1000))
    const setup = { timeoutMs: this.#options.connectTimeoutMs, maxRows: 1, signal: settings.signal }
    if (session.timeoutSeconds !== seconds) {
      session.timeoutSeconds = undefined
      await this.#statement(
        session.connection,
        `ALTER SESSION SET STATEMENT_TIMEOUT_IN_SECONDS = ${seconds}`,
        [],
        setup,
        () => undefined,
      )
      session.timeoutSeconds = seconds
    }
    if (session.timezone !== settings.timezone) {
      session.timezone = undefined
      const zone = settings.timezone
      if (zone !== undefined) checkTimeZone(zone) // also keeps the literal free of quotes
      await this.#statement(
        session.connection,
        zone === undefined ? 'ALTER SESSION UNSET TIMEZONE' : `ALTER SESSION SET TIMEZONE = '${zone}'`,
        [],
        setup,
        () => undefined,
      )
      session.timezone = zone
    }
  }

  /** One statement through the execution core; `reusable` hears whether the session may serve again. */
  #statement(
    connection: Connection,
    text: string,
    binds: readonly Bind[],
    settings: RunSettings,
    reusable: (ok: boolean) => void,
    connecting = false,
  ): Promise<QueryResult> {
    let statement: RowStatement | undefined
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        // STATEMENT_TIMEOUT_IN_SECONDS counts whole seconds: our abort request comes after it.
        cancelGraceMs: CANCEL_GRACE_MS + 500,
        connecting,
        errors: SNOWFLAKE_ERRORS,
        secrets: this.#secrets,
        cancel: () => statement?.cancel(() => undefined),
        drop: () => connection.destroy(() => undefined),
        release: (outcome) => reusable(outcome.reusable),
      },
      () =>
        new Promise<QueryResult>((resolve, reject) => {
          statement = connection.execute({
            sqlText: text,
            binds: [...binds],
            streamResult: true,
            rowMode: 'array',
            complete: (err: SnowflakeError | undefined, stmt) => {
              if (err) {
                reject(err)
                return
              }
              readRows(stmt, settings).then(resolve, reject)
            },
          }) as RowStatement
        }),
    )
  }
}

/** A bound value as the SDK takes it (its `Bind`): strings, numbers, booleans, null. */
function toBind(value: unknown): Bind {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Date) return value.toISOString()
  return JSON.stringify(value)
}

/** Streams at most `maxRows` rows of a finished statement; the total says whether there were more. */
function readRows(statement: RowStatement, settings: RunSettings): Promise<QueryResult> {
  const columns: ResultColumn[] = (statement.getColumns() ?? []).map((c) => ({
    name: c.getName(),
    type: c.getType(),
    scale: c.getScale(),
  }))
  const total = statement.getNumRows()
  const wanted = Math.min(settings.maxRows, total)
  const out = {
    columns: columns.map((c) => ({ name: c.name, dataType: dataTypeOfResult(c) })),
    truncated: total > settings.maxRows,
  }
  if (wanted === 0) return Promise.resolve({ ...out, rows: [] })
  const zone = settings.timezone ?? 'UTC'
  return new Promise<QueryResult>((resolve, reject) => {
    const rows: Record<string, unknown>[] = []
    const stream = statement.streamRows({ start: 0, end: wanted - 1 })
    stream.on('data', (values: unknown[]) => {
      const row: Record<string, unknown> = {}
      columns.forEach((c, i) => {
        row[c.name] = convertValue(values[i], c, sessionZone(values[i], zone))
      })
      rows.push(row)
    })
    stream.on('error', reject)
    stream.on('end', () => resolve({ ...out, rows }))
  })
}

/** TIMESTAMP_LTZ values carry the session's TIMEZONE as the SDK read it from the response. */
function sessionZone(value: unknown, fallback: string): string {
  const zone = (value as { getTimezone?: () => unknown } | null)?.getTimezone?.()
  return typeof zone === 'string' && zone !== '' ? zone : fallback
}
