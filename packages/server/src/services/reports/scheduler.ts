import type { EmailReportRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { PollLoop } from '../scheduling/poll-loop.js'
import { definitionOf, failureText, ReportStopped, type Reports } from './reports.js'
import { nextRun, retryDelay } from './schedule.js'

export interface SchedulerOptions {
  /** How often each instance looks for due reports. */
  readonly pollMs: number
  /** The first retry of a failed send waits this long, each next one twice as long (at most an hour). */
  readonly retryBaseMs: number
  /** A run gives up after this many failed attempts and waits for the next scheduled time. */
  readonly maxAttempts: number
  /** How long a claimed report stays leased to the instance that claimed it. */
  readonly leaseMs: number
}

/** Reports claimed per look; the rest wait for the next one. */
const BATCH = 20

/**
 * Sends due reports, once across every instance on the same metadata store: a report is sent
 * by the instance whose conditional UPDATE takes its lease (`leased_by`, `lease_until`) for the
 * occurrence it found due (`next_run_at` unchanged); the others' UPDATE matches no row. After
 * the send the same instance moves `next_run_at` on and drops the lease. An instance that dies
 * mid-send leaves a lease that expires after `leaseMs`, then the report is due again (so a
 * crash between the SMTP server's acceptance and the UPDATE can repeat a send, never lose one).
 */
export class ReportScheduler extends PollLoop {
  constructor(
    private readonly store: Store,
    private readonly reports: Reports,
    private readonly options: SchedulerOptions,
  ) {
    super(options.pollMs, 'email reports', failureText)
  }

  /** One pass: claims the reports due at `now` and sends each; returns the ids this instance sent or tried. */
  async tick(now: Date = new Date()): Promise<string[]> {
    const at = now.toISOString()
    const due = await this.store.db
      .selectFrom('email_reports')
      .select(['report_id', 'next_run_at'])
      .where('state', '!=', 'stopped')
      .where('next_run_at', '<=', at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .orderBy('next_run_at')
      .limit(BATCH)
      .execute()
    const done: string[] = []
    for (const { report_id, next_run_at } of due) {
      if (this.stopped) break
      const row = await this.claim(report_id, next_run_at, now)
      if (!row) continue
      done.push(report_id)
      await this.run(row, now)
    }
    return done
  }

  /** The lease: one conditional UPDATE; only one instance's matches the row for this occurrence. */
  private async claim(reportId: string, dueAt: string, now: Date): Promise<EmailReportRow | undefined> {
    const at = now.toISOString()
    const result = await this.store.db
      .updateTable('email_reports')
      .set({ leased_by: this.instanceId, lease_until: new Date(now.getTime() + this.options.leaseMs).toISOString() })
      .where('report_id', '=', reportId)
      .where('next_run_at', '=', dueAt)
      .where('state', '!=', 'stopped')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) return undefined
    return this.store.db
      .selectFrom('email_reports')
      .selectAll()
      .where('report_id', '=', reportId)
      .where('leased_by', '=', this.instanceId)
      .executeTakeFirst()
  }

  private async run(row: EmailReportRow, now: Date): Promise<void> {
    const { schedule } = definitionOf(row)
    const next = () => nextRun(schedule, row.timezone, now).toISOString()
    const release = { leased_by: null, lease_until: null }
    const mine = () =>
      this.store.db
        .updateTable('email_reports')
        .where('report_id', '=', row.report_id)
        .where('leased_by', '=', this.instanceId)
    try {
      await this.reports.deliver(row, now)
      await mine()
        .set({
          ...release,
          state: 'scheduled',
          attempts: 0,
          last_sent_at: now.toISOString(),
          last_error: null,
          next_run_at: next(),
        })
        .execute()
      this.log?.info({ reportId: row.report_id }, 'email report sent')
    } catch (err) {
      const reason = failureText(err)
      if (err instanceof ReportStopped) {
        await mine()
          .set({ ...release, state: 'stopped', last_error: reason })
          .execute()
        this.log?.warn({ reportId: row.report_id, reason }, 'email report stopped')
        return
      }
      const attempts = Number(row.attempts) + 1
      const giveUp = attempts >= this.options.maxAttempts
      await mine()
        .set({
          ...release,
          state: giveUp ? 'scheduled' : 'retrying',
          // after giving up the next scheduled run starts with a fresh count
          attempts: giveUp ? 0 : attempts,
          last_error: giveUp ? `${reason} (gave up after ${attempts} attempts; next scheduled run)` : reason,
          next_run_at: giveUp
            ? next()
            : new Date(now.getTime() + retryDelay(attempts, this.options.retryBaseMs)).toISOString(),
        })
        .execute()
      this.log?.warn({ reportId: row.report_id, attempts, reason }, 'email report send failed')
    }
  }
}
