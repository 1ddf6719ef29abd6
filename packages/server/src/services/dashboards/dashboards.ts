import { randomBytes } from 'node:crypto'
import { ApiError, badRequest } from '../../errors.js'
import type { DashboardDocument } from '../../query/document.js'
import { rewriteSchemas } from '../../query/document.js'
import { newId } from '../../security/secrets.js'
import { paged } from '../../store/paging.js'
import type { DashboardRow } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'
import type { Workspace, Workspaces } from '../workspaces/workspaces.js'
import { readDocument } from './hosted-document.js'

export interface Dashboard {
  readonly id: string
  readonly organizationId: string
  readonly workspaceId: string
  readonly dashboardId: string
  readonly name: string
  readonly document: DashboardDocument
  /** 'api': imported or created through the API (deletable with its last embed) */
  readonly origin: 'api' | 'internal'
  readonly createdByClient: string | null
  readonly updatedAt: string
}

export interface ImportInput {
  readonly workspaceName: string
  readonly importDashboardData: unknown
  readonly dashboardId?: string
  readonly dashboardName?: string
  readonly schemaPairs?: readonly { replaceSchema: string; targetSchema: string }[]
  /** Set by the empty-dashboard embed: the dashboard counts as created by this client. */
  readonly createdByClient?: string
  /** Set by the empty-dashboard embed: the caller's metadata of the dashboard (the embeds list shows it). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined
}

/** What a saved document left out of the hosted service's export (services/dashboards/hosted-document.ts). */
export interface Warned {
  readonly warnings: readonly string[]
}

/** Checks a document against the workspace's model (the query engine supplies it). */
export type DocumentValidator = (document: unknown, workspace: Workspace) => Promise<DashboardDocument>

/** One metric's dry run against the warehouse: `error` is why it failed. */
export interface MetricCheck {
  readonly metricId: string
  readonly valid: boolean
  readonly error?: string
}

/** Compiles every metric of a checked document and runs it with no rows returned (the query engine supplies it). */
export type MetricProber = (document: DashboardDocument, workspace: Workspace) => Promise<readonly MetricCheck[]>

export interface UpdateInput extends ImportInput {
  readonly dashboardId: string
}

/** An end user's metric that a new version of the document made invalid (self-serve/revalidate.ts). */
export interface DroppedEndUserMetric {
  readonly metricId: string
  readonly clientId: string
  readonly reason: string
}

/** Re-checks end users' metrics of a replaced dashboard, drops the invalid ones and names them (self-serve supplies it). */
export type EndUserRevalidator = (
  dashboardRowId: string,
  document: DashboardDocument,
  workspace: Workspace,
) => Promise<readonly DroppedEndUserMetric[]>

/**
 * Dashboards as code: import validates the whole document against the workspace's model
 * and writes it in one statement; export gives the same document back.
 */
export class Dashboards {
  private readonly cache = peerCache<Dashboard>()

  constructor(
    private readonly store: Store,
    private readonly workspaces: Workspaces,
    private readonly bus: InvalidationBus,
    private readonly validate: DocumentValidator,
    private readonly probe: MetricProber,
    private readonly revalidate: EndUserRevalidator = async () => [],
  ) {
    bus.on((event) => {
      if (event.kind === 'dashboard') this.cache.delete(event.dashboardRowId)
    })
  }

  async import(organizationId: string, input: ImportInput): Promise<Dashboard & Warned> {
    const dashboardId = input.dashboardId ?? `dash_${randomBytes(8).toString('hex')}`
    const { workspace, document, warnings } = await this.checked(organizationId, { ...input, dashboardId })
    const name = input.dashboardName ?? document.name
    const at = now()
    const row: DashboardRow = {
      id: newId(),
      organization_id: organizationId,
      workspace_id: workspace.id,
      dashboard_id: dashboardId,
      name,
      document: JSON.stringify({ ...document, name }),
      origin: 'api',
      created_by_client: input.createdByClient ?? null,
      metadata: input.metadata === undefined ? null : JSON.stringify(input.metadata),
      created_at: at,
      updated_at: at,
    }
    try {
      await this.store.db.insertInto('dashboards').values(row).execute()
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw badRequest(`A dashboard with id ${dashboardId} already exists in workspace ${workspace.name}`)
      }
      throw err
    }
    // Results cached before the import may be stale for its metrics: drop them everywhere.
    await this.bus.publish({ kind: 'dashboard', dashboardRowId: row.id })
    return { ...toDashboard(row), warnings }
  }

