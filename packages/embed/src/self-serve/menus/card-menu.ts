import { html, nothing, type TemplateResult } from 'lit'
import { property } from 'lit/decorators.js'
import type { RuntimeMetric } from '../../api/types.js'
import { styles } from '../../styles/index.js'
import {
  archiveIcon,
  eyeOffIcon,
  moreIcon,
  pencilIcon,
  restoreIcon,
  rowsIcon,
  shareIcon,
  sparkleIcon,
  trashIcon,
} from '../metric-icons.js'
import type { SelfServeSession } from '../session.js'
import { ACTION_LABELS, type CardAction } from './card-actions.js'
import { menuStyles } from './menu.styles.js'
import { PopupElement } from './popup.js'

const ICONS: Record<CardAction, TemplateResult> = {
  edit: html`${pencilIcon}`,
  reset: html`${restoreIcon}`,
  archive: html`${archiveIcon}`,
  publish: html`${shareIcon}`,
  delete: html`${trashIcon}`,
  hide: html`${eyeOffIcon}`,
  remove: html`${trashIcon}`,
}

const isDestructive = (a: CardAction) => a === 'delete' || a === 'hide' || a === 'remove'

/**
 * A card's "⋯" menu (`<strata-card-menu>`): the actions the permissions allow on this metric
 * (see permissions.ts). Delete, Hide, Remove from dashboard and Share ask for
 * confirmation first.
 */
export class StrataCardMenu extends PopupElement {
  static override styles = [...styles, menuStyles]

  @property({ attribute: false }) session: SelfServeSession | undefined
  @property({ attribute: false }) metric: RuntimeMetric | undefined
  @property({ attribute: false }) actions: readonly CardAction[] = []
  @property({ type: Boolean }) busy = false
  /** "Summarize" first (the load's `ai.summary`): a line under the chart (ai-summary.ts). */
  @property({ type: Boolean }) summarize = false
  /** "View underlying data" (the load's `permissions.underlyingData`): the rows behind the metric (underlying-dialog.ts). */
  @property({ type: Boolean }) rows = false

  private run(action: CardAction): void {
    const { session, metric } = this
    if (!session || !metric) return
    this.hide(action !== 'edit')
    if (action === 'edit') session.editMetric(metric, this.trigger)
    else void session.act(action, metric.metricId, metric.name)
  }

  override render(): TemplateResult {
    const name = this.metric?.name ?? ''
    const destructive = this.actions.filter(isDestructive)
    const other = this.actions.filter((a) => !isDestructive(a))
    const item = (a: CardAction) => html`<button
      type="button"
      role="menuitem"
      class="menu-item ${isDestructive(a) ? 'danger' : ''}"
      data-action=${a}
      @click=${() => this.run(a)}
    >
      ${ICONS[a]}<span>${ACTION_LABELS[a]}</span>
    </button>`
    const summarize = this.summarize
      ? html`<button
            type="button"
            role="menuitem"
            class="menu-item"
            data-action="summarize"
            @click=${() => {
              const { session, metric } = this
              this.hide(true)
              if (session && metric) void session.summaries.summarize(metric)
            }}
          >
            ${sparkleIcon}<span>Summarize</span>
          </button>${this.actions.length ? html`<div class="menu-sep" role="separator"></div>` : nothing}`
      : nothing
    const rows = this.rows
      ? html`<button
            type="button"
            role="menuitem"
            class="menu-item"
            data-action="rows"
            @click=${() => {
              const { session, metric } = this
              this.hide(false)
              if (session && metric) session.viewRows(metric, this.trigger)
            }}
          >
            ${rowsIcon}<span>View underlying data</span>
          </button>${this.actions.length ? html`<div class="menu-sep" role="separator"></div>` : nothing}`
      : nothing
    return html`<button
        type="button"
        id="trigger"
        class="icon-button trigger"
        part="card-menu-button"
        aria-label="Actions for ${name}"
        title="Actions"
        aria-haspopup="menu"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="popup"
        ?disabled=${this.busy}
        @click=${() => this.toggle()}
        @keydown=${this.onTriggerKey}
      >
        ${this.busy ? html`<span class="spinner"></span>` : moreIcon}
      </button>
      <div id="popup" popover="manual" role="menu" aria-label="Actions for ${name}" part="card-menu-panel" @keydown=${this.onPopupKey}>
        ${this.open ? html`${summarize}${rows}${other.map(item)}${other.length && destructive.length ? html`<div class="menu-sep" role="separator"></div>` : nothing}${destructive.map(item)}` : nothing}
      </div>`
  }
}
