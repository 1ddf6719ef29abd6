import type { QueryResult, RuntimeMetric } from '../../api/types.js'
import { formatMeasure } from '../../lib/column-format.js'
import { resolveAxes } from '../axes.js'
import { type BuildContext, buildCartesian, decimalsOf, formatOf, passThrough, type Visual } from '../build.js'
import { mergeDeep } from '../merge.js'

/**
 * Combo: the measures as bars on the left axis and one of them (`chart.line`, else the last) as a
 * line on a second axis at the right, each axis in its own measure's format.
 */
export function buildCombo(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const bars = buildCartesian(metric, 'combo', result, ctx)
  if (bars.kind !== 'echarts') return bars
  const { chart } = metric
  const { y } = resolveAxes(chart, result)
  const line = typeof chart.line === 'string' && y.includes(chart.line) ? chart.line : y[y.length - 1]
  const barColumns = y.filter((c) => c !== line)
  type Series = Record<string, unknown> & { name: string }
  const series = (bars.option.series as Series[]).map((s) => {
    if (s.name !== line) return s
    const { barMaxWidth: _w, itemStyle: _i, ...rest } = s
    return {
      ...rest,
      type: 'line',
      yAxisIndex: 1,
      z: 3,
      smooth: chart.smooth === true,
      symbolSize: 6,
      lineStyle: { width: 2.5 },
    }
  })
  const valueAxis = (Array.isArray(bars.option.yAxis) ? bars.option.yAxis[0] : bars.option.yAxis) as Record<
    string,
    unknown
  >
  const axisFor = (column: string | undefined, right: boolean) => {
    const format = formatOf(metric, column)
    const decimals = decimalsOf(chart)
    return {
      ...valueAxis,
      ...(right ? { position: 'right', splitLine: { show: false } } : {}),
      axisLabel: {
        ...(valueAxis.axisLabel as Record<string, unknown>),
        formatter: (v: number) =>
          formatMeasure(v, 'tick', format && { ...format, decimals: undefined }, { locale: ctx.locale, decimals }),
      },
    }
  }
  const option = mergeDeep(
    { ...bars.option, yAxis: [axisFor(barColumns[0], false), axisFor(line, true)], series },
    passThrough(chart),
  )
  return {
    ...bars,
    option,
    summary: `${bars.summary} Bars: ${barColumns.join(', ')}; line on the right axis: ${line}.`,
  }
}
