import { ApiError } from '../../errors.js'
import type { DashboardDocument } from '../../query/document.js'
import type { DroppedEndUserMetric } from '../dashboards/dashboards.js'
import type { Embed } from '../embeds/embeds.js'
import type { Source } from '../query/sources.js'
import { storedDefinition } from './definition.js'
import type { EndUserMetricStore } from './metric-store.js'
import { visibleModel } from './visible-model.js'

/** No embed settings: the data app's tenant columns of the model alone (its embeds may add more at run time). */
const NO_EMBED = { accessSettings: {} } as Embed

/**
 * After the company replaced a dashboard's document in place (PUT /api/v2/data-app/dashboard):
 * every end user's metric on it is checked again — a tenant's version of a company metric
 * needs that metric still there and still a query metric; every definition must still name
 * visible tables and columns of the model (a column hidden since it was saved drops it). What fails is dropped, and reported.
 */
export async function revalidateEndUserMetrics(
  store: EndUserMetricStore,
  dashboardRowId: string,
  document: DashboardDocument,
  source: Source,
): Promise<DroppedEndUserMetric[]> {
  const visible = visibleModel(source, NO_EMBED)
  const company = new Map(document.metrics.map((m) => [m.metricId, m]))
  const dropped: (DroppedEndUserMetric & { dataAppId: string })[] = []
  for (const m of await store.ofDashboard(dashboardRowId)) {
    const drop = (reason: string) =>
      dropped.push({ metricId: m.metricId, clientId: m.clientId, dataAppId: m.dataAppId, reason })
    if (m.basedOnCompany) {
      const base = company.get(m.metricId)
      if (base === undefined) {
        drop(`the company metric ${m.metricId} it is a version of is gone`)
        continue
      }
      if (base.sql !== undefined) {
        drop(`the company metric ${m.metricId} is now a SQL metric`)
        continue
      }
    }
    try {
      storedDefinition(m.definition, source.model, visible, m.metricId)
    } catch (err) {
      if (!(err instanceof ApiError)) throw err
      drop(err.message)
    }
  }
  await store.drop(dashboardRowId, dropped)
  return dropped.map(({ dataAppId: _dataAppId, ...d }) => d)
}
