/**
 * clickhouse over HTTP (@clickhouse/client). One client (an HTTP agent) for the configured
 * database and a bounded LRU of clients for tenant databases; the database is a connection
 * parameter, never SQL text. Results stream and reading stops after maxRows + 1 rows; `stream`
 * hands them over in batches, the HTTP response read no further while a batch is handled.
 * What the server supports is probed once (version, time zone, formats) and gates parameters
 * and the session time zone (see request.ts and README.md).
 */
import { randomUUID } from 'node:crypto'
import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { connectionError } from '../errors.js'
import {
  BACKSTOP_TIMEOUT_MS,
  CANCEL_GRACE_MS,
  checkMaxRows,
  guarded,
  METADATA_TIMEOUT_MS,
  throwIfAborted,
} from '../shared/execution.js'
import { PoolCache, tenantPoolLimit } from '../shared/pool-cache.js'
import { checkBatchRows } from '../shared/stream.js'
import { checkTimeZone } from '../shared/values.js'
import type {
  BatchHandler,
  ClickhouseCredentials,
  ColumnInfo,
  Connector,
  ConnectorOptions,
  ExecuteOptions,
  QueryResult,
  StreamOptions,
  StreamResult,
  TableInfo,
} from '../types.js'
import { CLICKHOUSE_ERRORS } from './errors.js'
import {
  buildQueryRequest,
  describeQuery,
  QUOTED_64BIT,
  type QueryRequest,
  type ServerInfo,
  serverInfo,
} from './request.js'
import { convertValue, dataTypeOf, isNullable } from './type-mapping.js'

/**
 * The server enforces max_execution_time in whole seconds (rounded up): our own deadline comes
 * a little later than elsewhere.
 */
const WHOLE_SECONDS_GRACE_MS = CANCEL_GRACE_MS + 500
const SYSTEM_DATABASES = ['system', 'INFORMATION_SCHEMA', 'information_schema']

interface Column {
  readonly name: string
  readonly nativeType: string
}

/** Takes one batch of converted rows, with the result's columns. */
/** A batch of rows, each its values in the order of `columns` (converted, as a result holds them). */
type RowSink = (columns: readonly Column[], rows: unknown[][]) => Promise<void>

interface RunSettings {
  readonly timeoutMs: number
  readonly signal?: AbortSignal
  readonly connecting?: boolean
}

export class ClickhouseConnector implements Connector {
  readonly dialect = 'clickhouse' as const
  readonly #credentials: ClickhouseCredentials
  readonly #options: ConnectorOptions
  readonly #clients: PoolCache<ClickHouseClient>
  #server: Promise<ServerInfo> | undefined

