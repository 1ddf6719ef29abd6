import { asWritten, inferColumnFormat } from '@strata/contract/column-formats'
import type { ChartConfig, ChartType, ColumnFormat, QueryResult, RuntimeMetric } from '../api/types.js'
import { PAGE_SIZE } from '../api/types.js'
import { columnDecimals, formatMeasure, sameUnit } from '../lib/column-format.js'
import { formatCell, formatTime, humanise, inferGrain, labelOf } from '../lib/format.js'
import { formatChange, formatNumber, isNumericType, percentChange, toNumber } from '../lib/numbers.js'
import type { ChartTheme } from '../lib/theme.js'
import { columnsOf, dataTypeOf, resolveAxes } from './axes.js'
import { mergeDeep } from './merge.js'
import { shapedBuilder } from './shaped.js'
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
      /** `label`: the header, the column name humanised ("order_count" → "Order count"). */
      readonly columns: readonly { readonly name: string; readonly label: string; readonly numeric: boolean }[]
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
      /** What the card shows: compact from 100,000 on ("1.35M"). */
      readonly text: string
      /** The value in full ("1,352,004.20"), for the hover title and the summary. */
      readonly fullText: string
      /** Percentage change against `comparisonValue`, when there is one. */
      readonly change: number | null
      readonly changeText: string | null
      /** Whether the change is good news (`chart.lowerIsBetter` flips it); null without a change. */
      readonly tone: 'good' | 'bad' | 'neutral' | null
      /** The comparison is with the same period a year before (`comparison.period: previous-year`). */
      readonly lastYear: boolean
      readonly summary: string
    }
  | {
      /** Rows × columns with totals (chart type `pivot`). */
      readonly kind: 'pivot'
      /** The row dimensions' headers, then the column dimension's. */
      readonly rowHeaders: readonly string[]
      readonly columnHeader: string
      /** The column dimension's values, in the order the result gives them. */
      readonly columnKeys: readonly string[]
      /** Measures' headers: every column key spans one cell per measure. */
      readonly measures: readonly string[]
      /** Each row: its dimension labels, a cell per column key × measure, and its total per measure. */
      readonly rows: readonly {
        readonly labels: readonly string[]
        readonly cells: readonly string[]
        readonly totals: readonly string[]
      }[]
      /** The totals row: per column key × measure, then the grand total per measure. */
      readonly totals: { readonly cells: readonly string[]; readonly grand: readonly string[] }
      /** Column keys or rows left out beyond the limits the card shows. */
      readonly clipped: { readonly rows: number; readonly columns: number }
      readonly summary: string
    }
  | {
      /** The latest period's value, a sparkline over the periods, and the change against the one before. */
      readonly kind: 'trend'
      readonly label: string
      readonly value: number | null
      readonly text: string
      readonly fullText: string
      readonly change: number | null
      readonly changeText: string | null
      readonly tone: 'good' | 'bad' | 'neutral' | null
      /** "vs Oct 2026": the period the change compares with. */
      readonly versus: string | null
      /** The sparkline's points, x and y from 0 to 1 (y up), gaps for missing values left out. */
      readonly spark: readonly { readonly x: number; readonly y: number }[]
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
  combo: 'Combo chart',
  scatter: 'Scatter chart',
  funnel: 'Funnel',
  pivot: 'Pivot table',
  trend: 'Number with trend',
}
export const CHART_TYPES = Object.keys(TYPE_NAMES) as ChartType[]
const UP_FRONT = new Set<string>(['line', 'bar', 'stacked-bar', 'area', 'table', 'single-value'])
/**
 * Whether the element draws the type with what its entry holds; the others wait for the chunk of the
 * less common types (charts/load-shaped.ts): their builders, or (pie, doughnut) their ECharts series.
 */
export const drawnUpFront = (type: string): boolean => UP_FRONT.has(type)

/** Keys of `chart` this module reads itself; every other key (beyond type/x/y) is merged into the ECharts option. */
const OWN_KEYS = new Set([
  'type',
  'x',
  'y',
  'smooth',
  'horizontal',
  'decimals',
  'prefix',
  'suffix',
  'lowerIsBetter',
  'line',
  'seriesBy',
  'columns',
  'totals',
])
const A11Y_ROWS = 100

export function passThrough(chart: ChartConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(chart)) if (!OWN_KEYS.has(k)) out[k] = v
  return out
}

export const decimalsOf = (chart: ChartConfig) =>
  typeof chart.decimals === 'number' && chart.decimals >= 0 && chart.decimals <= 10 ? chart.decimals : undefined
const textOf = (v: unknown) => (typeof v === 'string' ? v : '')
export const formatOf = (metric: RuntimeMetric, column: string | undefined): ColumnFormat | undefined =>
  column === undefined ? undefined : metric.formats?.[column]

