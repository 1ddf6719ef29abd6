import { DEFINITION_MAX_BYTES, type EndUserMetricDefinition } from '@strata/contract/self-serve'
import { badRequest } from '../../errors.js'
import { checkMetric, type Metric } from '../../query/document.js'
import type { SemanticModel } from '../../query/model.js'

/**
 * An end user's definition as a document metric: its query checked against the model the
 * token may see (visible-model.ts), so an unknown, hidden or tenant table or column is a 400
 * naming the field (`metric.query.measures[0].column: no column "tenant" in public.orders`).
 * Returns the definition with canonical table paths, and the metric it stands for.
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
  const checked = checkMetric(visible, undefined, asMetric(definition, metricId), 'metric')
  const canonical: EndUserMetricDefinition = {
    name: definition.name,
    chart: definition.chart,
    query: checked.query ?? definition.query,
    ...(definition.formats ? { formats: definition.formats } : {}),
  }
  return { definition: canonical, metric: asMetric(canonical, metricId) }
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
 * The definition an end user edits for a company metric: present only for a query metric whose
 * every table and column is in the visible model (else the builder could not show it).
 */
export function definitionOf(metric: Metric, visible: SemanticModel): EndUserMetricDefinition | undefined {
  if (metric.query === undefined || metric.sql !== undefined) return undefined
  const { type, x, y } = metric.chart
  const definition: EndUserMetricDefinition = {
    name: metric.name,
    chart: { type, ...(x !== undefined ? { x } : {}), ...(y !== undefined ? { y } : {}) },
    query: metric.query,
    ...(metric.formats ? { formats: metric.formats } : {}),
  }
  try {
    checkMetric(visible, undefined, asMetric(definition, metric.metricId), 'metric')
    return definition
  } catch {
    return undefined
  }
}
