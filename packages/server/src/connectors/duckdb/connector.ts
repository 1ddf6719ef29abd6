/**
 * csv and awss3 through DuckDB, which runs in the engine process (engine-host/): this class is
 * the server's side. It finds and checks the files (FILES_ROOT confinement, files-root.ts; the
 * file limits, file-checks.ts), asks the engine process to open one in-memory instance per
 * datasource over them (duckdb/engine.ts: one table or view per file in schema `main`, then
 * sandboxed), and sends it the queries. The files are checked by real path when they are listed,
 * again once they are loaded (a link swapped in meanwhile discards the instance), and before
 * every query for the files DuckDB reads again per query (Parquet views).
 * awss3 over S3 reads a local cache of the bucket (FileCache, awss3/cache.ts) the same way, every
 * file loaded into memory; introspect() refreshes the cache and, when the files changed, the
 * instance is rebuilt from it on the next call.
 * Deadlines and cancellation are the shared execution core's (shared/execution.ts): our deadline
 * or an abort sends `duckdb.interrupt` for that query; a query the interrupt did not stop within
 * DESTROY_GRACE_MS answers anyway. When the engine process dies, its queries answer
 * DATASOURCE_CONNECTION_ERROR and the next call reopens the instance in the new process.
 */
import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { EngineHost } from '../engine-host/supervisor.js'
import { connectionError } from '../errors.js'
import { checkMaxRows, guarded, METADATA_TIMEOUT_MS, throwIfAborted } from '../shared/execution.js'
import { columnsListing, doubleQuoted, tablesOfListing } from '../shared/introspection.js'
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
import type { OpenArgs, QueryArgs } from './engine.js'
import { DUCKDB_ERRORS } from './errors.js'
import { checkDataFile, fileKindOf } from './file-checks.js'
import { recheck } from './files-root.js'
import { csvSources, type FileCache, type Sources, s3Sources } from './sources.js'
import { dataTypeOfName } from './type-names.js'

export type DuckdbSource =
  | { readonly kind: 'csv'; readonly credentials: CsvCredentials }
  | { readonly kind: 'awss3'; readonly credentials: AwsS3Credentials }
  /** Files a remote store keeps locally (awss3 over S3). */
  | { readonly kind: 'cached'; readonly cache: FileCache }

const SCHEMA = 'main'
const DEFAULT_MEMORY_LIMIT_MB = 1024
/** The ceiling of an engine process a connector starts for itself (no `ConnectorOptions.engine`). */
const OWN_ENGINE_MEMORY_MB = 2048

interface Opened {
  /** The instance's id in the engine process. */
  readonly id: string
  /** The engine process it lives in: another generation does not have it. */
  readonly generation: number
  readonly sources: Sources
  /** Files DuckDB reads again on every query (views): re-checked before each one. */
  readonly viewed: readonly string[]
}

export class DuckdbConnector implements Connector {
  readonly dialect = 'duckdb' as const
  readonly #source: DuckdbSource
  readonly #memoryLimitMb: number
  readonly #filesRoot: string | undefined
  readonly #engine: EngineHost
  /** No engine process was given: this connector started its own, and stops it on close(). */
  readonly #ownsEngine: boolean
  #opened: Promise<Opened> | undefined
  #closed = false

  constructor(source: DuckdbSource, options: ConnectorOptions) {
    this.#source = source
    this.#memoryLimitMb = options.duckdbMemoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB
    this.#filesRoot = options.filesRoot
    if (!Number.isSafeInteger(this.#memoryLimitMb) || this.#memoryLimitMb < 16) {
      throw new RangeError('duckdbMemoryLimitMb must be a whole number of at least 16')
    }
    this.#ownsEngine = options.engine === undefined
    this.#engine = options.engine ?? new EngineHost({ memoryLimitMb: OWN_ENGINE_MEMORY_MB })
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
    const listing = columnsListing({
      placeholder: (i) => `$${i + 1}`,
      quote: doubleQuoted,
      catalog: { current: 'CURRENT_DATABASE()' },
      schema: { equals: SCHEMA },
    })
    const result = await this.#query(listing.sql, {
      params: listing.params,
      timeoutMs: METADATA_TIMEOUT_MS,
      maxRows: 1_000_000,
      database,
    })
    return tablesOfListing(result.rows, { dataType: (nativeType) => dataTypeOfName(nativeType) })
  }

  execute(sql: string, options: ExecuteOptions): Promise<QueryResult> {
    return this.#query(sql, options, true)
  }

  async close(): Promise<void> {
    this.#closed = true
    await this.#discard()
    if (this.#ownsEngine) await this.#engine.close()
  }

  /** Drops the instance (the next call opens a new one), as close() does. */
  async #discard(): Promise<void> {
    const opened = this.#opened
    this.#opened = undefined
    const o = await opened?.catch(() => undefined)
    if (o && this.#engine.alive(o.generation)) {
      await this.#engine.call('duckdb.close', { instanceId: o.id }, { generation: o.generation }).catch(() => undefined)
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
    let opened = await this.#open()
    if (!this.#engine.alive(opened.generation)) {
      // the engine process restarted since: the instance is gone with the old one
      if (this.#opened !== undefined && (await this.#opened.catch(() => undefined)) === opened) this.#opened = undefined
      opened = await this.#open()
    }
    if (opened.viewed.length > 0) await recheck(opened.sources.root, opened.viewed, opened.sources.field)
    const args: QueryArgs = {
      instanceId: opened.id,
      queryId: randomUUID(),
      sql,
      params: options.params,
      maxRows,
      timeZone,
      selectOnly,
    }
    const abandon = new AbortController()
    return guarded(
      {
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        cancelGraceMs: 0, // DuckDB has no limit of its own: the interrupt is the limit
        errors: DUCKDB_ERRORS,
        secrets: [],
        cancel: () => this.#engine.notify('duckdb.interrupt', { queryId: args.queryId }, opened.generation),
        drop: () => abandon.abort(),
      },
      () =>
        this.#engine.call<QueryResult>('duckdb.query', args, {
          generation: opened.generation,
          abandon: abandon.signal,
        }),
    )
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
    // Before any engine reads them: a pathological file is refused here, naming it.
    for (const file of files) {
      const shown = file.shown ?? path.relative(sources.root, file.path)
      await checkDataFile(file.path, fileKindOf(file.path, file.reader), shown)
    }
    const generation = await this.#engine.start()
    const args: OpenArgs = {
      instanceId: randomUUID(),
      files,
      materialize: sources.materialize === true,
      memoryLimitMb: this.#memoryLimitMb,
      delimiter: this.#source.kind === 'csv' ? this.#source.credentials.delimiter : undefined,
    }
    await this.#engine.call('duckdb.open', args, { generation })
    try {
      // A link swapped in while DuckDB read the files would have been followed: look again.
      await recheck(
        sources.root,
        files.map((f) => f.path),
        sources.field,
      )
    } catch (err) {
      await this.#engine.call('duckdb.close', { instanceId: args.instanceId }, { generation }).catch(() => undefined)
      throw err
    }
    const viewed = sources.materialize ? [] : files.filter((f) => f.reader === 'parquet').map((f) => f.path)
    return { id: args.instanceId, generation, sources, viewed }
  }
}
