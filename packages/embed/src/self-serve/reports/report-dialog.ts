import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit'
import { property, state } from 'lit/decorators.js'
import { live } from 'lit/directives/live.js'
import { StrataApiError } from '../../api/errors.js'
import { defaultOf, isPinned } from '../../lib/filters.js'
import { alertIcon, clockIcon } from '../../render/icons.js'
import { styles } from '../../styles/index.js'
import { buttonStyles, dialogStyles } from '../common.styles.js'
import { closeIcon } from '../metric-icons.js'
import type { SelfServeSession } from '../session.js'
import {
  type DraftField,
  draftProblems,
  emptyDraft,
  FIELD_ORDER,
  type ReportDraft,
  reportBody,
} from './report-draft.js'
import {
  allowedInWords,
  filterValueInWords,
  ordinal,
  reportErrorInWords,
  scheduleInWords,
  WEEKDAYS,
} from './report-words.js'
import { reportDialogStyles } from './reports.styles.js'
import { createReport, type ReportFormat } from './reports-api.js'

const FORMATS: readonly { value: ReportFormat; label: string; hint: string }[] = [
  { value: 'csv', label: 'CSV', hint: 'The data, one file per metric' },
  { value: 'png', label: 'PNG', hint: 'One chart image per metric' },
  { value: 'pdf', label: 'PDF', hint: 'The dashboard as one document' },
]

/** The control of each field, for focus on its error. */
const FIELD_ID: Record<DraftField, string> = {
  name: 'rp-name',
  metrics: 'rp-scope-metrics',
  time: 'rp-time',
  recipients: 'rp-recipients',
}

/** What the dialog tells its opener once a report is scheduled. */
export interface ScheduledReport {
  readonly reportId: string
  readonly name: string
  readonly words: string
}

/**
 * "Schedule report" (`<strata-report-dialog>`): a modal dialog to name a report, pick the whole
 * dashboard or some metrics, a format, a schedule in the token's time zone and recipients; the
 * dashboard's current filters go with it. Field errors show inline once the user tries to save,
 * a server error in the footer; what was typed stays. Focus is kept inside (Tab wraps), Escape
 * closes, Enter in a field saves; focus goes back to what opened it.
 */
export class StrataReportDialog extends LitElement {
  static override styles = [...styles, buttonStyles, dialogStyles, reportDialogStyles]

  @property({ attribute: false }) session: SelfServeSession | undefined
  /** Called once a report is scheduled (the dialog has closed). */
  @property({ attribute: false }) onScheduled: ((report: ScheduledReport) => void) | undefined
  @state() private open = false
  @state() private draft: ReportDraft = emptyDraft()
  @state() private tried = false
  @state() private saving = false
  @state() private error: StrataApiError | undefined
  private opener: HTMLElement | null = null
  private focusNext: string | undefined

  /** Opens an empty dialog; focus on the name. */
  show(opener: HTMLElement | null): void {
    this.opener = opener
    // a token that may send to one address only (its user's, say): that address, ready
    const [only, ...others] = this.allowed ?? []
    this.draft = {
      ...emptyDraft(),
      recipients: only !== undefined && !only.startsWith('@') && !others.length ? only : '',
    }
    this.tried = false
    this.saving = false
    this.error = undefined
    this.open = true
    this.focusNext = 'rp-name'
  }

  close(): void {
    if (!this.open) return
    this.open = false
    // closed now, not at the next render: the page stays inert (and unfocusable) while it is modal
    this.renderRoot.querySelector('dialog')?.close()
    const opener = this.opener
    this.opener = null
    if (opener?.isConnected) opener.focus()
  }

  private get embed() {
    return this.session?.host.embed()
  }

  /** Who the token may send reports to (the load's `reports.recipients`; undefined: not said). */
  private get allowed(): readonly string[] | undefined {
    return this.embed?.reports.recipients
  }

  private get timezone(): string {
    return this.embed?.timezone ?? 'UTC'
  }

