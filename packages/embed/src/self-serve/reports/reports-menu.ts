import { html, nothing, type TemplateResult } from 'lit'
import { property, state } from 'lit/decorators.js'
import { StrataApiError } from '../../api/errors.js'
import { alertIcon } from '../../render/icons.js'
import { styles } from '../../styles/index.js'
import { buttonStyles } from '../common.styles.js'
import { trashIcon } from '../icons.js'
import { menuStyles } from '../menus/menu.styles.js'
import { PopupElement } from '../menus/popup.js'
import { plusIcon } from '../metric-icons.js'
import type { SelfServeSession } from '../session.js'
import type { ScheduledReport, StrataReportDialog } from './report-dialog.js'
import { reportErrorInWords, scheduleInWords, statusInWords } from './report-words.js'
import { reportsMenuStyles } from './reports.styles.js'
import { deleteReport, listReports, type ReportView, sendReport } from './reports-api.js'
import { mailIcon } from './reports-icons.js'

type Sending =
  | { readonly state: 'sending' }
  | { readonly state: 'sent'; readonly text: string }
  | {
      readonly state: 'error'
      readonly text: string
    }

/** The parts of the report controls, exported through the dashboard (docs/web-component.md). */
const DIALOG_PARTS = 'report-dialog, report-when, report-filters, report-field-error, report-error, report-save'
export const REPORT_PARTS = `reports-button, reports-panel, reports-empty, schedule-report-button, report-item, report-what, report-format, report-schedule, report-recipients, report-status, report-send, report-send-status, report-send-error, report-delete, report-delete-confirm, ${DIALOG_PARTS}`

const errorOf = (e: unknown): StrataApiError =>
  e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e))

/**
 * The toolbar's "Reports" button (`<strata-reports-menu>`, shown when the load's
 * `reports.available`): a panel listing this token's scheduled reports (name, schedule in words,
 * format, recipients, last sent / last error / next run) with "Send now" and "Delete" (asked in
 * place), an empty state, and "Schedule report", which opens the dialog.
 */
export class StrataReportsMenu extends PopupElement {
  static override styles = [...styles, buttonStyles, menuStyles, reportsMenuStyles]

  @property({ attribute: false }) session: SelfServeSession | undefined
  @state() private reports: readonly ReportView[] | undefined
  @state() private loadError: StrataApiError | undefined
  @state() private confirming: string | undefined
  @state() private deleting: string | undefined
  @state() private deleteError: string | undefined
  @state() private sending: ReadonlyMap<string, Sending> = new Map()
  @state() private highlight: string | undefined
  private loading: Promise<void> | undefined

  private get client() {
    return this.session?.host.client
  }

  private get dialog(): StrataReportDialog | null {
    return this.renderRoot.querySelector('strata-report-dialog')
  }

  protected override show(focusFirst = true): void {
    super.show(focusFirst)
    this.confirming = undefined
    this.deleteError = undefined
    void this.load()
  }

  /** GET /reports (again on each opening: a send or a retry may have changed a status). */
  private load(): Promise<void> {
    const client = this.client
    if (!client) return Promise.resolve()
    this.loading ??= listReports(client)
      .then((list) => {
        this.reports = list
        this.loadError = undefined
      })
      .catch((e: unknown) => {
        this.loadError = errorOf(e)
        this.session?.host.report(this.loadError)
      })
      .finally(() => {
        this.loading = undefined
      })
    return this.loading
  }

  private schedule(): void {
    this.hide(false)
    this.dialog?.show(this.trigger)
  }

  private scheduled = (r: ScheduledReport): void => {
    this.session?.overlay?.notify(`“${r.name}” is scheduled: ${r.words}.`)
    this.highlight = r.reportId
    this.show(true)
  }