/** The picture of one metric result: an ECharts option, a table, a number, or "No data". */
export function buildVisual(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const chart = metric.chart
  const type: ChartType = chart.type in TYPE_NAMES ? chart.type : 'table'
  if (type === 'table') return buildTable(metric, result, ctx)
  if (result.data.length === 0) return { kind: 'empty', summary: `${metric.name}: no data` }
  if (type === 'single-value') return buildSingleValue(metric, result, ctx)
  // combo, scatter, funnel, pivot and trend: registered by a module the element loads when a dashboard uses them
  const shaped = shapedBuilder(type)
  if (shaped) return shaped(metric, result, ctx)
  if (type === 'pivot' || type === 'trend') return buildTable(metric, result, ctx)
  if (type === 'pie' || type === 'doughnut') return buildPie(metric, type, result, ctx)
  return buildCartesian(metric, type, result, ctx)
}

export function baseOption(theme: ChartTheme): Record<string, unknown> {
  return {
    color: [...theme.palette],
    backgroundColor: 'transparent',
    textStyle: { fontFamily: theme.font, color: theme.text },
    animationDuration: 400,
  }
}

/** A line's first and last labels sit on the plot's edges: aligned inward, they are never cut. */
const EDGE_LABELS_INSIDE = { alignMinLabel: 'left', alignMaxLabel: 'right' } as const

