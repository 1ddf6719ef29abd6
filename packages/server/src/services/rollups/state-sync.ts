import type { DashboardDocument } from '@strata/contract/document'
import type { RollupRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import type { Invalidation } from '../events/bus.js'
import type { Sources } from '../query/sources.js'
import { failureText } from '../scheduling/failure-text.js'
import type { Workspaces } from '../workspaces/workspaces.js'
import type { RollupPlan } from './definition.js'
import { plansOf } from './plans.js'
import type { RollupStorage, StoredRollup } from './storage.js'

/** A time no rollup is due before: a rollup over the limit or that cannot be planned waits for a change. */
export const NEVER = '9999-12-31T00:00:00.000Z'

/**
 * Dashboards written up to this long before the newest one seen are looked at again: another
 * instance's clock may run behind, or its write commit after a later one was read.
 */
const MARGIN_MS = 60_000
/** Every document is planned again, and files of deleted dashboards swept, at least this often. */
const FULL_PASS_MS = 3_600_000

export interface Planned {
  readonly name: string
  readonly plan?: RollupPlan
  readonly error?: string
}

/**
 * Keeps one state row per rollup the dashboard documents declare, without reading every
 * document on every pass:
 * - a dashboard changed (an import, an update, a delete) is synced alone: on this instance's
 *   change event (the invalidation bus, which carries other instances' too with Redis), and on
 *   every instance through a watermark on `dashboards.updated_at` (an indexed range query), so
 *   another instance's import is picked up without Redis;
 * - a change of a datamart, workspace or datasource (the model the rollups are planned against)
 *   plans every document again, as does a full pass once an hour;
 * - a deleted dashboard's state rows go with it (the foreign key cascades), and a rollup taken
 *   out of a document loses its row; every pass compares the rows (few: ROLLUP_MAX_COUNT) with
 *   the last pass's and removes the files of those gone, whichever instance removed them; the
 *   hourly sweep matches the files themselves with the rows (files left while an instance was
 *   down).
 */
export class RollupStateSync {
  /** The newest `dashboards.updated_at` seen; undefined: nothing synced yet (a full pass next). */
  private watermark: string | undefined
  /** Dashboards synced within the margin, with the `updated_at` they were synced at. */
  private readonly seen = new Map<string, string>()
  /** Dashboards whose change event arrived. */
  private readonly changed = new Set<string>()
  private modelChanged = false
  /** The state rows seen at the last look, to find those removed since (by any instance). */
  private known: Map<string, StoredRollup> | undefined
  private lastFull = 0

  constructor(
    private readonly store: Store,
    private readonly workspaces: Workspaces,
    private readonly sources: Sources,
    private readonly storage: RollupStorage,
    private readonly maxRollups: number,
  ) {}

  /** A change event: remembered, and acted on at the next `catchUp`. */
  onEvent(event: Invalidation): void {
    if (event.kind === 'dashboard') this.changed.add(event.dashboardRowId)
    else if (event.kind === 'datamart' || event.kind === 'workspace' || event.kind === 'datasource') {
      this.modelChanged = true
    }
  }

  /**
   * Brings the state rows up to date with what changed since the last call: the dashboards
   * whose event arrived or whose `updated_at` passed the watermark; every dashboard when the
   * model changed, on the first call and once an hour.
   */
  async catchUp(at: Date = new Date()): Promise<void> {
    const full = this.watermark === undefined || this.modelChanged || Date.now() - this.lastFull >= FULL_PASS_MS
    const events = [...this.changed]
    this.changed.clear()
    if (full) {
      this.modelChanged = false
      this.lastFull = Date.now()
      const top = await this.newest()
      const ids = await this.store.db
        .selectFrom('dashboards')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('document', 'like', '%"rollups":%'),
            eb('id', 'in', eb.selectFrom('rollups').select('dashboard_row_id')),
          ]),
        )
        .execute()
      for (const d of ids) await this.syncDashboard(d.id, at)
      for (const id of events) await this.syncDashboard(id, at)
      await this.sweep()
      await this.dropVanished()
      this.advance(top)
      return
    }
    const since = new Date(Date.parse(this.watermark as string) - MARGIN_MS).toISOString()
    const recent = await this.store.db
      .selectFrom('dashboards')
      .select(['id', 'updated_at'])
      .where('updated_at', '>=', since)
      .execute()
    let top = this.watermark as string
    const todo = new Set(events)
    for (const d of recent) {
      if (d.updated_at > top) top = d.updated_at
      if (this.seen.get(d.id) !== d.updated_at) todo.add(d.id)
      this.seen.set(d.id, d.updated_at)
    }
    for (const id of todo) await this.syncDashboard(id, at)
    await this.dropVanished()
    this.advance(top)
  }

  /**
   * One dashboard's rows made to match its document: a new rollup gets a row due now; a changed
   * definition (fingerprint) is due now and `stale` until rebuilt; a rollup no longer declared
   * loses its row and its files. A dashboard that no longer exists loses its rows and files.
   */
  async syncDashboard(dashboardRowId: string, at: Date = new Date()): Promise<void> {
    const d = await this.store.db
      .selectFrom('dashboards')
      .select(['id', 'organization_id', 'workspace_id', 'document'])
      .where('id', '=', dashboardRowId)
      .executeTakeFirst()
    const rows = await this.store.db
      .selectFrom('rollups')
      .select(['name', 'organization_id'])
      .where('dashboard_row_id', '=', dashboardRowId)
      .execute()
    if (d === undefined) {
      await this.store.db.deleteFrom('rollups').where('dashboard_row_id', '=', dashboardRowId).execute()
      // the rows went with the dashboard (the foreign key cascades): the next look at the rows
      // (dropVanished) or the sweep removes the files; when they were still here, at once
      const owner = rows[0]?.organization_id
      if (owner !== undefined) await this.storage.removeDashboard(owner, dashboardRowId)
      return
    }
    const doc = JSON.parse(d.document) as DashboardDocument
    const names = new Set<string>()
    if (doc.rollups !== undefined) {
      for (const p of await this.planned(d.workspace_id, doc)) {
        names.add(p.name)
        await this.upsert(d.id, d.organization_id, p, at)
      }
    }
    for (const r of rows) {
      if (names.has(r.name)) continue
      await this.store.db
        .deleteFrom('rollups')
        .where('dashboard_row_id', '=', d.id)
        .where('name', '=', r.name)
        .execute()
      await this.storage.removeRollup(d.organization_id, d.id, r.name)
    }
  }

  /**
   * Removes the files of every rollup that has no state row (its dashboard deleted, or it was
   * taken out of the document), whichever instance removed the row: the files here are listed
   * and matched with the rows.
   */
  async sweep(): Promise<void> {
    const stored = await this.storage.stored()
    if (stored.length === 0) return
    const rows = await this.store.db.selectFrom('rollups').select(['dashboard_row_id', 'name']).execute()
    const kept = new Set(rows.map((r) => `${r.dashboard_row_id}/${r.name}`))
    const dashboards = new Set(rows.map((r) => r.dashboard_row_id))
    const gone = new Set<string>()
    for (const s of stored) {
      if (kept.has(`${s.dashboardRowId}/${s.rollup}`)) continue
      if (dashboards.has(s.dashboardRowId))
        await this.storage.removeRollup(s.organizationId, s.dashboardRowId, s.rollup)
      else if (!gone.has(s.dashboardRowId)) {
        gone.add(s.dashboardRowId)
        await this.storage.removeDashboard(s.organizationId, s.dashboardRowId)
      }
    }
  }

  /**
   * The rollups whose state row went since the last look (another instance synced a delete or
   * a change of the document): their files here are removed. The rows are few (ROLLUP_MAX_COUNT).
   */
  private async dropVanished(): Promise<void> {
    const rows = await this.store.db
      .selectFrom('rollups')
      .select(['dashboard_row_id', 'name', 'organization_id'])
      .execute()
    const now = new Map(rows.map((r) => [`${r.dashboard_row_id}/${r.name}`, r]))
    const before = this.known
    this.known = new Map(
      [...now].map(([k, r]) => [
        k,
        { organizationId: r.organization_id, dashboardRowId: r.dashboard_row_id, rollup: r.name },
      ]),
    )
    if (before === undefined) return
    const owners = new Set(rows.map((r) => r.dashboard_row_id))
    for (const [key, r] of before) {
      if (now.has(key)) continue
      // a dashboard left with no rollup (deleted, or none declared now) loses its folder
      if (owners.has(r.dashboardRowId)) await this.storage.removeRollup(r.organizationId, r.dashboardRowId, r.rollup)
      else await this.storage.removeDashboard(r.organizationId, r.dashboardRowId)
    }
  }

  /** The document's rollups planned against its workspace's model now. */
  async planned(workspaceId: string, doc: DashboardDocument): Promise<Planned[]> {
    try {
      const source = await this.sources.resolve(await this.workspaces.get(workspaceId))
      return plansOf(doc, source.model)
    } catch (err) {
      const error = failureText(err)
      return Array.isArray(doc.rollups) ? doc.rollups.map((r) => ({ name: r.name, error })) : []
    }
  }

  private async newest(): Promise<string> {
    const r = await this.store.db
      .selectFrom('dashboards')
      .select((eb) => eb.fn.max('updated_at').as('top'))
      .executeTakeFirst()
    return (r?.top as string | null | undefined) ?? new Date(0).toISOString()
  }

  /** Moves the watermark and forgets what fell out of the margin. */
  private advance(top: string): void {
    this.watermark = top
    const floor = new Date(Date.parse(top) - MARGIN_MS).toISOString()
    for (const [id, updated] of this.seen) if (updated < floor) this.seen.delete(id)
  }

  private async upsert(dashboardRowId: string, organizationId: string, p: Planned, at: Date): Promise<void> {
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
      const over = Number(count.n) >= this.maxRollups
      const error = over
        ? `${this.maxRollups} rollups exist already (ROLLUP_MAX_COUNT); this one is not built`
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
