import { randomBytes } from 'node:crypto'
import type { Static } from '@fastify/type-provider-typebox'
import type { PrincipalOf } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import { check } from '../../schemas/check.js'
import { AccessSettings, type EmbedItem, REQUIRED_ON_CREATE } from '../../schemas/embeds.js'
import { newId } from '../../security/secrets.js'
import type { EmbedRow } from '../../store/schema.js'
import { now, type Store } from '../../store/store.js'
import { fieldsError, missingFields } from '../../validation/fields.js'
import type { Dashboard, Dashboards } from '../dashboards/dashboards.js'
import { newDashboardDocument } from '../dashboards/template.js'
import { PAGE_SIZE } from '../data-apps/data-apps.js'
import type { Datamarts } from '../datamarts/datamarts.js'
import type { InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'
import { removeEndUserState } from '../self-serve/end-user-state.js'
import type { EndUserMetricStore } from '../self-serve/metric-store.js'
import type { Workspaces } from '../workspaces/workspaces.js'
import { checkedMetadata, type DashboardEmbedInput } from './dashboard-embed-input.js'

export type AccessSettingsInput = Static<typeof AccessSettings>
type DataApp = PrincipalOf<'dataApp'>

export interface Embed {
  readonly id: string
  readonly dataAppId: string
  readonly embedId: string
  readonly embedType: 'dashboard' | 'metric'
  readonly name: string
  readonly dashboardRowId: string
  readonly metricId: string | null
  readonly accessSettings: AccessSettingsInput
  readonly createdAt: string
  readonly updatedAt: string
}

/** The ids a guest token of a data app may name: its embeds, their dashboards and those dashboards' metrics. */
export interface DataAppIds {
  readonly embedIds: ReadonlySet<string>
  readonly dashboardIds: ReadonlySet<string>
  readonly metricIds: ReadonlySet<string>
}

export interface CreateEmbedInput {
  readonly dashboardId: string
  readonly embedType: 'dashboard' | 'metric'
  readonly metricId?: string
  readonly workspaceName: string
  readonly name?: string
  readonly accessSettings?: Record<string, unknown>
}

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
    const workspace = await this.workspaces.byName(app.organizationId, input.workspaceName)
    if (!workspace) throw new ApiError('INVALID_WORKSPACE_NAME', 404, `No workspace named ${input.workspaceName}`)
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
    const accessSettings = await this.checkCreateSettings(app, input.embedType, input.accessSettings)
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
    const accessSettings = await this.checkCreateSettings(app, 'dashboard', input.accessSettings)
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

  async list(app: DataApp, options: { page?: number; clientId?: string }): Promise<Static<typeof EmbedItem>[]> {
    let query = this.store.db
      .selectFrom('embeds')
      .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
      .selectAll('embeds')
      .select([
        'dashboards.dashboard_id',
        'dashboards.name as dashboard_name',
        'dashboards.document',
        'dashboards.metadata as dashboard_metadata',
        'dashboards.created_at as dashboard_created_at',
        'dashboards.updated_at as dashboard_updated_at',
      ])
      .where('embeds.data_app_id', '=', app.dataAppId)
      .orderBy('embeds.created_at')
      .orderBy('embeds.embed_id')
    if (options.clientId !== undefined) {
      query = query
        .where('embeds.embed_type', '=', 'dashboard')
        .where('dashboards.created_by_client', '=', options.clientId)
    }
    if (options.page !== undefined) query = query.limit(PAGE_SIZE).offset((options.page - 1) * PAGE_SIZE)
    const rows = await query.execute()
    return rows.map((row) => {
      const metricName =
        row.metric_id === null
          ? undefined
          : ((JSON.parse(row.document) as Dashboard['document']).metrics.find((m) => m.metricId === row.metric_id)
              ?.name ?? row.metric_id)
      return {
        embedId: row.embed_id,
        embedType: row.embed_type as 'dashboard' | 'metric',
        name: row.name,
        externalDashboard:
          row.embed_type === 'dashboard'
            ? {
                externalDashboardId: row.dashboard_id,
                metadata: {
                  ...(row.dashboard_metadata === null ? {} : (JSON.parse(row.dashboard_metadata) as object)),
                  createdAt: row.dashboard_created_at,
                  updatedAt: row.dashboard_updated_at,
                },
                name: row.dashboard_name,
              }
            : null,
        externalMetric: row.metric_id === null ? null : { metricId: row.metric_id, name: metricName ?? row.metric_id },
        embedMetadata: {
          embedId: row.embed_id,
          name: row.name,
          embedType: row.embed_type,
          dataAppName: app.dataAppName,
          metricId: row.metric_id,
          // as the hosted service answers: one of the two ids, by the embed's type
          dashboardId: row.embed_type === 'dashboard' ? row.dashboard_id : null,
          embedDescription: row.description,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
        },
      }
    })
  }

  /** The dashboards this data app embeds: one item per dashboard embed. */
  async listDashboards(
    app: DataApp,
    options: { page?: number; names?: readonly string[] },
  ): Promise<{ name: string; externalDashboardId: string; embedId: string }[]> {
    let query = this.store.db
      .selectFrom('embeds')
      .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
      .select(['dashboards.name', 'dashboards.dashboard_id', 'embeds.embed_id'])
      .where('embeds.data_app_id', '=', app.dataAppId)
      .where('embeds.embed_type', '=', 'dashboard')
      .orderBy('embeds.created_at')
      .orderBy('embeds.embed_id')
    if (options.names?.length) query = query.where('dashboards.name', 'in', [...options.names])
    if (options.page !== undefined) query = query.limit(PAGE_SIZE).offset((options.page - 1) * PAGE_SIZE)
    const rows = await query.execute()
    return rows.map((r) => ({ name: r.name, externalDashboardId: r.dashboard_id, embedId: r.embed_id }))
  }

  /**
   * The metrics of an embed that a client may see (docs/api.md#metrics-list-and-end-users-metrics): shared
   * metrics for every client, client-created ones only for their client (the document's, and
   * those its end users made: self-serve, private ones only for their user), and with
   * `userIdentifier` only that user's metrics (system metrics excluded). A company metric this
   * client hid is left out; its own version of one is listed under its name.
   */
  async listMetrics(
    app: DataApp,
    embedId: string,
    clientId: string,
    options: { page?: number; userIdentifier?: string },
  ): Promise<{ name: string; metricId: string; isPublished: boolean; createdByUser: string | null }[]> {
    const embed = await this.owned(
      app,
      embedId,
      () => new ApiError('EMBED_PARAM_ERROR', 400, `Embed ${embedId} is unknown for data app ${app.dataAppName}`),
    )
    const dashboard = await this.dashboards.get(embed.dashboardRowId)
    const inEmbed = (metricId: string) => embed.metricId === null || metricId === embed.metricId
    const tenant = await this.endUserMetrics.forTenant(
      { dashboardRowId: embed.dashboardRowId, dataAppId: app.dataAppId, clientId },
      options.userIdentifier,
    )
    const hidden = new Set(tenant.states.filter((s) => s.hidden).map((s) => s.metricId))
    const versions = new Map(tenant.metrics.filter((m) => m.basedOnCompany).map((m) => [m.metricId, m.definition.name]))
    const companyIds = new Set((dashboard?.document.metrics ?? []).map((m) => m.metricId))
    const company = (dashboard?.document.metrics ?? [])
      .filter((m) => inEmbed(m.metricId) && !hidden.has(m.metricId))
      .filter((m) => m.createdByClient === undefined || m.createdByClient === clientId)
      .filter((m) => options.userIdentifier === undefined || m.createdByUser === options.userIdentifier)
      .map((m) => ({
        name: versions.get(m.metricId) ?? m.name,
        metricId: m.metricId,
        isPublished: m.createdByUser === undefined ? true : (m.isPublished ?? true),
        createdByUser: m.createdByUser ?? null,
      }))
    const endUsers = tenant.metrics
      .filter((m) => !m.basedOnCompany && !companyIds.has(m.metricId) && inEmbed(m.metricId))
      .filter((m) => options.userIdentifier === undefined || m.userIdentifier === options.userIdentifier)
      .map((m) => ({
        name: m.definition.name,
        metricId: m.metricId,
        isPublished: m.isPublished,
        createdByUser: m.userIdentifier === '' ? null : m.userIdentifier,
      }))
    const visible = [...company, ...endUsers]
    if (options.page === undefined) return visible
    return visible.slice((options.page - 1) * PAGE_SIZE, options.page * PAGE_SIZE)
  }

  /** Partial accessSettings; takes effect at once for live guest tokens (caches dropped). */
  async update(app: DataApp, embedId: string, settings: object, workspaceName?: string): Promise<string> {
    if (workspaceName !== undefined && !(await this.workspaces.byName(app.organizationId, workspaceName))) {
      throw new ApiError('INVALID_WORKSPACE_NAME', 404, `No workspace named ${workspaceName}`)
    }
    // Another data app's embed exists but is not this key's to change: INSUFFICIENT_PERMISSIONS.
    const embed = await this.owned(app, embedId, async () =>
      (await this.get(embedId))
        ? new ApiError('INSUFFICIENT_PERMISSIONS', 403, `Embed ${embedId} belongs to another data app`)
        : new ApiError('EMBED_NOT_FOUND', 404, `No embed ${embedId}`),
    )
    const patch = check(
      AccessSettings,
      settings,
      'accessSettings',
      (message, details) => new ApiError('INVALID_ACCESS_SETTINGS', 400, message, details),
    )
    const merged = { ...embed.accessSettings, ...patch }
    if (patch.joinModel !== undefined && patch.isIncrementalJoin !== undefined) {
      if ((patch.joinModel === 'multi') !== patch.isIncrementalJoin) {
        throw new ApiError(
          'CONFLICTING_UPDATE',
          409,
          'joinModel and the legacy isIncrementalJoin disagree; send joinModel only',
        )
      }
    }
    if (patch.datamartName !== undefined && !(await this.datamarts.byName(app.organizationId, patch.datamartName))) {
      throw new ApiError('INVALID_DATAMART', 404, `No datamart named ${patch.datamartName}`)
    }
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
    const dashboard = await this.dashboards.get(embed.dashboardRowId)
    if (deleteDashboard && dashboard) {
      if (dashboard.origin !== 'api') {
        throw badRequest(`Dashboard ${dashboard.dashboardId} is internal and cannot be deleted`)
      }
      const users = await this.store.db
        .selectFrom('embeds')
        .select('embed_id')
        .where('dashboard_row_id', '=', dashboard.id)
        .execute()
      if (users.length > 1) {
        throw badRequest(`Dashboard ${dashboard.dashboardId} is referenced by multiple embeds and cannot be deleted`)
      }
      if (dashboard.organizationId !== app.organizationId) throw badRequest(`Embed ${embedId} not found`)
    }
    await this.store.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('embeds').where('id', '=', embed.id).execute()
      if (deleteDashboard && dashboard) await tx.deleteFrom('dashboards').where('id', '=', dashboard.id).execute()
      // the data app's last embed of this dashboard: what its end users saved on it goes too
      const another = await tx
        .selectFrom('embeds')
        .select('id')
        .where('dashboard_row_id', '=', embed.dashboardRowId)
        .where('data_app_id', '=', embed.dataAppId)
        .limit(1)
        .executeTakeFirst()
      if (!another) await removeEndUserState(tx, embed.dashboardRowId, embed.dataAppId)
    })
    await this.bus.publish({ kind: 'embed', embedId })
    await this.bus.publish({ kind: 'tenant-state', dashboardRowId: embed.dashboardRowId, dataAppId: embed.dataAppId })
    if (deleteDashboard && dashboard) await this.bus.publish({ kind: 'dashboard', dashboardRowId: dashboard.id })
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
    const embed = await this.owned(app, embedId, async () =>
      (await this.get(embedId))
        ? new ApiError('EMBED_PARAM_ERROR', 400, `Embed ${embedId} does not belong to data app ${app.dataAppName}`)
        : new ApiError('INVALID_EMBED_ID', 400, `No embed ${embedId}`),
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
    const rows = await this.store.db
      .selectFrom('embeds')
      .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
      .select(['embeds.embed_id', 'embeds.dashboard_row_id', 'dashboards.dashboard_id'])
      .where('embeds.data_app_id', '=', dataAppId)
      .execute()
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
    const row = await this.store.db
      .selectFrom('embeds')
      .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
      .select('embeds.embed_id')
      .where('embeds.data_app_id', '=', dataAppId)
      .where('dashboards.dashboard_id', '=', idOrDashboardId)
      .where('embeds.embed_type', '=', 'dashboard')
      .orderBy('embeds.created_at')
      .executeTakeFirst()
    return row ? this.get(row.embed_id) : undefined
  }

  private async owned(app: DataApp, embedId: string, notFound: () => ApiError | Promise<ApiError>): Promise<Embed> {
    const embed = await this.get(embedId)
    if (!embed || embed.dataAppId !== app.dataAppId) throw await notFound()
    return embed
  }

  private async checkCreateSettings(
    app: DataApp,
    embedType: 'dashboard' | 'metric',
    settings: Record<string, unknown> | undefined,
  ): Promise<AccessSettingsInput> {
    if (settings === undefined) {
      if (embedType === 'dashboard') throw badRequest('accessSettings is required for dashboard embeds')
      return {}
    }
    const parsed = check(AccessSettings, settings, 'accessSettings')
    const required = embedType === 'dashboard' ? ['datamartName', ...REQUIRED_ON_CREATE] : REQUIRED_ON_CREATE
    const missing = required.filter((field) => parsed[field as keyof AccessSettingsInput] === undefined)
    if (missing.length > 0) throw fieldsError(missingFields('accessSettings', missing))
    if (parsed.datamartName !== undefined && !(await this.datamarts.byName(app.organizationId, parsed.datamartName))) {
      throw new ApiError('INVALID_DATAMART', 404, `No datamart named ${parsed.datamartName}`)
    }
    return withJoinModel(parsed)
  }

  private async insert(
    app: DataApp,
    input: Pick<Embed, 'embedType' | 'dashboardRowId' | 'metricId' | 'accessSettings'> & {
      name?: string | undefined
      description?: string | null
    },
  ): Promise<Embed> {
    const at = now()
    const embedId = `emb_${randomBytes(8).toString('hex')}`
    const row: EmbedRow = {
      id: newId(),
      data_app_id: app.dataAppId,
      embed_id: embedId,
      embed_type: input.embedType,
      name: input.name ?? embedId,
      dashboard_row_id: input.dashboardRowId,
      metric_id: input.metricId,
      access_settings: JSON.stringify(input.accessSettings),
      description: input.description ?? null,
      created_at: at,
      updated_at: at,
    }
    await this.store.db.insertInto('embeds').values(row).execute()
    this.cache.delete(embedId)
    this.catalogs.delete(app.dataAppId)
    return toEmbed(row)
  }
}

/** joinModel is preferred; the legacy isIncrementalJoin maps onto it (true = multi). */
function withJoinModel(settings: AccessSettingsInput): AccessSettingsInput {
  if (settings.joinModel !== undefined || settings.isIncrementalJoin === undefined) return settings
  return { ...settings, joinModel: settings.isIncrementalJoin ? 'multi' : 'single' }
}

function toEmbed(row: EmbedRow): Embed {
  return {
    id: row.id,
    dataAppId: row.data_app_id,
    embedId: row.embed_id,
    embedType: row.embed_type as 'dashboard' | 'metric',
    name: row.name,
    dashboardRowId: row.dashboard_row_id,
    metricId: row.metric_id,
    accessSettings: JSON.parse(row.access_settings) as AccessSettingsInput,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
