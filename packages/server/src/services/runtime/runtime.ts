import type {
  Capability,
  EffectivePermissions,
  PinnedFilter,
  RuntimeEmbed,
  RuntimeMetric,
  RuntimeQuery,
  UnderlyingQuery,
} from '@strata/contract/runtime'
import type { EndUserMetricDefinition } from '@strata/contract/self-serve'
import type { GuestClaims } from '../../auth/principal.js'
import type { LlmProvider } from '../../config.js'
import { ApiError } from '../../errors.js'
import type { Metric } from '../../query/document.js'
import { filterKey } from '../../query/filters.js'
import type { SemanticModel } from '../../query/model.js'
import { aiAvailability } from '../ai/availability.js'
import type { Dashboard, Dashboards } from '../dashboards/dashboards.js'
import type { Embed, Embeds } from '../embeds/embeds.js'
import { checkFilterColumn, hiddenFilters, mayFilterColumn, pinnedValues, shownPin } from '../guest-access/filters.js'
import { privateMetrics, visibleMetrics } from '../guest-access/metrics.js'
import { effective, grantsSelfServe } from '../guest-access/permissions.js'
import { checkGuestQuery } from '../guest-access/queries.js'
import { allowedRecipients } from '../guest-tokens/report-recipients.js'
import type { MetricQueries, MetricResult } from '../query/metric-queries.js'
import { guestRequest, type MetricRequest } from '../query/metric-requests.js'
import type { Sources } from '../query/sources.js'
import { definitionOf } from '../self-serve/definition.js'
import { endUserScope } from '../self-serve/end-user-scope.js'
import { endUserKey } from '../self-serve/end-user-state.js'
import { resolveLayout } from '../self-serve/layout-grid.js'
import { authored, type Overlay, overlay } from '../self-serve/overlay.js'
import type { TenantState, TenantStates } from '../self-serve/tenant-state.js'
import { runtimeView } from '../self-serve/view-shape.js'
import { visibleModel } from '../self-serve/visible-model.js'
import { studioEmbed } from '../studio/studio-embed.js'
import type { Workspace, Workspaces } from '../workspaces/workspaces.js'
import { metricFormats } from './column-formats.js'
import { csvHeaders, toCsv } from './csv.js'
import { type CheckedDrill, checkDrill, drillColumns, drillTables } from './drill.js'
import { unfilteredFilters } from './unfiltered.js'

// The runtime API's shapes are @strata/contract's (the route validates and documents with them).
export type { Capability, EffectivePermissions, PinnedFilter, RuntimeEmbed, RuntimeMetric, RuntimeQuery }

/** An embed a token may open, its dashboard, and the ids of the metrics the token sees (document order). */
export interface RuntimeContext {
  readonly embed: Embed
  readonly dashboard: Dashboard
  readonly metricIds: readonly string[]
}

/** An embed opened for a token: the embed, the company's dashboard, and the token's overlay on it. */
export interface Opened {
  readonly embed: Embed
  /** The company's dashboard (its document as authored). */
  readonly company: Dashboard
  /** The effective dashboard: the company's with this token's metric set (self-serve/overlay.ts). */
  readonly dashboard: Dashboard
  readonly overlay: Overlay
  /** What the token's key saved (layouts, views; its metrics are in the overlay). */
  readonly state: TenantState
}

