import type { ChartConfig, ChartType, QueryResult, RuntimeMetric } from '../api/types.js'
import { PAGE_SIZE } from '../api/types.js'
import { formatCell, labelOf } from '../lib/format.js'
import { formatChange, formatNumber, isNumericType, percentChange, toNumber } from '../lib/numbers.js'
import type { ChartTheme } from '../lib/theme.js'
import { columnsOf, dataTypeOf, resolveAxes } from './axes.js'
import { mergeDeep } from './merge.js'
import { cartesianSummary, pieSummary } from './summary.js'

/** A data table for assistive technology (and the hidden fallback of every chart). */
export interface DataTable {
  readonly columns: readonly string[]
  readonly rows: readonly (readonly string[])[]
  /** Rows beyond those listed. */
  readonly more: number
}

export interface LegendItem {
  readonly name: string
  readonly color: string
}

export type Visual =
  | {
      readonly kind: 'echarts'
      readonly type: ChartType
      readonly option: Record<string, unknown>
      readonly legend: readonly LegendItem[]
      readonly summary: string
      readonly table: DataTable
    }
  | {
      readonly kind: 'table'
      readonly columns: readonly { readonly name: string; readonly numeric: boolean }[]
      readonly rows: readonly (readonly string[])[]
      readonly page: number
      readonly pageCount: number
      readonly totalRecords: number
      readonly summary: string
    }
  | {
      readonly kind: 'single-value'
      readonly label: string
      readonly value: number | null
      readonly text: string
      /** Percentage change against `comparisonValue`, when there is one. */
      readonly change: number | null
      readonly changeText: string | null
      /** Whether the change is good news (`chart.lowerIsBetter` flips it); null without a change. */
      readonly tone: 'good' | 'bad' | 'neutral' | null
      readonly summary: string
    }
  | { readonly kind: 'empty'; readonly summary: string }

export interface BuildContext {
  readonly theme: ChartTheme
  readonly locale?: string | undefined
  /** Current page of a table (1-based). */
  readonly page?: number
}

const TYPE_NAMES: Record<ChartType, string> = {
  line: 'Line chart',
  bar: 'Bar chart',
  'stacked-bar': 'Stacked bar chart',
  area: 'Area chart',
  pie: 'Pie chart',
  doughnut: 'Doughnut chart',
  table: 'Table',
  'single-value': 'Number',
}
export const CHART_TYPES = Object.keys(TYPE_NAMES) as ChartType[]

/** Keys of `chart` this module reads itself; every other key (beyond type/x/y) is merged into the ECharts option. */
const OWN_KEYS = new Set(['type', 'x', 'y', 'smooth', 'horizontal', 'decimals', 'prefix', 'suffix', 'lowerIsBetter'])
const A11Y_ROWS = 100

function passThrough(chart: ChartConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(chart)) if (!OWN_KEYS.has(k)) out[k] = v
  return out
}

const decimalsOf = (chart: ChartConfig) =>
  typeof chart.decimals === 'number' && chart.decimals >= 0 && chart.decimals <= 10 ? chart.decimals : undefined
const textOf = (v: unknown) => (typeof v === 'string' ? v : '')

/** The picture of one metric result: an ECharts option, a table, a number, or "No data". */
export function buildVisual(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const chart = metric.chart
  const type: ChartType = chart.type in TYPE_NAMES ? chart.type : 'table'
  if (type === 'table') return buildTable(metric, result, ctx)
  if (result.data.length === 0) return { kind: 'empty', summary: `${metric.name}: no data` }
  if (type === 'single-value') return buildSingleValue(metric, result, ctx)
  if (type === 'pie' || type === 'doughnut') return buildPie(metric, type, result, ctx)
  return buildCartesian(metric, type, result, ctx)
}

function baseOption(theme: ChartTheme): Record<string, unknown> {
  return {
    color: [...theme.palette],
    backgroundColor: 'transparent',
    textStyle: { fontFamily: theme.font, color: theme.text },
    animationDuration: 400,
  }
}

function buildCartesian(metric: RuntimeMetric, type: ChartType, result: QueryResult, ctx: BuildContext): Visual {
  const { chart } = metric
  const { theme, locale } = ctx
  const { x, y } = resolveAxes(chart, result)
  const categories = result.data.map((row, i) => (x === undefined ? String(i + 1) : labelOf(row[x])))
  const horizontal = chart.horizontal === true && (type === 'bar' || type === 'stacked-bar')
  const seriesType = type === 'line' || type === 'area' ? 'line' : 'bar'
  const many = result.data.length > 40
  const decimals = decimalsOf(chart)
  const series = y.map((column) => ({
    name: column,
    type: seriesType,
    data: result.data.map((row) => toNumber(row[column])),
    emphasis: { focus: 'series' },
    ...(seriesType === 'line'
      ? {
          smooth: chart.smooth === true,
          showSymbol: !many,
          symbolSize: 6,
          lineStyle: { width: 2 },
          ...(type === 'area' ? { areaStyle: { opacity: 0.18 } } : {}),
        }
      : {
          barMaxWidth: 48,
          itemStyle: { borderRadius: type === 'stacked-bar' ? 0 : horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0] },
          ...(type === 'stacked-bar' ? { stack: 'total' } : {}),
        }),
  }))
  const categoryAxis = {
    type: 'category',
    data: categories,
    boundaryGap: seriesType === 'bar',
    axisLine: { lineStyle: { color: theme.border } },
    axisTick: { show: false },
    axisLabel: { color: theme.muted, hideOverlap: true },
  }
  const valueAxis = {
    type: 'value',
    splitLine: { lineStyle: { color: theme.border, type: 'dashed' } },
    axisLabel: {
      color: theme.muted,
      formatter: (v: number) => formatNumber(v, { locale, compact: Math.abs(v) >= 10_000, decimals }),
    },
  }
  const option = mergeDeep(
    {
      ...baseOption(theme),
      // Axis labels kept inside the canvas (ECharts 6's default bounds let them overflow a short chart).
      grid: { left: 8, right: 16, top: 12, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
      xAxis: horizontal ? valueAxis : categoryAxis,
      yAxis: horizontal ? { ...categoryAxis, inverse: true } : valueAxis,
      series,
    },
    passThrough(chart),
  )
  const legend =
    y.length > 1 ? y.map((name, i) => ({ name, color: theme.palette[i % theme.palette.length] ?? '#888' })) : []
  return {
    kind: 'echarts',
    type,
    option,
    legend,
    summary: cartesianSummary(TYPE_NAMES[type], metric.name, x, categories, series, locale),
    table: dataTable(result, x, y, locale),
  }
}

