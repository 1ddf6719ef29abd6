import { DEFINITION_MAX_BYTES, type EndUserMetricDefinition } from '@strata/contract/self-serve'
import { badRequest } from '../../errors.js'
import { checkMetric, type Metric } from '../../query/document.js'
import { findTable, type ModelColumn, type ModelTable, resolveColumn, type SemanticModel } from '../../query/model.js'

/**
 * An end user's definition as a document metric: its query checked against the model the
 * token may see (visible-model.ts), so an unknown, hidden or tenant table or column is a 400
 * naming the field (`metric.query.measures[0].column: no column "tenant" in public.orders`).
 * Each column name (a visible column's name, else its datamart alias) is resolved here, once,
 * against that model, and the definition returned names the physical columns: what is stored
 * and compiled. The full model, where a hidden column may have the very name a visible one is
 * aliased as, never reads an end user's names.
 */
export function checkDefinition(
  definition: EndUserMetricDefinition,
  visible: SemanticModel,
  metricId: string,
): { definition: EndUserMetricDefinition; metric: Metric } {
  const bytes = Buffer.byteLength(JSON.stringify(definition))
  if (bytes > DEFINITION_MAX_BYTES) {
    throw badRequest(`metric: the definition is ${bytes} bytes as JSON; at most ${DEFINITION_MAX_BYTES}`)
  }
  // structured queries only: no dialect, so nothing could parse SQL even if a field carried some
  const checked = checkMetric(visible, undefined, asMetric(definition, metricId), 'metric', { physicalColumns: true })
  const canonical: EndUserMetricDefinition = {
    name: definition.name,
    chart: definition.chart,
    query: checked.query ?? definition.query,
    ...(definition.formats ? { formats: definition.formats } : {}),
  }
  return { definition: canonical, metric: asMetric(canonical, metricId) }
}

/**
 * A saved definition read again (every time it runs, and when the company changes the
 * dashboard): it names physical columns, and one the model now hides (`isHide`, or a tenant
 * column) refuses it with a 400 — never read as whatever visible column is now aliased with
 * that name. A name that is no physical column is an alias kept by a definition saved before
 * names were resolved on save; it resolves in the visible model as on save.
 */
export function storedDefinition(
  definition: EndUserMetricDefinition,
  full: SemanticModel,
  visible: SemanticModel,
  metricId: string,
): EndUserMetricDefinition {
  const q = definition.query
  const refs = [
    ...(q.measures ?? []).map((m, i) => ({ ...m, at: `measures[${i}]` })),
    ...(q.dimensions ?? []).map((d, i) => ({ ...d, at: `dimensions[${i}]` })),
    ...(q.where ?? []).map((w, i) => ({ ...w, at: `where[${i}]` })),
  ]
  for (const r of refs) {
    if (r.column === undefined) continue
    const shown = findTable(visible, r.table ?? q.from)
    if (shown === undefined) continue // checkDefinition names it
    if (full.tables.get(shown.key)?.columns.has(r.column) === true && !shown.columns.has(r.column)) {
      throw badRequest(
        `metric.query.${r.at}.column: no column "${r.column}" in ${shown.key} that end users may see (it was hidden after metric ${metricId} was saved); build the metric again`,
      )
    }
  }
  return checkDefinition(definition, visible, metricId).definition
}

/** The document metric a definition stands for. */
export function asMetric(definition: EndUserMetricDefinition, metricId: string): Metric {
  return {
    metricId,
    name: definition.name,
    chart: definition.chart,
    query: definition.query,
    ...(definition.formats ? { formats: definition.formats } : {}),
  }
}

/**
 * The name an end user knows a visible column by (GET …/model): its alias, when that alias
 * reads back as this column in the visible table (no visible column has it as its name, and no
 * other visible column has the same alias), else its name.
 */
export function shownName(table: ModelTable, column: ModelColumn): string {
  if (column.alias === undefined) return column.name
  try {
    return resolveColumn(table, column.alias).name === column.name ? column.alias : column.name
  } catch {
    return column.name
  }
}

/** A definition naming physical columns, as the builder shows it: each column by its shown name. */
export function shownDefinition(definition: EndUserMetricDefinition, visible: SemanticModel): EndUserMetricDefinition {
  const q = definition.query
  const rename = <T extends { column?: string; table?: string }>(x: T): T => {
    const table = findTable(visible, x.table ?? q.from)
    const column = x.column === undefined ? undefined : table?.columns.get(x.column)
    if (table === undefined || column === undefined) return x
    const name = shownName(table, column)
    return name === x.column ? x : { ...x, column: name }
  }
  return {
    ...definition,
    query: {
      ...q,
      ...(q.measures ? { measures: q.measures.map(rename) } : {}),
      ...(q.dimensions ? { dimensions: q.dimensions.map(rename) } : {}),
      ...(q.where ? { where: q.where.map(rename) } : {}),
    },
  }
}

/**
 * The definition an end user edits for a metric of the load: present only for a query metric
 * whose every table and column is in the visible model (else the builder could not show it),
 * with columns by their shown names. A company metric's names are read as the company's
 * compile reads them (the full model), an end user's saved one as `storedDefinition` does.
 */
export function definitionOf(
  metric: Metric,
  full: SemanticModel,
  visible: SemanticModel,
  endUserDefined: boolean,
): EndUserMetricDefinition | undefined {
  if (metric.query === undefined || metric.sql !== undefined) return undefined
  const { type, x, y } = metric.chart
  const definition: EndUserMetricDefinition = {
    name: metric.name,
    chart: { type, ...(x !== undefined ? { x } : {}), ...(y !== undefined ? { y } : {}) },
    query: metric.query,
    ...(metric.formats ? { formats: metric.formats } : {}),
  }
  try {
    const physical = endUserDefined
      ? definition
      : {
          ...definition,
          query:
            checkMetric(full, undefined, asMetric(definition, metric.metricId), 'metric', { physicalColumns: true })
              .query ?? definition.query,
        }
    return shownDefinition(storedDefinition(physical, full, visible, metric.metricId), visible)
  } catch {
    return undefined
  }
}
