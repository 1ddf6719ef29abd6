import type { GuestClaims } from '../../auth/principal.js'
import type { Metric } from '../../query/document.js'
import type { Dashboard } from '../dashboards/dashboards.js'
import { companyFingerprint } from './company-fingerprint.js'
import { asMetric } from './definition.js'
import type { EndUserMetric, TenantMetrics } from './metric-store.js'

/** How the load describes a metric of the effective set (docs/runtime-api.md). */
export interface MetricOrigin {
  readonly origin: 'company' | 'tenant'
  readonly isPublished: boolean
  readonly visibility: 'shared' | 'private'
  readonly createdByUser: string | null
  /** Its definition is an end user's (a tenant metric, or a tenant's version of a company one). */
  readonly endUserDefined: boolean
  /** A company metric shown in this tenant's version (DELETE …/override resets it). */
  readonly tenantVersion?: true
  /** That version was copied from a company metric the company has changed since. */
  readonly companyVersionChanged?: true
}

/** The company's dashboard as one token's tenant sees it. */
export interface Overlay {
  /** The dashboard with the effective metrics in its document (the company's row is untouched). */
  readonly dashboard: Dashboard
  readonly origins: ReadonlyMap<string, MetricOrigin>
  /** Archived for this tenant (company metrics) or by it (its own, private ones only for their user). */
  readonly archived: readonly { readonly metricId: string; readonly name: string }[]
  /** Company metrics this tenant hid (deleted for itself), to restore from. */
  readonly hidden: readonly { readonly metricId: string; readonly name: string }[]
  /** The tenant's rows this overlay was built from (the self-serve service acts on them). */
  readonly tenant: TenantMetrics
}

const COMPANY = (m: Metric): MetricOrigin => ({
  origin: 'company',
  isPublished: m.isPublished ?? true,
  visibility: m.visibility ?? 'shared',
  createdByUser: m.createdByUser ?? null,
  endUserDefined: false,
})

/**
 * docs/runtime-api.md#self-serve-metrics: the effective metric set of a token = the company's metrics minus those this
 * tenant hid or archived, its copy-on-write versions in place of the company's, then the
 * tenant's own metrics (`tenant` holds private ones only for their user: metric-store.ts).
 * Pure: the company's Dashboard (a shared cached object) is never changed.
 */
export function overlay(dashboard: Dashboard, tenant: TenantMetrics, claims: GuestClaims): Overlay {
  const company = dashboard.document.metrics
  if (tenant.metrics.length === 0 && tenant.states.length === 0) {
    return authored(dashboard, tenant)
  }
  const states = new Map(tenant.states.map((s) => [s.metricId, s]))
  const versions = new Map(tenant.metrics.filter((m) => m.basedOnCompany).map((m) => [m.metricId, m]))
  const companyIds = new Set(company.map((m) => m.metricId))
  const origins = new Map<string, MetricOrigin>()
  const archived: { metricId: string; name: string }[] = []
  const hidden: { metricId: string; name: string }[] = []
  const metrics: Metric[] = []
  for (const m of company) {
    const state = states.get(m.metricId)
    if (state?.hidden) {
      hidden.push({ metricId: m.metricId, name: m.name })
      continue
    }
    const version = versions.get(m.metricId)
    const effective = version ? companyVersion(m, version) : m
    if (state?.archived) {
      archived.push({ metricId: m.metricId, name: effective.name })
      continue
    }
    metrics.push(effective)
    origins.set(m.metricId, version ? versionOrigin(m, version) : COMPANY(m))
  }
  for (const t of tenant.metrics) {
    if (t.basedOnCompany || companyIds.has(t.metricId)) continue
    if (t.archived) {
      archived.push({ metricId: t.metricId, name: t.definition.name })
      continue
    }
    metrics.push(tenantMetric(t, claims.clientId))
    origins.set(t.metricId, {
      origin: 'tenant',
      isPublished: t.isPublished,
      visibility: t.visibility,
      createdByUser: t.userIdentifier === '' ? null : t.userIdentifier,
      endUserDefined: true,
    })
  }
  return {
    dashboard: { ...dashboard, document: { ...dashboard.document, metrics } },
    origins,
    archived,
    hidden,
    tenant,
  }
}

const NOTHING: TenantMetrics = { metrics: [], states: [] }

/**
 * The company's dashboard as authored, no tenant's change on it: what a tenant with nothing
 * saved sees, and what a read-only embed shows every tenant (runtime.ts `open`).
 */
export function authored(dashboard: Dashboard, tenant: TenantMetrics = NOTHING): Overlay {
  const origins = new Map(dashboard.document.metrics.map((m) => [m.metricId, COMPANY(m)]))
  return { dashboard, origins, archived: [], hidden: [], tenant }
}

/** A company metric shown in the tenant's version, and whether the company changed it since the copy. */
function versionOrigin(m: Metric, version: EndUserMetric): MetricOrigin {
  const changed = version.companyFingerprint !== null && version.companyFingerprint !== companyFingerprint(m)
  return {
    ...COMPANY(m),
    endUserDefined: true,
    tenantVersion: true,
    ...(changed ? { companyVersionChanged: true } : {}),
  }
}

/**
 * A tenant's version of a company metric: the end user's name, chart, query and formats; the
 * company's metric filters kept (the token's appFilters name them); its RLS declarations
 * replaced, as for every end-user definition, by the token's RLS restrictions (inherited-rls.ts).
 */
function companyVersion(company: Metric, version: EndUserMetric): Metric {
  const { rls: _rls, formats: _formats, comparison, sql: _sql, ...rest } = company
  const own = asMetric(version.definition, company.metricId)
  const measures = own.query?.measures?.length ?? 0
  return { ...rest, ...own, ...(comparison && measures > 0 ? { comparison } : {}) }
}

function tenantMetric(t: EndUserMetric, clientId: string): Metric {
  return {
    ...asMetric(t.definition, t.metricId),
    createdByClient: clientId,
    createdByUser: t.userIdentifier === '' ? null : t.userIdentifier,
    visibility: t.visibility,
    isPublished: t.isPublished,
  }
}