export function runtimeMetric(
  m: Metric,
  o: Overlay,
  definition: EndUserMetricDefinition | undefined,
  unfiltered: readonly string[] = [],
  model?: SemanticModel,
): RuntimeMetric {
  const grains = Object.fromEntries(
    (m.query?.dimensions ?? []).flatMap((d) => (d.timeGrain ? [[d.name, d.timeGrain] as const] : [])),
  )
  const origin = o.origins.get(m.metricId)
  const formats = metricFormats(m, model)
  return {
    metricId: m.metricId,
    name: m.name,
    chart: m.chart,
    ...(formats && Object.keys(formats).length > 0 ? { formats } : {}),
    ...(m.comparison ? { comparison: m.comparison } : {}),
    ...(Object.keys(grains).length ? { timeGrains: grains } : {}),
    // a pivot table totals only what adds up (sums and counts), so it needs to know how each measure aggregates
    ...(m.chart.type === 'pivot' && m.query?.measures?.length
      ? { aggregates: Object.fromEntries(m.query.measures.map((x) => [x.name, x.aggregate])) }
      : {}),
    origin: origin?.origin ?? 'company',
    isPublished: origin?.isPublished ?? true,
    visibility: origin?.visibility ?? 'shared',
    createdByUser: origin?.createdByUser ?? null,
    ...(definition ? { definition } : {}),
    ...(unfiltered.length > 0 ? { unfiltered: [...unfiltered] } : {}),
    ...(origin?.tenantVersion ? { tenantVersion: true } : {}),
    ...(origin?.companyVersionChanged ? { companyVersionChanged: true } : {}),
  }
}

/**
 * The web component's API (docs/runtime-api.md). Everything tenant-related comes from the guest
 * token's claims; the browser only narrows within what the token and the embed allow. Every
 * data path (query, CSV) goes through the same `query`, so none can skip the tenancy.
 */
export class Runtime {
  constructor(
    private readonly embeds: Embeds,
    private readonly dashboards: Dashboards,
    private readonly queries: MetricQueries,
    private readonly states: TenantStates,
    private readonly workspaces: Workspaces,
    private readonly sources: Sources,
    /** LLM_PROVIDERS: the load tells which AI pilot routes work (services/ai/availability.ts). */
    private readonly llmProviders: Readonly<Record<string, LlmProvider>> = {},
    /** SMTP_URL and EMAIL_FROM are set: the load tells whether report routes work. */
    private readonly emailConfigured = false,
  ) {}

  async load(claims: GuestClaims, id: string): Promise<RuntimeEmbed> {
    const opened = await this.open(claims, id)
    const { embed, dashboard } = opened
    const permissions = effective(claims, embed)
    const hidden = hiddenFilters(claims)
    const pinned = pinnedValues(claims, dashboard)
    const filters = (dashboard.document.filters ?? [])
      .filter((f) => !hidden(f))
      .map((f) => {
        const pin = pinned.get(filterKey(f.name)) ?? (f.label ? pinned.get(filterKey(f.label)) : undefined)
        return pin ? { ...f, ...shownPin(pin) } : f
      })
    const shown = visibleMetrics(claims, embed, dashboard)
    const metricIds = shown.map((m) => m.metricId)
    const [definitions, workspace] = await Promise.all([
      permissions.metricUpdate ? this.definitions(claims, opened, shown) : undefined,
      this.workspaces.get(opened.company.workspaceId),
    ])
    const shownFilters = embed.embedType === 'metric' ? [] : filters
    // the model: which filters a metric cannot take, and each column's format
    const model = await this.modelOf(claims, workspace)
    // drill-down follows the end-user filter permission: without it the load names no drill column
    const visible = permissions.endUserDashboardFilter ? await this.visibleOf(claims, workspace, embed) : undefined
    // layouts and views live on dashboard embeds (a metric embed shows one card, no filters)
    const onDashboard = embed.embedType === 'dashboard'
    const views = onDashboard && permissions.dashboardViews ? opened.state.views : []
    const { layout, customLayout } = resolveLayout(
      onDashboard ? opened.state.saved : {},
      dashboard.document.layout ?? [],
      metricIds,
    )
    return {
      embedId: embed.embedId,
      embedType: embed.embedType,
      name: embed.name,
      dashboard: {
        dashboardId: dashboard.dashboardId,
        name: dashboard.name,
        filters: embed.embedType === 'metric' ? [] : filters,
        layout,
        customLayout,
      },
      metrics: shown.map((m) => {
        const runtime = runtimeMetric(
          m,
          opened.overlay,
          definitions?.get(m.metricId),
          unfilteredFilters(m, shownFilters, model),
          model,
        )
        if (!visible || !model) return runtime
        const columns = drillColumns(m, visible, (table, column) => mayFilterColumn(claims, embed, table, column))
        return {
          ...runtime,
          ...(columns ? { drillColumns: columns } : {}),
          drillTables: drillTables(m, visible, model),
        }
      }),
      privateMetrics: privateMetrics(claims, opened.company),
      archivedMetrics: opened.overlay.archived,
      // hidden company metrics are listed to whoever may restore them (a metric embed: its own)
      hiddenMetrics: permissions.manageMetrics
        ? opened.overlay.hidden.filter((h) => embed.metricId === null || h.metricId === embed.metricId)
        : [],
      views: views.map((row) => runtimeView(row, dashboard.document.filters ?? [], hidden, metricIds)),
      permissions,
      ai: aiAvailability(permissions, workspace.ai, this.llmProviders),
      reports: reportsAvailability(claims, permissions.emailReports && this.emailConfigured),
      timezone: claims.params.timezone ?? 'UTC',
    }
  }

