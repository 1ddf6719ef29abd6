import type { DashboardDocument } from '../../query/document.js'
import type { TenantMetrics } from '../self-serve/metric-store.js'
import type { Embed } from './embed.js'

export interface VisibleMetric {
  readonly name: string
  readonly metricId: string
  readonly isPublished: boolean
  readonly createdByUser: string | null
}

/**
 * The metrics of an embed that a client may see (docs/api.md#metrics-list-and-end-users-metrics): shared
 * metrics for every client, client-created ones only for their client (the document's, and
 * those its end users made: self-serve, private ones only for their user), and with
 * `userIdentifier` only that user's metrics (system metrics excluded). A company metric this
 * client hid is left out; its own version of one is listed under its name.
 */
export function visibleMetrics(
  embed: Pick<Embed, 'metricId'>,
  companyMetrics: DashboardDocument['metrics'],
  tenant: TenantMetrics,
  clientId: string,
  userIdentifier: string | undefined,
): VisibleMetric[] {
  const inEmbed = (metricId: string) => embed.metricId === null || metricId === embed.metricId
  const hidden = new Set(tenant.states.filter((s) => s.hidden).map((s) => s.metricId))
  const versions = new Map(tenant.metrics.filter((m) => m.basedOnCompany).map((m) => [m.metricId, m.definition.name]))
  const companyIds = new Set(companyMetrics.map((m) => m.metricId))
  const company = companyMetrics
    .filter((m) => inEmbed(m.metricId) && !hidden.has(m.metricId))
    .filter((m) => m.createdByClient === undefined || m.createdByClient === clientId)
    .filter((m) => userIdentifier === undefined || m.createdByUser === userIdentifier)
    .map((m) => ({
      name: versions.get(m.metricId) ?? m.name,
      metricId: m.metricId,
      isPublished: m.createdByUser === undefined ? true : (m.isPublished ?? true),
      createdByUser: m.createdByUser ?? null,
    }))
  const endUsers = tenant.metrics
    .filter((m) => !m.basedOnCompany && !companyIds.has(m.metricId) && inEmbed(m.metricId))
    .filter((m) => userIdentifier === undefined || m.userIdentifier === userIdentifier)
    .map((m) => ({
      name: m.definition.name,
      metricId: m.metricId,
      isPublished: m.isPublished,
      createdByUser: m.userIdentifier === '' ? null : m.userIdentifier,
    }))
  return [...company, ...endUsers]
}
