import { css, html, LitElement, nothing, type TemplateResult } from 'lit'
import { property } from 'lit/decorators.js'
import { isAbortError, StrataApiError } from '../../api/errors.js'
import type { RuntimeMetric } from '../../api/types.js'
import { alertIcon } from '../../render/icons.js'
import { styles } from '../../styles/index.js'
import { closeIcon, refreshIcon, sparkleIcon } from '../metric-icons.js'
import type { SelfServeHost } from '../metrics-host.js'
import { summarizeMetric } from './ai-api.js'

/**
 * One card's summary: asked under the filters in `filterKey` (JSON of the dashboard filter), of
 * the metric as `metricKey` (JSON of its definition, as the load gave it).
 */
export type SummaryState = { readonly filterKey: string; readonly metricKey: string } & (
  | { readonly status: 'loading'; readonly abort: AbortController }
  | { readonly status: 'ready'; readonly text: string }
  | { readonly status: 'error'; readonly error: StrataApiError }
)

/** Why a summary no longer describes the card: its filters or its metric changed since. */
export type Staleness = '' | 'filters' | 'metric'

const filterKeyOf = (filter: Readonly<Record<string, unknown>> | undefined) => JSON.stringify(filter ?? {})

/**
 * The AI summaries of a dashboard's cards (POST /ai/summary, docs/runtime-api.md#summary): one per card at
 * most, asked with the dashboard filters in effect; when those or the metric's definition
 * change, the line is marked stale (the text stays, with a Refresh) until asked again or dismissed.
 */
export class CardSummaries {
  private readonly states = new Map<string, SummaryState>()

  constructor(private readonly host: SelfServeHost) {}

  get(metricId: string): SummaryState | undefined {
    return this.states.get(metricId)
  }

  /** Whether the summary was asked of another definition of the metric, or under other filters. */
  staleness(state: SummaryState, metric: RuntimeMetric): Staleness {
    if (state.metricKey !== JSON.stringify(metric)) return 'metric'
    return state.filterKey === filterKeyOf(this.host.dashboardFilter()) ? '' : 'filters'
  }

  async summarize(metric: RuntimeMetric): Promise<void> {
    const { metricId } = metric
    const previous = this.states.get(metricId)
    if (previous?.status === 'loading') previous.abort.abort()
    const filter = this.host.dashboardFilter()
    const state: SummaryState = {
      status: 'loading',
      filterKey: filterKeyOf(filter),
      metricKey: JSON.stringify(metric),
      abort: new AbortController(),
    }
    this.states.set(metricId, state)
    this.host.requestUpdate()
    try {
      const text = await summarizeMetric(this.host.client, metricId, filter, state.abort.signal)
      if (this.states.get(metricId) !== state) return
      this.states.set(metricId, { status: 'ready', filterKey: state.filterKey, metricKey: state.metricKey, text })
    } catch (e) {
      if (isAbortError(e) || this.states.get(metricId) !== state) return
      const error = e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e))
      this.states.set(metricId, { status: 'error', filterKey: state.filterKey, metricKey: state.metricKey, error })
    }
    this.host.requestUpdate()
  }

  dismiss(metricId: string): void {
    const state = this.states.get(metricId)
    if (state?.status === 'loading') state.abort.abort()
    this.states.delete(metricId)
    this.host.requestUpdate()
    // focus goes back to the card's menu, where Summarize is
    const card = this.host.element.shadowRoot?.querySelector(`.card[data-metric-id="${CSS.escape(metricId)}"]`)
    card?.querySelector('strata-card-menu')?.shadowRoot?.querySelector<HTMLElement>('#trigger')?.focus()
  }
}

/**
 * The line under a card's chart (`<strata-ai-summary>`, part `ai-summary`): the summary with a
 * dismiss button, "Summarizing…" while it is asked, the error with Try again, and when the
 * dashboard filters or the metric changed since, the text dimmed with a Refresh. It takes its height from the
 * chart inside the card (the card keeps its size, so no other card moves).
 */