  private set(patch: Partial<ReportDraft>): void {
    this.draft = { ...this.draft, ...patch }
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed)
    const dialog = this.renderRoot.querySelector('dialog')
    if (dialog && this.open && !dialog.open) dialog.showModal()
    if (dialog && !this.open && dialog.open) dialog.close()
    if (this.focusNext) {
      this.renderRoot.querySelector<HTMLElement>(`#${this.focusNext}`)?.focus()
      this.focusNext = undefined
    }
  }

  private async submit(e?: Event): Promise<void> {
    e?.preventDefault()
    const session = this.session
    if (!session || this.saving) return
    const problems = draftProblems(this.draft, this.allowed)
    this.tried = true
    const first = FIELD_ORDER.find((f) => problems[f])
    if (first) {
      this.focusNext = FIELD_ID[first]
      this.requestUpdate()
      return
    }
    this.saving = true
    this.error = undefined
    const body = reportBody(this.draft, session.host.dashboardFilter())
    try {
      const reportId = await createReport(session.host.client, body)
      this.saving = false
      this.close()
      this.onScheduled?.({ reportId, name: body.name, words: scheduleInWords(body.schedule, this.timezone) })
    } catch (err) {
      this.saving = false
      this.error = err instanceof StrataApiError ? err : new StrataApiError('CLIENT_ERROR', 0, String(err))
      this.focusNext = 'rp-save'
    }
  }

  /** Tab wraps inside the dialog; Enter in a one-line field saves. */
  private onKeydown = (e: KeyboardEvent): void => {
    if (e.key === 'Tab') {
      const all = [
        ...this.renderRoot.querySelectorAll<HTMLElement>(
          'dialog button:not([disabled]), dialog input:not([disabled]), dialog select:not([disabled])',
        ),
      ].filter(
        (el) => el.offsetParent !== null && !(el instanceof HTMLInputElement && el.type === 'radio' && !el.checked),
      )
      const active = (this.renderRoot as ShadowRoot).activeElement
      const at = active ? all.indexOf(active as HTMLElement) : -1
      const to = e.shiftKey ? (at <= 0 ? all.length - 1 : -1) : at === all.length - 1 ? 0 : -1
      if (to >= 0) {
        e.preventDefault()
        all[to]?.focus()
      }
      return
    }
    const target = e.target as HTMLElement
    if (
      e.key === 'Enter' &&
      target instanceof HTMLInputElement &&
      target.type !== 'checkbox' &&
      target.type !== 'radio'
    ) {
      e.preventDefault()
      void this.submit()
    }
  }

  override render(): TemplateResult {
    return html`<dialog
      aria-labelledby="rp-title"
      part="report-dialog"
      @keydown=${this.onKeydown}
      @cancel=${(e: Event) => {
        e.preventDefault()
        this.close()
      }}
      @close=${() => this.close()}
    >
      ${
        this.open
          ? html`<form class="rp-form" novalidate @submit=${(e: Event) => void this.submit(e)}>
              <header class="dialog-head">
                <h2 id="rp-title">Schedule report</h2>
                <button type="button" class="icon-button" aria-label="Close" title="Close (Esc)" @click=${() => this.close()}>
                  ${closeIcon}
                </button>
              </header>
              <div class="rp-body">${this.renderFields()}</div>
              ${this.renderFoot()}
            </form>`
          : nothing
      }
    </dialog>`
  }

  private fieldError(
    field: DraftField,
    problems: Partial<Record<DraftField, string>>,
  ): TemplateResult | typeof nothing {
    const p = this.tried ? problems[field] : undefined
    return p
      ? html`<p class="rp-error" id="rp-${field}-error" part="report-field-error">${alertIcon}<span>${p}</span></p>`
      : nothing
  }

  private invalid(field: DraftField, problems: Partial<Record<DraftField, string>>) {
    const bad = this.tried && problems[field] !== undefined
    return { 'aria-invalid': bad ? 'true' : 'false', describedBy: bad ? `rp-${field}-error` : undefined }
  }

  private renderFields(): TemplateResult {
    const d = this.draft
    const problems = draftProblems(d, this.allowed)
    const metrics = this.embed?.metrics ?? []
    const name = this.invalid('name', problems)
    const time = this.invalid('time', problems)
    const rcpt = this.invalid('recipients', problems)
    const metricsBad = this.invalid('metrics', problems)
    return html`<div class="rp-field">
        <label class="rp-label" for="rp-name">Name</label>
        <input
          id="rp-name"
          class="rp-control"
          maxlength="200"
          autocomplete="off"
          placeholder="Weekly sales summary"
          aria-invalid=${name['aria-invalid']}
          aria-describedby=${name.describedBy ?? 'rp-name-hint'}
          .value=${live(d.name)}
          @input=${(e: Event) => this.set({ name: (e.target as HTMLInputElement).value })}
        />
        ${this.tried && problems.name ? this.fieldError('name', problems) : html`<p class="rp-hint" id="rp-name-hint">The subject of the email.</p>`}
      </div>

      <fieldset class="rp-field" aria-describedby=${metricsBad.describedBy ?? nothing}>
        <legend class="rp-label">What to send</legend>
        <div class="rp-choices">
          <label class="rp-choice">
            <input
              type="radio"
              name="rp-scope"
              id="rp-scope-dashboard"
              .checked=${live(d.scope === 'dashboard')}
              @change=${() => this.set({ scope: 'dashboard' })}
            />
            <span>The whole dashboard <span class="rp-muted">(${metrics.length} ${metrics.length === 1 ? 'metric' : 'metrics'})</span></span>
          </label>
          <label class="rp-choice">
            <input
              type="radio"
              name="rp-scope"
              id="rp-scope-metrics"
              aria-invalid=${metricsBad['aria-invalid']}
              .checked=${live(d.scope === 'metrics')}
              @change=${() => this.set({ scope: 'metrics' })}
            />
            <span>Chosen metrics</span>
          </label>
        </div>
        ${
          d.scope === 'metrics'
            ? html`<ul class="rp-metrics" aria-label="Metrics to send">
                ${metrics.map(
                  (m, i) => html`<li>
                    <label class="rp-check">
                      <input
                        type="checkbox"
                        id="rp-metric-${i}"
                        data-metric-id=${m.metricId}
                        .checked=${live(d.metricIds.includes(m.metricId))}
                        @change=${(e: Event) => {
                          const on = (e.target as HTMLInputElement).checked
                          const ids = new Set(d.metricIds)
                          if (on) ids.add(m.metricId)
                          else ids.delete(m.metricId)
                          // keep the dashboard's order
                          this.set({ metricIds: metrics.map((x) => x.metricId).filter((id) => ids.has(id)) })
                        }}
                      />
                      <span>${m.name}</span>
                    </label>
                  </li>`,
                )}
              </ul>`
            : nothing
        }
        ${this.fieldError('metrics', problems)}
      </fieldset>

      <fieldset class="rp-field">
        <legend class="rp-label">Format</legend>
        <div class="rp-formats">
          ${FORMATS.map(
            (f) => html`<label class="rp-format">
              <input
                type="radio"
                name="rp-format"
                id="rp-format-${f.value}"
                value=${f.value}
                .checked=${live(d.format === f.value)}
                @change=${() => this.set({ format: f.value })}
              />
              <strong>${f.label}</strong>
              <span>${f.hint}</span>
            </label>`,
          )}
        </div>
      </fieldset>

      <fieldset class="rp-field">
        <legend class="rp-label">Schedule</legend>
        <div class="rp-schedule">
          <div>
            <label class="rp-sublabel" for="rp-frequency">Repeat</label>
            <select
              id="rp-frequency"
              class="rp-control"
              .value=${live(d.frequency)}
              @change=${(e: Event) => this.set({ frequency: (e.target as HTMLSelectElement).value as ReportDraft['frequency'] })}
            >
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
              <option value="monthly">Monthly</option>
            </select>
          </div>
          ${
            d.frequency === 'weekly'
              ? html`<div>
                  <label class="rp-sublabel" for="rp-day-of-week">On</label>
                  <select
                    id="rp-day-of-week"
                    class="rp-control"
                    .value=${live(String(d.dayOfWeek))}
                    @change=${(e: Event) => this.set({ dayOfWeek: Number((e.target as HTMLSelectElement).value) })}
                  >
                    ${[1, 2, 3, 4, 5, 6, 0].map((i) => html`<option value=${i} ?selected=${i === d.dayOfWeek}>${WEEKDAYS[i]}</option>`)}
                  </select>
                </div>`
              : d.frequency === 'monthly'
                ? html`<div>
                    <label class="rp-sublabel" for="rp-day-of-month">On the</label>
                    <select
                      id="rp-day-of-month"
                      class="rp-control"
                      .value=${live(String(d.dayOfMonth))}
                      @change=${(e: Event) => this.set({ dayOfMonth: Number((e.target as HTMLSelectElement).value) })}
                    >
                      ${Array.from({ length: 31 }, (_, i) => i + 1).map(
                        (n) => html`<option value=${n} ?selected=${n === d.dayOfMonth}>${ordinal(n)}</option>`,
                      )}
                    </select>
                  </div>`
                : nothing
          }
          <div>
            <label class="rp-sublabel" for="rp-time">At</label>
            <input
              id="rp-time"
              type="time"
              class="rp-control"
              required
              aria-invalid=${time['aria-invalid']}
              aria-describedby=${time.describedBy ?? 'rp-when'}
              .value=${live(d.time)}
              @input=${(e: Event) => this.set({ time: (e.target as HTMLInputElement).value })}
            />
          </div>
        </div>
        ${
          this.tried && problems.time
            ? this.fieldError('time', problems)
            : html`<p class="rp-when" id="rp-when" part="report-when">
                ${clockIcon}<span>${scheduleInWords(
                  {
                    frequency: d.frequency,
                    time: d.time,
                    dayOfWeek: d.dayOfWeek,
                    dayOfMonth: d.dayOfMonth,
                  },
                  this.timezone,
                )}</span>
              </p>`
        }
      </fieldset>

      <div class="rp-field">
        <label class="rp-label" for="rp-recipients">Recipients</label>
        <input
          id="rp-recipients"
          class="rp-control"
          inputmode="email"
          autocomplete="off"
          spellcheck="false"
          placeholder="ann@example.com, ops@example.com"
          aria-invalid=${rcpt['aria-invalid']}
          aria-describedby=${rcpt.describedBy ?? 'rp-recipients-hint'}
          .value=${live(d.recipients)}
          @input=${(e: Event) => this.set({ recipients: (e.target as HTMLInputElement).value })}
        />
        ${
          this.tried && problems.recipients
            ? this.fieldError('recipients', problems)
            : html`<p class="rp-hint" id="rp-recipients-hint">Email addresses, separated by commas or spaces (up to 50).${this.allowed ? ` Reports may go to ${allowedInWords(this.allowed)}.` : ''}</p>`
        }
      </div>
      ${this.renderFilters()}`
  }

  /** The dashboard filters the report will carry, in words (a filter left at its default says so). */
  private renderFilters(): TemplateResult {
    const chosen = this.session?.host.dashboardFilter() ?? {}
    const entries = (this.embed?.dashboard.filters ?? []).flatMap((f) => {
      if (isPinned(f)) return []
      const value = chosen[f.name] ?? defaultOf(f)
      return value === undefined ? [] : [{ label: f.label ?? f.name, value, byDefault: chosen[f.name] === undefined }]
    })
    return html`<div class="rp-filters" part="report-filters">
      ${
        entries.length
          ? html`<p><strong>Sent with the dashboard's current filters</strong></p>
              <ul>
                ${entries.map(
                  (e) =>
                    html`<li>
                      <span class="rp-muted">${e.label}:</span> ${filterValueInWords(e.value)}${
                        e.byDefault ? html` <span class="rp-muted">(default)</span>` : nothing
                      }
                    </li>`,
                )}
              </ul>`
          : html`<p>
              <strong>No dashboard filter is set.</strong> The report holds everything this dashboard shows you.
            </p>`
      }
    </div>`
  }

  private renderFoot(): TemplateResult {
    const e = this.error
    return html`<footer class="dialog-foot">
      <div class="rp-status" role="alert" part="report-error">
        ${
          e
            ? html`${alertIcon}<span
                  >${reportErrorInWords(e.code, e.status, e.message)}
                  <code class="rp-code">${e.code}${e.status ? ` · ${e.status}` : ''}</code></span
                >`
            : nothing
        }
      </div>
      <button type="button" class="button" @click=${() => this.close()}>Cancel</button>
      <button type="submit" id="rp-save" class="button primary" part="report-save" ?disabled=${this.saving}>
        ${this.saving ? html`<span class="spinner" aria-hidden="true"></span>Scheduling…` : 'Schedule report'}
      </button>
    </footer>`
  }
}
