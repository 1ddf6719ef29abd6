import type { Drill, RuntimeMetric } from '@strata/contract/runtime'
import { badRequest } from '../../errors.js'
import type { Metric } from '../../query/document.js'
import type { DrillInput } from '../../query/filters.js'
import { planJoins } from '../../query/joins.js'
import { findTable, type SemanticModel } from '../../query/model.js'
import type { MetricRequest } from '../query/metric-requests.js'

/** What a checked drill adds to a metric request. */
export interface CheckedDrill {
  readonly drill?: readonly DrillInput[]
  readonly timeGrain?: MetricRequest['timeGrain']
}

const DATE_TYPES: ReadonlySet<string> = new Set(['date', 'datetime'])

/**
 * A request's drill-down, checked against the model the end user may see (services/self-serve/
 * visible-model.ts: no hidden table or column, no tenant column). Each filter names a visible
 * table and one of its visible columns, by name as the load's `drillColumns` give them, and is
 * returned with the table's canonical key; a date column takes a `{ startDate, endDate }` range,
 * any other column a plain value. A column the end user may not see answers as one that does
 * not exist (400), so nothing about hidden or tenant columns leaks. The values are bound like
 * every filter value and ANDed with everything else: a drill can only narrow.
 */
export function checkDrill(drill: Drill, visible: SemanticModel): CheckedDrill {
  const filters = (drill.filters ?? []).map((f, i): DrillInput => {
    const where = `drill.filters[${i}]`
    const table = findTable(visible, f.table)
    const column = table?.columns.get(f.column)
    if (!table || !column) throw badRequest(`${where}: no column "${f.column}" in "${f.table}" to drill on`)
    const value = f.value
    const range = typeof value === 'object'
    if (range !== DATE_TYPES.has(column.dataType)) {
      throw badRequest(
        range
          ? `${where}: a date range drills only a date column, and ${f.column} is not one`
          : `${where}: a date column drills by { startDate, endDate }`,
      )
    }
    if (typeof value === 'object' && value.startDate > value.endDate)
      throw badRequest(`${where}: startDate is after endDate`)
    return { table: table.key, column: column.name, value: f.value }
  })
  return {
    ...(filters.length > 0 ? { drill: filters } : {}),
    ...(drill.timeGrain ? { timeGrain: drill.timeGrain } : {}),
  }
}

/**
 * The load's `drillColumns` of a metric: each dimension of a query metric that reads a visible
 * column (by the table and column a drill filter names), so the element knows what a click on a
 * bar, slice or row filters by. A column outside the token's filterable columns is left out (a
 * drill on it would be refused), and a SQL metric has none (its columns are not the model's).
 */
export function drillColumns(
  metric: Metric,
  visible: SemanticModel,
  mayFilter: (table: string, column: string) => boolean,
): RuntimeMetric['drillColumns'] {
  const query = metric.query
  if (!query) return undefined
  const out: Record<string, { table: string; column: string }> = {}
  for (const d of query.dimensions ?? []) {
    const table = findTable(visible, d.table ?? query.from)
    const column =
      table?.columns.get(d.column) ?? [...(table?.columns.values() ?? [])].find((c) => c.alias === d.column)
    if (table && column && mayFilter(table.key, column.name)) out[d.name] = { table: table.key, column: column.name }
  }
  return Object.keys(out).length > 0 ? out : undefined
}

/**
 * The load's `drillTables` of a metric: the visible tables a drill chip's filter narrows it by,
 * its `from` and every table the model's relationships reach from it (the compiler leaves a
 * dashboard-scoped filter on any other table out). A SQL metric takes no drill filter: none.
 * The element marks a card "Not filtered by …" for a chip on another table.
 */
export function drillTables(metric: Metric, visible: SemanticModel, model: SemanticModel): string[] {
  const from = metric.query && findTable(model, metric.query.from)
  if (!from) return []
  return [...visible.tables.values()]
    .filter((t) => t.key === from.key || planJoins(model, from.key, [t.key]).ok)
    .map((t) => t.key)
}
