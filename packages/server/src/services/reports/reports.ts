import { randomBytes } from 'node:crypto'
import type { CreateReport, ReportView } from '@strata/contract/reports'
import type { GuestClaims } from '../../auth/principal.js'
import type { Config, RateLimitRule } from '../../config.js'
import { ApiError, badRequest } from '../../errors.js'
import type { RateLimitStore } from '../../plugins/app/rate-limit/stores.js'
import { assertTimeZone } from '../../query/zoned-time.js'
import type { Keyring } from '../../security/keyring.js'
import type { EmailReportRow } from '../../store/schema.js'
import type { Store } from '../../store/store.js'
import { visibleMetrics } from '../guest-access/metrics.js'
import { requireCapability } from '../guest-access/permissions.js'
import type { KeyLiveness } from '../guest-tokens/guest-tokens.js'
import { recipientsProblem } from '../guest-tokens/report-recipients.js'
import { csvHeaders, toCsv } from '../runtime/csv.js'
import { type Opened, type Runtime, runtimeMetric } from '../runtime/runtime.js'
import { type FailureTextLimits, failureText } from '../scheduling/failure-text.js'
import type { Mail, Mailer } from './mailer.js'
import { nextRun, type Schedule } from './schedule.js'

/** What a report sends, as stored (JSON in `definition`). */
export interface ReportDefinition {
  readonly metricIds: readonly string[] | null
  readonly format: 'csv' | 'png' | 'pdf'
  readonly schedule: Schedule
  readonly recipients: readonly string[]
  readonly dashboardFilter: Readonly<Record<string, unknown>> | null
}

/** At most this many reports per key (a tenant, or one user of it) and embed. */
export const MAX_REPORTS = 50

/** Why a report can never send again: its embed is gone or the key that minted its token was revoked. */
export class ReportStopped extends Error {
  override readonly name: string = 'ReportStopped'
}

/**
 * A report whose recipients its token's claims do not allow (saved before the recipient policy
 * was checked): it never sends; sending it now is the create's 400.
 */
export class RecipientsRefused extends ReportStopped {
  override readonly name = 'RecipientsRefused'
}

/** `r_` and 12 url-safe random characters. */
const newReportId = () => `r_${randomBytes(9).toString('base64url')}`

export interface ReportsOptions {
  readonly email: Config['email']
  readonly emailLimit: RateLimitRule
  readonly limiter: RateLimitStore
  /** Whether a data app key is still live (not revoked). */
  readonly keyLive: KeyLiveness
  /** The SMTP sender; built on first use, so a server without SMTP_URL never loads nodemailer. */
  readonly mailer: () => Promise<Mailer>
}

/**
 * Scheduled email reports (docs/runtime-api.md#email-reports, capability emailReports). A report is saved under
 * the creating token's key (data app, clientId, userIdentifier) with the token's claims sealed
 * by the keyring, and every send opens the embed with those claims through the Runtime: the
 * same tenancy, RLS and locked filters as the browser's queries, nothing from the request.
 */
