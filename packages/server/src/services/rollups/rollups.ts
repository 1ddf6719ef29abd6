import type { DashboardDocument } from '@strata/contract/document'
import type { EngineHost } from '../../connectors/engine-host/supervisor.js'
import { dialectOf } from '../../connectors/registry.js'
import { ApiError, badRequest } from '../../errors.js'
import { getDialect } from '../../query/dialects/registry.js'
import type { RollupStatus } from '../../schemas/rollups.js'
import type { RollupRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Datasources } from '../datasources/datasources.js'
import type { InvalidationBus } from '../events/bus.js'
import type { Sources } from '../query/sources.js'
import type { Workspaces } from '../workspaces/workspaces.js'
import { type BuildLimits, buildRollup, type RollupPartition } from './builder.js'
import type { RollupPlan } from './definition.js'
import { plansOf } from './plans.js'
import type { RollupStorage } from './storage.js'

export interface RollupOptions extends BuildLimits {
  /** Rollups the store holds at most (ROLLUP_MAX_COUNT): more are listed as failed, never built. */
  readonly maxRollups: number
}

/** A time no rollup is due before: a rollup over the limit or that cannot be planned waits for a change. */
const NEVER = '9999-12-31T00:00:00.000Z'

/**
 * Rollups: keeps one state row per rollup the dashboards declare (`sync`), answers the routes
 * (`list`, `refresh`), and builds one rollup when the scheduler (scheduler.ts) holds its lease
 * (`build`). A build never runs inside a request: `refresh` only makes the rollup due now.
 */
export class Rollups {
  constructor(
    private readonly store: Store,
    private readonly workspaces: Workspaces,
    private readonly sources: Sources,
    private readonly datasources: Datasources,
    private readonly engine: EngineHost,
    readonly storage: RollupStorage,
    private readonly options: RollupOptions,
    /** Told when a build starts and ends: metric queries stop or start using the rollup. */
    private readonly bus?: InvalidationBus,
  ) {}

  /**
   * Reconciles the state rows with the documents (of one organization, or all): a new rollup
   * gets a row due now; a changed definition (fingerprint) is due now and `stale` until rebuilt;
   * a rollup no longer declared loses its row and its files.
   */
  async sync(organizationId?: string, at: Date = new Date()): Promise<void> {
    let query = this.store.db
      .selectFrom('dashboards')
      .select(['id', 'organization_id', 'workspace_id', 'document'])
      .where('document', 'like', '%"rollups":%')
    if (organizationId !== undefined) query = query.where('organization_id', '=', organizationId)
    const dashboards = await query.execute()
    const declared = new Map<string, Set<string>>()
    for (const d of dashboards) {
      const doc = JSON.parse(d.document) as DashboardDocument
      if (doc.rollups === undefined) continue
      const names = new Set<string>()
      declared.set(d.id, names)
      for (const p of await this.planned(d.workspace_id, doc)) {
        names.add(p.name)
        await this.upsert(d.id, d.organization_id, p, at)
      }
    }
    let rows = this.store.db.selectFrom('rollups').select(['dashboard_row_id', 'name', 'partitions'])
    if (organizationId !== undefined) rows = rows.where('organization_id', '=', organizationId)
    for (const r of await rows.execute()) {
      if (declared.get(r.dashboard_row_id)?.has(r.name)) continue
      await this.store.db
        .deleteFrom('rollups')
        .where('dashboard_row_id', '=', r.dashboard_row_id)
        .where('name', '=', r.name)
        .execute()
      for (const p of JSON.parse(r.partitions) as RollupPartition[]) await this.storage.remove(p.location)
    }
  }

  /** Every rollup of the organization's dashboards, with its state. */
  async list(organizationId: string, at: Date = new Date()): Promise<RollupStatus[]> {
    await this.sync(organizationId, at)
    const rows = await this.store.db
      .selectFrom('rollups')
      .innerJoin('dashboards', 'dashboards.id', 'rollups.dashboard_row_id')
      .innerJoin('workspaces', 'workspaces.id', 'dashboards.workspace_id')
      .selectAll('rollups')
      .select(['dashboards.dashboard_id as external_id', 'workspaces.name as workspace_name'])
      .where('rollups.organization_id', '=', organizationId)
      .orderBy('workspaces.name')
      .orderBy('dashboards.dashboard_id')
      .orderBy('rollups.name')
      .execute()
    return rows.map((r) => statusOf(r, r.workspace_name, r.external_id, at))
  }

