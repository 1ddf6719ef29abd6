/**
 * Reads a rollup's Parquet files with DuckDB, in the engine process (engine-host/child.ts): the
 * server sends the files and the statements compiled on the rollup (query/rollups/) and never
 * loads DuckDB. One in-memory instance per rollups root (and memory limit) stays open for the
 * engine process's life, its file access limited to that root and external access switched off
 * for good before any read. A read takes a connection that already has the rollup's files as
 * its view (`main.rollup`, a temporary view of that connection alone) or opens one and makes
 * the view, runs the statements (SELECT only, values bound) and keeps the connection for the
 * next read of the same files. Files are replaced in place by a build (renamed over) and
 * `read_parquet` opens and binds them on every statement, so a kept view reads the current file,
 * columns included.
 */
import { type DuckDBConnection, DuckDBInstance, quotedIdentifier } from '@duckdb/node-api'
import type { QueryResult } from '../types.js'
import { type Lease, literal, run } from './engine.js'

export interface ReadRollupArgs {
  /** The folder every file is under (the rollups root): the only one DuckDB may read. */
  readonly root: string
  /** Absolute paths of the rollup's files (checked by the server to be under `root`). */
  readonly files: readonly string[]
  readonly statements: readonly { readonly sql: string; readonly params: readonly unknown[] }[]
  readonly maxRows: number
  readonly timeZone: string
  readonly memoryLimitMb: number
}

/** Connections kept with their view, over every file set (the least recently used go first). */
const MAX_IDLE = 32

interface Kept extends Lease {
  readonly conn: DuckDBConnection
  readonly files: string
}

const instances = new Map<string, Promise<DuckDBInstance>>()
/** Idle connections by instance and file set; a Map keeps insertion order for the LRU. */
const idle = new Map<string, Kept[]>()
let idleCount = 0

function sandboxed(root: string, memoryLimitMb: number): Promise<DuckDBInstance> {
  const key = `${memoryLimitMb}\u0000${root}`
  let instance = instances.get(key)
  if (instance === undefined) {
    instance = (async () => {
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
      return created
    })()
    instance.catch(() => instances.delete(key))
    instances.set(key, instance)
  }
  return instance
}

/** A connection with the view of `args.files`: a kept one, else a new one. */
async function take(args: ReadRollupArgs): Promise<Kept> {
  const files = JSON.stringify([args.memoryLimitMb, args.root, args.files])
  const list = idle.get(files)
  const kept = list?.pop()
  if (kept !== undefined) {
    idleCount--
    if (list?.length === 0) idle.delete(files)
    return kept
  }
  const conn = await (await sandboxed(args.root, args.memoryLimitMb)).connect()
  try {
    const paths = await Promise.all(args.files.map((f) => literal(conn, f)))
    // files of one rollup written at different times: columns matched by name
    await conn.run(
      `CREATE TEMP VIEW ${quotedIdentifier('rollup')} AS SELECT * FROM read_parquet([${paths.join(', ')}], union_by_name = true)`,
    )
  } catch (err) {
    conn.closeSync()
    throw err
  }
  return { conn, files, timeZone: undefined }
}

function give(kept: Kept): void {
  let list = idle.get(kept.files)
  if (list === undefined) {
    list = []
    idle.set(kept.files, list)
  } else {
    // most recently used last
    idle.delete(kept.files)
    idle.set(kept.files, list)
  }
  list.push(kept)
  idleCount++
  while (idleCount > MAX_IDLE) {
    const [oldest, olds] = idle.entries().next().value as [string, Kept[]]
    const dropped = olds.shift()
    if (olds.length === 0) idle.delete(oldest)
    idleCount--
    dropped?.conn.closeSync()
  }
}

async function readRollup(args: ReadRollupArgs): Promise<QueryResult[]> {
  if (args.files.length === 0) throw new Error('a rollup read needs at least one file')
  const dir = args.root.endsWith('/') ? args.root : `${args.root}/`
  for (const f of args.files) if (!f.startsWith(dir)) throw new Error('a rollup file is outside the rollups root')
  const kept = await take(args)
  try {
    const out: QueryResult[] = []
    for (const s of args.statements) {
      const statement = { sql: s.sql, params: s.params, maxRows: args.maxRows, timeZone: args.timeZone }
      out.push(await run(kept, { ...statement, selectOnly: true }))
    }
    give(kept)
    return out
  } catch (err) {
    // a connection that saw an error is never reused
    kept.conn.closeSync()
    throw err
  }
}

export const ROLLUP_READER_HANDLERS = { 'duckdb.readRollup': readRollup } as const