export function buildCartesian(metric: RuntimeMetric, type: ChartType, result: QueryResult, ctx: BuildContext): Visual {
  const { chart } = metric
  const { theme, locale } = ctx
  const { x, y } = resolveAxes(chart, result)
  const { categories, timed } = categoriesOf(metric, result, x, locale)
  const horizontal = chart.horizontal === true && (type === 'bar' || type === 'stacked-bar')
  const seriesType = type === 'line' || type === 'area' ? 'line' : 'bar'
  const many = result.data.length > 40
  const decimals = decimalsOf(chart)
  const series = y.map((column) => {
    const data = result.data.map((row) => toNumber(row[column]))
    const format = formatOf(metric, column)
    const fixed = decimals ?? columnDecimals(data, format)
    const valueFormatter = (v: number) => formatMeasure(v, 'value', format, { locale, decimals: fixed })
    return {
      name: column,
      type: seriesType,
      data,
      emphasis: { focus: 'series' },
      // Read by our HTML tooltip: every value of a measure with the same decimals and format, in the viewer's locale.
      tooltip: { valueFormatter },
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
    }
  })
  const categoryAxis = {
    type: 'category',
    data: categories,
    boundaryGap: seriesType === 'bar',
    axisLine: { lineStyle: { color: theme.border } },
    axisTick: { show: false },
    // Every category labelled (interval 0); fitCategoryLabels() wraps, rotates or truncates them to the
    // width. A long time axis may skip ticks (ECharts' own spacing), a category axis never does.
    axisLabel:
      timed && categories.length > 24
        ? { color: theme.muted, hideOverlap: true, ...(seriesType === 'bar' ? {} : EDGE_LABELS_INSIDE) }
        : { color: theme.muted, interval: 0, hideOverlap: false, overflow: 'truncate' },
  }
  // One axis for every measure: it carries their format when they all read in the same unit.
  const axisFormat = y.every((c) => sameUnit(formatOf(metric, c), formatOf(metric, y[0])))
    ? formatOf(metric, y[0])
    : undefined
  const valueAxis = {
    type: 'value',
    splitLine: { lineStyle: { color: theme.border, type: 'dashed' } },
    axisLabel: {
      color: theme.muted,
      formatter: (v: number) =>
        formatMeasure(v, 'tick', axisFormat && { ...axisFormat, decimals: undefined }, { locale, decimals }),
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
    // The summary reads values by their format only where the document gives one.
    summary: cartesianSummary(
      TYPE_NAMES[type],
      metric.name,
      x,
      categories,
      series.map((s) => (formatOf(metric, s.name) ? { ...s, format: s.tooltip.valueFormatter } : s)),
      locale,
    ),
    table: dataTable(metric, result, x, y, locale, categories),
  }
}

/** The x labels: time buckets by their grain (the document's, else inferred from date values), others as they are. */
export function categoriesOf(
  metric: RuntimeMetric,
  result: QueryResult,
  x: string | undefined,
  locale?: string,
): { categories: string[]; timed: boolean } {
  if (x === undefined) return { categories: result.data.map((_, i) => String(i + 1)), timed: false }
  const type = dataTypeOf(result, x)
  const values = result.data.map((row) => row[x])
  const grain =
    metric.timeGrains?.[x] ??
    (type === 'date' || type === 'datetime' || type === undefined ? inferGrain(values) : undefined)
  return { categories: values.map((v) => (grain ? formatTime(v, grain, locale) : labelOf(v))), timed: Boolean(grain) }
}

const CHAR_PX = 7
const LINE_LABEL_MAX = 140

/**
 * The category axis of an option fitted to a chart `width` px wide: every label shown, on one line
 * when they fit their slot, else wrapped (whole words), else rotated (40°, 90° when crowded) and
 * truncated (the full text is in the tooltip). Returns the option unchanged when it has no category axis.
 */
export function fitCategoryLabels(option: Record<string, unknown>, width: number): Record<string, unknown> {
  type Axis = { type?: string; data?: unknown[]; axisLabel?: Record<string, unknown> }
  const xAxis = option.xAxis as Axis | undefined
  const yAxis = option.yAxis as Axis | undefined
  const horizontal = yAxis?.type === 'category'
  const axis = horizontal ? yAxis : xAxis
  if (axis?.type !== 'category' || !Array.isArray(axis.data) || axis.axisLabel?.interval !== 0 || width <= 0)
    return option
  const labels = axis.data.map(String)
  const longest = Math.max(0, ...labels.map((l) => l.length)) * CHAR_PX
  let fit: Record<string, unknown>
  if (horizontal) {
    fit = { width: Math.max(48, Math.min(LINE_LABEL_MAX, Math.round(width * 0.3))), overflow: 'truncate', rotate: 0 }
  } else {
    const slot = Math.max(8, (width - 56) / Math.max(1, labels.length))
    const longestWord = Math.max(0, ...labels.flatMap((l) => l.split(/\s+/)).map((w) => w.length)) * CHAR_PX
    if (longest <= slot - 4) fit = { width: Math.floor(slot - 4), overflow: 'truncate', rotate: 0 }
    else if (longestWord + 8 <= slot && longest <= (slot - 4) * 2)
      fit = { width: Math.floor(slot - 4), overflow: 'break', rotate: 0, lineHeight: 13 }
    else
      fit = {
        width: Math.min(LINE_LABEL_MAX, Math.max(48, Math.round(width * 0.3))),
        overflow: 'truncate',
        // slanted while a label's line height fits its slot at that slant, upright when crowded
        rotate: slot >= 24 ? 40 : 90,
      }
  }
  const fitted = { ...axis, axisLabel: { ...axis.axisLabel, ...fit } }
  return horizontal ? { ...option, yAxis: fitted } : { ...option, xAxis: fitted }
}

/**
 * One measure by one dimension (pie, doughnut, funnel): each row's category name and value (rows
 * without a value left out), in the result's order, and how the measure's values are written.
 */
export function namedValues(
  metric: RuntimeMetric,
  result: QueryResult,
  locale: string | undefined,
): {
  /** The dimension, and each row's category name (for the data table). */
  readonly x: string | undefined
  readonly names: readonly string[]
  readonly measure: string | undefined
  readonly data: { name: string; value: number }[]
  readonly format: ColumnFormat | undefined
  readonly valueFormatter: (v: number) => string
} {
  const { x, y } = resolveAxes(metric.chart, result)
  const measure = y[0]
  const names = categoriesOf(metric, result, x, locale).categories
  const data = result.data
    .map((row, i) => ({
      name: names[i] ?? String(i + 1),
      value: measure === undefined ? null : toNumber(row[measure]),
    }))
    .filter((d): d is { name: string; value: number } => d.value !== null)
  const format = formatOf(metric, measure)
  const decimals =
    decimalsOf(metric.chart) ??
    columnDecimals(
      data.map((d) => d.value),
      format,
    )
  const valueFormatter = (v: number) => formatMeasure(v, 'value', format, { locale, decimals })
  return { x, names, measure, data, format, valueFormatter }
}

function buildPie(metric: RuntimeMetric, type: 'pie' | 'doughnut', result: QueryResult, ctx: BuildContext): Visual {
  const { theme, locale } = ctx
  const { x, names, measure, data, format, valueFormatter } = namedValues(metric, result, locale)
  const option = mergeDeep(
    {
      ...baseOption(theme),
      series: [
        {
          name: measure ?? metric.name,
          type: 'pie',
          radius: type === 'doughnut' ? ['40%', '78%'] : ['0%', '78%'],
          center: ['50%', '50%'],
          avoidLabelOverlap: true,
          percentPrecision: 1,
          data,
          tooltip: { valueFormatter },
          itemStyle: { borderColor: theme.surface, borderWidth: 2, borderRadius: type === 'doughnut' ? 4 : 0 },
          // Names are in the HTML legend; a slice's share sits on it, inside the canvas however narrow
          // the card, never cut to fit (overflow 'none'), in the text colour with a surface-coloured
          // halo so it reads on the slice and where it spills past the ring's edge.
          label: {
            position: 'inside',
            formatter: '{d}%',
            color: theme.text,
            textBorderColor: theme.surface,
            textBorderWidth: 3,
            fontSize: 11,
            fontWeight: 600,
            overflow: 'none',
          },
          minShowLabelAngle: 14,
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
    summary: pieSummary(TYPE_NAMES[type], metric.name, measure, data, locale, format && valueFormatter),
    table: dataTable(metric, result, x, measure === undefined ? [] : [measure], locale, names),
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
  const format = formatOf(metric, column)
  const options = { locale: ctx.locale, decimals: decimalsOf(chart) ?? columnDecimals([value], format) }
  const affix = (t: string) => `${textOf(chart.prefix)}${t}${textOf(chart.suffix)}`
  // On the card: compact from 100,000 on (or as the format says); in full on hover and in the summary.
  const fullText =
    value === null
      ? formatCell(raw, column && dataTypeOf(result, column), ctx.locale) || '—'
      : affix(formatMeasure(value, 'full', format, options))
  const text = value === null ? fullText : affix(formatMeasure(value, 'single', format, options))
  const comparison = toNumber(result.comparisonValue)
  const change = percentChange(value, comparison)
  const changeText = change === null ? null : formatChange(change, ctx.locale)
  const better = chart.lowerIsBetter === true ? -1 : 1
  const tone = change === null ? null : change * better > 0 ? 'good' : change * better < 0 ? 'bad' : 'neutral'
  const lastYear = metric.comparison?.period === 'previous-year'
  const words =
    change === null
      ? ''
      : `, ${change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged'} ${formatNumber(Math.abs(change), { locale: ctx.locale, decimals: 1 })}% compared with ${lastYear ? 'the same period a year before' : 'the previous period'}`
  return {
    kind: 'single-value',
    label: column ?? metric.name,
    value,
    text,
    fullText,
    change,
    changeText,
    tone,
    lastYear,
    summary: `${metric.name}: ${fullText}${words}`,
  }
}

function buildTable(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const names = columnsOf(result)
  const columns = names.map((name) => {
    const t = dataTypeOf(result, name)
    // an identifier, a code or a year is written as is and aligned as text, not as a quantity
    const written = asWritten(formatOf(metric, name) ?? inferColumnFormat(name, t ?? 'unknown'))
    return {
      name,
      label: humanise(name),
      numeric:
        !written && (isNumericType(t) || (t === undefined && result.data.some((r) => typeof r[name] === 'number'))),
    }
  })
  const cells = columnFormatters(metric, result, names, ctx.locale)
  const rows = result.data.map((row) => names.map((c, i) => cells[i]!(row[c])))
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

/**
 * One formatter per column: numbers by the column's format (the document's `formats`), with the
 * same decimals down the column (the most any of its values needs, at most 2) and the viewer's
 * grouping; time buckets by their grain; other cells by their type.
 */
export function columnFormatters(
  metric: RuntimeMetric,
  result: QueryResult,
  names: readonly string[],
  locale?: string,
): ((v: unknown) => string)[] {
  return names.map((c) => {
    const type = dataTypeOf(result, c)
    const grain = metric.timeGrains?.[c]
    if (grain) return (v: unknown) => formatTime(v, grain, locale)
    // the load's format, else one inferred from the column's name and type (a SQL metric's columns)
    const format = formatOf(metric, c) ?? inferColumnFormat(c, type ?? 'unknown')
    if (asWritten(format)) return (v: unknown) => (v === null || v === undefined ? '' : labelOf(v))
    // a formatted column reads numeric strings too (a SQL metric's decimals may come typed `unknown`)
    const numeric = (v: unknown) => typeof v === 'number' || isNumericType(type) || (format && toNumber(v) !== null)
    const numbers = result.data.map((r) => r[c]).filter(numeric)
    if (numbers.length === 0) return (v: unknown) => formatCell(v, type, locale)
    const decimals = columnDecimals(numbers.map(toNumber), format)
    return (v: unknown) => {
      const n = numeric(v) ? toNumber(v) : null
      return n === null ? formatCell(v, type, locale) : formatMeasure(n, 'value', format, { locale, decimals })
    }
  })
}

export function dataTable(
  metric: RuntimeMetric,
  result: QueryResult,
  x: string | undefined,
  y: readonly string[],
  locale?: string,
  categories?: readonly string[],
): DataTable {
  const columns = [...(x === undefined ? [] : [x]), ...y]
  const cells = columnFormatters(metric, result, columns, locale)
  const rows = result.data
    .slice(0, A11Y_ROWS)
    .map((row, r) =>
      columns.map((c, i) => (i === 0 && x !== undefined && categories ? (categories[r] ?? '') : cells[i]!(row[c]))),
    )
  return { columns: columns.map(humanise), rows, more: Math.max(0, result.data.length - A11Y_ROWS) }
}
