/**
 * Writes rows to a Parquet file with DuckDB, in the engine process (engine-host/child.ts): the
 * server sends the rows and the column types across the process boundary and never loads
 * DuckDB. Used by rollups (services/rollups/), whose builds group on the warehouse and keep the
 * result as Parquet. Each call opens a throwaway in-memory instance, loads the rows into a
 * typed table with bound parameters, and COPYs it to `path` (which the caller then publishes
 * under its final name: a reader never sees a half-written file).
 */
import { DuckDBInstance, quotedIdentifier } from '@duckdb/node-api'
import { literal } from './engine.js'
import { toDuckParam } from './values.js'

/** The column types a rollup file holds. */
export const PARQUET_TYPES = ['VARCHAR', 'BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP'] as const
export type ParquetType = (typeof PARQUET_TYPES)[number]

export interface WriteParquetArgs {
  readonly path: string
  readonly columns: readonly { readonly name: string; readonly type: ParquetType }[]
  /** Values in the order of `columns`. */
  readonly rows: readonly (readonly unknown[])[]
  readonly memoryLimitMb: number
}

/** Rows per INSERT statement (DuckDB binds at most 65535 parameters per statement). */
const BATCH_PARAMS = 30_000

async function writeParquet(args: WriteParquetArgs): Promise<{ rows: number }> {
  const types = new Set<string>(PARQUET_TYPES)
  if (args.columns.length === 0) throw new Error('a Parquet file needs at least one column')
  for (const c of args.columns) if (!types.has(c.type)) throw new Error(`unknown column type ${String(c.type)}`)
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: `${args.memoryLimitMb}MB` })
  try {
    const conn = await instance.connect()
    try {
      const table = quotedIdentifier('rollup')
      await conn.run(
        `CREATE TABLE ${table} (${args.columns.map((c) => `${quotedIdentifier(c.name)} ${c.type}`).join(', ')})`,
      )
      const width = args.columns.length
      const perBatch = Math.max(1, Math.floor(BATCH_PARAMS / width))
      for (let at = 0; at < args.rows.length; at += perBatch) {
        const batch = args.rows.slice(at, at + perBatch)
        let n = 0
        const tuples = batch.map(() => `(${args.columns.map((c) => `CAST($${++n} AS ${c.type})`).join(', ')})`)
        const insert = await conn.prepare(`INSERT INTO ${table} VALUES ${tuples.join(', ')}`)
        insert.bind(batch.flatMap((row) => args.columns.map((_, i) => toDuckParam(row[i] ?? null))))
        await insert.run()
        insert.destroySync()
      }
      await conn.run(`COPY ${table} TO ${await literal(conn, args.path)} (FORMAT parquet, COMPRESSION zstd)`)
      return { rows: args.rows.length }
    } finally {
      conn.closeSync()
    }
  } finally {
    instance.closeSync()
  }
}

export const PARQUET_HANDLERS = { 'duckdb.writeParquet': writeParquet } as const