  /**
   * Makes a dashboard's rollups (or the one named) due now and answers their state; the
   * scheduler builds them in the background. Unknown workspace, dashboard or rollup: 400.
   */
  async refresh(
    organizationId: string,
    input: { readonly workspaceName: string; readonly dashboardId: string; readonly rollup?: string | undefined },
    at: Date = new Date(),
  ): Promise<RollupStatus[]> {
    const workspace = await this.workspaces.byName(organizationId, input.workspaceName)
    if (!workspace) throw new ApiError('WORKSPACE_ID_ERROR', 400, `No workspace named ${input.workspaceName}`)
    const dashboard = await this.store.db
      .selectFrom('dashboards')
      .select(['id'])
      .where('workspace_id', '=', workspace.id)
      .where('dashboard_id', '=', input.dashboardId)
      .executeTakeFirst()
    if (!dashboard) {
      throw new ApiError(
        'INVALID_DASHBOARD_ID',
        400,
        `dashboardId: no dashboard ${input.dashboardId} in workspace ${workspace.name}`,
      )
    }
    await this.sync(organizationId, at)
    const ours = () =>
      this.store.db.selectFrom('rollups').selectAll().where('dashboard_row_id', '=', dashboard.id).orderBy('name')
    const rows = await (input.rollup === undefined ? ours() : ours().where('name', '=', input.rollup)).execute()
    if (rows.length === 0) {
      throw badRequest(
        input.rollup === undefined
          ? `dashboardId: dashboard ${input.dashboardId} declares no rollups`
          : `rollup: dashboard ${input.dashboardId} has no rollup named "${input.rollup}"`,
      )
    }
    let update = this.store.db
      .updateTable('rollups')
      .set({ next_refresh_at: at.toISOString(), updated_at: at.toISOString() })
      .where('dashboard_row_id', '=', dashboard.id)
      .where('next_refresh_at', '<', NEVER)
    if (input.rollup !== undefined) update = update.where('name', '=', input.rollup)
    await update.execute()
    const fresh = await (input.rollup === undefined ? ours() : ours().where('name', '=', input.rollup)).execute()
    return fresh.map((r) => statusOf(r, workspace.name, input.dashboardId, at))
  }

  /**
   * Builds one rollup whose lease the caller holds, and records the outcome (the scheduler's
   * work): ready with its files, or failed with the reason (the previous files, if any, stay).
   * Never throws for a build that failed: the state row says it.
   */
  async build(row: RollupRow, holder: string, at: Date = new Date()): Promise<RollupRow['state']> {
    const mine = () =>
      this.store.db
        .updateTable('rollups')
        .where('dashboard_row_id', '=', row.dashboard_row_id)
        .where('name', '=', row.name)
        .where('leased_by', '=', holder)
    const release = { leased_by: null, lease_until: null }
    const changed = () => this.bus?.publish({ kind: 'rollup', dashboardRowId: row.dashboard_row_id }).catch(() => {})
    await changed() // building: not used until it is ready again
    try {
      const dashboard = await this.store.db
        .selectFrom('dashboards')
        .select(['workspace_id', 'document'])
        .where('id', '=', row.dashboard_row_id)
        .executeTakeFirstOrThrow()
      const doc = JSON.parse(dashboard.document) as DashboardDocument
      const found = (await this.planned(dashboard.workspace_id, doc)).find((p) => p.name === row.name)
      if (found?.plan === undefined) throw new Error(found?.error ?? `the dashboard no longer declares ${row.name}`)
      const plan = found.plan
      const workspace = await this.workspaces.get(dashboard.workspace_id)
      const source = await this.sources.resolve(workspace)
      const connector = await this.datasources.connector(source.datasource)
      const settings = source.datamart?.tenancySettings ?? source.datasource.tenancySettings
      const tenants = settings?.tenancyLevel === 'DATABASE' ? await connector.databases() : undefined
      const previous =
        row.built_fingerprint === plan.fingerprint ? (JSON.parse(row.partitions) as RollupPartition[]) : []
      const result = await buildRollup(
        {
          plan,
          model: source.model,
          dialect: getDialect(dialectOf(source.datasource.type)),
          connector,
          ...(tenants ? { tenants } : {}),
          previous,
          organizationId: row.organization_id,
          dashboardRowId: row.dashboard_row_id,
          now: at,
        },
        this.engine,
        this.storage,
        this.options,
      )
      // files of a previous definition that this build did not overwrite
      const current = new Set(result.partitions.map((p) => p.location))
      if (row.built_fingerprint !== plan.fingerprint) {
        for (const p of JSON.parse(row.partitions) as RollupPartition[]) {
          if (!current.has(p.location)) await this.storage.remove(p.location)
        }
      }
      const ended = new Date()
      await mine()
        .set({
          ...release,
          state: 'ready',
          rows: result.rows,
          bytes: result.bytes,
          partitions: JSON.stringify(result.partitions),
          built_fingerprint: plan.fingerprint,
          last_refresh_at: ended.toISOString(),
          data_as_of: at.toISOString(),
          next_refresh_at: new Date(at.getTime() + plan.everyMs).toISOString(),
          last_error: null,
          updated_at: ended.toISOString(),
        })
        .execute()
      await changed()
      return 'ready'
    } catch (err) {
      const ended = new Date()
      const every = await this.everyOf(row).catch(() => 3_600_000)
      await mine()
        .set({
          ...release,
          state: 'failed',
          last_error: failureText(err),
          last_refresh_at: ended.toISOString(),
          // a failed build is tried again after its interval, or at most an hour
          next_refresh_at: new Date(at.getTime() + Math.min(every, 3_600_000)).toISOString(),
          updated_at: ended.toISOString(),
        })
        .execute()
      await changed()
      return 'failed'
    }
  }