  private async send(report: ReportView): Promise<void> {
    const client = this.client
    if (!client || this.sending.get(report.reportId)?.state === 'sending') return
    this.setSending(report.reportId, { state: 'sending' })
    try {
      const sent = await sendReport(client, report.reportId)
      const n = sent.recipients.length
      this.setSending(report.reportId, { state: 'sent', text: `Sent to ${n} ${n === 1 ? 'recipient' : 'recipients'}` })
      void this.load()
    } catch (e) {
      const err = errorOf(e)
      this.setSending(report.reportId, { state: 'error', text: reportErrorInWords(err.code, err.status, err.message) })
      this.session?.host.report(err)
    }
  }

  private setSending(reportId: string, s: Sending): void {
    const next = new Map(this.sending)
    next.set(reportId, s)
    this.sending = next
  }

  private async deleteOne(report: ReportView, index: number): Promise<void> {
    const client = this.client
    if (!client || this.deleting) return
    this.deleting = report.reportId
    this.deleteError = undefined
    try {
      await deleteReport(client, report.reportId)
      const rest = (this.reports ?? []).filter((r) => r.reportId !== report.reportId)
      this.reports = rest
      this.confirming = undefined
      this.session?.overlay?.notify(`“${report.name}” was deleted.`)
      await this.updateComplete
      this.focusId(rest.length ? `rp-send-${Math.min(index, rest.length - 1)}` : 'rp-new')
    } catch (e) {
      const err = errorOf(e)
      this.deleteError = `“${report.name}” could not be deleted: ${reportErrorInWords(err.code, err.status, err.message)}`
      this.session?.host.report(err)
    } finally {
      this.deleting = undefined
    }
  }

  private confirm(reportId: string | undefined, focus: string): void {
    this.confirming = reportId
    void this.updateComplete.then(() => this.focusId(focus))
  }

  private focusId(id: string): void {
    this.renderRoot.querySelector<HTMLElement>(`#${id}`)?.focus()
  }

