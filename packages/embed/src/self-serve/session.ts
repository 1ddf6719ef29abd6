import { html, nothing, type TemplateResult } from 'lit'
import { StrataApiError } from '../api/errors.js'
import type { Drill, Model, RuntimeMetric } from '../api/types.js'
import type { MetricState } from '../embed-controller.js'
import type { MetricChange } from '../events.js'
import { CardSummaries } from './ai/ai-summary.js'
import { SelfServeApi } from './builder/metric-api.js'
import { COMPANY_REMOVE_EVENT, companySave, inCompanyMode } from './company-mode.js'
import { companyUpdateNote } from './company-update-note.js'
import { type CardAction, CONFIRM, type ConfirmRequest, cardActions } from './menus/card-actions.js'
import { plusIcon } from './metric-icons.js'
import type { SelfServeHost, SelfServeSessionApi } from './metrics-host.js'
import { canCreate, canReport, canRestore } from './permissions.js'
import { REPORT_PARTS } from './reports/reports-menu.js'

/** The elements the session drives (they register themselves when connected). */
export interface BuilderElement {
  show(metric: RuntimeMetric | undefined, opener: HTMLElement | null): void
}
export interface UnderlyingElement {
  show(metric: RuntimeMetric, opener: HTMLElement | null, drill?: Drill, segment?: string): void
}
export interface OverlayElement {
  confirm(request: ConfirmRequest): Promise<boolean>
  notify(message: string, tone?: 'ok' | 'error'): void
}

/**
 * The self-serve state of one dashboard: its API, the model (loaded once), the builder and
 * the overlays, and the card actions (confirm → call → reload the embed → tell the user).
 */
export class SelfServeSession implements SelfServeSessionApi {
  readonly api: SelfServeApi
  builder: BuilderElement | undefined
  overlay: OverlayElement | undefined
  underlying: UnderlyingElement | undefined
  private modelPromise: Promise<Model> | undefined
  private busy = new Set<string>()
  /** The cards' AI summaries (when the load's `ai.summary`). */
  readonly summaries: CardSummaries

  constructor(readonly host: SelfServeHost) {
    this.api = new SelfServeApi(host.client)
    this.summaries = new CardSummaries(host)
  }

  /** GET /model, once per session (again after a failure). */
  model(): Promise<Model> {
    this.modelPromise ??= this.api.model().catch((e: unknown) => {
      this.modelPromise = undefined
      throw e
    })
    return this.modelPromise
  }

  newMetric(opener: HTMLElement | null): void {
    this.builder?.show(undefined, opener)
  }

  editMetric(metric: RuntimeMetric, opener: HTMLElement | null): void {
    this.builder?.show(metric, opener)
  }

  /** "View underlying data": the rows behind the card's metric (underlying-dialog.ts). */
  viewRows(metric: RuntimeMetric, opener: HTMLElement | null, drill?: Drill, segment?: string): boolean {
    if (!this.underlying) return false
    this.underlying.show(metric, opener, drill, segment)
    return true
  }

  isBusy(metricId: string): boolean {
    return this.busy.has(metricId)
  }

  /** After the builder saved: reload, then focus the new or changed card. */
  async saved(change: MetricChange, name: string): Promise<void> {
    await this.host.reload(change.metricId)
    this.host.changed(change)
    this.overlay?.notify(change.action === 'create' ? `“${name}” was added to the dashboard.` : `“${name}” was saved.`)
  }