  private async everyOf(row: RollupRow): Promise<number> {
    const d = await this.store.db
      .selectFrom('dashboards')
      .select(['workspace_id', 'document'])
      .where('id', '=', row.dashboard_row_id)
      .executeTakeFirstOrThrow()
    const p = (await this.planned(d.workspace_id, JSON.parse(d.document) as DashboardDocument)).find(
      (x) => x.name === row.name,
    )
    return p?.plan?.everyMs ?? 3_600_000
  }

  /** The document's rollups planned against its workspace's model now. */
  private async planned(
    workspaceId: string,
    doc: DashboardDocument,
  ): Promise<{ name: string; plan?: RollupPlan; error?: string }[]> {
    try {
      const source = await this.sources.resolve(await this.workspaces.get(workspaceId))
      return plansOf(doc, source.model)
    } catch (err) {
      const error = failureText(err)
      return Array.isArray(doc.rollups) ? doc.rollups.map((r) => ({ name: r.name, error })) : []
    }
  }

  private async upsert(
    dashboardRowId: string,
    organizationId: string,
    p: { name: string; plan?: RollupPlan; error?: string },
    at: Date,
  ): Promise<void> {
    const iso = at.toISOString()
    const fingerprint = p.plan?.fingerprint ?? 'invalid'
    const existing = await this.store.db
      .selectFrom('rollups')
      .selectAll()
      .where('dashboard_row_id', '=', dashboardRowId)
      .where('name', '=', p.name)
      .executeTakeFirst()
    if (existing === undefined) {
      const count = await this.store.db
        .selectFrom('rollups')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
      const over = Number(count.n) >= this.options.maxRollups
      const error = over
        ? `${this.options.maxRollups} rollups exist already (ROLLUP_MAX_COUNT); this one is not built`
        : (p.error ?? null)
      const row: RollupRow = {
        dashboard_row_id: dashboardRowId,
        name: p.name,
        organization_id: organizationId,
        fingerprint,
        state: error ? 'failed' : 'stale',
        rows: 0,
        bytes: 0,
        partitions: '[]',
        built_fingerprint: null,
        last_refresh_at: null,
        data_as_of: null,
        next_refresh_at: error ? NEVER : iso,
        last_error: error,
        leased_by: null,
        lease_until: null,
        created_at: iso,
        updated_at: iso,
      }
      // two instances may sync at once: the second insert of the same key is a no-op
      await this.store.db
        .insertInto('rollups')
        .values(row)
        .onConflict((oc) => oc.columns(['dashboard_row_id', 'name']).doNothing())
        .execute()
      return
    }
    if (existing.fingerprint === fingerprint) return
    await this.store.db
      .updateTable('rollups')
      .set({
        fingerprint,
        state: p.error ? 'failed' : existing.state === 'building' ? 'building' : 'stale',
        last_error: p.error ?? existing.last_error,
        next_refresh_at: p.error ? NEVER : iso,
        updated_at: iso,
      })
      .where('dashboard_row_id', '=', dashboardRowId)
      .where('name', '=', p.name)
      .where('fingerprint', '=', existing.fingerprint)
      .execute()
  }
}

/** The state row as the routes answer it; `lagSeconds` is how old the files' data is now. */
export function statusOf(row: RollupRow, workspaceName: string, dashboardId: string, at: Date): RollupStatus {
  return {
    workspaceName,
    dashboardId,
    name: row.name,
    state: row.state,
    rows: Number(row.rows),
    bytes: Number(row.bytes),
    partitions: (JSON.parse(row.partitions) as unknown[]).length,
    lastRefreshAt: row.last_refresh_at,
    nextRefreshAt: row.next_refresh_at === NEVER ? null : row.next_refresh_at,
    lagSeconds:
      row.data_as_of === null ? null : Math.max(0, Math.round((at.getTime() - Date.parse(row.data_as_of)) / 1000)),
    lastError: row.last_error,
  }
}

/** An error as one line for the state row: an ApiError's message, a driver's message, never a stack. */
export function failureText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return text.split('\n')[0]?.slice(0, 1000) ?? 'failed'
}