  /** Escape first leaves a delete question, then closes; Tab moves within the panel (leaving it closes it). */
  private onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && this.confirming) {
      e.preventDefault()
      e.stopPropagation()
      const at = (this.reports ?? []).findIndex((r) => r.reportId === this.confirming)
      this.confirm(undefined, `rp-delete-${at}`)
      return
    }
    if (e.key === 'Tab') return
    this.onPopupKey(e)
  }

  private onFocusOut = (e: FocusEvent): void => {
    const to = e.relatedTarget as Node | null
    if (to && !this.popup?.contains(to) && to !== this.trigger) this.hide(false)
  }

  override render(): TemplateResult {
    return html`<button
        type="button"
        id="trigger"
        class="button trigger"
        part="reports-button"
        aria-haspopup="dialog"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="popup"
        @click=${() => this.toggle()}
        @keydown=${this.onTriggerKey}
      >
        ${mailIcon}<span>Reports</span>
      </button>
      <div
        id="popup"
        popover="manual"
        role="dialog"
        aria-labelledby="rp-list-title"
        part="reports-panel"
        @keydown=${this.onKey}
        @focusout=${this.onFocusOut}
      >
        <div class="rp-list-head">
          <h2 class="menu-title" id="rp-list-title">Scheduled reports</h2>
        </div>
        ${this.renderList()}
        <div class="rp-list-foot">
          <button type="button" id="rp-new" class="button primary" part="schedule-report-button" @click=${() => this.schedule()}>
            ${plusIcon}<span>Schedule report</span>
          </button>
        </div>
      </div>
      <strata-report-dialog exportparts=${DIALOG_PARTS} .session=${this.session} .onScheduled=${this.scheduled}></strata-report-dialog>`
  }

  private renderList(): TemplateResult {
    if (this.loadError) {
      return html`<div class="rp-list-message is-failed" role="alert">
        ${alertIcon}
        <p>The reports could not be loaded: ${reportErrorInWords(this.loadError.code, this.loadError.status, this.loadError.message)}</p>
        <button type="button" class="button subtle" @click=${() => void this.load()}>Try again</button>
      </div>`
    }
    const reports = this.reports
    if (!reports) {
      return html`<div class="rp-list-message" role="status"><span class="spinner" aria-hidden="true"></span>Loading reports…</div>`
    }
    if (reports.length === 0) {
      return html`<div class="rp-list-empty" part="reports-empty">
        <span class="rp-empty-icon">${mailIcon}</span>
        <strong>No reports yet</strong>
        <p>Email this dashboard, or some of its metrics, to your team every day, week or month.</p>
      </div>`
    }
    return html`<ul class="rp-list" aria-label="Reports">
        ${reports.map((r, i) => this.renderReport(r, i))}
      </ul>
      ${this.deleteError ? html`<p class="rp-list-error" role="alert">${this.deleteError}</p>` : nothing}`
  }

  private renderReport(r: ReportView, i: number): TemplateResult {
    const tz = r.timezone
    const sending = this.sending.get(r.reportId)
    const shown = r.recipients.slice(0, 2).join(', ')
    const more = r.recipients.length - 2
    const confirming = this.confirming === r.reportId
    return html`<li
      class="rp-item ${this.highlight === r.reportId ? 'new' : ''} ${confirming ? 'confirming' : ''}"
      part="report-item"
      data-report-id=${r.reportId}
    >
      <div class="rp-item-head">
        <span class="rp-item-name" title=${r.name}>${r.name}</span>
        <span class="rp-what" part="report-what"
          >${r.metricIds ? `${r.metricIds.length} ${r.metricIds.length === 1 ? 'metric' : 'metrics'}` : 'Whole dashboard'}</span
        >
        <span class="rp-tag" part="report-format">${r.format.toUpperCase()}</span>
      </div>
      <p class="rp-item-line" part="report-schedule">${scheduleInWords(r.schedule, tz)}</p>
      <p class="rp-item-line rp-muted" title=${r.recipients.join(', ')} part="report-recipients">
        To ${shown}${more > 0 ? ` and ${more} more` : ''}
      </p>
      <p class="rp-item-line rp-status is-${r.status.state}" part="report-status">${statusInWords(r, tz)}</p>
      ${
        confirming
          ? html`<div class="rp-confirm">
              <span id="rp-confirm-${i}">Delete “${r.name}”? It will not be sent again.</span>
              <div class="rp-actions">
                <button
                  type="button"
                  class="button subtle"
                  id="rp-keep-${i}"
                  ?disabled=${this.deleting !== undefined}
                  @click=${() => this.confirm(undefined, `rp-delete-${i}`)}
                >
                  Keep
                </button>
                <button
                  type="button"
                  class="button danger"
                  id="rp-really-${i}"
                  part="report-delete-confirm"
                  aria-describedby="rp-confirm-${i}"
                  ?disabled=${this.deleting !== undefined}
                  @click=${() => void this.deleteOne(r, i)}
                >
                  ${this.deleting === r.reportId ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}Delete
                </button>
              </div>
            </div>`
          : html`<div class="rp-actions">
              <span class="rp-sent ${sending ? `is-${sending.state}` : ''}" role="status" part="report-send-status"
                >${sending?.state === 'sending' ? 'Sending…' : sending?.state === 'error' ? 'Not sent' : (sending?.text ?? '')}</span
              >
              <button
                type="button"
                class="button"
                id="rp-send-${i}"
                part="report-send"
                aria-label="Send ${r.name} now"
                ?disabled=${sending?.state === 'sending' || r.status.state === 'stopped'}
                @click=${() => void this.send(r)}
              >
                ${sending?.state === 'sending' ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}Send now
              </button>
              <button
                type="button"
                class="icon-button"
                id="rp-delete-${i}"
                part="report-delete"
                aria-label="Delete ${r.name}"
                title="Delete report"
                @click=${() => this.confirm(r.reportId, `rp-keep-${i}`)}
              >
                ${trashIcon}
              </button>
            </div>`
      }
      ${
        sending?.state === 'error' && !confirming
          ? html`<p class="rp-send-error" role="alert" part="report-send-error">${alertIcon}<span>${sending.text}</span></p>`
          : nothing
      }
    </li>`
  }
}
