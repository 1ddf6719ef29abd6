/**
 * DuckDB itself, as the engine process runs it (engine-host/child.ts): the server's connector
 * (connector.ts) sends these requests across the process boundary and never loads DuckDB.
 *
 * One in-memory instance per opened datasource (`instanceId`, chosen by the connector), with one
 * table or view per file in schema `main`. Once loaded the instance is sandboxed: file access is
 * limited to exactly those files and external access is switched off for good (DuckDB refuses to
 * switch it back on), so SQL cannot read other files.
 * A query runs on a connection of its own (`duckdb.interrupt` cancels just that one);
 * connections are kept for reuse after a query that succeeded, with the TimeZone they were last
 * set to. A connection that saw an error, an interrupt or a cut-off result is closed.
 * Closing an instance first interrupts its queries and waits for them: an instance is never
 * closed under a running statement.
 */
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBPreparedStatement,
  type DuckDBValue,
  quotedIdentifier,
  quotedString,
  StatementType,
} from '@duckdb/node-api'
import { ApiError } from '../../errors.js'
import { connectionError, queryError } from '../errors.js'
import type { QueryResult } from '../types.js'
import { translateOpenError } from './errors.js'
import type { SourceFile } from './sources.js'
import { dataTypeOfId } from './type-mapping.js'
import { toDuckParam, toJson } from './values.js'

const SCHEMA = 'main'
const MAX_IDLE = 4

export interface OpenArgs {
  readonly instanceId: string
  readonly files: readonly SourceFile[]
  /** Load every file into memory, Parquet included (a cache that may change under us). */
  readonly materialize: boolean
  readonly memoryLimitMb: number
  readonly delimiter?: string | undefined
}

export interface QueryArgs {
  readonly instanceId: string
  readonly queryId: string
  readonly sql: string
  readonly params: readonly unknown[]
  readonly maxRows: number
  readonly timeZone: string
  readonly selectOnly: boolean
}

export interface Lease {
  readonly conn: DuckDBConnection
  timeZone: string | undefined
  /**
   * Statements prepared on this connection, kept by SQL text to run again with other values
   * (rollup-reader.ts: a connection whose view never changes). Absent: prepared per run.
   */
  readonly prepared?: Map<string, DuckDBPreparedStatement>
}

/** Prepared statements kept per connection at most (the least recently added destroyed first). */
const MAX_PREPARED = 16

/** Closes a connection and the statements kept on it. */
export function closeLease(lease: Lease): void {
  for (const p of lease.prepared?.values() ?? []) p.destroySync()
  lease.prepared?.clear()
  lease.conn.closeSync()
}

interface Instance {
  readonly instance: DuckDBInstance
  readonly idle: Lease[]
  /** Queries running, by queryId: their connection, and their end. */
  readonly running: Map<string, { lease?: Lease; done: Promise<unknown> }>
  closing: boolean
}

const instances = new Map<string, Instance>()
/** Interrupts that arrived before their query got a connection. */
const interrupted = new Set<string>()

async function open(args: OpenArgs): Promise<void> {
  if (instances.has(args.instanceId)) throw connectionError('this datasource is already open')
  // Bounded before anything is loaded: the parsed files count against it too. Past it a load or
  // query fails (DuckDB's "Out of Memory" error). The allocator gives memory back after each task
  // and in the background (the demo's idle RSS 276 -> 251 MB, query times unchanged).
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: `${args.memoryLimitMb}MB`,
    allocator_flush_threshold: '1MB',
    allocator_background_threads: 'true',
  })
  try {
    const conn = await instance.connect()
    try {
      for (const file of args.files) {
        const reader = await readerCall(conn, file, args.delimiter)
        try {
          // Text formats are parsed once into memory (a view would re-parse the file on every
          // query: ~0.5 s for 100k CSV rows); Parquet is columnar already and stays a view.
          const kind = file.reader === 'parquet' && !args.materialize ? 'VIEW' : 'TABLE'
          await conn.run(
            `CREATE ${kind} ${quotedIdentifier(SCHEMA)}.${quotedIdentifier(file.table)} AS SELECT * FROM ${reader}`,
          )
        } catch (err) {
          throw translateOpenError(err, `cannot read ${file.table} (${file.reader})`)
        }
      }
      const allowed = await Promise.all(args.files.map((f) => literal(conn, f.path)))
      if (allowed.length > 0) await conn.run(`SET allowed_paths = [${allowed.join(', ')}]`)
      await conn.run('SET enable_external_access = false')
    } finally {
      conn.closeSync()
    }
  } catch (err) {
    instance.closeSync()
    if (err instanceof ApiError) throw err
    throw translateOpenError(err, 'cannot open the files')
  }
  instances.set(args.instanceId, { instance, idle: [], running: new Map(), closing: false })
}

