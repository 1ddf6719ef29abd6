/**
 * Writes rows to a Parquet file with DuckDB, in the engine process (engine-host/child.ts): the
 * server sends the rows and the column types across the process boundary and never loads
 * DuckDB. Used by rollups (services/rollups/), whose builds group on the warehouse and keep the
 * result as Parquet. Each call opens a throwaway in-memory instance, appends the rows to a typed
 * table with DuckDB's appender, and COPYs it to `path` (which the caller then publishes under its
 * final name: a reader never sees a half-written file).
 */
import { type DuckDBAppender, DuckDBInstance, quotedIdentifier, timestampTZValue } from '@duckdb/node-api'
import { literal } from './engine.js'

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
      const appender = await conn.createAppender('rollup')
      try {
        const width = args.columns.length
        for (const row of args.rows) {
          for (let i = 0; i < width; i++) append(appender, row[i])
          appender.endRow()
        }
        appender.flushSync()
      } finally {
        appender.closeSync()
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

/**
 * Appends one value as the JS type it has (text, double, boolean, bigint); the appender converts
 * it to the column's type with DuckDB's own cast, as `CAST(value AS type)` would: an ISO text to
 * a DATE or TIMESTAMP, a decimal's text or a double to BIGINT, NULL as NULL.
 */
function append(appender: DuckDBAppender, value: unknown): void {
  if (value === null || value === undefined) appender.appendNull()
  else if (typeof value === 'string') appender.appendVarchar(value)
  else if (typeof value === 'number') appender.appendDouble(value)
  else if (typeof value === 'boolean') appender.appendBoolean(value)
  else if (typeof value === 'bigint') appender.appendBigInt(value)
  else if (value instanceof Date) appender.appendTimestampTZ(timestampTZValue(BigInt(value.getTime()) * 1000n))
  else appender.appendVarchar(JSON.stringify(value))
}

export const PARQUET_HANDLERS = { 'duckdb.writeParquet': writeParquet } as const
