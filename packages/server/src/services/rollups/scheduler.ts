import type { RollupRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { failureText } from '../scheduling/failure-text.js'
import { LeasedLoop, type LeasedLoopOptions } from '../scheduling/leased-loop.js'
import type { Rollups } from './rollups.js'
import { failedTenantLines } from './tenant-failures.js'

/** Polls every ROLLUP_POLL_INTERVAL_MS; a lease lasts twice ROLLUP_BUILD_TIMEOUT_MS (services/index.ts). */
export type RollupSchedulerOptions = LeasedLoopOptions

/**
 * Builds due rollups, once across every instance on the same metadata store, the way email
 * reports are sent (LeasedLoop): the instance that takes the lease for the occurrence it found
 * due (`next_refresh_at` unchanged) builds it, 10 a pass at most; the lease marks it building.
 * The build records its outcome and drops the lease. An instance that dies mid-build leaves a
 * lease that expires after `leaseMs`; then the rollup is due again. Builds run one at a time per
 * instance, in the background: no request ever waits for one.
 */
export class RollupScheduler extends LeasedLoop<'rollups'> {
  constructor(
    store: Store,
    private readonly rollups: Rollups,
    options: RollupSchedulerOptions,
  ) {
    super(store, options, {
      table: 'rollups',
      label: 'rollups',
      describe: failureText,
      batch: 10,
      takenWith: { state: 'building' },
    })
  }

  /** Each pass first brings the state rows in step with the documents. */
  protected override async beforePass(now: Date): Promise<void> {
    await this.rollups.catchUp(now)
  }

  protected nameOf(row: RollupRow): string {
    return row.name
  }

  protected async run(row: RollupRow, now: Date): Promise<void> {
    // from when it was due (a refresh request's time) to this instance's claim
    const waitedMs = Date.now() - Date.parse(row.next_refresh_at)
    const started = performance.now()
    const { state, phases, failedTenants } = await this.rollups.build(row, this.instanceId, now)
    const ms = Math.round(performance.now() - started)
    const after = await this.store.db
      .selectFrom('rollups')
      .select(['rows', 'last_error'])
      .where('dashboard_row_id', '=', row.dashboard_row_id)
      .where('name', '=', row.name)
      .executeTakeFirst()
    if (state === 'ready' && failedTenants !== undefined) {
      // every failed tenant database, a hundred a line (the state row names the first few)
      for (const line of failedTenantLines(failedTenants)) {
        this.log?.warn(
          { rollup: row.name, rows: after?.rows, ms, waitedMs, phases, reason: after?.last_error, ...line },
          'rollup built, some tenant databases not refreshed',
        )
      }
    } else if (state === 'ready')
      this.log?.info({ rollup: row.name, rows: after?.rows, ms, waitedMs, phases }, 'rollup built')
    else this.log?.warn({ rollup: row.name, reason: after?.last_error, ms, waitedMs }, 'rollup build failed')
  }
}
