import type { Selectable, Updateable } from 'kysely'
import { type LeasedTable, Leases } from '../../store/lease.js'
import type { Database } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { PollLoop } from './poll-loop.js'

export interface LeasedLoopOptions {
  /** How often each instance looks for due rows. */
  readonly pollMs: number
  /** How long a taken row stays leased to the instance that took it. */
  readonly leaseMs: number
}

/** What one scheduler takes: its table's due rows, so many a pass, and how a failure reads. */
export interface LeasedWork<T extends LeasedTable> {
  readonly table: T
  /** What a failed pass's log line names ("email reports"). */
  readonly label: string
  /** A failure as its log line shows it. */
  readonly describe: (err: unknown) => string
  /** Rows taken per pass at most; the rest wait for the next one. */
  readonly batch: number
  /** Rows with these values are never due (an email report stopped for good). */
  readonly never?: Readonly<Partial<Selectable<Database[T]>>>
  /** Columns set by the UPDATE that takes the lease (a rollup: building). */
  readonly takenWith?: Updateable<Database[T]>
}

/**
 * A scheduler that does its work once across every instance on one metadata store (email
 * reports, rollups). Each pass lists up to `batch` rows of its table that are due and whose lease
 * is free, takes each one's lease (store/lease.ts: of the instances racing for a row, one gets
 * it) and works on the rows it got, one at a time; a stop ends the pass after the row in hand.
 * The work records its outcome and drops the lease; an instance that dies mid-work leaves a
 * lease that expires after `leaseMs`, and the row is due again.
 */
export abstract class LeasedLoop<T extends LeasedTable> extends PollLoop {
  private readonly leases: Leases<T>

  constructor(
    protected readonly store: Store,
    options: LeasedLoopOptions,
    private readonly work: LeasedWork<T>,
  ) {
    super(options.pollMs, work.label, work.describe)
    this.leases = new Leases(store.db, work.table, {
      holder: this.instanceId,
      ms: options.leaseMs,
      ...(work.never ? { never: work.never } : {}),
    })
  }

  /** One pass at `now`: the ids or names of the rows this instance took, worked on or tried. */
  async tick(now: Date = new Date()): Promise<string[]> {
    await this.beforePass(now)
    const done: string[] = []
    for (const due of await this.leases.due(now, this.work.batch)) {
      if (this.stopped) break
      const row = await this.leases.take(due, now, this.work.takenWith)
      if (!row) continue
      done.push(this.nameOf(row))
      await this.run(row, now)
    }
    return done
  }

  /** What a pass does before it looks for due rows (nothing unless a scheduler says so). */
  protected async beforePass(_now: Date): Promise<void> {}

  /** The id or name the pass reports for a row. */
  protected abstract nameOf(row: Selectable<Database[T]>): string

  /** The work on one row whose lease this instance holds: records its outcome and drops the lease. */
  protected abstract run(row: Selectable<Database[T]>, now: Date): Promise<void>
}