export class Reports {
  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly runtime: Runtime,
    private readonly options: ReportsOptions,
  ) {}

  /** 400 EMAIL_NOT_CONFIGURED unless SMTP_URL and EMAIL_FROM are set: every report route starts here. */
  requireEmail(): void {
    if (!this.options.email) {
      throw new ApiError(
        'EMAIL_NOT_CONFIGURED',
        400,
        'Email reports need SMTP_URL and EMAIL_FROM to be configured on the server',
      )
    }
  }

  private async openFor(claims: GuestClaims, id: string): Promise<Opened> {
    this.requireEmail()
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'emailReports', 'Email reports')
    return opened
  }

  async create(claims: GuestClaims, id: string, input: CreateReport): Promise<{ reportId: string }> {
    const opened = await this.openFor(claims, id)
    const name = input.name.trim()
    if (name.length === 0) throw badRequest('name: must be 1 to 200 characters (not only spaces)')
    const timezone = claims.params.timezone ?? 'UTC'
    assertTimeZone(timezone)
    const { schedule } = input
    if (schedule.dayOfWeek !== undefined && schedule.frequency !== 'weekly') {
      throw badRequest('schedule.dayOfWeek: only a weekly schedule takes a day of the week')
    }
    if (schedule.dayOfMonth !== undefined && schedule.frequency !== 'monthly') {
      throw badRequest('schedule.dayOfMonth: only a monthly schedule takes a day of the month')
    }
    const recipients = [...new Set(input.recipients.map((r) => r.trim().toLowerCase()))]
    const refused = recipientsProblem(claims, recipients)
    if (refused) throw badRequest(refused)
    const metricIds = input.metricIds ? [...new Set(input.metricIds)] : null
    const shown = this.metricsOf(claims, opened, metricIds)
    if (shown.length === 0)
      throw new ApiError('EMBED_PARAM_ERROR', 400, `Embed ${opened.embed.embedId} has no metric to send`)
    const dashboardFilter =
      input.dashboardFilter && Object.keys(input.dashboardFilter).length ? input.dashboardFilter : null
    // the filter is checked now as a query's (allowed, existing, narrowing only), nothing runs
    for (const m of shown) {
      await this.runtime.check(claims, opened, {
        metricId: m.metricId,
        ...(dashboardFilter ? { dashboardFilter } : {}),
      })
    }
    const definition: ReportDefinition = {
      metricIds,
      format: input.format,
      schedule,
      recipients,
      dashboardFilter,
    }
    const reportId = newReportId()
    const at = new Date()
    const row: EmailReportRow = {
      report_id: reportId,
      embed_row_id: opened.embed.id,
      embed_id: opened.embed.embedId,
      data_app_id: claims.dataAppId,
      client_id: claims.clientId,
      user_identifier: claims.params.userIdentifier ?? '',
      key_id: claims.keyId,
      claims: this.keyring.encrypt(JSON.stringify(claims), reportId),
      name,
      definition: JSON.stringify(definition),
      timezone,
      next_run_at: nextRun(schedule, timezone, at).toISOString(),
      state: 'scheduled',
      attempts: 0,
      last_sent_at: null,
      last_error: null,
      leased_by: null,
      lease_until: null,
      created_at: at.toISOString(),
    }
    await this.store.db.transaction().execute(async (tx) => {
      const { n } = await tx
        .selectFrom('email_reports')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('data_app_id', '=', row.data_app_id)
        .where('client_id', '=', row.client_id)
        .where('user_identifier', '=', row.user_identifier)
        .where('embed_row_id', '=', row.embed_row_id)
        .executeTakeFirstOrThrow()
      if (Number(n) >= MAX_REPORTS) throw badRequest(`name: at most ${MAX_REPORTS} reports per embed; delete one first`)
      await tx.insertInto('email_reports').values(row).execute()
    })
    return { reportId }
  }

  /** The token's own reports of this embed (its key's), oldest first. */
  async list(claims: GuestClaims, id: string): Promise<ReportView[]> {
    const { embed } = await this.openFor(claims, id)
    const rows = await this.ownQuery(claims, embed.id).orderBy('created_at').orderBy('report_id').execute()
    return rows.map(reportView)
  }

  async remove(claims: GuestClaims, id: string, reportId: string): Promise<{ reportId: string }> {
    const { embed } = await this.openFor(claims, id)
    const result = await this.store.db
      .deleteFrom('email_reports')
      .where('report_id', '=', reportId)
      .where('data_app_id', '=', claims.dataAppId)
      .where('client_id', '=', claims.clientId)
      .where('user_identifier', '=', claims.params.userIdentifier ?? '')
      .where('embed_row_id', '=', embed.id)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) throw notInEmbed(reportId, embed.embedId)
    return { reportId }
  }

  /**
   * Sends the report now, with its stored (sealed) claims, not the caller's; counted against
   * EMAIL_RATE_LIMIT like a scheduled send. The schedule is unchanged; the status records it.
   */
  async sendNow(
    claims: GuestClaims,
    id: string,
    reportId: string,
  ): Promise<{ reportId: string; sentAt: string; recipients: string[] }> {
    const { embed } = await this.openFor(claims, id)
    const row = await this.ownQuery(claims, embed.id).where('report_id', '=', reportId).executeTakeFirst()
    if (!row) throw notInEmbed(reportId, embed.embedId)
    const at = new Date()
    try {
      await this.deliver(row, at)
    } catch (err) {
      await this.store.db
        .updateTable('email_reports')
        .set({ last_error: reportFailureText(err) })
        .where('report_id', '=', reportId)
        .execute()
      if (err instanceof ApiError) throw err
      if (err instanceof RecipientsRefused) throw badRequest(err.message)
      throw new ApiError(
        'EMAIL_SEND_FAILED',
        502,
        `The SMTP server did not accept the report: ${reportFailureText(err)}`,
      )
    }
    await this.store.db
      .updateTable('email_reports')
      .set({ last_sent_at: at.toISOString(), last_error: null })
      .where('report_id', '=', reportId)
      .execute()
    return { reportId, sentAt: at.toISOString(), recipients: [...definitionOf(row).recipients] }
  }

  /** Every report of a data app (data app key), optionally of one embed or one client. */
  async listForDataApp(dataAppId: string, filter: { embedId?: string; clientId?: string }): Promise<ReportView[]> {
    this.requireEmail()
    let q = this.store.db.selectFrom('email_reports').selectAll().where('data_app_id', '=', dataAppId)
    if (filter.embedId !== undefined) q = q.where('embed_id', '=', filter.embedId)
    if (filter.clientId !== undefined) q = q.where('client_id', '=', filter.clientId)
    const rows = await q.orderBy('created_at').orderBy('report_id').execute()
    return rows.map(reportView)
  }

  async removeForDataApp(dataAppId: string, reportId: string): Promise<{ reportId: string }> {
    this.requireEmail()
    const result = await this.store.db
      .deleteFrom('email_reports')
      .where('report_id', '=', reportId)
      .where('data_app_id', '=', dataAppId)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) throw badRequest(`reportId: no report ${reportId} in this data app`)
    return { reportId }
  }

  /**
   * One send of a report, with the claims it was created with. Throws ReportStopped when it can
   * never send again (embed gone, minting key revoked, the token no longer allowed the embed;
   * RecipientsRefused: recipients its claims do not allow), an ApiError 429 when the client's
   * EMAIL_RATE_LIMIT window has fewer deliveries left than the report has recipients (nothing
   * is sent), else what failed.
   */
  async deliver(row: EmailReportRow, at: Date): Promise<void> {
    const email = this.options.email
    if (!email) throw new ApiError('EMAIL_NOT_CONFIGURED', 400, 'SMTP_URL and EMAIL_FROM are not configured')
    const claims = JSON.parse(this.keyring.decrypt(row.claims, row.report_id)) as GuestClaims
    const definition = definitionOf(row)
    const refused = recipientsProblem(claims, definition.recipients)
    if (refused) throw new RecipientsRefused(refused)
    if (claims.keyId !== null && !(await this.options.keyLive(claims.keyId))) {
      throw new ReportStopped('The data app key that minted the token of this report was revoked')
    }
    let opened: Opened
    try {
      opened = await this.runtime.open(claims, row.embed_id)
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
        throw new ReportStopped(`The embed can no longer be opened with the report's token: ${err.message}`)
      }
      throw err
    }
    if (opened.embed.id !== row.embed_row_id) throw new ReportStopped(`Embed ${row.embed_id} was deleted`)
    const metrics = this.metricsOf(claims, opened, definition.metricIds, true)
    if (metrics.length === 0) throw new Error('None of the report’s metrics is on the dashboard any more')
    // EMAIL_RATE_LIMIT counts deliveries: a send takes one per recipient, all or none
    const rule = this.options.emailLimit
    if (rule.max > 0) {
      const deliveries = definition.recipients.length
      const { taken, count, resetMs } = await this.options.limiter.take(
        `email:report:${row.data_app_id}:${row.client_id}`,
        rule.windowMs,
        deliveries,
        rule.max,
      )
      if (!taken) {
        throw new ApiError(
          'RATE_LIMIT_EXCEEDED',
          429,
          `EMAIL_RATE_LIMIT: client ${row.client_id} may send ${rule.max} emails (one per recipient) in this window, ${Math.max(0, rule.max - count)} left; this report has ${deliveries} recipients; retry in ${Math.ceil(resetMs / 1000)} s`,
        )
      }
    }
    const filter = definition.dashboardFilter ? { dashboardFilter: { ...definition.dashboardFilter } } : {}
    const items = []
    // the rendered images read each column as the dashboard does (its format, declared or inferred)
    const model = definition.format === 'csv' ? undefined : await this.runtime.modelFor(claims, opened)
    for (const m of metrics) {
      const result = await this.runtime.run(claims, opened, { metricId: m.metricId, ...filter })
      items.push({ metric: runtimeMetric(m, opened.overlay, undefined, [], model), result })
    }
    const attachments: Mail['attachments'] =
      definition.format === 'csv'
        ? items.map(({ metric, result }) => {
            const names = result.metaData.columns.map((c) => c.name)
            const columns = names.length ? names : Object.keys(result.data[0] ?? {})
            return {
              filename: `${fileName(metric.metricId)}.csv`,
              contentType: 'text/csv; charset=utf-8',
              content: toCsv(columns, result.data, csvHeaders(columns, metric.formats)),
            }
          })
        : // the renderer (ECharts, resvg, pdfkit: ~70 MB and ~0.5 s) loads with the first png or pdf
          await (await import('./render/index.js')).renderReport({
            title: row.name,
            timezone: row.timezone,
            items,
            format: definition.format,
          })
    await (await this.options.mailer()).send({
      to: definition.recipients,
      subject: `${row.name} — ${opened.dashboard.name}`,
      text: [
        `${row.name}: ${opened.dashboard.name}`,
        `Sent ${at.toISOString()} (schedule in ${row.timezone}).`,
        `Attached: ${attachments.map((a) => a.filename).join(', ')}.`,
      ].join('\n'),
      attachments,
    })
  }

  /** The metrics a report sends: the token's visible ones, of `metricIds` when given (unknown → 400, or skipped when running). */
  private metricsOf(claims: GuestClaims, opened: Opened, metricIds: readonly string[] | null, running = false) {
    const visible = visibleMetrics(claims, opened.embed, opened.dashboard)
    if (metricIds === null) return visible
    const byId = new Map(visible.map((m) => [m.metricId, m]))
    return metricIds.flatMap((metricId) => {
      const m = byId.get(metricId)
      if (!m && !running) {
        throw new ApiError('EMBED_PARAM_ERROR', 400, `Metric ${metricId} is not in embed ${opened.embed.embedId}`)
      }
      return m ? [m] : []
    })
  }

  private ownQuery(claims: GuestClaims, embedRowId: string) {
    return this.store.db
      .selectFrom('email_reports')
      .selectAll()
      .where('data_app_id', '=', claims.dataAppId)
      .where('client_id', '=', claims.clientId)
      .where('user_identifier', '=', claims.params.userIdentifier ?? '')
      .where('embed_row_id', '=', embedRowId)
  }
}