  /**
   * What every self-serve route starts from: the embed the token may open (allowedEmbeds → 403,
   * gone → 401), its dashboard, and the metrics the token sees.
   */
  async context(claims: GuestClaims, id: string): Promise<RuntimeContext> {
    const { embed, dashboard } = await this.open(claims, id)
    return { embed, dashboard, metricIds: visibleMetrics(claims, embed, dashboard).map((m) => m.metricId) }
  }

  async query(claims: GuestClaims, id: string, request: RuntimeQuery): Promise<MetricResult> {
    return this.run(claims, await this.open(claims, id), request)
  }

  /** The model of an opened embed's source (the report renderer's formats); undefined when it cannot be resolved. */
  async modelFor(claims: GuestClaims, opened: Opened): Promise<SemanticModel | undefined> {
    return this.modelOf(claims, await this.workspaces.get(opened.company.workspaceId))
  }

  /** The source's model, for the load's `unfiltered` and `formats`; undefined when the source cannot be resolved (queries say why). */
  private async modelOf(claims: GuestClaims, workspace: Workspace): Promise<SemanticModel | undefined> {
    try {
      const hints = { datasourceName: claims.datasourceName, dataMartName: claims.datamartName }
      return (await this.sources.resolve(workspace, hints)).model
    } catch {
      return undefined
    }
  }

  /** The model the end user may see, for the load's drill columns; undefined when the source cannot be resolved. */
  private async visibleOf(claims: GuestClaims, workspace: Workspace, embed: Embed): Promise<SemanticModel | undefined> {
    try {
      const hints = { datasourceName: claims.datasourceName, dataMartName: claims.datamartName }
      return visibleModel(await this.sources.resolve(workspace, hints), embed)
    } catch {
      return undefined
    }
  }

  /** The definitions the builder may edit, by metricId (only those within the visible model). */
  private async definitions(
    claims: GuestClaims,
    opened: Opened,
    shown: readonly Metric[],
  ): Promise<Map<string, EndUserMetricDefinition>> {
    const { embed, company } = opened
    const workspace = await this.workspaces.get(company.workspaceId)
    const source = await this.sources.resolve(workspace, {
      datasourceName: claims.datasourceName,
      dataMartName: claims.datamartName,
    })
    const visible = visibleModel(source, embed)
    const out = new Map<string, EndUserMetricDefinition>()
    for (const m of shown) {
      const endUser = opened.overlay.origins.get(m.metricId)?.endUserDefined === true
      const definition = definitionOf(m, source.model, visible, endUser)
      if (definition) out.set(m.metricId, definition)
    }
    return out
  }

  /** The rows behind a metric, only with the underlying-data permission; same tenancy as `query`. */
  async underlying(claims: GuestClaims, id: string, request: UnderlyingQuery): Promise<MetricResult> {
    const opened = await this.open(claims, id)
    if (!effective(claims, opened.embed).underlyingData) {
      throw new ApiError('UNAUTHORIZED', 403, 'Viewing underlying data is not allowed for this token')
    }
    return this.run(claims, opened, request, true)
  }

