/**
 * Reads a rollup's Parquet files with DuckDB, in the engine process (engine-host/child.ts): the
 * server sends the files and the statements compiled on the rollup (query/rollups/) and never
 * loads DuckDB. One in-memory instance per rollups root (and memory limit) stays open for the
 * engine process's life, its file access limited to that root and external access switched off
 * for good before any read.
 *
 * A rollup's files are loaded into a table of that instance and read from memory while they are
 * unchanged (rollup-tables.ts: bounded, checked against the files at every read, so a rebuilt
 * file is read and never the old copy); a rollup larger than that memory's budget is read from
 * its files at every statement. Either way a read takes a connection whose `main.rollup` (a
 * temporary view of that connection alone) is that table or those files, or opens one and makes
 * the view, runs the statements (SELECT only, values bound; the statements a connection prepared
 * are kept on it) and keeps the connection for the next read: reads of one rollup run at once,
 * each on a connection of its own. A connection that saw an error is closed.
 */
import {
  type DuckDBConnection,
  DuckDBInstance,
  type DuckDBInstance as Instance,
  quotedIdentifier,
} from '@duckdb/node-api'
import type { QueryResult } from '../types.js'
import { closeLease, type Lease, literal, run } from './engine.js'
import { type RollupTable, RollupTables } from './rollup-tables.js'

export interface ReadRollupArgs {
  /** The folder every file is under (the rollups root): the only one DuckDB may read. */
  readonly root: string
  /** Absolute paths of the rollup's files (checked by the server to be under `root`). */
  readonly files: readonly string[]
  /** Columns to keep the rows in order of when they are loaded into memory (see rollup-tables.ts). */
  readonly order?: readonly string[]
  readonly statements: readonly { readonly sql: string; readonly params: readonly unknown[] }[]
  readonly maxRows: number
  readonly timeZone: string
  readonly memoryLimitMb: number
}

/** Connections kept with their view, over every table and file set (the least recently used go first). */
const MAX_IDLE = 32
/** The share of an instance's memory limit its loaded rollups may hold together. */
const TABLES_SHARE = 1 / 4

interface Kept extends Lease {
  /** What its view reads: a loaded table, or a file set. */
  readonly source: string
}

interface Reading {
  readonly instance: Instance
  readonly tables: RollupTables
}

const instances = new Map<string, Promise<Reading>>()
/** Idle connections by the source of their view; a Map keeps insertion order for the LRU. */
const idle = new Map<string, Kept[]>()
let idleCount = 0

function sandboxed(root: string, memoryLimitMb: number): Promise<Reading> {
  const key = `${memoryLimitMb}\u0000${root}`
  let reading = instances.get(key)
  if (reading === undefined) {
    reading = (async () => {
      const created = await DuckDBInstance.create(':memory:', { memory_limit: `${memoryLimitMb}MB` })
      const conn = await created.connect()
      try {
        const dir = root.endsWith('/') ? root : `${root}/`
        // each file's footer read once while the file is unchanged (DuckDB checks its modification time)
        await conn.run('SET parquet_metadata_cache = true')
        await conn.run(`SET allowed_directories = [${await literal(conn, dir)}]`)
        await conn.run('SET enable_external_access = false')
      } finally {
        conn.closeSync()
      }
      const budget = memoryLimitMb * 1024 * 1024 * TABLES_SHARE
      return { instance: created, tables: new RollupTables(created, budget, (t) => forget(tableSource(t))) }
    })()
    reading.catch(() => instances.delete(key))
    instances.set(key, reading)
  }
  return reading
}

const tableSource = (table: RollupTable): string => `table\u0000${table.files}\u0000${table.name}`

/**
 * A connection whose view reads `source` (`select`): a kept one, preferably one that prepared
 * `sql` already, else a new one. Statements are prepared per connection: taken at random, the
 * nine reads of a dashboard landed two times in three on a connection that had not prepared
 * theirs, and each prepared it again (0.5–3 ms of DuckDB's planning in the engine process).
 */
