/**
 * csv and awss3 through DuckDB: one in-memory instance per datasource,
 * opened on first use, with one view per file in schema `main`. Once the views exist the
 * instance is sandboxed: file access is limited to exactly those files and external access is
 * switched off for good (DuckDB refuses to switch it back on), so SQL cannot read other files.
 * The files are confined to FILES_ROOT (`ConnectorOptions.filesRoot`, files-root.ts): checked by
 * real path when they are listed, again once they are loaded (a link swapped in meanwhile
 * discards the instance), and before every query for the files DuckDB reads again per query
 * (Parquet views).
 * awss3 over S3 reads a local cache of the bucket (FileCache, awss3/cache.ts) the same way, every
 * file loaded into memory; introspect() refreshes the cache and, when the files changed, the
 * instance is rebuilt from it on the next call.
 * A query runs on a connection of its own (interrupt() cancels just that one); connections are
 * kept for reuse after a query that succeeded, with the TimeZone they were last set to, so a
 * query sets it only when it changes. A connection that saw an error or a cancellation is closed.
 */
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBValue,
  quotedIdentifier,
  quotedString,
  StatementType,
} from '@duckdb/node-api'
import { ApiError } from '../../errors.js'
import { connectionError, queryError } from '../errors.js'
import { checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { tablesOf } from '../shared/introspection.js'
import { checkTimeZone } from '../shared/values.js'
import type {
  AwsS3Credentials,
  Connector,
  ConnectorOptions,
  CsvCredentials,
  ExecuteOptions,
  QueryResult,
  TableInfo,
} from '../types.js'
import { DUCKDB_ERRORS, translateOpenError } from './errors.js'
import { recheck } from './files-root.js'
import { csvSources, type FileCache, type SourceFile, type Sources, s3Sources } from './sources.js'
import { dataTypeOfId, dataTypeOfName } from './type-mapping.js'
import { toDuckParam, toJson } from './values.js'

export type DuckdbSource =
  | { readonly kind: 'csv'; readonly credentials: CsvCredentials }
  | { readonly kind: 'awss3'; readonly credentials: AwsS3Credentials }
  /** Files a remote store keeps locally (awss3 over S3). */
  | { readonly kind: 'cached'; readonly cache: FileCache }

const SCHEMA = 'main'
const DEFAULT_MEMORY_LIMIT_MB = 1024

interface Lease {
  readonly conn: DuckDBConnection
  timeZone: string | undefined
}

interface Opened {
  readonly instance: DuckDBInstance
  readonly sources: Sources
  /** Files DuckDB reads again on every query (views): re-checked before each one. */
  readonly viewed: readonly string[]
  /** Connections between queries (at most MAX_IDLE). */
  readonly idle: Lease[]
}

const MAX_IDLE = 4

export class DuckdbConnector implements Connector {
  readonly dialect = 'duckdb' as const
  readonly #source: DuckdbSource
  readonly #memoryLimitMb: number
  readonly #filesRoot: string | undefined
  #opened: Promise<Opened> | undefined
  #closed = false

  constructor(source: DuckdbSource, options: ConnectorOptions) {
    this.#source = source
    this.#memoryLimitMb = options.duckdbMemoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB
    this.#filesRoot = options.filesRoot
    if (!Number.isSafeInteger(this.#memoryLimitMb) || this.#memoryLimitMb < 16) {
      throw new RangeError('duckdbMemoryLimitMb must be a whole number of at least 16')
    }
  }

  async test(): Promise<void> {
    if (this.#source.kind === 'cached') await this.#source.cache.check()
    await this.#query('select 1', { params: [], timeoutMs: METADATA_TIMEOUT_MS, maxRows: 1 })
  }

  async databases(): Promise<string[]> {
    await this.#open()
    return [SCHEMA]
  }

  async introspect(database?: string): Promise<TableInfo[]> {
    if (this.#source.kind === 'cached') await this.#refresh(this.#source.cache)
    const result = await this.#query(
      `select table_schema, table_name, column_name, data_type, is_nullable
         from information_schema.columns
        where table_catalog = current_database() and table_schema = $1
        order by table_schema, table_name, ordinal_position`,
      { params: [SCHEMA], timeoutMs: METADATA_TIMEOUT_MS, maxRows: 1_000_000, database },
    )
    return tablesOf(result.rows, (row) => {
      const nativeType = String(row.data_type)
      return {
        schema: String(row.table_schema),
        table: String(row.table_name),
        column: {
          name: String(row.column_name),
          nativeType,
          dataType: dataTypeOfName(nativeType),
          nullable: row.is_nullable === 'YES',
        },
      }
    })
  }

  execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    return this.#query(sql, options, true)
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#discard()
  }

  /** Drops the instance (the next call opens a new one), as close() does. */
  async #discard(): Promise<void> {
    const opened = this.#opened
    this.#opened = undefined
    if (opened) {
      await opened
        .then((o) => {
          for (const lease of o.idle.splice(0)) lease.conn.closeSync()
          o.instance.closeSync()
        })
        .catch(() => undefined)
    }
  }

  /** Refreshes the cache; an instance over files that changed is rebuilt on the next call. */
  async #refresh(cache: FileCache): Promise<void> {
    if (this.#closed) throw connectionError('the connector is closed')
    const { changed } = await cache.refresh()
    if (changed) await this.#discard()
  }

  async #query(sql: string, options: ExecuteOptions, selectOnly = false): Promise<QueryResult> {
    const maxRows = checkMaxRows(options.maxRows)
    const timeZone = options.timezone ?? 'UTC'
    checkTimeZone(timeZone)
    if (options.database !== undefined && options.database !== SCHEMA) {
      throw connectionError(`no database "${options.database.slice(0, 100)}" (this datasource has only "${SCHEMA}")`)
    }
    throwIfAborted(options.signal)
    const opened = await this.#open()
    if (opened.viewed.length > 0) await recheck(opened.sources.root, opened.viewed, opened.sources.field)
    const lease = opened.idle.pop() ?? { conn: await opened.instance.connect(), timeZone: undefined }
    const { conn } = lease
    return guarded(
      {
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        cancelGraceMs: 0, // in-process: the interrupt is the limit
        errors: DUCKDB_ERRORS,
        secrets: [],
        cancel: () => conn.interrupt(),
        release: ({ reusable }) => {
          if (reusable && !this.#closed && opened.idle.length < MAX_IDLE) opened.idle.push(lease)
          else conn.closeSync()
        },
      },
      async (statement) => {
        // a cut-off stream or an error may leave the connection mid-result: not reused
        const result = await this.#run(lease, sql, options, maxRows, timeZone, selectOnly).catch((err: unknown) => {
          statement.discard()
          throw err
        })
        if (result.truncated) statement.discard()
        return result
      },
    )
  }

  async #run(
    lease: Lease,
    sql: string,
    options: ExecuteOptions,
    maxRows: number,
    timeZone: string,
    selectOnly: boolean,
  ): Promise<QueryResult> {
    const { conn } = lease
    if (lease.timeZone !== timeZone) {
      lease.timeZone = undefined
      const set = await conn.prepare('SET TimeZone = $1')
      set.bind([timeZone])
      await set.run()
      set.destroySync()
      lease.timeZone = timeZone
    }
    const prepared = await conn.prepare(sql)
    if (selectOnly && prepared.statementType !== StatementType.SELECT) {
      prepared.destroySync()
      throw queryError('only SELECT statements can run on this datasource')
    }
    if (options.params.length > 0) prepared.bind(options.params.map(toDuckParam))
    const result = await prepared.stream()
    const names = result.columnNames()
    const columns = result
      .columnTypes()
      .map((t, i) => ({ name: names[i] ?? `column${i}`, dataType: dataTypeOfId(t.typeId) }))
    const rows: Record<string, unknown>[] = []
    let truncated = false
    read: for (;;) {
      const chunk = await result.fetchChunk()
      if (!chunk || chunk.rowCount === 0) break
      for (const values of chunk.getRows()) {
        if (rows.length === maxRows) {
          truncated = true
          break read
        }
        rows.push(toRow(values, names, timeZone))
      }
    }
    prepared.destroySync()
    return { columns, rows, truncated }
  }

  #open(): Promise<Opened> {
    if (this.#closed) return Promise.reject(connectionError('the connector is closed'))
    if (!this.#opened) {
      const opening = this.#create()
      this.#opened = opening
      opening.catch(() => {
        if (this.#opened === opening) this.#opened = undefined
      })
    }
    return this.#opened
  }

  #create(): Promise<Opened> {
    switch (this.#source.kind) {
      case 'csv':
        return csvSources(this.#source.credentials, this.#filesRoot).then((s) => this.#load(s))
      case 'awss3':
        return s3Sources(this.#source.credentials, this.#filesRoot).then((s) => this.#load(s))
      case 'cached':
        return this.#source.cache.use((s) => this.#load(s))
    }
  }

  async #load(sources: Sources): Promise<Opened> {
    const { files } = sources
    // Bounded before anything is loaded: the parsed files count against it too. The value is our
    // own validated integer. Past it a load or query fails (DuckDB's "Out of Memory" error).
    // The allocator gives memory back after each task and in the background: with DuckDB's
    // defaults (a 128 MB flush threshold, no background thread) a query's freed memory stayed in
    // the process (the demo's idle RSS 276 -> 251 MB, query times unchanged: bench/README.md).
    const instance = await DuckDBInstance.create(':memory:', {
      memory_limit: `${this.#memoryLimitMb}MB`,
      allocator_flush_threshold: '1MB',
      allocator_background_threads: 'true',
    })
    try {
      const conn = await instance.connect()
      try {
        const delimiter = this.#source.kind === 'csv' ? this.#source.credentials.delimiter : undefined
        for (const file of files) {
          const reader = await readerCall(conn, file, delimiter)
          try {
            // Text formats are parsed once into memory (a view would re-parse the file on every
            // query: ~0.5 s for 100k CSV rows); Parquet is columnar already and stays a view.
            // A cache (materialize) may change under us: everything is loaded.
            const kind = file.reader === 'parquet' && !sources.materialize ? 'VIEW' : 'TABLE'
            await conn.run(
              `CREATE ${kind} ${quotedIdentifier(SCHEMA)}.${quotedIdentifier(file.table)} AS SELECT * FROM ${reader}`,
            )
          } catch (err) {
            throw translateOpenError(err, `cannot read ${file.table} (${file.reader})`)
          }
        }
        const allowed = await Promise.all(files.map((f) => literal(conn, f.path)))
        if (allowed.length > 0) await conn.run(`SET allowed_paths = [${allowed.join(', ')}]`)
        await conn.run('SET enable_external_access = false')
      } finally {
        conn.closeSync()
      }
      // A link swapped in while DuckDB read the files would have been followed: look again.
      const paths = files.map((f) => f.path)
      await recheck(sources.root, paths, sources.field)
      const viewed = sources.materialize ? [] : files.filter((f) => f.reader === 'parquet').map((f) => f.path)
      return { instance, sources, viewed, idle: [] }
    } catch (err) {
      instance.closeSync()
      if (err instanceof ApiError) throw err
      throw translateOpenError(err, 'cannot open the files')
    }
  }
}

