import type { Metric } from '../../query/document.js'
import { planJoins } from '../../query/joins.js'
import { findTable, type SemanticModel } from '../../query/model.js'

/**
 * The dashboard filters a metric does not take (the load's `unfiltered`, which the element marks
 * on a card while one of them is active): for a query metric, those on a table its `from` cannot
 * reach through the model's relationships; for a SQL metric, those it does not declare in
 * `dashboardFilters`. Without the model (it could not be resolved) query metrics are not judged.
 */
export function unfilteredFilters(
  metric: Metric,
  filters: readonly { readonly name: string; readonly table: string }[],
  model: SemanticModel | undefined,
): string[] {
  if (metric.sql !== undefined) {
    const declared = new Set(metric.dashboardFilters ?? [])
    return filters.filter((f) => !declared.has(f.name)).map((f) => f.name)
  }
  const from = metric.query && model && findTable(model, metric.query.from)
  if (!from || !model) return []
  return filters
    .filter((f) => {
      const t = findTable(model, f.table)
      return t === undefined || (t.key !== from.key && !planJoins(model, from.key, [t.key]).ok)
    })
    .map((f) => f.name)
}
