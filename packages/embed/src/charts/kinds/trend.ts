import type { QueryResult, RuntimeMetric } from '../../api/types.js'
import { columnDecimals, formatMeasure } from '../../lib/column-format.js'
import { formatChange, formatNumber, percentChange, toNumber } from '../../lib/numbers.js'
import { resolveAxes } from '../axes.js'
import { type BuildContext, categoriesOf, decimalsOf, formatOf, type Visual } from '../build.js'

/**
 * A number with its trend: the measure in the latest period of the time dimension, a sparkline over
 * every period, and the change against the period before it (green when good news; `chart.lowerIsBetter`
 * flips it). Periods are put in time order whatever the query's sort.
 */
export function buildTrend(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const { chart } = metric
  const { locale } = ctx
  const { x, y } = resolveAxes(chart, result)
  const measure = y[0]
  const labels = categoriesOf(metric, result, x, locale).categories
  const points = result.data
    .map((row, i) => ({
      at: x === undefined ? i : row[x],
      label: labels[i] ?? '',
      value: measure === undefined ? null : toNumber(row[measure]),
    }))
    .filter((p): p is { at: unknown; label: string; value: number } => p.value !== null)
    .sort((a, b) =>
      typeof a.at === 'number' && typeof b.at === 'number' ? a.at - b.at : String(a.at).localeCompare(String(b.at)),
    )
  const last = points[points.length - 1]
  const previous = points[points.length - 2]
  const value = last?.value ?? null
  const format = formatOf(metric, measure)
  const options = { locale, decimals: decimalsOf(chart) ?? columnDecimals([value], format) }
  const affix = (t: string) =>
    `${typeof chart.prefix === 'string' ? chart.prefix : ''}${t}${typeof chart.suffix === 'string' ? chart.suffix : ''}`
  const fullText = value === null ? '—' : affix(formatMeasure(value, 'full', format, options))
  const text = value === null ? '—' : affix(formatMeasure(value, 'single', format, options))
  const change = percentChange(value, previous?.value ?? null)
  const better = chart.lowerIsBetter === true ? -1 : 1
  const tone = change === null ? null : change * better > 0 ? 'good' : change * better < 0 ? 'bad' : 'neutral'
  const values = points.map((p) => p.value)
  const min = Math.min(...values)
  const max = Math.max(...values)
  const spark = points.map((p, i) => ({
    x: points.length > 1 ? i / (points.length - 1) : 0.5,
    y: max > min ? (p.value - min) / (max - min) : 0.5,
  }))
  const words =
    change === null || !previous
      ? ''
      : `, ${change > 0 ? 'up' : change < 0 ? 'down' : 'unchanged'} ${formatNumber(Math.abs(change), { locale, decimals: 1 })}% compared with ${previous.label}`
  const first = points[0]
  const trendWords =
    first && last && points.length > 1
      ? ` Trend over ${points.length} periods from ${affix(formatMeasure(first.value, 'full', format, options))} (${first.label}) to ${fullText} (${last.label}).`
      : ''
  return {
    kind: 'trend',
    label: measure ?? metric.name,
    value,
    text,
    fullText,
    change,
    changeText: change === null ? null : formatChange(change, locale),
    tone,
    versus: previous ? `vs ${previous.label}` : null,
    spark,
    summary: `${metric.name}: ${fullText}${last ? ` in ${last.label}` : ''}${words}.${trendWords}`,
  }
}
