import type { ChartConfig, QueryResult } from '../api/types.js'
import { isNumericType, toNumber } from '../lib/numbers.js'

export interface Axes {
  /** The dimension column (undefined when the result has none). */
  readonly x: string | undefined
  /** The measure columns. */
  readonly y: readonly string[]
}

/** The result's column names: metaData first, else the first row's keys. */
export function columnsOf(result: QueryResult): string[] {
  const meta = result.metaData?.columns ?? []
  return meta.length ? meta.map((c) => c.name) : Object.keys(result.data[0] ?? {})
}

export function dataTypeOf(result: QueryResult, column: string): string | undefined {
  return result.metaData?.columns?.find((c) => c.name === column)?.dataType
}

function looksNumeric(result: QueryResult, column: string): boolean {
  const t = dataTypeOf(result, column)
  if (t !== undefined && t !== 'unknown') return isNumericType(t)
  const sample = result.data.slice(0, 20).map((r) => r[column])
  return sample.some((v) => v !== null && v !== undefined) && sample.every((v) => v == null || toNumber(v) !== null)
}

/**
 * `chart.x` and `chart.y` when given (kept only if the result has them); otherwise the first
 * group-by (or first non-numeric) column is x and the numeric columns are y.
 */
export function resolveAxes(chart: ChartConfig, result: QueryResult): Axes {
  const columns = columnsOf(result)
  const has = (c: string) => columns.length === 0 || columns.includes(c)
  const groupBy = (result.metaData?.groupbyColumnList ?? []).filter(has)
  const x =
    typeof chart.x === 'string' && has(chart.x)
      ? chart.x
      : (groupBy[0] ?? columns.find((c) => !looksNumeric(result, c)) ?? undefined)
  const given = Array.isArray(chart.y) ? chart.y.filter((c): c is string => typeof c === 'string' && has(c)) : []
  const y = given.length ? given : columns.filter((c) => c !== x && !groupBy.includes(c) && looksNumeric(result, c))
  return { x, y }
}
