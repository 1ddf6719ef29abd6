import type { RollupRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { PollLoop } from '../scheduling/poll-loop.js'
import type { Rollups } from './rollups.js'
import { failureText } from './state-sync.js'
import { failedTenantLines } from './tenant-failures.js'

export interface RollupSchedulerOptions {
  /** How often each instance looks for due rollups (ROLLUP_POLL_INTERVAL_MS). */
  readonly pollMs: number
  /** How long a claimed rollup stays leased to the instance building it. */
  readonly leaseMs: number
}

/** Rollups claimed per look; the rest wait for the next one. */
const BATCH = 10

/**
 * Builds due rollups, once across every instance on the same metadata store, the way email
 * reports are sent: the instance whose conditional UPDATE takes the lease (`leased_by`,
 * `lease_until`) for the occurrence it found due (`next_refresh_at` unchanged) builds it; the
 * others' UPDATE matches no row. The build records its outcome and drops the lease. An instance
 * that dies mid-build leaves a lease that expires after `leaseMs`; then the rollup is due again.
 * Builds run one at a time per instance, in the background: no request ever waits for one.
 */
export class RollupScheduler extends PollLoop {
  constructor(
    private readonly store: Store,
    private readonly rollups: Rollups,
    private readonly options: RollupSchedulerOptions,
  ) {
    super(options.pollMs, 'rollups', failureText)
  }

  /** One pass: syncs the state rows, claims the rollups due at `now` and builds each; the names it built or tried. */
  async tick(now: Date = new Date()): Promise<string[]> {
    await this.rollups.catchUp(now)
    const at = now.toISOString()
    const due = await this.store.db
      .selectFrom('rollups')
      .select(['dashboard_row_id', 'name', 'next_refresh_at'])
      .where('next_refresh_at', '<=', at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .orderBy('next_refresh_at')
      .limit(BATCH)
      .execute()
    const done: string[] = []
    for (const d of due) {
      if (this.stopped) break
      const row = await this.claim(d.dashboard_row_id, d.name, d.next_refresh_at, now)
      if (!row) continue
      done.push(d.name)
      // from when it was due (a refresh request's time) to this instance's claim
      const waitedMs = Date.now() - Date.parse(d.next_refresh_at)
      const started = performance.now()
      const { state, phases, failedTenants } = await this.rollups.build(row, this.instanceId, now)
      const ms = Math.round(performance.now() - started)
      const after = await this.store.db
        .selectFrom('rollups')
        .select(['rows', 'last_error'])
        .where('dashboard_row_id', '=', d.dashboard_row_id)
        .where('name', '=', d.name)
        .executeTakeFirst()
      if (state === 'ready' && failedTenants !== undefined) {
        // every failed tenant database, a hundred a line (the state row names the first few)
        for (const line of failedTenantLines(failedTenants)) {
          this.log?.warn(
            { rollup: d.name, rows: after?.rows, ms, waitedMs, phases, reason: after?.last_error, ...line },
            'rollup built, some tenant databases not refreshed',
          )
        }
      } else if (state === 'ready')
        this.log?.info({ rollup: d.name, rows: after?.rows, ms, waitedMs, phases }, 'rollup built')
      else this.log?.warn({ rollup: d.name, reason: after?.last_error, ms, waitedMs }, 'rollup build failed')
    }
    return done
  }

  /** The lease: one conditional UPDATE; only one instance's matches the row for this occurrence. */
  private async claim(dashboardRowId: string, name: string, dueAt: string, now: Date): Promise<RollupRow | undefined> {
    const at = now.toISOString()
    const result = await this.store.db
      .updateTable('rollups')
      .set({
        leased_by: this.instanceId,
        lease_until: new Date(now.getTime() + this.options.leaseMs).toISOString(),
        state: 'building',
      })
      .where('dashboard_row_id', '=', dashboardRowId)
      .where('name', '=', name)
      .where('next_refresh_at', '=', dueAt)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) return undefined
    return this.store.db
      .selectFrom('rollups')
      .selectAll()
      .where('dashboard_row_id', '=', dashboardRowId)
      .where('name', '=', name)
      .where('leased_by', '=', this.instanceId)
      .executeTakeFirst()
  }
}
