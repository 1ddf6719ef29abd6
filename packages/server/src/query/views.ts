import type { TimeGrain } from '@strata/contract/document'
import { badRequest } from '../errors.js'
import type { Metric } from './document.js'
import { resolveTable, type SemanticModel } from './model.js'
import { isShownColumn } from './tenancy/columns.js'

/** The underlying rows' order: a column the rows show (checked against them), ascending or descending. */
export interface UnderlyingSort {
  readonly column: string
  readonly direction: 'asc' | 'desc'
}

/**
 * A drill-down's view of a metric: one time-grained dimension at another grain, its order kept.
 * Only a dimension that has a grain may change (400 otherwise): the rows are the same rows,
 * grouped otherwise.
 */
export function regrained(metric: Metric, { dimension, grain }: { dimension: string; grain: TimeGrain }): Metric {
  const dims = metric.query?.dimensions ?? []
  if (!metric.query || !dims.some((d) => d.name === dimension && d.timeGrain !== undefined)) {
    throw badRequest(`drill.timeGrain.dimension: ${metric.metricId} has no time-grained dimension "${dimension}"`)
  }
  return {
    ...metric,
    query: { ...metric.query, dimensions: dims.map((d) => (d.name === dimension ? { ...d, timeGrain: grain } : d)) },
  }
}

/**
 * The underlying-data view of a metric: the distinct rows of its table's visible columns (at
 * most 50; never a hidden or a tenant column), under the metric's own conditions, filters and
 * tenancy, paged.
 */
export function underlyingOf(
  metric: Metric,
  model: SemanticModel,
  tenantColumns: ReadonlyMap<string, ReadonlySet<string>>,
  sort?: UnderlyingSort,
): Metric {
  if (!metric.query) throw badRequest(`Metric ${metric.metricId} is a SQL metric: it has no underlying rows to show`)
  const table = resolveTable(model, metric.query.from, 'query.from')
  const columns = [...table.columns.values()].filter((c) => isShownColumn(table, c, tenantColumns)).slice(0, 50)
  // the sort names one of the columns shown (so never a tenant or hidden one); the rest keep pages stable
  const sorted = sort && columns.find((c) => c.name === sort.column)
  if (sort && !sorted) {
    throw badRequest(`sort.column: the rows of ${metric.metricId} have no column "${sort.column.slice(0, 100)}"`)
  }
  const orderBy = sorted
    ? [
        { name: sorted.name, direction: sort.direction },
        ...columns.filter((c) => c !== sorted).map((c) => ({ name: c.name, direction: 'asc' as const })),
      ]
    : undefined
  const { comparison: _comparison, ...rest } = metric
  return {
    ...rest,
    chart: { type: 'table' },
    query: {
      from: metric.query.from,
      ...(metric.query.where ? { where: metric.query.where } : {}),
      dimensions: columns.map((c) => ({ name: c.name, column: c.name })),
      ...(orderBy ? { orderBy } : {}),
    },
  }
}