  /** The metric's rows as CSV, only with the download permission; same tenancy as `query`. */
  async download(
    claims: GuestClaims,
    id: string,
    metricId: string,
    filters: Omit<RuntimeQuery, 'metricId'>,
  ): Promise<{ csv: string; truncated?: true }> {
    const opened = await this.open(claims, id)
    if (!effective(claims, opened.embed).download) {
      throw new ApiError('UNAUTHORIZED', 403, 'Downloading metric data is not allowed for this token')
    }
    const result = await this.run(claims, opened, { ...filters, metricId })
    const names = result.metaData.columns.map((c) => c.name)
    const columns = names.length ? names : Object.keys(result.data[0] ?? {})
    const metric = opened.dashboard.document.metrics.find((m) => m.metricId === metricId)
    const csv = toCsv(columns, result.data, csvHeaders(columns, metric?.formats))
    return result.truncated ? { csv, truncated: true } : { csv }
  }

  /**
   * Every data path: the metric must be visible to the token; filters only narrow. An end
   * user's definition (a tenant metric or version) is read against the visible model, and
   * carries no RLS declarations of its own: the token's RLS applies to it as restrictions
   * (self-serve/end-user-scope.ts).
   */
  async run(
    claims: GuestClaims,
    opened: Opened,
    request: RuntimeQuery | UnderlyingQuery,
    underlying = false,
  ): Promise<MetricResult> {
    const drill = await this.drillOf(claims, opened, request)
    return this.queries.run(this.metricRequest(claims, opened, request, underlying, drill))
  }

  /** Compiles what `run` would run (tenancy, RLS, locked filters) and runs nothing. */
  async check(claims: GuestClaims, opened: Opened, request: RuntimeQuery): Promise<void> {
    const drill = await this.drillOf(claims, opened, request)
    await this.queries.check(this.metricRequest(claims, opened, request, false, drill))
  }

  /**
   * A request's drill-down, checked (services/runtime/drill.ts): it follows the end-user filter
   * permission and the token's dashboardFilterColumns, and names only visible columns.
   */
  private async drillOf(claims: GuestClaims, opened: Opened, request: RuntimeQuery): Promise<CheckedDrill> {
    const drill = request.drill
    if (!drill || (!drill.filters?.length && !drill.timeGrain)) return {}
    if (!effective(claims, opened.embed).endUserDashboardFilter) {
      throw new ApiError(
        'UNAUTHORIZED',
        403,
        'Drill-down follows the end-user dashboard filters, which this token may not use',
      )
    }
    const workspace = await this.workspaces.get(opened.company.workspaceId)
    const source = await this.sources.resolve(workspace, {
      datasourceName: claims.datasourceName,
      dataMartName: claims.datamartName,
    })
    const checked = checkDrill(drill, visibleModel(source, opened.embed))
    for (const f of checked.drill ?? []) checkFilterColumn(claims, opened.embed, f.table, f.column)
    return checked
  }

  /** A guest query of a metric the token may ask for (guest-access/queries.ts), as the query service runs it. */
  private metricRequest(
    claims: GuestClaims,
    opened: Opened,
    request: RuntimeQuery | UnderlyingQuery,
    underlying: boolean,
    drill: CheckedDrill = {},
  ): MetricRequest {
    const { embed, dashboard } = opened
    checkGuestQuery(claims, embed, dashboard, request)
    const byMetric = <T extends { metricId: string; values: Record<string, unknown> }>(
      list: readonly T[] | undefined,
    ) => list?.find((x) => x.metricId === request.metricId)?.values
    const endUser = opened.overlay.origins.get(request.metricId)?.endUserDefined === true
    return guestRequest(claims, opened, {
      metricId: request.metricId,
      rls: endUser ? {} : (byMetric(claims.params.rlsSettings) ?? {}),
      ...(endUser ? { endUser: endUserScope(claims, embed, opened.company.document.metrics) } : {}),
      appFilters: byMetric(claims.params.appFilters),
      dashboardFilter: request.dashboardFilter,
      metricFilter: request.metricFilter,
      drill: drill.drill,
      timeGrain: drill.timeGrain,
      pageNumber: request.pageNumber,
      underlying,
      sort: 'sort' in request ? request.sort : undefined,
    })
  }

