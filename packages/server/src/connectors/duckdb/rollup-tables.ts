/**
 * The rollups the reading DuckDB keeps in its own memory (engine process, rollup-reader.ts): a
 * rollup's files loaded once into a table of the reading instance, so that a read scans memory
 * instead of opening, binding and decoding every Parquet file again (at a dashboard's nine
 * queries, the files' decoding was most of a cold draw).
 *
 * A loaded table is a copy of the files as they were: it is used only while every file is the
 * same file (device, inode, size and modification time, a `stat` per file and read), so a build
 * that renames a new file over an old name is read at the next query, never the old copy. Loads
 * run one at a time (each one's memory is measured by DuckDB itself, its `IN_MEMORY_TABLE` use
 * before and after); the tables together stay under a budget (a quarter of the instance's memory
 * limit by default), the least recently read dropped first, and a rollup larger than the budget
 * is read from its files. A table is dropped once no read uses it any more.
 */
import { statSync } from 'node:fs'
import { type DuckDBConnection, type DuckDBInstance, quotedIdentifier } from '@duckdb/node-api'

/** Tables kept per instance at most, whatever their size. */
const MAX_TABLES = 64
/** A rollup whose files take more than this share of the budget on disk is not loaded (Parquet is compressed). */
const DISK_SHARE = 1 / 4

export interface RollupTable {
  /** Its name in the instance's `main` schema. */
  readonly name: string
  /** What it was loaded from: the file set and each file's identity then. */
  readonly files: string
  readonly signature: string
  /** Its memory, as DuckDB counted it. */
  readonly bytes: number
  /** Reads using it now. */
  users: number
  /** Replaced or evicted: dropped when its last read ends. */
  retired: boolean
}

