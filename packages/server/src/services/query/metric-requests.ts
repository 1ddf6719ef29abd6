import type { TimeGrain } from '@strata/contract/document'
import type { Static } from 'typebox'
import type { GuestClaims } from '../../auth/principal.js'
import type { Metric } from '../../query/document.js'
import type { AppliedFilter, DrillInput, FilterInputs } from '../../query/filters.js'
import type { DialectName } from '../../query/types.js'
import type { UnderlyingSort } from '../../query/views.js'
import type { MetricQueryBody } from '../../schemas/query.js'
import type { Dashboard } from '../dashboards/dashboards.js'
import type { Embed } from '../embeds/embeds.js'
import type { Source, SourceHints } from './sources.js'

/**
 * One metric query as the service runs it: which embed and dashboard it is for, who asks (the
 * clientId and, for a guest token, its RLS values), and the request's own values. Made only by
 * the factories below, one per kind of caller.
 */
export interface MetricRequest {
  readonly embed: Embed
  readonly dashboard: Dashboard
  readonly metricId: string
  /** `None`: no tenancy. */
  readonly clientId: string
  readonly filters: FilterInputs
  /**
   * The guest token's rlsSettings values for this metric: every RLS variable the metric declares
   * needs one (else 400). null: a secret-key caller, to whom RLS does not apply (it names any
   * clientId; only guest tokens carry rlsSettings).
   */
  readonly rls: Readonly<Record<string, unknown>> | null
  /** IANA; the session time zone on the engines that have one, and where presets are evaluated. */
  readonly timezone?: string | undefined
  readonly hints?: SourceHints
  /** 1-based; pages of 100 rows (tables). */
  readonly pageNumber?: number | undefined
  /** The rows behind the metric (its table's visible columns, same filters and tenancy). */
  readonly underlying?: boolean
  /**
   * The underlying rows' order (with `underlying` only): a column the rows show, checked against
   * them, so an identifier never comes from the request; the other columns break ties.
   */
  readonly sort?: UnderlyingSort | undefined
  /** The metric is an end user's definition: how it is read against the model (self-serve/end-user-scope.ts). */
  readonly endUser?: EndUserScope
  /**
   * A metric the server built for this request (a filter's distinct values, runtime/filter-values.ts),
   * run in place of the document's `metricId`; `metricId` then only names it in keys and errors.
   */
  readonly metric?: Metric
  /** false: the dashboard filters' defaults do not apply (a filter's values list every value). */
  readonly defaults?: boolean
  /** Drill-down: this time-grained dimension of the metric shown at another grain (checked by the caller). */
  readonly timeGrain?: { readonly dimension: string; readonly grain: TimeGrain }
}

/**
 * An end user's definition, read where the model is known (when a request is planned): the
 * metric with its names resolved as the end user may name them, and trusted conditions ANDed
 * in besides the filters (the token's RLS on the company's metrics).
 */
export interface EndUserScope {
  /** What `apply` depends on besides the dashboard, the embed and the model: part of the plan key. */
  readonly key: string
  apply(
    metric: Metric,
    source: Source,
    dialect: DialectName,
  ): { readonly metric: Metric; readonly restrictions: readonly AppliedFilter[] }
}

/**
 * A backend's query (`POST /api/v2/data-app/query`, secret key): the tenancy of the clientId it
 * names, no RLS, and its filters trusted (a secret-key holder may send `{ sql }` lists).
 */
export function secretKeyRequest(
  embed: Embed,
  dashboard: Dashboard,
  body: Static<typeof MetricQueryBody>,
): MetricRequest {
  const { metricId, clientId, dashboardFilter, metricFilter, datasourceName, dataMartName, pageNumber } = body
  return {
    embed,
    dashboard,
    metricId,
    clientId,
    rls: null,
    filters: {
      ...(dashboardFilter ? { dashboardFilter } : {}),
      ...(metricFilter ? { metricFilter } : {}),
      userFiltersTrusted: true,
    },
    hints: { datasourceName, dataMartName },
    pageNumber,
  }
}

/** What a guest token's request adds to what its token says (the caller has checked it against the token's access). */
export interface GuestQuery {
  readonly metricId: string
  /** The token's RLS values for the metric (`{}` for an end user's definition, which gets them as restrictions). */
  readonly rls: Readonly<Record<string, unknown>>
  /** The token's appFilters for this metric. */
  readonly appFilters?: Readonly<Record<string, unknown>> | undefined
  readonly dashboardFilter?: Readonly<Record<string, unknown>> | undefined
  readonly metricFilter?: Readonly<Record<string, unknown>> | undefined
  readonly drill?: readonly DrillInput[] | undefined
  readonly timeGrain?: MetricRequest['timeGrain'] | undefined
  readonly endUser?: EndUserScope | undefined
  readonly metric?: Metric | undefined
  readonly defaults?: false
  readonly pageNumber?: number | undefined
  readonly underlying?: boolean
  readonly sort?: UnderlyingSort | undefined
}

/**
 * A guest token's query (the runtime's metric queries, underlying rows and CSV, the checks of
 * what self-serve and reports save, a filter's values): the token's tenant, zone, source hints
 * and pinned dashboard filters; the end user's filters never trusted.
 */
export function guestRequest(
  claims: GuestClaims,
  target: { readonly embed: Embed; readonly dashboard: Dashboard },
  query: GuestQuery,
): MetricRequest {
  const { embed, dashboard } = target
  const dashboardAppFilters = claims.params.dashboardAppFilters?.find(
    (f) => f.dashboardId === dashboard.dashboardId,
  )?.values
  return {
    embed,
    dashboard,
    metricId: query.metricId,
    ...(query.metric ? { metric: query.metric } : {}),
    clientId: claims.clientId,
    rls: query.rls,
    ...(query.endUser ? { endUser: query.endUser } : {}),
    filters: {
      ...(query.appFilters ? { appFilters: query.appFilters } : {}),
      ...(dashboardAppFilters ? { dashboardAppFilters } : {}),
      ...(query.dashboardFilter ? { dashboardFilter: query.dashboardFilter } : {}),
      ...(query.metricFilter ? { metricFilter: query.metricFilter } : {}),
      ...(query.drill ? { drill: query.drill } : {}),
      userFiltersTrusted: false,
    },
    ...(query.defaults === false ? { defaults: false } : {}),
    ...(query.timeGrain ? { timeGrain: query.timeGrain } : {}),
    timezone: claims.params.timezone,
    hints: { datasourceName: claims.datasourceName, dataMartName: claims.datamartName },
    pageNumber: query.pageNumber,
    ...(query.underlying !== undefined ? { underlying: query.underlying } : {}),
    ...(query.underlying && query.sort ? { sort: query.sort } : {}),
  }
}