/** `read_csv_auto('…', delim = '…')` and friends, every value a verified literal. */
async function readerCall(conn: DuckDBConnection, file: SourceFile, delimiter: string | undefined): Promise<string> {
  const path = await literal(conn, file.path)
  switch (file.reader) {
    case 'parquet':
      return `read_parquet(${path})`
    case 'json':
      return `read_json_auto(${path})`
    case 'csv': {
      if (delimiter === undefined || delimiter === '') return `read_csv_auto(${path})`
      if (delimiter.length > 4) throw connectionError('the CSV delimiter must be at most 4 characters')
      return `read_csv_auto(${path}, delim = ${await literal(conn, delimiter)})`
    }
  }
}

/**
 * A string as a DuckDB string literal, by DuckDB's own quoting (`quotedString`), then proven:
 * DuckDB parses the literal back and compares it with the same value bound as a parameter.
 * DDL (CREATE VIEW, SET) cannot take parameters, so this is the one place values meet SQL text.
 */
async function literal(conn: DuckDBConnection, value: string): Promise<string> {
  if (value.includes('\u0000')) throw connectionError('a path or option contains a NUL character')
  const quoted = quotedString(value)
  const check = await conn.prepare(`SELECT ${quoted} = $1 AS same`)
  check.bind([value])
  const reader = await check.runAndReadAll()
  check.destroySync()
  if (reader.getRowObjects()[0]?.same !== true) throw connectionError('a path or option cannot be quoted safely')
  return quoted
}

function toRow(values: readonly DuckDBValue[], names: readonly string[], timeZone: string): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (let i = 0; i < names.length; i++) row[names[i] as string] = toJson(values[i] ?? null, timeZone)
  return row
}
