import { randomBytes } from 'node:crypto'
import { ApiError, badRequest } from '../../errors.js'
import type { DashboardDocument } from '../../query/document.js'
import { rewriteSchemas } from '../../query/document.js'
import { newId } from '../../security/secrets.js'
import type { DashboardRow } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'
import type { Workspace, Workspaces } from '../workspaces/workspaces.js'

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
}

/** Checks a document against the workspace's model (the query engine supplies it). */
export type DocumentValidator = (document: unknown, workspace: Workspace) => Promise<DashboardDocument>

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
  ) {
    bus.on((event) => {
      if (event.kind === 'dashboard') this.cache.delete(event.dashboardRowId)
    })
  }

  async import(organizationId: string, input: ImportInput): Promise<Dashboard> {
    const workspace = await this.workspaces.byName(organizationId, input.workspaceName)
    if (!workspace) throw new ApiError('WORKSPACE_ID_ERROR', 400, `No workspace named ${input.workspaceName}`)
    if (input.importDashboardData === null || typeof input.importDashboardData !== 'object') {
      throw badRequest('importDashboardData must be an object (the data of an export)')
    }
    const rewritten = input.schemaPairs?.length
      ? rewriteSchemas(input.importDashboardData as DashboardDocument, input.schemaPairs)
      : input.importDashboardData
    const document = await this.validate(rewritten, workspace)
    const dashboardId = input.dashboardId ?? `dash_${randomBytes(8).toString('hex')}`
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
    return toDashboard(row)
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
