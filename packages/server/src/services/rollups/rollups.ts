import type { DashboardDocument } from '@strata/contract/document'
import { sql } from 'kysely'
import type { EngineHost } from '../../connectors/engine-host/supervisor.js'
import { dialectOf } from '../../connectors/registry.js'
import { ApiError, badRequest } from '../../errors.js'
import { getDialect } from '../../query/dialects/registry.js'
import type { RollupStatus } from '../../schemas/rollups.js'
import { released } from '../../store/lease.js'
import type { RollupRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Datasources } from '../datasources/datasources.js'
import type { InvalidationBus } from '../events/bus.js'
import type { Sources } from '../query/sources.js'
import { failureText } from '../scheduling/failure-text.js'
import type { Workspaces } from '../workspaces/workspaces.js'
import { type BuildLimits, type BuildPhases, buildRollup, type RollupPartition } from './builder.js'
import { NEVER, RollupStateSync } from './state-sync.js'
import type { RollupStorage } from './storage.js'
import { tenantFailureText } from './tenant-failures.js'

/** What one build did: its recorded state, and where its time went (ms per phase) when it got that far. */
export interface BuildOutcome {
  readonly state: RollupRow['state']
  readonly phases?: BuildPhases
  /** DATABASE tenancy: the tenant databases whose part of a ready build failed (their previous files kept). */
  readonly failedTenants?: readonly string[]
}

export interface RollupOptions extends BuildLimits {
  /** Rollups the store holds at most (ROLLUP_MAX_COUNT): more are listed as failed, never built. */
  readonly maxRollups: number
}

