/**
 * A streamed read through any connector: its own `stream` when it has one (PostgreSQL: a
 * cursor), else `execute` with the result handed over in slices of `batchRows` rows (each row
 * its values in the order of the columns, as a stream gives them), so callers (the rollup
 * builder) have one path whatever the engine.
 */
import type { BatchHandler, Connector, StreamOptions, StreamResult } from '../types.js'

export async function streamRows(
  connector: Connector,
  sql: string,
  options: StreamOptions,
  onBatch: BatchHandler,
): Promise<StreamResult> {
  if (connector.stream) return connector.stream(sql, options, onBatch)
  checkBatchRows(options.batchRows)
  const result = await connector.execute(sql, options)
  for (let start = 0; start < result.rows.length; start += options.batchRows) {
    const rows = asArrays(result.columns, result.rows.slice(start, start + options.batchRows))
    await onBatch({ columns: result.columns, rows })
  }
  return { columns: result.columns, rows: result.rows.length, truncated: result.truncated }
}

/** Rows as a stream hands them over: each its values in the order of the columns. */
export function asArrays(
  columns: readonly { readonly name: string }[],
  rows: readonly Record<string, unknown>[],
): unknown[][] {
  const names = columns.map((c) => c.name)
  return rows.map((row) => names.map((name) => row[name]))
}

/** `batchRows` is ours, never a request's: a whole number of rows, at least one. */
export function checkBatchRows(batchRows: number): number {
  if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw new RangeError('batchRows must be a whole number ≥ 1')
  return batchRows
}
