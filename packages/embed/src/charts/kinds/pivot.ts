import type { QueryResult, RuntimeMetric } from '../../api/types.js'
import { humanise } from '../../lib/format.js'
import { formatNumber, toNumber } from '../../lib/numbers.js'
import { columnsOf, resolveAxes } from '../axes.js'
import { type BuildContext, buildVisual, categoriesOf, columnFormatters, type Visual } from '../build.js'

/** What a card lays out at most; the rest is counted in the summary and a note. */
const MAX_ROWS = 500
const MAX_COLUMNS = 40

type Total = (values: readonly number[]) => number | null
const sum: Total = (vs) => vs.reduce((a, b) => a + b, 0)
/** How a measure's cells add up, by its aggregate: an average or a distinct count of parts is not the whole's. */
const TOTALS: Record<string, Total> = {
  sum,
  count: sum,
  min: (vs) => (vs.length ? Math.min(...vs) : null),
  max: (vs) => (vs.length ? Math.max(...vs) : null),
  avg: () => null,
  'count-distinct': () => null,
}

/**
 * Pivot table: the column dimension (`chart.columns`, else the second dimension) spread across, the
 * other dimensions down, a cell per measure at each crossing, and a total per row, per column and
 * overall (`chart.totals: false` leaves them out). Totals add sums and counts, take the least of
 * minimums and the most of maximums, and stay empty for averages and distinct counts; a SQL
 * metric's measures (their aggregate unknown) are added.
 */
export function buildPivot(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const { chart } = metric
  const { locale } = ctx
  const groupBy = result.metaData?.groupbyColumnList ?? []
  const { y } = resolveAxes({ ...chart, x: undefined }, result)
  const measures = y.filter((c) => !groupBy.includes(c))
  // the query's dimensions (its group-by), else a SQL metric's columns that are not measures
  const dims = (groupBy.length ? groupBy : columnsOf(result)).filter((c) => !measures.includes(c))
  const columnDim =
    typeof chart.columns === 'string' && dims.includes(chart.columns)
      ? chart.columns
      : dims.find((d, i) => i > 0 && d !== chart.x)
  const rowDims = dims.filter((d) => d !== columnDim)
  if (columnDim === undefined || rowDims.length === 0 || measures.length === 0)
    return buildVisual({ ...metric, chart: { type: 'table' } }, result, ctx)

  const label = (d: string) => categoriesOf(metric, result, d, locale).categories
  const columnLabels = label(columnDim)
  const rowLabels = rowDims.map(label)
  const timed = metric.timeGrains?.[columnDim] !== undefined
  // column keys in the order the rows give them; a time dimension's in time order
  const order = new Map<string, unknown>()
  result.data.forEach((row, i) => {
    const key = columnLabels[i] ?? ''
    if (!order.has(key)) order.set(key, row[columnDim])
  })
  const allKeys = [...order.keys()]
  if (timed) allKeys.sort((a, b) => String(order.get(a)).localeCompare(String(order.get(b))))
  const columnKeys = allKeys.slice(0, MAX_COLUMNS)
  const columnIndex = new Map(columnKeys.map((k, i) => [k, i]))

  const cells = new Map<string, { labels: string[]; values: number[][][] }>()
  result.data.forEach((row, i) => {
    const labels = rowLabels.map((l) => l[i] ?? '')
    const key = JSON.stringify(labels)
    const c = columnIndex.get(columnLabels[i] ?? '')
    if (c === undefined) return
    let entry = cells.get(key)
    if (!entry) {
      entry = { labels, values: columnKeys.map(() => measures.map(() => [])) }
      cells.set(key, entry)
    }
    measures.forEach((m, j) => {
      const v = toNumber(row[m])
      if (v !== null) entry.values[c]?.[j]?.push(v)
    })
  })
  const totals = chart.totals !== false
  const totalOf = (j: number): Total => TOTALS[metric.aggregates?.[measures[j] ?? ''] ?? 'sum'] ?? sum
  const formats = columnFormatters(metric, result, measures, locale)
  const show = (j: number, v: number | null) => (v === null ? '' : (formats[j]?.(v) ?? String(v)))
  const entries = [...cells.values()]
  const rows = entries.slice(0, MAX_ROWS).map((e) => ({
    labels: e.labels,
    cells: e.values.flatMap((perMeasure) => perMeasure.map((vs, j) => show(j, vs.length ? totalOf(j)(vs) : null))),
    totals: totals ? measures.map((_, j) => show(j, totalOf(j)(e.values.flatMap((pm) => pm[j] ?? [])))) : [],
  }))
  const column = (c: number, j: number) => entries.flatMap((e) => e.values[c]?.[j] ?? [])
  const grand = measures.map((_, j) => totalOf(j)(entries.flatMap((e) => e.values.flatMap((pm) => pm[j] ?? []))))
  const n = (x: number) => formatNumber(x, { locale })
  const clipped = { rows: Math.max(0, entries.length - MAX_ROWS), columns: Math.max(0, allKeys.length - MAX_COLUMNS) }
  const grandWords = grand.flatMap((g, j) => (g === null ? [] : [`${humanise(measures[j] ?? '')} ${show(j, g)}`]))
  return {
    kind: 'pivot',
    rowHeaders: rowDims.map(humanise),
    columnHeader: humanise(columnDim),
    columnKeys,
    measures: measures.map(humanise),
    rows,
    totals: {
      cells: totals ? columnKeys.flatMap((_, c) => measures.map((_, j) => show(j, totalOf(j)(column(c, j))))) : [],
      grand: totals ? grand.map((g, j) => show(j, g)) : [],
    },
    clipped,
    summary: `Pivot table: ${metric.name}. ${n(entries.length)} rows by ${rowDims.map(humanise).join(' and ')}, ${n(allKeys.length)} columns by ${humanise(columnDim)}; ${measures.map(humanise).join(', ')}.${totals && grandWords.length ? ` Total: ${grandWords.join(', ')}.` : ''}`,
  }
}
