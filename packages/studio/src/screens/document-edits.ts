import type { Comparison, DashboardDocument, Metric } from '@strata/contract/document'
import { effectiveLayout } from '@strata/contract/grid'

/**
 * The changes the dashboard editor makes to the company's document, as pure functions: the
 * document is always written whole, so each one returns the next document.
 */

/** What the element's builder saves in company mode: its definition, and the comparison it leaves. */
export interface BuiltMetric {
  readonly name: string
  readonly chart: Metric['chart']
  readonly query: Metric['query']
  readonly formats?: Metric['formats']
}

/**
 * Metric `metricId` as the builder left it: its name, chart, query, formats and comparison
 * replaced (absent formats or comparison: none), everything the builder does not edit (filters,
 * RLS, description) kept.
 */
export function withBuiltMetric(
  doc: DashboardDocument,
  metricId: string,
  built: BuiltMetric,
  comparison: Comparison | undefined,
): DashboardDocument {
  const metrics = doc.metrics.map((m) => {
    if (m.metricId !== metricId) return m
    const { formats: _formats, comparison: _comparison, ...rest } = m
    return { ...rest, ...builtFields(built, comparison) }
  })
  return { ...doc, metrics }
}

/** A metric's fields from the builder (formats and comparison only when set). */
export function builtFields(built: BuiltMetric, comparison: Comparison | undefined) {
  return {
    name: built.name,
    chart: built.chart,
    query: built.query,
    ...(built.formats ? { formats: built.formats } : {}),
    ...(comparison ? { comparison } : {}),
  }
}

/**
 * The document without metric `metricId`: out of the metrics and the layout, where the cards to
 * its right on its rows slide left into its place and those below rise (the rule every dashboard
 * applies when a card is gone), so the grid keeps no hole. Nothing else moves or is added.
 */
export function withoutMetric(doc: DashboardDocument, metricId: string): DashboardDocument {
  if (!doc.metrics.some((m) => m.metricId === metricId)) {
    throw new Error(`The dashboard has no metric ${metricId}: it was removed already. Reload the page.`)
  }
  const metrics = doc.metrics.filter((m) => m.metricId !== metricId)
  if (!doc.layout) return { ...doc, metrics }
  const kept = doc.layout.map((l) => l.metricId).filter((id) => id !== metricId)
  const layout = effectiveLayout(doc.layout, kept).map(({ metricId: id, x, y, w, h }) => ({ metricId: id, x, y, w, h }))
  return { ...doc, metrics, layout }
}