async function take(
  instance: Instance,
  source: string,
  select: (conn: DuckDBConnection) => Promise<string>,
  /** Its view never changes (a loaded table): the statements it prepares are kept. */
  fixed: boolean,
  sql: string | undefined,
): Promise<Kept> {
  const list = idle.get(source)
  const kept = list === undefined ? undefined : pick(list, sql)
  if (kept !== undefined) {
    idleCount--
    if (list?.length === 0) idle.delete(source)
    return kept
  }
  const conn = await instance.connect()
  try {
    await conn.run(`CREATE TEMP VIEW ${quotedIdentifier('rollup')} AS ${await select(conn)}`)
  } catch (err) {
    conn.closeSync()
    throw err
  }
  return { conn, source, timeZone: undefined, ...(fixed ? { prepared: new Map() } : {}) }
}

/** Takes out of `list` the most recently used connection that prepared `sql`, else the most recently used one. */
function pick(list: Kept[], sql: string | undefined): Kept | undefined {
  if (sql !== undefined) {
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i]?.prepared?.has(sql)) return list.splice(i, 1)[0]
    }
  }
  return list.pop()
}

function give(kept: Kept): void {
  let list = idle.get(kept.source)
  if (list === undefined) {
    list = []
    idle.set(kept.source, list)
  } else {
    // most recently used last
    idle.delete(kept.source)
    idle.set(kept.source, list)
  }
  list.push(kept)
  idleCount++
  while (idleCount > MAX_IDLE) {
    const [oldest, olds] = idle.entries().next().value as [string, Kept[]]
    const dropped = olds.shift()
    if (olds.length === 0) idle.delete(oldest)
    idleCount--
    if (dropped) closeLease(dropped)
  }
}

/** Closes the idle connections reading `source` (a table retired). */
function forget(source: string): void {
  const list = idle.get(source)
  if (list === undefined) return
  idle.delete(source)
  idleCount -= list.length
  for (const kept of list) closeLease(kept)
}

async function readRollup(args: ReadRollupArgs): Promise<QueryResult[]> {
  if (args.files.length === 0) throw new Error('a rollup read needs at least one file')
  const dir = args.root.endsWith('/') ? args.root : `${args.root}/`
  for (const f of args.files) if (!f.startsWith(dir)) throw new Error('a rollup file is outside the rollups root')
  const { instance, tables } = await sandboxed(args.root, args.memoryLimitMb)
  const files = JSON.stringify([args.memoryLimitMb, args.root, args.files, args.order ?? []])
  const table = await tables.acquire(files, args.files, args.order ?? [], literal)
  try {
    const kept = table
      ? await take(
          instance,
          tableSource(table),
          async () => `SELECT * FROM main.${quotedIdentifier(table.name)}`,
          true,
          args.statements[0]?.sql,
        )
      : await take(
          instance,
          `files\u0000${files}`,
          async (conn) => {
            // read at every statement (a rollup larger than the tables' budget); columns matched by name
            const paths = await Promise.all(args.files.map((f) => literal(conn, f)))
            return `SELECT * FROM read_parquet([${paths.join(', ')}], union_by_name = true)`
          },
          false,
          undefined,
        )
    try {
      const out: QueryResult[] = []
      for (const s of args.statements) {
        const statement = { sql: s.sql, params: s.params, maxRows: args.maxRows, timeZone: args.timeZone }
        out.push(await run(kept, { ...statement, selectOnly: true }))
      }
      // a connection of a table retired meanwhile is not kept
      if (table?.retired) closeLease(kept)
      else give(kept)
      return out
    } catch (err) {
      // a connection that saw an error is never reused
      closeLease(kept)
      throw err
    }
  } finally {
    if (table) tables.release(table)
  }
}

export const ROLLUP_READER_HANDLERS = { 'duckdb.readRollup': readRollup } as const

/**
 * What the reading instance of `root` holds now (tests): loaded tables, their bytes and budget,
 * idle connections and the statements they keep prepared.
 */
export async function readerState(
  root: string,
  memoryLimitMb: number,
): Promise<{ tables: number; bytes: number; budgetBytes: number; idle: number; prepared: number }> {
  const { tables } = await sandboxed(root, memoryLimitMb)
  const mine = JSON.stringify([memoryLimitMb, root]).slice(0, -1)
  let kept = 0
  let prepared = 0
  for (const [source, list] of idle) {
    if (!source.includes(mine)) continue
    kept += list.length
    for (const k of list) prepared += k.prepared?.size ?? 0
  }
  return { tables: tables.count, bytes: tables.bytes, budgetBytes: tables.budgetBytes, idle: kept, prepared }
}
