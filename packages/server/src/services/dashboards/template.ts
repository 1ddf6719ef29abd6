import type { DashboardDocument, Metric } from '../../query/document.js'

/** What the empty-dashboard embed builds its new dashboard from (docs/api.md#embeds). */
export interface NewDashboardSource {
  /** The dashboard's name when the document brings none of its own. */
  readonly name: string
  /** A document (Strata's, or the hosted service's export): it wins over the template. */
  readonly importDashboardData?: Readonly<Record<string, unknown>> | undefined
  /** The template dashboard's document: its filters, layout and metrics are copied. */
  readonly template?: DashboardDocument | undefined
  /** false: the new dashboard gets no metrics (nor, so, a layout). Default true. */
  readonly isImportMetrics?: boolean | undefined
  readonly isAllowPrivateMetricsByDefault?: boolean | undefined
}

const PARTS = ['filters', 'layout', 'metrics'] as const

/**
 * The document of a dashboard created with its embed, still to be read and validated as any
 * import is: `importDashboardData` when given (the template filling the filters, layout and
 * metrics it lacks), else a copy of the template, else an empty dashboard. A template's metrics
 * made for one client (`createdByClient`, `createdByUser`) are not copied: they are named in
 * the warnings.
 */
export function newDashboardDocument(source: NewDashboardSource): { document: object; warnings: string[] } {
  const warnings: string[] = []
  const copied = source.template && templateParts(source.template, warnings)
  const document: Record<string, unknown> = source.importDashboardData
    ? { ...source.importDashboardData }
    : { name: source.name, filters: [], layout: [], metrics: [] }
  if (copied) {
    for (const part of PARTS) if (!source.importDashboardData || !(part in document)) document[part] = copied[part]
    if (!source.importDashboardData) Object.assign(document, copied.settings)
  }
  if (source.isImportMetrics === false) Object.assign(document, { metrics: [], layout: [] })
  if (source.isAllowPrivateMetricsByDefault !== undefined) {
    document.isAllowPrivateMetricsByDefault = source.isAllowPrivateMetricsByDefault
  }
  return { document, warnings }
}

const madeForOneClient = (m: Metric) => (m.createdByClient ?? null) !== null || (m.createdByUser ?? null) !== null

function templateParts(template: DashboardDocument, warnings: string[]) {
  for (const m of template.metrics.filter(madeForOneClient)) {
    warnings.push(`templateDashboardId: metric ${m.metricId} was made for one client; not copied`)
  }
  const metrics = template.metrics.filter((m) => !madeForOneClient(m))
  const ids = new Set(metrics.map((m) => m.metricId))
  return {
    filters: template.filters ?? [],
    layout: (template.layout ?? []).filter((l) => ids.has(l.metricId)),
    metrics,
    settings: {
      ...(template.description === undefined ? {} : { description: template.description }),
      ...(template.isAllowPrivateMetricsByDefault === undefined
        ? {}
        : { isAllowPrivateMetricsByDefault: template.isAllowPrivateMetricsByDefault }),
    },
  }
}
