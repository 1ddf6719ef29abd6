import type { QueryResult, RuntimeMetric } from '../../api/types.js'
import { formatNumber } from '../../lib/numbers.js'
import { type BuildContext, baseOption, dataTable, namedValues, passThrough, type Visual } from '../build.js'
import { mergeDeep } from '../merge.js'

/**
 * Funnel: the dimension's values are the stages, top to bottom in the order the query returns them
 * (its orderBy), never re-sorted by size; each band says its stage, its value and its share of the first.
 */
export function buildFunnel(metric: RuntimeMetric, result: QueryResult, ctx: BuildContext): Visual {
  const { theme, locale } = ctx
  const { x, names, measure, data, valueFormatter } = namedValues(metric, result, locale)
  const first = data[0]?.value ?? 0
  const share = (v: number) => (first > 0 ? `${formatNumber((v / first) * 100, { locale, decimals: 0 })}%` : '')
  const max = Math.max(0, ...data.map((d) => d.value))
  const option = mergeDeep(
    {
      ...baseOption(theme),
      series: [
        {
          name: measure ?? metric.name,
          type: 'funnel',
          sort: 'none',
          min: 0,
          max,
          minSize: '12%',
          gap: 2,
          left: 8,
          right: 8,
          top: 8,
          bottom: 8,
          width: 'auto',
          data,
          tooltip: { valueFormatter },
          itemStyle: { borderColor: theme.surface, borderWidth: 1 },
          // in the text colour with a surface-coloured halo, as the pie's labels: readable on any band
          label: {
            position: 'inside',
            formatter: (p: { name: string; value: number }) =>
              `${p.name}  ${valueFormatter(p.value)}${first > 0 && p.value !== first ? ` (${share(p.value)})` : ''}`,
            color: theme.text,
            textBorderColor: theme.surface,
            textBorderWidth: 3,
            fontSize: 12,
            fontWeight: 600,
            overflow: 'truncate',
          },
          labelLine: { show: false },
          emphasis: { label: { fontSize: 13 } },
        },
      ],
    },
    passThrough(metric.chart),
  )
  const stages = data.map(
    (d, i) => `${d.name} ${valueFormatter(d.value)}${i > 0 && first > 0 ? ` (${share(d.value)} of the first)` : ''}`,
  )
  return {
    kind: 'echarts',
    type: 'funnel',
    option,
    legend: [],
    summary: `Funnel: ${metric.name}. ${data.length} ${data.length === 1 ? 'stage' : 'stages'}${measure ? ` of ${measure}` : ''}: ${stages.join(', ')}.`,
    table: dataTable(metric, result, x, measure === undefined ? [] : [measure], locale, names),
  }
}
