import type { QueryResult, RuntimeMetric } from '../../api/types.js'
import { columnDecimals, formatMeasure } from '../../lib/column-format.js'
import { humanise } from '../../lib/format.js'
import { formatNumber, toNumber } from '../../lib/numbers.js'
import { columnsOf, resolveAxes } from '../axes.js'
import {
  type BuildContext,
  baseOption,
  buildVisual,
  categoriesOf,
  dataTable,
  decimalsOf,
  formatOf,
  passThrough,
  type Visual,
} from '../build.js'
import { mergeDeep } from '../merge.js'

/**
 * Scatter: a point per row, the first measure across (x) and the second up (y); the other dimension
 * names the points, and `chart.seriesBy` (a dimension) colours them, one series per value.
 */
export function buildScatter(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const { chart } = metric
  const { theme, locale } = ctx
  const axes = resolveAxes({ ...chart, x: undefined }, result)
  const [mx, my] = axes.y
  if (mx === undefined || my === undefined) return buildVisual({ ...metric, chart: { type: 'table' } }, result, ctx)
  const groupBy = result.metaData?.groupbyColumnList ?? []
  const dims = columnsOf(result).filter((c) => c !== mx && c !== my && (groupBy.includes(c) || !axes.y.includes(c)))
  const seriesBy = typeof chart.seriesBy === 'string' && dims.includes(chart.seriesBy) ? chart.seriesBy : undefined
  const pointDim = typeof chart.x === 'string' && dims.includes(chart.x) ? chart.x : dims.find((d) => d !== seriesBy)
  const names = pointDim === undefined ? undefined : categoriesOf(metric, result, pointDim, locale).categories
  const seriesNames = seriesBy === undefined ? undefined : categoriesOf(metric, result, seriesBy, locale).categories
  const formatter = (column: string) => {
    const format = formatOf(metric, column)
    const decimals =
      decimalsOf(chart) ??
      columnDecimals(
        result.data.map((r) => toNumber(r[column])),
        format,
      )
    return {
      value: (v: number) => formatMeasure(v, 'value', format, { locale, decimals }),
      tick: (v: number) => formatMeasure(v, 'tick', format && { ...format, decimals: undefined }, { locale }),
    }
  }
  const fx = formatter(mx)
  const fy = formatter(my)
  // each point carries its result row (`row`): a click, a tap or the arrow keys drill on that row's dimensions
  const groups = new Map<string, { name: string; value: [number, number]; row: number }[]>()
  result.data.forEach((row, i) => {
    const x = toNumber(row[mx])
    const y = toNumber(row[my])
    if (x === null || y === null) return
    const key = seriesNames?.[i] ?? metric.name
    const points = groups.get(key) ?? []
    points.push({ name: names?.[i] ?? String(i + 1), value: [x, y], row: i })
    groups.set(key, points)
  })
  const series = [...groups].map(([name, data]) => ({
    name,
    type: 'scatter',
    data,
    symbolSize: 10,
    itemStyle: { opacity: 0.82, borderColor: theme.surface, borderWidth: 1 },
    emphasis: { focus: 'series', scale: 1.4 },
    // Read by our HTML tooltip: the point's two values under their measures' names and formats.
    tooltip: { pair: [humanise(mx), humanise(my)], pairFormatters: [fx.value, fy.value] },
  }))
  const axis = (column: string, tick: (v: number) => string, vertical: boolean) => ({
    type: 'value',
    scale: true,
    name: humanise(column),
    nameLocation: 'middle',
    nameGap: vertical ? 44 : 26,
    nameTextStyle: { color: theme.muted, fontSize: 12 },
    axisLine: { show: false },
    splitLine: { lineStyle: { color: theme.border, type: 'dashed' } },
    axisLabel: { color: theme.muted, formatter: tick },
  })
  const option = mergeDeep(
    {
      ...baseOption(theme),
      grid: { left: 8, right: 16, top: 12, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'all' },
      xAxis: axis(mx, fx.tick, false),
      yAxis: axis(my, fy.tick, true),
      series,
    },
    passThrough(chart),
  )
  const points = [...groups.values()].flat()
  const range = (i: 0 | 1, f: (v: number) => string) => {
    const vs = points.map((p) => p.value[i])
    return `${f(Math.min(...vs))} to ${f(Math.max(...vs))}`
  }
  const count = formatNumber(points.length, { locale })
  const summary =
    points.length === 0
      ? `Scatter chart: ${metric.name}. No points.`
      : `Scatter chart: ${metric.name}. ${count} ${points.length === 1 ? 'point' : 'points'}${pointDim ? ` (${humanise(pointDim)})` : ''}: ${humanise(mx)} from ${range(0, fx.value)} across, ${humanise(my)} from ${range(1, fy.value)} up${seriesBy ? `, in ${groups.size} series by ${humanise(seriesBy)}` : ''}.`
  return {
    kind: 'echarts',
    type: 'scatter',
    option,
    legend:
      seriesBy === undefined
        ? []
        : [...groups.keys()].map((name, i) => ({ name, color: theme.palette[i % theme.palette.length] ?? '#888' })),
    summary,
    table: dataTable(metric, result, pointDim, [...(seriesBy ? [seriesBy] : []), mx, my], locale, names),
  }
}