export class StrataAiSummary extends LitElement {
  static override styles = [
    ...styles,
    css`
      :host {
        display: block;
        flex: none;
        margin: -6px 12px 12px;
      }
      .line {
        display: flex;
        align-items: flex-start;
        gap: 8px;
        padding: 8px 6px 8px 10px;
        border-radius: 8px;
        background: color-mix(in srgb, var(--_primary) 6%, var(--_surface));
        border: 1px solid color-mix(in srgb, var(--_primary) 16%, var(--_border));
        font-size: 13px;
        line-height: 1.45;
      }
      .line.failed {
        background: color-mix(in srgb, var(--_negative) 6%, var(--_surface));
        border-color: color-mix(in srgb, var(--_negative) 25%, var(--_border));
      }
      .mark {
        flex: none;
        display: inline-flex;
        width: 16px;
        height: 20px;
        align-items: center;
        color: var(--_primary);
      }
      .mark svg {
        width: 16px;
        height: 16px;
      }
      .failed .mark {
        color: var(--_negative);
      }
      .text {
        flex: 1;
        min-width: 0;
        margin: 0;
        max-height: 6.2em;
        overflow: auto;
        padding-top: 1px;
      }
      .outdated .text {
        color: var(--_muted);
      }
      .note {
        display: block;
        margin-top: 2px;
        font-size: 12px;
        color: var(--_muted);
      }
      .loading {
        color: var(--_muted);
      }
      .actions {
        flex: none;
        display: flex;
        gap: 2px;
      }
      .actions .icon-button {
        width: 26px;
        height: 26px;
      }
      .link {
        padding: 0;
        border: 0;
        background: none;
        color: var(--_primary);
        font: inherit;
        font-weight: 600;
        cursor: pointer;
      }
      .link:hover {
        text-decoration: underline;
      }
      .link:focus-visible {
        outline: 2px solid var(--_primary);
        outline-offset: 2px;
        border-radius: 3px;
      }
    `,
  ]

  @property({ attribute: false }) summaries: CardSummaries | undefined
  @property({ attribute: false }) metric: RuntimeMetric | undefined
  @property({ attribute: false }) state: SummaryState | undefined
  /** '' while the summary describes the card as shown; else what changed since. */
  @property() stale: Staleness = ''

  override render(): TemplateResult | typeof nothing {
    const { summaries, metric, state } = this
    if (!summaries || !metric || !state) return nothing
    const again = () => void summaries.summarize(metric)
    const name = metric.name
    const body =
      state.status === 'loading'
        ? html`<p class="text loading">Summarizing ${name}…</p>`
        : state.status === 'error'
          ? html`<p class="text">
              Could not summarize: ${state.error.message}
              <button type="button" class="link" @click=${again}>Try again</button>
            </p>`
          : html`<p class="text">
              ${state.text}
              ${
                this.stale
                  ? html`<span class="note"
                      >${this.stale === 'metric' ? 'The metric changed since.' : 'The filters changed since.'}
                      <button type="button" class="link" part="ai-summary-refresh" @click=${again}>Refresh</button></span
                    >`
                  : nothing
              }
            </p>`
    return html`<div
      class="line ${state.status === 'error' ? 'failed' : state.status} ${this.stale && state.status === 'ready' ? 'outdated' : ''}"
      part="ai-summary"
      role="status"
      aria-live="polite"
      data-state=${this.stale && state.status === 'ready' ? 'stale' : state.status}
    >
      <span class="mark" aria-hidden="true"
        >${state.status === 'loading' ? html`<span class="spinner"></span>` : state.status === 'error' ? alertIcon : sparkleIcon}</span
      >
      ${body}
      <span class="actions">
        ${
          state.status === 'ready' && !this.stale
            ? html`<button type="button" class="icon-button" aria-label="Summarize ${name} again" title="Summarize again" @click=${again}>
                ${refreshIcon}
              </button>`
            : nothing
        }
        <button
          type="button"
          class="icon-button"
          part="ai-summary-dismiss"
          aria-label="Dismiss the summary of ${name}"
          title="Dismiss"
          @click=${() => summaries.dismiss(metric.metricId)}
        >
          ${closeIcon}
        </button>
      </span>
    </div>`
  }
}