const notInEmbed = (reportId: string, embedId: string) =>
  new ApiError('EMBED_PARAM_ERROR', 400, `Report ${reportId} is not in embed ${embedId}`)

export const definitionOf = (row: EmailReportRow): ReportDefinition => JSON.parse(row.definition) as ReportDefinition

const fileName = (id: string) => id.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100) || 'metric'

/**
 * A failure as the status shows it: the message only, bounded (never a stack, never claims); an
 * SMTP server's reply runs over several lines, and every line is kept.
 */
const SMTP_REPLY: FailureTextLimits = { max: 500, firstLine: false }
export const reportFailureText = (err: unknown): string => failureText(err, SMTP_REPLY)

/** A stored report as the API shows it: never its sealed claims nor its lease. */
export function reportView(row: EmailReportRow): ReportView {
  const d = definitionOf(row)
  return {
    reportId: row.report_id,
    embedId: row.embed_id,
    name: row.name,
    metricIds: d.metricIds ? [...d.metricIds] : null,
    format: d.format,
    schedule: d.schedule,
    recipients: [...d.recipients],
    dashboardFilter: d.dashboardFilter ? { ...d.dashboardFilter } : null,
    timezone: row.timezone,
    clientId: row.client_id,
    userIdentifier: row.user_identifier === '' ? null : row.user_identifier,
    nextRunAt: row.next_run_at,
    status: {
      state: row.state,
      lastSentAt: row.last_sent_at,
      lastError: row.last_error,
      attempts: Number(row.attempts),
    },
    createdAt: row.created_at,
  }
}