  /**
   * allowedEmbeds, or a v1 token's workspace, → 403; an embed that is gone (or of another data app) → 401. Then the
   * token's overlay: its key's state (cached, self-serve/tenant-state.ts) laid on this version
   * of the company's dashboard, once per version. A read-only embed (one that grants no
   * self-serve capability) shows the dashboard as the company authored it: no tenant's metrics,
   * versions, hidden or archived metrics, layout or views, since its viewers could undo none
   * of them (docs/runtime-api.md, "Where an end user's changes show").
   */
  async open(claims: GuestClaims, id: string): Promise<Opened> {
    const { embed, dashboard } = await this.resolve(claims, id)
    // the studio's author sees the company's document as it is, never a tenant's changes
    if (!grantsSelfServe(embed) || claims.studio?.author) {
      return { embed, company: dashboard, dashboard, overlay: authoredOverlay(dashboard), state: AUTHORED_STATE }
    }
    const state = await this.states.get(endUserKey(claims, embed))
    let o = state.overlays.get(dashboard)
    if (o === undefined) {
      o = overlay(dashboard, state.metrics, claims)
      state.overlays.set(dashboard, o)
    }
    return { embed, company: dashboard, dashboard: o.dashboard, overlay: o, state }
  }

  private async resolve(claims: GuestClaims, id: string): Promise<{ embed: Embed; dashboard: Dashboard }> {
    if (claims.studio) return studioEmbed(this.embeds, this.dashboards, claims.dataAppId, claims.studio, id)
    const allowed = claims.params.allowedEmbeds
    const embed = await this.embeds.resolve(claims.dataAppId, id)
    const dashboard = embed && (await this.dashboards.get(embed.dashboardRowId))
    if (allowed && !allowed.includes(id) && !(embed && allowed.includes(embed.embedId))) {
      if (!(dashboard && allowed.includes(dashboard.dashboardId))) {
        throw new ApiError('UNAUTHORIZED', 403, `This token may not load ${id}`)
      }
    }
    if (claims.workspaceId !== undefined && dashboard && dashboard.workspaceId !== claims.workspaceId) {
      throw new ApiError('UNAUTHORIZED', 403, `This token names another workspace: it may not load ${id}`)
    }
    if (!embed || !dashboard) {
      // `details.reason` tells a client that a new token will not help (an expired one would)
      throw new ApiError('AUTHENTICATION_ERROR', 401, `Embed ${id} does not exist or was deleted`, {
        reason: EMBED_GONE,
      })
    }
    return { embed, dashboard }
  }
}

/** `error.details.reason` of the 401 for an embed that does not exist (deleted since the token was minted). */
export const EMBED_GONE = 'EMBED_GONE'

/** What a read-only embed overlays: nothing (its layouts, views and metrics are the company's). */
const AUTHORED_STATE: TenantState = {
  metrics: { metrics: [], states: [] },
  saved: {},
  views: [],
  overlays: new WeakMap(),
}
const authoredOverlays = new WeakMap<Dashboard, Overlay>()
function authoredOverlay(dashboard: Dashboard): Overlay {
  let o = authoredOverlays.get(dashboard)
  if (o === undefined) {
    o = authored(dashboard)
    authoredOverlays.set(dashboard, o)
  }
  return o
}

/** The load's `reports`: whether report controls work, and who reports may go to (else none). */
function reportsAvailability(claims: GuestClaims, available: boolean): { available: boolean; recipients: string[] } {
  return { available, recipients: available ? allowedRecipients(claims) : [] }
}