async function query(args: QueryArgs): Promise<QueryResult> {
  const opened = instances.get(args.instanceId)
  if (!opened || opened.closing) throw connectionError('the datasource was closed')
  const entry: { lease?: Lease; done: Promise<unknown> } = { done: Promise.resolve() }
  const work = (async () => {
    const lease = opened.idle.pop() ?? { conn: await opened.instance.connect(), timeZone: undefined }
    entry.lease = lease
    let reusable = false
    try {
      if (interrupted.delete(args.queryId)) throw new Error('INTERRUPT Error: Interrupted!')
      const result = await run(lease, args)
      reusable = !result.truncated
      return result
    } finally {
      if (reusable && !opened.closing && opened.idle.length < MAX_IDLE) opened.idle.push(lease)
      else lease.conn.closeSync()
    }
  })()
  entry.done = work.catch(() => undefined)
  opened.running.set(args.queryId, entry)
  try {
    return await work
  } finally {
    opened.running.delete(args.queryId)
    interrupted.delete(args.queryId)
  }
}

async function interrupt(args: { readonly queryId: string }): Promise<void> {
  for (const opened of instances.values()) {
    const entry = opened.running.get(args.queryId)
    if (entry === undefined) continue
    if (entry.lease) entry.lease.conn.interrupt()
    else interrupted.add(args.queryId)
    return
  }
}

async function close(args: { readonly instanceId: string }): Promise<void> {
  const opened = instances.get(args.instanceId)
  if (!opened || opened.closing) return
  opened.closing = true
  for (const entry of opened.running.values()) entry.lease?.conn.interrupt()
  await Promise.all([...opened.running.values()].map((e) => e.done))
  instances.delete(args.instanceId)
  for (const lease of opened.idle.splice(0)) lease.conn.closeSync()
  opened.instance.closeSync()
}

export const DUCKDB_HANDLERS = {
  'duckdb.open': open,
  'duckdb.query': query,
  'duckdb.interrupt': interrupt,
  'duckdb.close': close,
} as const

/** Runs one statement on a connection (its TimeZone set first), rows made JSON-safe; rollup-reader.ts reads rollups with it. */
export async function run(
  lease: Lease,
  args: Pick<QueryArgs, 'sql' | 'params' | 'maxRows' | 'timeZone' | 'selectOnly'>,
): Promise<QueryResult> {
  const { conn } = lease
  if (lease.timeZone !== args.timeZone) {
    lease.timeZone = undefined
    const set = await conn.prepare('SET TimeZone = $1')
    set.bind([args.timeZone])
    await set.run()
    set.destroySync()
    lease.timeZone = args.timeZone
  }
  const kept = lease.prepared?.get(args.sql)
  const prepared = kept ?? (await conn.prepare(args.sql))
  if (kept === undefined) {
    if (args.selectOnly && prepared.statementType !== StatementType.SELECT) {
      prepared.destroySync()
      throw queryError('only SELECT statements can run on this datasource')
    }
    if (lease.prepared !== undefined) {
      if (lease.prepared.size >= MAX_PREPARED) {
        const [sql, oldest] = lease.prepared.entries().next().value as [string, DuckDBPreparedStatement]
        lease.prepared.delete(sql)
        oldest.destroySync()
      }
      lease.prepared.set(args.sql, prepared)
    }
  }
  if (args.params.length > 0) prepared.bind(args.params.map(toDuckParam))
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
      if (rows.length === args.maxRows) {
        truncated = true
        break read
      }
      rows.push(toRow(values, names, args.timeZone))
    }
  }
  if (lease.prepared === undefined) prepared.destroySync()
  return { columns, rows, truncated }
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
export async function literal(conn: DuckDBConnection, value: string): Promise<string> {
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