/** The files' identity now: device, inode, size and modification time of each (throws when one is gone). */
export function signatureOf(files: readonly string[]): { readonly signature: string; readonly diskBytes: number } {
  let diskBytes = 0
  const parts = files.map((f) => {
    const s = statSync(f, { bigint: true })
    diskBytes += Number(s.size)
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`
  })
  return { signature: parts.join('|'), diskBytes }
}

/** One reading instance's loaded tables. */
export class RollupTables {
  /** By file set, least recently read first. */
  readonly #tables = new Map<string, RollupTable>()
  /** File sets (with their signature) found larger than the budget: read from the files. */
  readonly #fromFiles = new Map<string, string>()
  #bytes = 0
  #next = 0
  /** Loads and drops, one at a time (a load's memory is measured as a difference). */
  #queue: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly instance: DuckDBInstance,
    /** What the tables may hold together. */
    readonly budgetBytes: number,
    /** Called when a table is retired: the connections kept with a view of it are closed. */
    private readonly onRetire: (table: RollupTable) => void,
  ) {}

  /** Bytes held by the tables now. */
  get bytes(): number {
    return this.#bytes
  }

  get count(): number {
    return this.#tables.size
  }

  /**
   * The table holding `files` as they are now (loaded if needed), marked in use until `release`;
   * undefined when the rollup is read from its files (larger than the budget).
   * `quote` makes a path a checked literal (engine.ts `literal`).
   */
  async acquire(
    key: string,
    paths: readonly string[],
    order: readonly string[],
    quote: (conn: DuckDBConnection, value: string) => Promise<string>,
  ): Promise<RollupTable | undefined> {
    const { signature, diskBytes } = signatureOf(paths)
    const known = this.#tables.get(key)
    if (known !== undefined && known.signature === signature) {
      // most recently read last
      this.#tables.delete(key)
      this.#tables.set(key, known)
      known.users++
      return known
    }
    if (this.#fromFiles.get(key) === signature) return undefined
    if (diskBytes > this.budgetBytes * DISK_SHARE) {
      this.#readFromFiles(key, signature)
      return undefined
    }
    const loaded = await this.#serially(() => this.#load(key, paths, order, signature, quote))
    // retired at once (evicted by a load in between): these files are read from disk this time
    if (loaded === undefined || loaded.retired) return undefined
    loaded.users++
    return loaded
  }

  /** A read ended: a retired table no read uses any more is dropped. */
  release(table: RollupTable): void {
    table.users--
    if (table.retired && table.users === 0) this.#dropLater(table)
  }

  async #load(
    key: string,
    paths: readonly string[],
    order: readonly string[],
    signature: string,
    quote: (conn: DuckDBConnection, value: string) => Promise<string>,
  ): Promise<RollupTable | undefined> {
    // another read loaded these files while this one waited
    const known = this.#tables.get(key)
    if (known !== undefined && known.signature === signature) return known
    if (this.#fromFiles.get(key) === signature) return undefined
    if (known !== undefined) this.#retire(known)
    const name = `rollup_${this.#next++}`
    const conn = await this.instance.connect()
    try {
      const before = await tableMemory(conn)
      const list = (await Promise.all(paths.map((p) => quote(conn, p)))).join(', ')
      // files of one rollup written at different times: columns matched by name
      // in the order most reads filter by (the tenant, then the time): a read skips the blocks
      // whose min and max exclude its values
      const by = order.length > 0 ? ` ORDER BY ${order.map((c) => quotedIdentifier(c)).join(', ')}` : ''
      try {
        await conn.run(`CREATE TABLE main.${name} AS SELECT * FROM read_parquet([${list}], union_by_name = true)${by}`)
      } catch {
        // out of memory, or files DuckDB refuses: these files are read from disk (which says why)
        this.#readFromFiles(key, signature)
        await conn.run(`DROP TABLE IF EXISTS main.${name}`)
        return undefined
      }
      const bytes = Math.max(0, (await tableMemory(conn)) - before)
      // a file replaced during the load: the copy may mix two builds, so it is not kept
      const now = signatureOf(paths).signature
      if (bytes > this.budgetBytes || now !== signature) {
        await conn.run(`DROP TABLE main.${name}`)
        if (now === signature) this.#readFromFiles(key, signature)
        return undefined
      }
      const table: RollupTable = { name, files: key, signature, bytes, users: 0, retired: false }
      this.#tables.set(key, table)
      this.#bytes += bytes
      this.#fromFiles.delete(key)
      // room for it: the least recently read go first (never the one just loaded)
      for (const [, old] of this.#tables) {
        if (this.#bytes <= this.budgetBytes && this.#tables.size <= MAX_TABLES) break
        if (old !== table) this.#retire(old)
      }
      return table
    } finally {
      conn.closeSync()
    }
  }

  /** Out of use for new reads; dropped now or when its last read ends. */
  #retire(table: RollupTable): void {
    if (table.retired) return
    table.retired = true
    if (this.#tables.get(table.files) === table) this.#tables.delete(table.files)
    this.#bytes -= table.bytes
    this.onRetire(table)
    if (table.users === 0) this.#dropLater(table)
  }

  /** Dropped after the loads and drops before it; a drop that fails leaves the table to the instance (never an unhandled rejection). */
  #dropLater(table: RollupTable): void {
    this.#serially(() => this.#drop(table)).catch(() => undefined)
  }

  async #drop(table: RollupTable): Promise<void> {
    const conn = await this.instance.connect()
    try {
      await conn.run(`DROP TABLE IF EXISTS main.${table.name}`)
    } finally {
      conn.closeSync()
    }
  }

  #readFromFiles(key: string, signature: string): void {
    this.#fromFiles.delete(key)
    this.#fromFiles.set(key, signature)
    if (this.#fromFiles.size > MAX_TABLES) this.#fromFiles.delete(this.#fromFiles.keys().next().value as string)
  }

  #serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work)
    this.#queue = next.catch(() => undefined)
    return next
  }
}

/** What DuckDB holds in in-memory tables now, in bytes. */
async function tableMemory(conn: DuckDBConnection): Promise<number> {
  const reader = await conn.runAndReadAll(
    `SELECT coalesce(sum(memory_usage_bytes), 0)::DOUBLE AS bytes FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'`,
  )
  return Number(reader.getRowObjects()[0]?.bytes ?? 0)
}