function buildPie(metric: RuntimeMetric, type: 'pie' | 'doughnut', result: QueryResult, ctx: BuildContext): Visual {
  const { theme, locale } = ctx
  const { x, y } = resolveAxes(metric.chart, result)
  const measure = y[0]
  const data = result.data
    .map((row, i) => ({
      name: x === undefined ? String(i + 1) : labelOf(row[x]),
      value: measure === undefined ? null : toNumber(row[measure]),
    }))
    .filter((d): d is { name: string; value: number } => d.value !== null)
  const option = mergeDeep(
    {
      ...baseOption(theme),
      series: [
        {
          name: measure ?? metric.name,
          type: 'pie',
          radius: type === 'doughnut' ? ['42%', '76%'] : ['0%', '76%'],
          center: ['50%', '50%'],
          avoidLabelOverlap: true,
          percentPrecision: 1,
          data,
          itemStyle: { borderColor: theme.surface, borderWidth: 2, borderRadius: type === 'doughnut' ? 4 : 0 },
          // Names are in the HTML legend; slices large enough show their share inside.
          label: { position: 'inside', formatter: '{d}%', color: '#fff', fontSize: 11, fontWeight: 600 },
          minShowLabelAngle: 18,
          labelLine: { show: false },
          emphasis: { scaleSize: 6 },
        },
      ],
    },
    passThrough(metric.chart),
  )
  return {
    kind: 'echarts',
    type,
    option,
    legend: data.map((d, i) => ({ name: d.name, color: theme.palette[i % theme.palette.length] ?? '#888' })),
    summary: pieSummary(TYPE_NAMES[type], metric.name, measure, data, locale),
    table: dataTable(result, x, measure === undefined ? [] : [measure], locale),
  }
}

function buildSingleValue(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const { chart } = metric
  const columns = columnsOf(result)
  const row = result.data[0] ?? {}
  const column =
    (Array.isArray(chart.y) ? chart.y.find((c) => typeof c === 'string' && c in row) : undefined) ??
    columns.find((c) => isNumericType(dataTypeOf(result, c)) || toNumber(row[c]) !== null) ??
    columns[0]
  const raw = column === undefined ? undefined : row[column]
  const value = toNumber(raw)
  const decimals = decimalsOf(chart)
  const text =
    value === null
      ? formatCell(raw, column && dataTypeOf(result, column), ctx.locale) || '—'
      : `${textOf(chart.prefix)}${formatNumber(value, { locale: ctx.locale, decimals: decimals ?? (Math.abs(value) >= 1000 ? 0 : undefined) })}${textOf(chart.suffix)}`
  const comparison = toNumber(result.comparisonValue)
  const change = percentChange(value, comparison)
  const changeText = change === null ? null : formatChange(change, ctx.locale)
  const better = chart.lowerIsBetter === true ? -1 : 1
  const tone = change === null ? null : change * better > 0 ? 'good' : change * better < 0 ? 'bad' : 'neutral'
  const words =
    change === null
      ? ''
      : `, ${change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged'} ${formatNumber(Math.abs(change), { locale: ctx.locale, decimals: 1 })}% compared with the previous period`
  return {
    kind: 'single-value',
    label: column ?? metric.name,
    value,
    text,
    change,
    changeText,
    tone,
    summary: `${metric.name}: ${text}${words}`,
  }
}

function buildTable(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const names = columnsOf(result)
  const columns = names.map((name) => {
    const t = dataTypeOf(result, name)
    return {
      name,
      numeric: isNumericType(t) || (t === undefined && result.data.some((r) => typeof r[name] === 'number')),
    }
  })
  const rows = result.data.map((row) => names.map((c) => formatCell(row[c], dataTypeOf(result, c), ctx.locale)))
  const totalRecords = Math.max(result.totalRecords ?? 0, result.data.length)
  const pageCount = Math.max(1, Math.ceil(totalRecords / PAGE_SIZE))
  const page = Math.min(Math.max(ctx.page ?? 1, 1), pageCount)
  if (result.data.length === 0 && page === 1) return { kind: 'empty', summary: `${metric.name}: no data` }
  return {
    kind: 'table',
    columns,
    rows,
    page,
    pageCount,
    totalRecords,
    summary: `${metric.name}: table of ${formatNumber(totalRecords, { locale: ctx.locale })} rows and ${columns.length} columns`,
  }
}

function dataTable(result: QueryResult, x: string | undefined, y: readonly string[], locale?: string): DataTable {
  const columns = [...(x === undefined ? [] : [x]), ...y]
  const rows = result.data
    .slice(0, A11Y_ROWS)
    .map((row) => columns.map((c) => formatCell(row[c], dataTypeOf(result, c), locale)))
  return { columns, rows, more: Math.max(0, result.data.length - A11Y_ROWS) }
}
