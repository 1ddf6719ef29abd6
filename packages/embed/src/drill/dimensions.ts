import type { DrillFilter } from '../api/types.js'
import { resolveAxes } from '../charts/axes.js'
import type { DrillLevel } from '../drill-state.js'
import type { MetricState } from '../embed-controller.js'
import { formatTime, humanise, labelOf } from '../lib/format.js'
import { periodOf } from './periods.js'
import { scalar } from './values.js'

/** One value of a clicked row a drill can narrow to ("Category = Books"). */
export interface Segment {
  /** The dimension (result column) it comes from. */
  readonly dim: string
  /** The filter it makes: the dimension's column and the row's value (a period for a date). */
  readonly filter: DrillFilter
  /** The dimension as read ("Category"). */
  readonly label: string
  /** The value as read ("Books", "March 2026"). */
  readonly text: string
}

/** A result with no rows, for the chart's axes before any result arrived. */
export const emptyResult = {
  data: [],
  timeTaken: 0,
  totalRecords: 0,
  metaData: { columns: [], groupbyColumnList: [] },
  metricid: '',
  error: null,
  // nothing was asked of the warehouse for it
  servedFrom: 'cache',
} as const

/** The grain a card's time dimension is drawn at now: the deepest drill level on it, else the metric's. */
export function grainOf(m: MetricState, levels: readonly DrillLevel[], dimension: string): string | undefined {
  const last = [...levels].reverse().find((l) => l.dimension === dimension)
  return last?.grain ?? m.metric.timeGrains?.[dimension]
}

/**
 * The dimensions a row's menu drills on: a table cell's column; a scatter point's naming
 * dimension then its series' dimension; else the chart's category (or the first drillable).
 */
export function dimensionsOf(m: MetricState, row: Record<string, unknown>, column: string | undefined): string[] {
  const columns = m.metric.drillColumns ?? {}
  const ok = (d: string | undefined): d is string => d !== undefined && d in columns && d in row
  const chart = m.metric.chart
  if (column === undefined && chart.type === 'scatter') {
    const seriesBy = typeof chart.seriesBy === 'string' ? chart.seriesBy : undefined
    const groupBy = m.result?.metaData?.groupbyColumnList ?? []
    const point = typeof chart.x === 'string' ? chart.x : groupBy.find((d) => d !== seriesBy)
    return [...new Set([point, seriesBy, ...groupBy].filter(ok))]
  }
  const x = resolveAxes(chart, m.result ?? emptyResult).x
  const first = [column, x, ...Object.keys(columns)].find(ok)
  return first === undefined ? [] : [first]
}

/** A dimension's value in a row as the menu reads it: a period at the drawn grain, else the label. */
export function valueText(
  m: MetricState,
  levels: readonly DrillLevel[],
  row: Record<string, unknown>,
  dim: string,
  locale: string | undefined,
): string {
  const grain = grainOf(m, levels, dim)
  return grain ? formatTime(row[dim], grain, locale) : labelOf(row[dim])
}

/** Each of `dims`' values in a row as a filter: what "Filter by" offers and "See these rows" narrows to. */
export function segmentsOf(
  m: MetricState,
  levels: readonly DrillLevel[],
  row: Record<string, unknown>,
  dims: readonly string[],
  locale: string | undefined,
): Segment[] {
  const columns = m.metric.drillColumns ?? {}
  return dims.flatMap((dim) => {
    const c = columns[dim]
    const g = grainOf(m, levels, dim)
    const v = g ? periodOf(row[dim], g) : scalar(row[dim])
    if (!c || v === undefined) return []
    return [{ dim, filter: { ...c, value: v }, label: humanise(dim), text: valueText(m, levels, row, dim, locale) }]
  })
}

/** How the live region reads a point: its dimensions' values ("Customer 42, Country DE"). */
export function pointName(
  m: MetricState,
  levels: readonly DrillLevel[],
  index: number,
  locale: string | undefined,
): string {
  const row = m.result?.data[index]
  if (!row) return ''
  const dims = dimensionsOf(m, row, undefined)
  const names = dims.length > 0 ? dims : [resolveAxes(m.metric.chart, m.result ?? emptyResult).x]
  return names
    .filter((d): d is string => d !== undefined)
    .map((d) => {
      const text = valueText(m, levels, row, d, locale)
      return dims.length > 1 ? `${humanise(d)} ${text}` : text
    })
    .join(', ')
}