  /**
   * Replaces a dashboard's document in place (docs/api.md#dashboards-as-code): same row, so its embeds and
   * guest tokens keep working; checked and dry-run like an import; cached results dropped everywhere.
   */
  async update(
    organizationId: string,
    input: UpdateInput,
  ): Promise<Dashboard & Warned & { droppedEndUserMetrics: readonly DroppedEndUserMetric[] }> {
    const workspace = await this.workspaceNamed(organizationId, input.workspaceName)
    const existing = await this.byExternalId(workspace.id, input.dashboardId)
    if (!existing) throw badRequest(`dashboardId: no dashboard ${input.dashboardId} in workspace ${workspace.name}`)
    const { document, warnings } = await this.checked(organizationId, input)
    const name = input.dashboardName ?? document.name
    const updated_at = now()
    const json = JSON.stringify({ ...document, name })
    await this.store.db
      .updateTable('dashboards')
      .set({ name, document: json, updated_at })
      .where('id', '=', existing.id)
      .execute()
    await this.bus.publish({ kind: 'dashboard', dashboardRowId: existing.id })
    const saved = JSON.parse(json) as DashboardDocument
    // end users' metrics that name what is gone are dropped, and reported
    const droppedEndUserMetrics = await this.revalidate(existing.id, saved, workspace)
    return { ...existing, name, document: saved, updatedAt: updated_at, droppedEndUserMetrics, warnings }
  }

  /** Checks an import body (model, then every metric against the warehouse) and saves nothing. */
  async check(
    organizationId: string,
    input: ImportInput,
  ): Promise<{ valid: boolean; metrics: readonly MetricCheck[] } & Warned> {
    const { workspace, document, warnings } = await this.parsed(organizationId, input)
    const metrics = await this.probe(document, workspace)
    return { valid: metrics.every((m) => m.valid), metrics, warnings }
  }

  /** Deletes a dashboard no embed uses; refused (naming them) while embeds do. */
  async remove(organizationId: string, workspaceName: string, dashboardId: string): Promise<{ id: string }> {
    const workspace = await this.workspaceNamed(organizationId, workspaceName)
    const dashboard = await this.byExternalId(workspace.id, dashboardId)
    if (!dashboard) throw badRequest(`dashboardId: no dashboard ${dashboardId} in workspace ${workspace.name}`)
    const embeds = await this.store.db
      .selectFrom('embeds')
      .select('embed_id')
      .where('dashboard_row_id', '=', dashboard.id)
      .orderBy('embed_id')
      .execute()
    if (embeds.length > 0) {
      throw badRequest(
        `dashboardId: dashboard ${dashboardId} is used by embed${embeds.length === 1 ? '' : 's'} ${embeds.map((e) => e.embed_id).join(', ')}; delete ${embeds.length === 1 ? 'it' : 'them'} first`,
      )
    }
    await this.delete(dashboard.id)
    return { id: dashboardId }
  }

  /** The workspace and the document checked against its model and (dry run) its warehouse. */
  private async checked(
    organizationId: string,
    input: ImportInput,
  ): Promise<{ workspace: Workspace; document: DashboardDocument } & Warned> {
    const parsed = await this.parsed(organizationId, input)
    const failed = (await this.probe(parsed.document, parsed.workspace)).filter((m) => !m.valid)
    if (failed.length > 0) {
      const at = (metricId: string) => parsed.document.metrics.findIndex((m) => m.metricId === metricId)
      throw badRequest(
        failed
          .map((m) => `importDashboardData.metrics[${at(m.metricId)}] (metric ${m.metricId}): ${m.error ?? 'failed'}`)
          .join('; '),
      )
    }
    return parsed
  }

