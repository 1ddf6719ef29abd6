/**
 * Writes rows to a Parquet file with DuckDB, in the engine process (engine-host/child.ts): the
 * server sends the values column by column with their types across the process boundary and
 * never loads DuckDB. Used by rollups (services/rollups/), whose builds group on the warehouse
 * and keep the result as Parquet. One in-memory instance per memory limit stays open for the
 * engine process's life; each call appends the rows to a typed table of its own with DuckDB's
 * appender, COPYs it to `path` (which the caller then publishes under its final name: a reader
 * never sees a half-written file) and drops the table.
 */
import { type DuckDBAppender, DuckDBInstance, quotedIdentifier, timestampTZValue } from '@duckdb/node-api'
import { literal } from './engine.js'

/** The column types a rollup file holds (TIMESTAMPTZ: an instant, read back with its offset). */
export const PARQUET_TYPES = ['VARCHAR', 'BIGINT', 'DOUBLE', 'BOOLEAN', 'DATE', 'TIMESTAMP', 'TIMESTAMPTZ'] as const
export type ParquetType = (typeof PARQUET_TYPES)[number]

export interface WriteParquetArgs {
  readonly path: string
  readonly columns: readonly { readonly name: string; readonly type: ParquetType }[]
  /**
   * The values column by column, in the order of `columns`, each as long as the others (one
   * array per column crosses the process boundary faster than one array per row).
   */
  readonly values: readonly (readonly unknown[])[]
  readonly memoryLimitMb: number
}

/** The writing instances, by memory limit (one in practice: DUCKDB_MEMORY_LIMIT_MB). */
const instances = new Map<number, Promise<DuckDBInstance>>()
let tables = 0

function instanceFor(memoryLimitMb: number): Promise<DuckDBInstance> {
  let instance = instances.get(memoryLimitMb)
  if (instance === undefined) {
    instance = DuckDBInstance.create(':memory:', { memory_limit: `${memoryLimitMb}MB` })
    instance.catch(() => instances.delete(memoryLimitMb))
    instances.set(memoryLimitMb, instance)
  }
  return instance
}

async function writeParquet(args: WriteParquetArgs): Promise<{ rows: number }> {
  const types = new Set<string>(PARQUET_TYPES)
  if (args.columns.length === 0) throw new Error('a Parquet file needs at least one column')
  for (const c of args.columns) if (!types.has(c.type)) throw new Error(`unknown column type ${String(c.type)}`)
  if (args.values.length !== args.columns.length) throw new Error('one array of values per column')
  const rows = args.values[0]?.length ?? 0
  if (args.values.some((v) => v.length !== rows)) throw new Error('every column needs as many values')
  const conn = await (await instanceFor(args.memoryLimitMb)).connect()
  const name = `rollup_${++tables}`
  const table = quotedIdentifier(name)
  try {
    await conn.run(
      `CREATE TABLE ${table} (${args.columns.map((c) => `${quotedIdentifier(c.name)} ${c.type}`).join(', ')})`,
    )
    try {
      const appender = await conn.createAppender(name)
      try {
        for (let r = 0; r < rows; r++) {
          for (const column of args.values) append(appender, column[r])
          appender.endRow()
        }
        appender.flushSync()
      } finally {
        appender.closeSync()
      }
      await conn.run(`COPY ${table} TO ${await literal(conn, args.path)} (FORMAT parquet, COMPRESSION zstd)`)
    } finally {
      await conn.run(`DROP TABLE ${table}`)
    }
    return { rows }
  } finally {
    conn.closeSync()
  }
}

/**
 * Appends one value as the JS type it has (text, double, boolean, bigint); the appender converts
 * it to the column's type with DuckDB's own cast, as `CAST(value AS type)` would: an ISO text to
 * a DATE, TIMESTAMP or TIMESTAMPTZ (its offset applied), a decimal's text or a double to BIGINT, NULL as NULL.
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