  constructor(credentials: ClickhouseCredentials, options: ConnectorOptions) {
    this.#credentials = credentials
    this.#options = options
    this.#clients = new PoolCache<ClickHouseClient>({
      max: tenantPoolLimit(options),
      create: (database) => this.#createClient(database),
      close: (client) => client.close(),
    })
  }

  get #database(): string {
    return this.#credentials.database ?? 'default'
  }

  async test(): Promise<void> {
    this.#server = undefined
    await this.server()
  }

  /** Version and capabilities, probed once (again after a connection failure). */
  server(): Promise<ServerInfo> {
    if (!this.#server) {
      const probe = this.#probe()
      this.#server = probe
      probe.catch(() => {
        if (this.#server === probe) this.#server = undefined
      })
    }
    return this.#server
  }

  async databases(): Promise<string[]> {
    await this.server()
    const rows = await this.#clients.use(this.#database, (client) =>
      this.#select<{ name: string }>(
        client,
        `SELECT name FROM system.databases WHERE name NOT IN (${SYSTEM_DATABASES.map((d) => `'${d}'`).join(', ')}) ORDER BY name`,
        { timeoutMs: METADATA_TIMEOUT_MS },
      ),
    )
    return rows.map((r) => r.name)
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    await this.server()
    // The database is the client's connection parameter: currentDatabase() needs no value in SQL.
    const rows = await this.#clients.use(database ?? this.#database, (client) =>
      this.#select<{ database: string; table: string; name: string; type: string }>(
        client,
        'SELECT database, table, name, type FROM system.columns WHERE database = currentDatabase()',
        { timeoutMs: METADATA_TIMEOUT_MS },
      ),
    )
    const tables = new Map<string, { schema: string; name: string; columns: ColumnInfo[] }>()
    for (const row of rows) {
      let table = tables.get(row.table)
      if (!table) {
        table = { schema: row.database, name: row.table, columns: [] }
        tables.set(row.table, table)
      }
      table.columns.push({
        name: row.name,
        nativeType: row.type,
        dataType: dataTypeOf(row.type),
        nullable: isNullable(row.type),
      })
    }
    return [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  async execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const request = await this.#request(sql, options)
    const settings = { timeoutMs: options.timeoutMs, signal: options.signal }
    return this.#clients.use(options.database ?? this.#database, async (client) => {
      let rows: Record<string, unknown>[] = []
      const known = await this.#described(client, request, settings)
      // one batch: every row, handed over once the response is read
      const read = await this.#read(
        client,
        request,
        maxRows,
        Number.POSITIVE_INFINITY,
        settings,
        known,
        async (columns, r) => {
          rows = r.map((values) => objectOf(columns, values))
        },
      )
      return { columns: resultColumns(read.columns), rows, truncated: read.truncated }
    })
  }

  /**
   * `execute`'s request (the same settings: time limit, read only, session time zone, 64-bit
   * integers quoted; the same row cap and conversion) with its rows handed over `batchRows` at a
   * time as the response arrives: while `onBatch` handles one, the HTTP response is read no
   * further than the stream's buffer, so at most about two batches are held. Our deadline and
   * the signal abort the request and KILL the query, also between batches.
   */
  async stream(sql: string, options: StreamOptions, onBatch: BatchHandler): Promise<StreamResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const batchRows = checkBatchRows(options.batchRows)
    const request = await this.#request(sql, options)
    const settings = { timeoutMs: options.timeoutMs, signal: options.signal }
    return this.#clients.use(options.database ?? this.#database, async (client) => {
      const known = await this.#described(client, request, settings)
      const read = await this.#read(client, request, maxRows, batchRows, settings, known, (columns, rows) =>
        onBatch({ columns: resultColumns(columns), rows }),
      )
      return { columns: resultColumns(read.columns), rows: read.rows, truncated: read.truncated }
    })
  }

  async #request(sql: string, options: ExecuteOptions): Promise<QueryRequest> {
    if (options.timezone !== undefined) checkTimeZone(options.timezone)
    throwIfAborted(options.signal)
    const server = await this.server()
    return buildQueryRequest(sql, options, server, randomUUID())
  }

  /** The result's columns asked first where the format does not name them (JSONEachRow, older servers). */
  async #described(
    client: ClickHouseClient,
    request: QueryRequest,
    settings: RunSettings,
  ): Promise<Column[] | undefined> {
    if (request.format !== 'JSONEachRow') return undefined
    const described = await this.#select<{ name: string; type: string }>(
      client,
      describeQuery(request.query),
      settings,
      request.query_params,
    )
    return described.map((d) => ({ name: d.name, nativeType: d.type }))
  }

  async close(): Promise<void> {
    await this.#clients.closeAll()
  }

  async #probe(): Promise<ServerInfo> {
    const rows = await this.#clients.use(this.#database, (client) =>
      this.#select<{ version: string; timezone: string; compact: string | number }>(
        client,
        `SELECT version() AS version, timezone() AS timezone,
                (SELECT count() FROM system.formats WHERE name = 'JSONCompactEachRowWithNamesAndTypes') AS compact`,
        { timeoutMs: this.#options.connectTimeoutMs, connecting: true },
      ),
    )
    const row = rows[0]
    if (typeof row?.version !== 'string') throw connectionError('the server did not answer as ClickHouse')
    return serverInfo(row.version, row.timezone, Number(row.compact) > 0)
  }

  /** A small internal query, read whole (metadata). */
  async #select<T>(
    client: ClickHouseClient,
    query: string,
    settings: RunSettings,
    params?: Record<string, unknown>,
  ): Promise<T[]> {
    return this.#guarded(client, settings, randomUUID(), async (abortSignal, queryId) => {
      const rs = await client.query({
        query,
        format: 'JSONEachRow',
        query_id: queryId,
        abort_signal: abortSignal,
        ...(params ? { query_params: params } : {}),
        clickhouse_settings: {
          ...QUOTED_64BIT,
          ...(settings.connecting ? {} : { max_execution_time: secs(settings.timeoutMs) }),
        },
      })
      return rs.json<T>()
    })
  }

  /**
   * One request's rows as the server sends them (the HTTP response read as a stream), converted
   * and handed to `sink` `batchRows` at a time, the rest at the end; the response is not read
   * while the sink works. Reading stops after maxRows + 1 rows (the extra one only says
   * `truncated`); leaving early closes the download, and the server drops the query.
   */
  async #read(
    client: ClickHouseClient,
    request: QueryRequest,
    maxRows: number,
    batchRows: number,
    settings: RunSettings,
    known: readonly Column[] | undefined,
    sink: RowSink,
  ): Promise<{ columns: readonly Column[]; rows: number; truncated: boolean }> {
    return this.#guarded(client, settings, request.query_id, async (abortSignal) => {
      const rs = await client.query({ ...request, abort_signal: abortSignal })
      const compact = request.format === 'JSONCompactEachRowWithNamesAndTypes'
      let names: string[] | undefined = compact ? undefined : known?.map((c) => c.name)
      let types: string[] | undefined = compact ? undefined : known?.map((c) => c.nativeType)
      const columns = () => (names ?? []).map((name, i) => ({ name, nativeType: types?.[i] ?? 'String' }))
      let pending: unknown[][] = []
      let count = 0
      let truncated = false
      const hand = async () => {
        if (pending.length === 0) return
        const rows = pending
        pending = []
        await sink(columns(), rows)
        // our deadline or the caller's signal fired while the batch was handled
        if (abortSignal.aborted) throw new Error('the stream was stopped')
      }
      try {
        outer: for await (const batch of rs.stream()) {
          for (const line of batch) {
            const value = parseLine(line.text)
            if (compact && names === undefined) {
              names = (value as unknown[]).map(String)
              continue
            }
            if (compact && types === undefined) {
              types = (value as unknown[]).map(String)
              continue
            }
            if (count === maxRows) {
              truncated = true
              break outer
            }
            pending.push(compact ? compactRow(value as unknown[], types!) : objectRow(value, names ?? [], types ?? []))
            count++
            if (pending.length === batchRows) await hand()
          }
        }
        await hand()
      } finally {
        rs.close() // stops the download when we leave early; the server drops the query
      }
      return { columns: columns(), rows: count, truncated }
    })
  }

  /**
   * Runs one request through the execution core. The server enforces max_execution_time itself;
   * when our deadline or the signal fires first we abort the HTTP request and KILL the query by
   * its id, so it does not run on without a reader. While connecting, the deadline is the
   * connect timeout and only the request is aborted.
   */
  async #guarded<T>(
    client: ClickHouseClient,
    settings: RunSettings,
    queryId: string,
    work: (signal: AbortSignal, queryId: string) => Promise<T>,
  ): Promise<T> {
    const controller = new AbortController()
    const connecting = settings.connecting === true
    return guarded(
      {
        timeoutMs: settings.timeoutMs,
        signal: settings.signal,
        cancelGraceMs: connecting ? 0 : WHOLE_SECONDS_GRACE_MS,
        connecting,
        errors: CLICKHOUSE_ERRORS,
        secrets: [this.#credentials.password],
        cancel: () => {
          controller.abort()
          if (!connecting || settings.signal?.aborted) this.#kill(client, queryId)
        },
        release: ({ broken }) => {
          if (broken && !connecting) this.#server = undefined // probe again: the server may have changed
        },
      },
      () => work(controller.signal, queryId),
    )
  }

  #kill(client: ClickHouseClient, queryId: string): void {
    // Our own UUID (checked): the one literal we put in SQL, because 18.x has no parameters.
    if (!/^[0-9a-f-]{36}$/.test(queryId)) return
    client.command({ query: `KILL QUERY WHERE query_id = '${queryId}' ASYNC` }).then(
      () => undefined,
      () => undefined,
    )
  }

  #createClient(database: string): ClickHouseClient {
    const c = this.#credentials
    const url = `${c.ssl ? 'https' : 'http'}://${c.host}:${c.port}`
    // The client parses the URL itself and throws a bare error on a host it cannot read (a
    // TypeError; "Unknown URL parameters" for `a?b`, which parses as a query): the caller's
    // mistake, answered as such, never a failure of ours.
    const parsed = URL.canParse(url) ? new URL(url) : undefined
    const invalid = () => connectionError(`host ${JSON.stringify(c.host.slice(0, 200))} is not a valid host name`)
    if (parsed === undefined || parsed.search !== '' || parsed.hash !== '' || parsed.pathname !== '/') throw invalid()
    try {
      return createClient({
        url,
        username: c.user,
        password: c.password,
        database,
        application: 'strata',
        // https verifies the certificate; a private CA replaces the public roots (docs/datasources.md#tls)
        ...(c.tlsCaCertificate === undefined ? {} : { tls: { ca_cert: Buffer.from(c.tlsCaCertificate) } }),
        max_open_connections: this.#options.poolMax,
        // Deadlines are ours (abort signals); this only bounds a request nobody else bounds.
        request_timeout: BACKSTOP_TIMEOUT_MS,
        log: { level: ClickHouseLogLevel.OFF },
      })
    } catch {
      throw invalid()
    }
  }
}

function resultColumns(columns: readonly Column[]): QueryResult['columns'] {
  return columns.map((c) => ({ name: c.name, dataType: dataTypeOf(c.nativeType) }))
}

function secs(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000))
}

/** One line of output; an exception written mid-stream (18.x) is plain text, not JSON. */
function parseLine(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    if (/Code: \d+/.test(text)) throw new Error(text.trim())
    throw err
  }
}

/** A JSONCompact line: its values converted by the result's types, in order. */
function compactRow(values: readonly unknown[], types: readonly string[]): unknown[] {
  return values.map((v, i) => convertValue(v, types[i] ?? 'String'))
}

/** A JSONEachRow line (an object): its values in the order of the described columns, converted. */
function objectRow(value: unknown, names: readonly string[], types: readonly string[]): unknown[] {
  const row = value as Record<string, unknown>
  return names.map((name, i) => convertValue(row[name], types[i] ?? 'String'))
}

/** A row as `execute` answers it: an object by column name (a repeated name keeps the last value). */
function objectOf(columns: readonly Column[], values: readonly unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  columns.forEach((c, i) => {
    row[c.name] = values[i]
  })
  return row
}
