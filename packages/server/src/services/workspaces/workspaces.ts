import type { Static } from '@fastify/type-provider-typebox'
import { ApiError, badRequest } from '../../errors.js'
import type { WorkspaceBody } from '../../schemas/workspaces.js'
import { newId } from '../../security/secrets.js'
import type { WorkspaceRow } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { Datamarts } from '../datamarts/datamarts.js'
import type { Datasources } from '../datasources/datasources.js'
import type { InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'

export type WorkspaceInput = Static<typeof WorkspaceBody>
export type ConnectionType = WorkspaceInput['connectionType']

export interface Workspace {
  readonly id: string
  readonly organizationId: string
  readonly name: string
  readonly connectionType: ConnectionType
  readonly datasourceId: string | null
  readonly datamartId: string | null
  /** The AI pilot's settings (docs/api.md#workspaces), as stored with the workspace. */
  readonly ai: WorkspaceAi
}

/** A workspace's AI pilot settings: which provider, and which features are on. */
export interface WorkspaceAi {
  readonly llmName: string | undefined
  readonly aiCopilotLlms: readonly string[]
  readonly isEnableMetricSuggestions: boolean
  readonly isEnableMetricSummary: boolean
  readonly summaryType: string | undefined
  readonly customSummaryPrompt: string | undefined
}

/** Workspaces: where dashboards live, bound to a datasource, a datamart, or several. */
export class Workspaces {
  private readonly byId = peerCache<Workspace>()

  constructor(
    private readonly store: Store,
    private readonly datasources: Datasources,
    private readonly datamarts: Datamarts,
    private readonly bus: InvalidationBus,
  ) {
    bus.on((event) => {
      if (event.kind === 'workspace') this.byId.delete(event.workspaceId)
    })
  }

  async create(organizationId: string, input: WorkspaceInput): Promise<{ name: string }> {
    const binding = await this.binding(organizationId, input)
    const at = now()
    try {
      await this.store.db
        .insertInto('workspaces')
        .values({
          id: newId(),
          organization_id: organizationId,
          name: input.name,
          connection_type: input.connectionType,
          ...binding,
          settings: JSON.stringify(settingsOf(input)),
          created_at: at,
          updated_at: at,
        })
        .execute()
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(`name: a workspace named ${input.name} already exists`)
      throw err
    }
    return { name: input.name }
  }

  async update(organizationId: string, input: WorkspaceInput): Promise<{ name: string }> {
    const row = await this.byName(organizationId, input.name)
    if (!row) throw new ApiError('WORKSPACE_DOES_NOT_EXIST', 400, `No workspace named ${input.name}`)
    const binding = await this.binding(organizationId, input)
    await this.store.db
      .updateTable('workspaces')
      .set({
        connection_type: input.connectionType,
        ...binding,
        settings: JSON.stringify(settingsOf(input)),
        updated_at: now(),
      })
      .where('id', '=', row.id)
      .execute()
    await this.bus.publish({ kind: 'workspace', workspaceId: row.id })
    return { name: input.name }
  }

  /** Every workspace of the organization with its datasource's and datamart's names, oldest first. */
  async list(organizationId: string): Promise<
    {
      name: string
      connectionType: ConnectionType
      datasourceName: string | null
      datamartName: string | null
      createdAt: string
    }[]
  > {
    const rows = await this.store.db
      .selectFrom('workspaces')
      .leftJoin('datasources', 'datasources.id', 'workspaces.datasource_id')
      .leftJoin('datamarts', 'datamarts.id', 'workspaces.datamart_id')
      .select([
        'workspaces.name',
        'workspaces.connection_type',
        'workspaces.created_at',
        'datasources.name as datasource_name',
        'datamarts.name as datamart_name',
      ])
      .where('workspaces.organization_id', '=', organizationId)
      .orderBy('workspaces.created_at')
      .orderBy('workspaces.name')
      .execute()
    return rows.map((r) => ({
      name: r.name,
      connectionType: r.connection_type as ConnectionType,
      datasourceName: r.datasource_name ?? null,
      datamartName: r.datamart_name ?? null,
      createdAt: r.created_at,
    }))
  }

  /** Deletes a workspace with no dashboard; refused (400, naming them) while dashboards live in it. */
  async delete(organizationId: string, name: string): Promise<{ id: string }> {
    const workspace = await this.byName(organizationId, name)
    if (!workspace) throw new ApiError('WORKSPACE_DOES_NOT_EXIST', 400, `No workspace named ${name}`)
    const dashboards = await this.store.db
      .selectFrom('dashboards')
      .select('dashboard_id')
      .where('workspace_id', '=', workspace.id)
      .orderBy('dashboard_id')
      .execute()
    if (dashboards.length > 0) {
      const ids = dashboards.map((d) => d.dashboard_id)
      throw badRequest(
        `name: workspace ${name} holds dashboard${ids.length === 1 ? '' : 's'} ${ids.join(', ')}; delete ${ids.length === 1 ? 'it' : 'them'} first`,
      )
    }
    await this.store.db.deleteFrom('workspaces').where('id', '=', workspace.id).execute()
    await this.bus.publish({ kind: 'workspace', workspaceId: workspace.id })
    return { id: name }
  }

  async byName(organizationId: string, name: string): Promise<Workspace | undefined> {
    const row = await this.store.db
      .selectFrom('workspaces')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()
    return row && toWorkspace(row)
  }

  /** By id; from memory after the first read (hot path of every metric query), forgotten on change. */
  async get(id: string): Promise<Workspace> {
    const hit = this.byId.get(id)
    if (hit) return hit
    const workspace = toWorkspace(
      await this.store.db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    )
    if (this.byId.size >= 10_000) this.byId.clear()
    this.byId.set(id, workspace)
    return workspace
  }

  private async binding(
    organizationId: string,
    input: WorkspaceInput,
  ): Promise<{ datasource_id: string | null; datamart_id: string | null }> {
    switch (input.connectionType) {
      case 'DATASOURCE': {
        if (!input.datasourceName) {
          throw new ApiError(
            'INVALID_DATASOURCE_NAME',
            400,
            'datasourceName is required when connectionType is DATASOURCE',
          )
        }
        const datasource = await this.datasources.byName(organizationId, input.datasourceName)
        if (!datasource)
          throw new ApiError('INVALID_DATASOURCE_NAME', 400, `No datasource named ${input.datasourceName}`)
        return { datasource_id: datasource.id, datamart_id: null }
      }
      case 'DATAMART': {
        if (!input.datamartName) {
          throw new ApiError('INVALID_DATAMART_NAME', 400, 'datamartName is required when connectionType is DATAMART')
        }
        const datamart = await this.datamarts.byName(organizationId, input.datamartName)
        if (!datamart) throw new ApiError('INVALID_DATAMART_NAME', 400, `No datamart named ${input.datamartName}`)
        return { datasource_id: datamart.datasourceId, datamart_id: datamart.id }
      }
      default:
        return { datasource_id: null, datamart_id: null }
    }
  }
}

function settingsOf(input: WorkspaceInput): Record<string, unknown> {
  const { name: _n, connectionType: _c, datasourceName: _s, datamartName: _m, ...settings } = input
  return settings
}

function toWorkspace(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    organizationId: row.organization_id,
    name: row.name,
    connectionType: row.connection_type as ConnectionType,
    datasourceId: row.datasource_id,
    datamartId: row.datamart_id,
    ai: aiOf(row.settings),
  }
}

/** The AI settings of a stored settings JSON (written by settingsOf from a validated body). */
function aiOf(settings: string): WorkspaceAi {
  let s: Record<string, unknown> = {}
  try {
    const parsed: unknown = JSON.parse(settings)
    if (parsed && typeof parsed === 'object') s = parsed as Record<string, unknown>
  } catch {
    // an unreadable settings column reads as no AI settings
  }
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined)
  return {
    llmName: str(s.llmName),
    aiCopilotLlms: Array.isArray(s.aiCopilotLlms) ? s.aiCopilotLlms.filter((x) => typeof x === 'string') : [],
    isEnableMetricSuggestions: s.isEnableMetricSuggestions === true,
    isEnableMetricSummary: s.isEnableMetricSummary === true,
    summaryType: str(s.summaryType),
    customSummaryPrompt: str(s.customSummaryPrompt),
  }
}
