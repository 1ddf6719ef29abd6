import { released } from '../../store/lease.js'
import type { EmailReportRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { LeasedLoop, type LeasedLoopOptions } from '../scheduling/leased-loop.js'
import { definitionOf, ReportStopped, type Reports, reportFailureText } from './reports.js'
import { nextRun, retryDelay } from './schedule.js'

export interface SchedulerOptions extends LeasedLoopOptions {
  /** The first retry of a failed send waits this long, each next one twice as long (at most an hour). */
  readonly retryBaseMs: number
  /** A run gives up after this many failed attempts and waits for the next scheduled time. */
  readonly maxAttempts: number
}

/**
 * Sends due reports, once across every instance on the same metadata store (LeasedLoop): a
 * report is sent by the instance that takes its lease for the occurrence it found due
 * (`next_run_at` unchanged), 20 a pass at most. After the send the same instance moves
 * `next_run_at` on and drops the lease. An instance that dies mid-send leaves a lease that
 * expires after `leaseMs`, then the report is due again (so a crash between the SMTP server's
 * acceptance and the UPDATE can repeat a send, never lose one).
 */
export class ReportScheduler extends LeasedLoop<'email_reports'> {
  constructor(
    store: Store,
    private readonly reports: Reports,
    private readonly options: SchedulerOptions,
  ) {
    super(store, options, {
      table: 'email_reports',
      label: 'email reports',
      describe: reportFailureText,
      batch: 20,
      never: { state: 'stopped' },
    })
  }

  protected nameOf(row: EmailReportRow): string {
    return row.report_id
  }

  protected async run(row: EmailReportRow, now: Date): Promise<void> {
    const { schedule } = definitionOf(row)
    const next = () => nextRun(schedule, row.timezone, now).toISOString()
    const mine = () =>
      this.store.db
        .updateTable('email_reports')
        .where('report_id', '=', row.report_id)
        .where('leased_by', '=', this.instanceId)
    try {
      await this.reports.deliver(row, now)
      await mine()
        .set({
          ...released,
          state: 'scheduled',
          attempts: 0,
          last_sent_at: now.toISOString(),
          last_error: null,
          next_run_at: next(),
        })
        .execute()
      this.log?.info({ reportId: row.report_id }, 'email report sent')
    } catch (err) {
      const reason = reportFailureText(err)
      if (err instanceof ReportStopped) {
        await mine()
          .set({ ...released, state: 'stopped', last_error: reason })
          .execute()
        this.log?.warn({ reportId: row.report_id, reason }, 'email report stopped')
        return
      }
      const attempts = Number(row.attempts) + 1
      const giveUp = attempts >= this.options.maxAttempts
      await mine()
        .set({
          ...released,
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