/**
 * Rollups: keeps one state row per rollup the dashboards declare (`catchUp`, state-sync.ts), answers the routes
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
  ) {
    this.state = new RollupStateSync(store, workspaces, sources, storage, options.maxRollups)
    bus?.on((event) => this.state.onEvent(event))
  }

  private readonly state: RollupStateSync

  /** Brings the state rows up to date with the documents changed since the last look (state-sync.ts). */
  async catchUp(at: Date = new Date()): Promise<void> {
    await this.state.catchUp(at)
  }

  /**
   * Every rollup of the organization's dashboards, or of the one dashboard `only` names (both
   * names or neither: 400 otherwise), with its state. A dashboard that does not exist has none.
   */
  async list(
    organizationId: string,
    only: { readonly workspaceName?: string | undefined; readonly dashboardId?: string | undefined } = {},
    at: Date = new Date(),
  ): Promise<RollupStatus[]> {
    if ((only.workspaceName === undefined) !== (only.dashboardId === undefined))
      throw badRequest('workspaceName and dashboardId go together: give both, or neither')
    await this.state.catchUp(at)
    let query = this.store.db
      .selectFrom('rollups')
      .innerJoin('dashboards', 'dashboards.id', 'rollups.dashboard_row_id')
      .innerJoin('workspaces', 'workspaces.id', 'dashboards.workspace_id')
      .selectAll('rollups')
      .select(['dashboards.dashboard_id as external_id', 'workspaces.name as workspace_name'])
      .where('rollups.organization_id', '=', organizationId)
    if (only.workspaceName !== undefined && only.dashboardId !== undefined)
      query = query
        .where('workspaces.name', '=', only.workspaceName)
        .where('dashboards.dashboard_id', '=', only.dashboardId)
    const rows = await query
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
    await this.state.catchUp(at)
    await this.state.syncDashboard(dashboard.id, at)
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
   * A build some of whose tenant databases failed (DATABASE tenancy) is ready, its `last_error`
   * naming them: their previous files stay in its partitions, the others' are new.
   * Never throws for a build that failed: the state row says it.
   */
  async build(row: RollupRow, holder: string, at: Date = new Date()): Promise<BuildOutcome> {
    const started = performance.now()
    const mine = () =>
      this.store.db
        .updateTable('rollups')
        .where('dashboard_row_id', '=', row.dashboard_row_id)
        .where('name', '=', row.name)
        .where('leased_by', '=', holder)
    // a refresh (or a change of the definition) while this build ran moved next_refresh_at from
    // the due time the lease was taken for: it stays, so the rollup is built again with what came
    // after this build started, instead of waiting for its next interval
    const nextDue = (scheduled: Date) =>
      sql<string>`CASE WHEN next_refresh_at = ${row.next_refresh_at} THEN ${scheduled.toISOString()} ELSE next_refresh_at END`
    const changed = () => this.bus?.publish({ kind: 'rollup', dashboardRowId: row.dashboard_row_id }).catch(() => {})
    await changed() // building: not used until it is ready again
    try {
      const dashboard = await this.store.db
        .selectFrom('dashboards')
        .select(['workspace_id', 'document'])
        .where('id', '=', row.dashboard_row_id)
        .executeTakeFirstOrThrow()
      const doc = JSON.parse(dashboard.document) as DashboardDocument
      const found = (await this.state.planned(dashboard.workspace_id, doc)).find((p) => p.name === row.name)
      if (found?.plan === undefined) throw new Error(found?.error ?? `the dashboard no longer declares ${row.name}`)
      const plan = found.plan
      const workspace = await this.workspaces.get(dashboard.workspace_id)
      const source = await this.sources.resolve(workspace)
      const connector = await this.datasources.connector(source.datasource)
      const settings = source.datamart?.tenancySettings ?? source.datasource.tenancySettings
      const tenants = settings?.tenancyLevel === 'DATABASE' ? await connector.databases() : undefined
      const previous =
        row.built_fingerprint === plan.fingerprint ? (JSON.parse(row.partitions) as RollupPartition[]) : []
      const prepared = performance.now()
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
      const built = performance.now()
      const ended = new Date()
      const recorded = await mine()
        .set({
          ...released,
          state: 'ready',
          rows: result.rows,
          bytes: result.bytes,
          partitions: JSON.stringify(result.partitions),
          built_fingerprint: plan.fingerprint,
          last_refresh_at: ended.toISOString(),
          data_as_of: at.toISOString(),
          next_refresh_at: nextDue(new Date(at.getTime() + plan.everyMs)),
          // tenant databases whose part failed: named, while the others' files are served
          last_error:
            result.failed.length > 0 ? failureText(tenantFailureText(result.failed, tenants?.length ?? 0)) : null,
          updated_at: ended.toISOString(),
        })
        .executeTakeFirst()
      const phases: BuildPhases = {
        prepare: Math.round((prepared - started) * 10) / 10,
        ...result.phases,
        record: Math.round((performance.now() - built) * 10) / 10,
      }
      if (Number(recorded.numUpdatedRows) === 0) await this.dropIfGone(row)
      await changed()
      return {
        state: 'ready',
        phases,
        ...(result.failed.length > 0 ? { failedTenants: result.failed.map((f) => f.database) } : {}),
      }
    } catch (err) {
      const ended = new Date()
      const every = await this.everyOf(row).catch(() => 3_600_000)
      await mine()
        .set({
          ...released,
          state: 'failed',
          last_error: failureText(err),
          last_refresh_at: ended.toISOString(),
          // a failed build is tried again after its interval, or at most an hour
          next_refresh_at: nextDue(new Date(at.getTime() + Math.min(every, 3_600_000))),
          updated_at: ended.toISOString(),
        })
        .execute()
      await changed()
      return { state: 'failed' }
    }
  }

  /**
   * A build whose state row went while it ran (its dashboard deleted, or the rollup taken out of
   * the document) leaves files nobody lists: they are removed.
   */
  private async dropIfGone(row: RollupRow): Promise<void> {
    const still = await this.store.db
      .selectFrom('rollups')
      .select('name')
      .where('dashboard_row_id', '=', row.dashboard_row_id)
      .where('name', '=', row.name)
      .executeTakeFirst()
    if (still === undefined) await this.storage.removeRollup(row.organization_id, row.dashboard_row_id, row.name)
  }

  private async everyOf(row: RollupRow): Promise<number> {
    const d = await this.store.db
      .selectFrom('dashboards')
      .select(['workspace_id', 'document'])
      .where('id', '=', row.dashboard_row_id)
      .executeTakeFirstOrThrow()
    const p = (await this.state.planned(d.workspace_id, JSON.parse(d.document) as DashboardDocument)).find(
      (x) => x.name === row.name,
    )
    return p?.plan?.everyMs ?? 3_600_000
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