  /**
   * The workspace and the document checked against its model (no warehouse); a document the
   * hosted service exported is read into ours first, what it left out named in `warnings`.
   */
  private async parsed(
    organizationId: string,
    input: ImportInput,
  ): Promise<{ workspace: Workspace; document: DashboardDocument } & Warned> {
    const workspace = await this.workspaceNamed(organizationId, input.workspaceName)
    if (input.importDashboardData === null || typeof input.importDashboardData !== 'object') {
      throw badRequest('importDashboardData must be an object (the data of an export)')
    }
    const rewritten = input.schemaPairs?.length
      ? rewriteSchemas(input.importDashboardData as DashboardDocument, input.schemaPairs)
      : input.importDashboardData
    const fallbackName = input.dashboardName ?? input.dashboardId ?? 'Imported dashboard'
    const { document, warnings } = readDocument(rewritten, fallbackName)
    return { workspace, document: await this.validate(document, workspace), warnings }
  }

  private async workspaceNamed(organizationId: string, name: string): Promise<Workspace> {
    const workspace = await this.workspaces.byName(organizationId, name)
    if (!workspace) throw new ApiError('WORKSPACE_ID_ERROR', 400, `No workspace named ${name}`)
    return workspace
  }

  /** The document as export writes it. */
  async export(
    organizationId: string,
    workspaceName: string,
    dashboardId: string,
  ): Promise<{ _meta: { exportedAt: string; workspaceName: string; dashboardId: string }; data: DashboardDocument }> {
    const workspace = await this.workspaces.byName(organizationId, workspaceName)
    if (!workspace) throw new ApiError('WORKSPACE_ID_ERROR', 400, `No workspace named ${workspaceName}`)
    const dashboard = await this.byExternalId(workspace.id, dashboardId)
    if (!dashboard) throw badRequest(`dashboardId: no dashboard ${dashboardId} in workspace ${workspaceName}`)
    return { _meta: { exportedAt: now(), workspaceName, dashboardId }, data: dashboard.document }
  }

  /** A workspace's dashboards, oldest first, a page of them when `page` is given; an unknown workspace is WORKSPACE_ID_ERROR. */
  async listInWorkspace(
    organizationId: string,
    workspaceName: string,
    page?: number,
  ): Promise<{ name: string; externalDashboardId: string }[]> {
    const workspace = await this.workspaceNamed(organizationId, workspaceName)
    const query = this.store.db
      .selectFrom('dashboards')
      .select(['name', 'dashboard_id'])
      .where('workspace_id', '=', workspace.id)
      .orderBy('created_at')
      .orderBy('dashboard_id')
    const rows = await paged(query, page).execute()
    return rows.map((r) => ({ name: r.name, externalDashboardId: r.dashboard_id }))
  }

  async byExternalId(workspaceId: string, dashboardId: string): Promise<Dashboard | undefined> {
    const row = await this.store.db
      .selectFrom('dashboards')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('dashboard_id', '=', dashboardId)
      .executeTakeFirst()
    return row && this.remember(row)
  }

  /** By row id; served from memory, invalidated on change (also from other instances). */
  async get(id: string): Promise<Dashboard | undefined> {
    const hit = this.cache.get(id)
    if (hit) return hit
    const row = await this.store.db.selectFrom('dashboards').selectAll().where('id', '=', id).executeTakeFirst()
    return row && this.remember(row)
  }

  async rename(id: string, name: string): Promise<void> {
    const dashboard = await this.get(id)
    if (!dashboard) return
    await this.store.db
      .updateTable('dashboards')
      .set({ name, document: JSON.stringify({ ...dashboard.document, name }), updated_at: now() })
      .where('id', '=', id)
      .execute()
    await this.bus.publish({ kind: 'dashboard', dashboardRowId: id })
  }

  async delete(id: string): Promise<void> {
    await this.store.db.deleteFrom('dashboards').where('id', '=', id).execute()
    await this.bus.publish({ kind: 'dashboard', dashboardRowId: id })
  }

  private remember(row: DashboardRow): Dashboard {
    const dashboard = toDashboard(row)
    this.cache.set(row.id, dashboard)
    return dashboard
  }
}

function toDashboard(row: DashboardRow): Dashboard {
  return {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    dashboardId: row.dashboard_id,
    name: row.name,
    document: JSON.parse(row.document) as DashboardDocument,
    origin: row.origin === 'internal' ? 'internal' : 'api',
    createdByClient: row.created_by_client,
    updatedAt: row.updated_at,
  }
}
