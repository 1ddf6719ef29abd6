import type { PrincipalOf } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import { pagedList } from '../../store/paging.js'
import { now, type Store } from '../../store/store.js'
import type { Dashboards } from '../dashboards/dashboards.js'
import { newDashboardDocument } from '../dashboards/template.js'
import type { Datamarts } from '../datamarts/datamarts.js'
import type { InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'
import type { EndUserMetricStore } from '../self-serve/metric-store.js'
import type { Workspace, Workspaces } from '../workspaces/workspaces.js'
import { type AccessSettingsInput, createSettings, settingsPatch } from './access-settings.js'
import { checkedMetadata, type DashboardEmbedInput } from './dashboard-embed-input.js'
import { type CreateEmbedInput, type DataAppIds, type Embed, type NewEmbed, newEmbedRow, toEmbed } from './embed.js'
import { type EmbedListItem, toEmbedItem } from './embed-items.js'
import {
  catalogRows,
  dashboardEmbeds,
  embedListRows,
  embedsOfDashboard,
  firstDashboardEmbedId,
  removeEmbed,
} from './embed-store.js'
import { ownedEmbed } from './ownership.js'
import { type VisibleMetric, visibleMetrics } from './visible-metrics.js'

// the embed's own types, where the rest of the server has always imported them from
export type { DataAppIds, Embed } from './embed.js'

type DataApp = PrincipalOf<'dataApp'>

/**
 * Embeds: a data app's published view of a dashboard or one metric, with access settings.
 * Lookups on the runtime hot path come from memory; every change is published on the
 * invalidation bus so other instances forget at once.
 */
export class Embeds {
  private readonly cache = peerCache<{ embed: Embed | null }>(50_000)
  private readonly catalogs = peerCache<DataAppIds>(10_000)

  constructor(
    private readonly store: Store,
    private readonly workspaces: Workspaces,
    private readonly dashboards: Dashboards,
    private readonly datamarts: Datamarts,
    private readonly bus: InvalidationBus,
    private readonly endUserMetrics: EndUserMetricStore,
  ) {
    bus.on((event) => {
      if (event.kind === 'embed') this.cache.delete(event.embedId)
      if (event.kind === 'embed' || event.kind === 'dashboard' || event.kind === 'data-app') this.catalogs.clear()
    })
  }

  async create(app: DataApp, input: CreateEmbedInput): Promise<Embed> {
    const workspace = await this.workspace(app, input.workspaceName)
    const dashboard = await this.dashboards.byExternalId(workspace.id, input.dashboardId)
    if (!dashboard) {
      throw new ApiError(
        'INVALID_DASHBOARD_ID',
        404,
        `No dashboard ${input.dashboardId} in workspace ${workspace.name}`,
      )
    }
    if (input.embedType === 'metric') {
      if (!input.metricId) throw badRequest('metricId is required when embedType is metric')
      if (!dashboard.document.metrics.some((m) => m.metricId === input.metricId)) {
        throw new ApiError('INVALID_METRIC_ID', 404, `No metric ${input.metricId} in dashboard ${input.dashboardId}`)
      }
    }
    const accessSettings = await this.withDatamart(app, createSettings(input.embedType, input.accessSettings))
    return this.insert(app, {
      embedType: input.embedType,
      name: input.name,
      dashboardRowId: dashboard.id,
      metricId: input.embedType === 'metric' ? (input.metricId ?? null) : null,
      accessSettings,
    })
  }

  /**
   * docs/api.md#embeds, "Create Empty Dashboard Embed": creates the dashboard (empty, from a
   * template, or imported) and embeds it. `warnings`: what the new dashboard left out.
   */
  async createWithDashboard(
    app: DataApp,
    input: DashboardEmbedInput,
  ): Promise<{ embed: Embed; dashboardId: string; warnings: readonly string[] }> {
    // the codes the hosted service documents for this route (our contract leaves them open)
    const workspace = await this.workspaces.byName(app.organizationId, input.workspaceName)
    if (!workspace)
      throw new ApiError('WORKSPACE_ID_ERROR', 400, `workspaceName: no workspace named ${input.workspaceName}`)
    if (await this.dashboards.byExternalId(workspace.id, input.dashboardId)) {
      throw new ApiError(
        'INVALID_DASHBOARD_ID',
        400,
        `dashboardId: workspace ${workspace.name} already has a dashboard ${input.dashboardId}`,
      )
    }
    const accessSettings = await this.withDatamart(app, createSettings('dashboard', input.accessSettings))
    const template =
      input.templateDashboardId && (await this.dashboards.byExternalId(workspace.id, input.templateDashboardId))
    if (input.templateDashboardId !== undefined && !template) {
      throw new ApiError(
        'TEMPLATE_DASHBOARD_ERROR',
        400,
        `templateDashboardId: no dashboard ${input.templateDashboardId} in workspace ${workspace.name}`,
      )
    }
    const metadata = input.metadata === undefined ? undefined : checkedMetadata(input.metadata)
    const name = input.name ?? input.dashboardId
    const source = newDashboardDocument({
      name,
      importDashboardData: input.importDashboardData,
      template: template ? template.document : undefined,
      isImportMetrics: input.isImportMetrics,
      isAllowPrivateMetricsByDefault: input.isAllowPrivateMetricsByDefault,
    })
    const dashboard = await this.dashboards.import(app.organizationId, {
      workspaceName: input.workspaceName,
      importDashboardData: source.document,
      dashboardId: input.dashboardId,
      ...(input.isRenameDashboard || !input.importDashboardData ? { dashboardName: name } : {}),
      ...(input.schemaPairs ? { schemaPairs: input.schemaPairs } : {}),
      createdByClient: input.clientId,
      metadata,
    })
    const embed = await this.insert(app, {
      embedType: 'dashboard',
      name,
      dashboardRowId: dashboard.id,
      metricId: null,
      accessSettings,
      description: input.embedDescription ?? null,
    })
    return { embed, dashboardId: dashboard.dashboardId, warnings: [...source.warnings, ...dashboard.warnings] }
  }

  async list(app: DataApp, options: { page?: number; clientId?: string }): Promise<EmbedListItem[]> {
    const rows = await embedListRows(this.store.db, app.dataAppId, options)
    return rows.map((row) => toEmbedItem(row, app.dataAppName))
  }

  /** The dashboards this data app embeds: one item per dashboard embed. */
  async listDashboards(
    app: DataApp,
    options: { page?: number; names?: readonly string[] },
  ): Promise<{ name: string; externalDashboardId: string; embedId: string }[]> {
    return dashboardEmbeds(this.store.db, app.dataAppId, options)
  }

  /** The metrics of an embed that a client may see (the rules: visible-metrics.ts), by page when `page` is given. */
  async listMetrics(
    app: DataApp,
    embedId: string,
    clientId: string,
    options: { page?: number; userIdentifier?: string },
  ): Promise<VisibleMetric[]> {
    const embed = await this.owned(
      app,
      embedId,
      () => new ApiError('EMBED_PARAM_ERROR', 400, `Embed ${embedId} is unknown for data app ${app.dataAppName}`),
    )
    const dashboard = await this.dashboards.get(embed.dashboardRowId)
    const tenant = await this.endUserMetrics.forTenant(
      { dashboardRowId: embed.dashboardRowId, dataAppId: app.dataAppId, clientId },
      options.userIdentifier,
    )
    const visible = visibleMetrics(embed, dashboard?.document.metrics ?? [], tenant, clientId, options.userIdentifier)
    return pagedList(visible, options.page)
  }

  /** Partial accessSettings; takes effect at once for live guest tokens (caches dropped). */
  async update(app: DataApp, embedId: string, settings: object, workspaceName?: string): Promise<string> {
    if (workspaceName !== undefined) await this.workspace(app, workspaceName)
    // Another data app's embed exists but is not this key's to change: INSUFFICIENT_PERMISSIONS.
    const embed = await this.owned(
      app,
      embedId,
      () => new ApiError('EMBED_NOT_FOUND', 404, `No embed ${embedId}`),
      () => new ApiError('INSUFFICIENT_PERMISSIONS', 403, `Embed ${embedId} belongs to another data app`),
    )
    const patch = await this.withDatamart(app, settingsPatch(settings))
    const merged = { ...embed.accessSettings, ...patch }
    await this.store.db
      .updateTable('embeds')
      .set({ access_settings: JSON.stringify(merged), updated_at: now() })
      .where('id', '=', embed.id)
      .execute()
    await this.bus.publish({ kind: 'embed', embedId })
    return embedId
  }

  /**
   * Deletes the embed (its guest tokens stop at once) and, when asked and allowed, its dashboard.
   * With the data app's last embed of the dashboard go the layouts and views its end users saved there.
   */
  async delete(app: DataApp, embedId: string, deleteDashboard: boolean): Promise<string> {
    const embed = await this.owned(app, embedId, () => badRequest(`Embed ${embedId} not found`))
    // the dashboard goes too when asked (and allowed)
    const dashboard = deleteDashboard ? await this.dashboards.get(embed.dashboardRowId) : undefined
    if (dashboard) {
      if (dashboard.origin !== 'api') {
        throw badRequest(`Dashboard ${dashboard.dashboardId} is internal and cannot be deleted`)
      }
      if ((await embedsOfDashboard(this.store.db, dashboard.id)) > 1) {
        throw badRequest(`Dashboard ${dashboard.dashboardId} is referenced by multiple embeds and cannot be deleted`)
      }
      if (dashboard.organizationId !== app.organizationId) throw badRequest(`Embed ${embedId} not found`)
    }
    await removeEmbed(this.store.db, embed, dashboard?.id)
    await this.bus.publish({ kind: 'embed', embedId })
    await this.bus.publish({ kind: 'tenant-state', dashboardRowId: embed.dashboardRowId, dataAppId: embed.dataAppId })
    if (dashboard) await this.bus.publish({ kind: 'dashboard', dashboardRowId: dashboard.id })
    return embedId
  }

  async rename(app: DataApp, embedId: string, name: string, renameDashboard: boolean): Promise<string> {
    const embed = await this.owned(app, embedId, () => new ApiError('INVALID_EMBED_ID', 400, `No embed ${embedId}`))
    await this.store.db.updateTable('embeds').set({ name, updated_at: now() }).where('id', '=', embed.id).execute()
    if (renameDashboard) await this.dashboards.rename(embed.dashboardRowId, name)
    await this.bus.publish({ kind: 'embed', embedId })
    return name
  }

  async export(app: DataApp, embedId: string) {
    const embed = await this.owned(
      app,
      embedId,
      () => new ApiError('INVALID_EMBED_ID', 400, `No embed ${embedId}`),
      () => new ApiError('EMBED_PARAM_ERROR', 400, `Embed ${embedId} does not belong to data app ${app.dataAppName}`),
    )
    const dashboard = await this.dashboards.get(embed.dashboardRowId)
    if (!dashboard) throw new ApiError('INVALID_EMBED_ID', 400, `Embed ${embedId} has no dashboard`)
    return {
      _meta: {
        exportedAt: now(),
        embedId,
        name: embed.name,
        embedType: embed.embedType,
        dashboardId: dashboard.dashboardId,
        embedDataAppAccessSetting: embed.accessSettings as Record<string, unknown>,
      },
      data: dashboard.document,
    }
  }

  /** An embed by id (memory first; null remembered too, so probing unknown ids stays cheap). */
  async get(embedId: string): Promise<Embed | undefined> {
    const hit = this.cache.get(embedId)
    if (hit !== undefined) return hit.embed ?? undefined
    const row = await this.store.db.selectFrom('embeds').selectAll().where('embed_id', '=', embedId).executeTakeFirst()
    const embed = row ? toEmbed(row) : null
    this.cache.set(embedId, { embed })
    return embed ?? undefined
  }

  /**
   * The ids a guest token of this data app may name (guest-token mint, hot path: from memory).
   * `fresh`: read the store, for a miss that another instance's change could explain.
   */
  async ids(dataAppId: string, fresh = false): Promise<DataAppIds> {
    const hit = fresh ? undefined : this.catalogs.get(dataAppId)
    if (hit) return hit
    const rows = await catalogRows(this.store.db, dataAppId)
    const metricIds = new Set<string>()
    for (const rowId of new Set(rows.map((r) => r.dashboard_row_id))) {
      for (const m of (await this.dashboards.get(rowId))?.document.metrics ?? []) metricIds.add(m.metricId)
    }
    const ids: DataAppIds = {
      embedIds: new Set(rows.map((r) => r.embed_id)),
      dashboardIds: new Set(rows.map((r) => r.dashboard_id)),
      metricIds,
    }
    this.catalogs.set(dataAppId, ids)
    return ids
  }

  /** An embed of this data app by embed id or by its dashboard's external id. */
  async resolve(dataAppId: string, idOrDashboardId: string): Promise<Embed | undefined> {
    const embed = await this.get(idOrDashboardId)
    if (embed?.dataAppId === dataAppId) return embed
    const other = await firstDashboardEmbedId(this.store.db, dataAppId, idOrDashboardId)
    return other === undefined ? undefined : this.get(other)
  }

  /** The embed when it is this data app's (ownership.ts): `missing` when unknown, `elsewhere` when another data app's. */
  private async owned(
    app: DataApp,
    embedId: string,
    missing: () => ApiError,
    elsewhere?: () => ApiError,
  ): Promise<Embed> {
    return ownedEmbed(app, await this.get(embedId), missing, elsewhere)
  }

  /** A workspace of the data app's organization by name; unknown is INVALID_WORKSPACE_NAME. */
  private async workspace(app: DataApp, name: string): Promise<Workspace> {
    const workspace = await this.workspaces.byName(app.organizationId, name)
    if (!workspace) throw new ApiError('INVALID_WORKSPACE_NAME', 404, `No workspace named ${name}`)
    return workspace
  }

  /** The settings, once the datamart they name (if any) is one of the organization's: else INVALID_DATAMART. */
  private async withDatamart(app: DataApp, settings: AccessSettingsInput): Promise<AccessSettingsInput> {
    if (
      settings.datamartName !== undefined &&
      !(await this.datamarts.byName(app.organizationId, settings.datamartName))
    ) {
      throw new ApiError('INVALID_DATAMART', 404, `No datamart named ${settings.datamartName}`)
    }
    return settings
  }

  private async insert(app: DataApp, input: NewEmbed): Promise<Embed> {
    const row = newEmbedRow(app.dataAppId, input)
    await this.store.db.insertInto('embeds').values(row).execute()
    this.cache.delete(row.embed_id)
    this.catalogs.delete(app.dataAppId)
    return toEmbed(row)
  }
}