  /** A card menu's action (or a restore from the archived or hidden list). */
  async act(action: CardAction | Restore | 'keep', metricId: string, name: string): Promise<void> {
    if (this.busy.has(metricId)) return
    const confirm =
      action === 'unarchive' || action === 'restore' || action === 'edit' || action === 'keep'
        ? undefined
        : CONFIRM[action]
    if (confirm && !(await this.overlay?.confirm(confirm(name)))) return
    this.busy.add(metricId)
    this.host.requestUpdate()
    try {
      switch (action) {
        case 'edit':
          return
        case 'delete':
        case 'hide':
          await this.api.deleteMetric(metricId)
          break
        case 'remove':
          await companySave(this.host.element, COMPANY_REMOVE_EVENT, { metricId, name })
          break
        case 'archive':
          await this.api.archiveMetric(metricId)
          break
        case 'unarchive':
          await this.api.unarchiveMetric(metricId)
          break
        case 'restore':
          await this.api.restoreMetric(metricId)
          break
        case 'reset':
          await this.api.resetMetric(metricId)
          break
        case 'keep':
          await this.api.keepMetric(metricId)
          break
        case 'publish':
          await this.api.publishMetric(metricId)
          break
      }
      await this.host.reload(
        action === 'delete' || action === 'hide' || action === 'archive' || action === 'remove' ? undefined : metricId,
      )
      this.host.changed({ action, metricId })
      this.overlay?.notify(DONE[action](name))
    } catch (e) {
      const error = e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e))
      this.host.report(error)
      this.overlay?.notify(`${FAILED[action]} “${name}”: ${error.message}`, 'error')
    } finally {
      this.busy.delete(metricId)
      this.host.requestUpdate()
    }
  }

  toolbar(): TemplateResult | typeof nothing {
    const embed = this.host.embed()
    if (!embed) return nothing
    const create = canCreate(embed.permissions, embed.ai)
    const archived = canRestore(embed.permissions) ? (embed.archivedMetrics ?? []) : []
    const hidden = embed.permissions.manageMetrics ? (embed.hiddenMetrics ?? []) : []
    const reports = canReport(embed)
    if (!create && archived.length === 0 && hidden.length === 0 && !reports) return nothing
    return html`${
      reports
        ? html`<strata-reports-menu
            exportparts=${REPORT_PARTS}
            .session=${this}
          ></strata-reports-menu>`
        : nothing
    }${
      archived.length
        ? html`<strata-archived-menu
            exportparts="archived-button, archived-list"
            .session=${this}
            .items=${archived}
          ></strata-archived-menu>`
        : nothing
    }${
      hidden.length
        ? html`<strata-archived-menu
            kind="hidden"
            exportparts="hidden-button, hidden-list"
            .session=${this}
            .items=${hidden}
          ></strata-archived-menu>`
        : nothing
    }${
      create
        ? html`<button
            type="button"
            class="button new-metric"
            part="new-metric-button"
            @click=${(e: Event) => this.newMetric(e.currentTarget as HTMLElement)}
          >
            ${plusIcon}<span>New metric</span>
          </button>`
        : nothing
    }`
  }

  cardMenu(metric: RuntimeMetric): TemplateResult | typeof nothing {
    const embed = this.host.embed()
    const summarize = embed?.ai?.summary === true
    const rows = embed?.permissions.underlyingData === true
    if (!embed) return nothing
    const actions = cardActions(embed.permissions, metric, inCompanyMode(this.host.element))
    if (actions.length === 0 && !summarize && !rows) return nothing
    return html`<strata-card-menu
      part="card-menu"
      exportparts="card-menu-button, card-menu-panel"
      .session=${this}
      .metric=${metric}
      .actions=${actions}
      .summarize=${summarize}
      .rows=${rows}
      .busy=${this.busy.has(metric.metricId)}
    ></strata-card-menu>`
  }

  /** "The company updated this metric", with its two answers (company-update-note.ts). */
  cardNote(m: MetricState): TemplateResult | typeof nothing {
    return companyUpdateNote(m.metric, this.host.embed()?.permissions.metricUpdate === true, this)
  }

  cardBelow(m: MetricState): TemplateResult | typeof nothing {
    const state = this.host.embed()?.ai?.summary ? this.summaries.get(m.metric.metricId) : undefined
    if (!state) return nothing
    return html`<strata-ai-summary
      exportparts="ai-summary, ai-summary-refresh, ai-summary-dismiss"
      .summaries=${this.summaries}
      .metric=${m.metric}
      .state=${state}
      .stale=${this.summaries.staleness(state, m.metric)}
    ></strata-ai-summary>`
  }

  overlays(): TemplateResult {
    return html`<strata-self-serve-overlay .session=${this}></strata-self-serve-overlay>${
      this.host.embed()?.permissions.underlyingData
        ? html`<strata-underlying-dialog exportparts="underlying-dialog, underlying-progress" .session=${this}></strata-underlying-dialog>`
        : nothing
    }`
  }
}

/** The two restores: from the archived list (archive capability), from the hidden list (manage). */
type Restore = 'unarchive' | 'restore'

const DONE: Record<Exclude<CardAction, 'edit'> | Restore | 'keep', (name: string) => string> = {
  reset: (n) => `“${n}” is the company's version again.`,
  keep: (n) => `Kept your version of “${n}”.`,
  restore: (n) => `“${n}” is back on the dashboard.`,
  delete: (n) => `“${n}” was deleted.`,
  hide: (n) => `“${n}” is hidden from this dashboard.`,
  archive: (n) => `“${n}” was archived. Restore it from Archived.`,
  unarchive: (n) => `“${n}” is back on the dashboard.`,
  publish: (n) => `“${n}” is now shared with everyone in your organisation.`,
  remove: (n) => `“${n}” was removed from the dashboard.`,
}
const FAILED: Record<CardAction | Restore | 'keep', string> = {
  edit: 'Could not edit',
  keep: 'Could not keep your version of',
  reset: 'Could not reset',
  restore: 'Could not restore',
  delete: 'Could not delete',
  hide: 'Could not hide',
  archive: 'Could not archive',
  unarchive: 'Could not restore',
  publish: 'Could not publish',
  remove: 'Could not remove',
}
