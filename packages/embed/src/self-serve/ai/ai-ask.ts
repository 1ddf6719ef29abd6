import { html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit'
import type { RuntimeClient } from '../../api/client.js'
import { isAbortError, StrataApiError } from '../../api/errors.js'
import type { MetricDefinition } from '../../api/types.js'
import { alertIcon } from '../../render/icons.js'
import { CHART_LABELS } from '../builder/builder-state.js'
import { sparkleIcon } from '../metric-icons.js'
import type { AiFlags } from '../permissions.js'
import { type AiSuggestion, askMetric, suggestMetrics } from './ai-api.js'

/** What the builder lends its AI band. */
export interface AiAskHost extends ReactiveControllerHost {
  client(): RuntimeClient | undefined
  flags(): AiFlags | undefined
  /** Puts a metric into the builder (its preview follows). */
  load(metric: MetricDefinition): void
  focus(id: string): void
}

type Ask =
  | { readonly status: 'idle' }
  | { readonly status: 'asking'; readonly question: string; readonly abort: AbortController }
  | { readonly status: 'answered'; readonly question: string; readonly explanation: string }
  | { readonly status: 'error'; readonly question: string; readonly error: StrataApiError }

type Suggestions =
  | { readonly status: 'loading'; readonly abort: AbortController }
  | { readonly status: 'ready'; readonly items: readonly AiSuggestion[] }
  | { readonly status: 'error'; readonly error: StrataApiError }

const asApiError = (e: unknown) => (e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e)))

/** The provider's failures in the end user's words (the server's message stays under them). */
function askFailure(e: StrataApiError): string {
  if (e.code === 'AI_PROVIDER_ERROR') return 'The AI assistant did not come back with a metric.'
  if (e.code === 'AI_NOT_CONFIGURED') return 'The AI assistant is not set up for this dashboard.'
  return 'The question could not be answered.'
}

/**
 * The builder's AI band (docs/web-component.md#ai-controls), above its columns for a new metric: the "Ask" box
 * (the load's `ai.metric`, creation in CHAT mode) sends the question to POST /ai/metric and
 * puts the answered metric into the builder, where it previews and saves like any other; the
 * "Suggestions" list (`ai.suggestions`, any mode) loads GET /ai/suggestions on demand and puts
 * the one chosen into the builder. Escape cancels a question under way.
 */
export class AiAsk implements ReactiveController {
  question = ''
  private ask: Ask = { status: 'idle' }
  private suggestions: Suggestions | undefined
  private suggestionsOpen = false
  private picked: string | undefined

  constructor(private readonly host: AiAskHost) {
    host.addController(this)
  }

  hostDisconnected(): void {
    this.reset()
  }

  /** The builder opens again: nothing of the last time (a question under way is dropped). */
  reset(): void {
    if (this.ask.status === 'asking') this.ask.abort.abort()
    if (this.suggestions?.status === 'loading') this.suggestions.abort.abort()
    this.ask = { status: 'idle' }
    this.question = ''
    this.suggestions = undefined
    this.suggestionsOpen = false
    this.picked = undefined
  }

  /** Whether the band shows at all (a new metric, and some AI route answers). */
  shown(editing: boolean): boolean {
    const flags = this.host.flags()
    return !editing && (flags?.metric === true || flags?.suggestions === true)
  }

  /** Cancels a question under way; false when there is none (Escape then closes the builder). */
  cancel(): boolean {
    if (this.ask.status !== 'asking') return false
    this.ask.abort.abort()
    this.ask = { status: 'idle' }
    this.host.requestUpdate()
    this.host.focus('bd-ask')
    return true
  }

  private async submit(): Promise<void> {
    const question = this.question.trim()
    const client = this.host.client()
    if (!question || !client || this.ask.status === 'asking') return
    const abort = new AbortController()
    const asking: Ask = { status: 'asking', question, abort }
    this.ask = asking
    this.picked = undefined
    // the button pressed gives way to Cancel: focus stays in the (read-only) box, Escape cancels
    this.host.focus('bd-ask')
    this.host.requestUpdate()
    try {
      const answer = await askMetric(client, question, abort.signal)
      if (this.ask !== asking) return
      this.ask = { status: 'answered', question, explanation: answer.explanation }
      this.host.load(answer.metric)
    } catch (e) {
      if (isAbortError(e) || this.ask !== asking) return
      this.ask = { status: 'error', question, error: asApiError(e) }
      this.host.focus('bd-ask')
    }
    this.host.requestUpdate()
  }

  private async toggleSuggestions(): Promise<void> {
    this.suggestionsOpen = !this.suggestionsOpen
    this.host.requestUpdate()
    if (this.suggestionsOpen && (!this.suggestions || this.suggestions.status === 'error')) await this.loadSuggestions()
  }

  private async loadSuggestions(): Promise<void> {
    const client = this.host.client()
    if (!client) return
    const abort = new AbortController()
    const loading: Suggestions = { status: 'loading', abort }
    this.suggestions = loading
    this.host.requestUpdate()
    try {
      const items = await suggestMetrics(client, abort.signal)
      if (this.suggestions !== loading) return
      this.suggestions = { status: 'ready', items }
    } catch (e) {
      if (isAbortError(e) || this.suggestions !== loading) return
      this.suggestions = { status: 'error', error: asApiError(e) }
    }
    this.host.requestUpdate()
  }

  private pick(s: AiSuggestion): void {
    this.picked = s.name
    if (this.ask.status !== 'asking') this.ask = { status: 'idle' }
    this.host.load({ ...s.metric, name: s.metric.name || s.name })
    this.host.requestUpdate()
  }

  render(): TemplateResult {
    const flags = this.host.flags()
    const canAsk = flags?.metric === true
    const canSuggest = flags?.suggestions === true
    const ask = this.ask
    const asking = ask.status === 'asking'
    const suggestButton = canSuggest
      ? html`<button
          type="button"
          class="button bd-suggest-toggle"
          id="bd-suggest-toggle"
          aria-expanded=${this.suggestionsOpen ? 'true' : 'false'}
          aria-controls="bd-suggest-panel"
          @click=${() => void this.toggleSuggestions()}
        >
          Suggestions
        </button>`
      : nothing
    return html`<section class="bd-ai" aria-label="AI assistant" data-state=${ask.status}>
      ${
        canAsk
          ? html`<form
              class="bd-ask"
              @submit=${(e: Event) => {
                e.preventDefault()
                void this.submit()
              }}
            >
              <label class="bd-ask-field" for="bd-ask">
                <span class="bd-ask-icon" aria-hidden="true">${sparkleIcon}</span>
                <span class="sr-only">Ask for a metric in words</span>
                <input
                  id="bd-ask"
                  type="text"
                  maxlength="2000"
                  autocomplete="off"
                  enterkeyhint="send"
                  placeholder="Ask for a metric in words, e.g. “Revenue by month for the last year”"
                  aria-describedby="bd-ask-status"
                  aria-invalid=${ask.status === 'error' ? 'true' : 'false'}
                  ?readonly=${asking}
                  .value=${this.question}
                  @input=${(e: Event) => {
                    this.question = (e.target as HTMLInputElement).value
                    this.host.requestUpdate()
                  }}
                />
              </label>
              ${
                asking
                  ? html`<button type="button" class="button" id="bd-ask-cancel" @click=${() => this.cancel()}>Cancel</button>`
                  : html`<button type="submit" class="button primary" id="bd-ask-submit" ?disabled=${!this.question.trim()}>
                      Ask
                    </button>`
              }
              ${suggestButton}
            </form>`
          : html`<div class="bd-ask only-suggest">
              <p class="bd-ai-lead">${sparkleIcon}<span>Not sure where to start? See metrics suggested for this data.</span></p>
              ${suggestButton}
            </div>`
      }
      ${canAsk ? this.renderStatus() : nothing} ${this.suggestionsOpen ? this.renderSuggestions() : nothing}
    </section>`
  }

  private renderStatus(): TemplateResult {
    const ask = this.ask
    switch (ask.status) {
      case 'idle':
        return html`<p class="bd-ai-status" id="bd-ask-status" role="status">
          ${this.picked ? html`Showing the suggestion “${this.picked}”: adjust it below, then save.` : 'Describe what to measure and how to break it down; the metric appears below to adjust and save.'}
        </p>`
      case 'asking':
        return html`<p class="bd-ai-status asking" id="bd-ask-status" role="status">
          <span class="spinner" aria-hidden="true"></span>
          <span>Building a metric for “${ask.question}”… this can take a few seconds.</span>
        </p>`
      case 'answered':
        return html`<div class="bd-ai-status answered" id="bd-ask-status" role="status">
          <span class="bd-ai-mark" aria-hidden="true">${sparkleIcon}</span>
          <p><strong>${ask.explanation || 'Here is a metric for your question.'}</strong>
          <span class="bd-ai-sub">Check the preview, adjust the fields if needed, then save.</span></p>
        </div>`
      case 'error':
        return html`<div class="bd-ai-status failed" id="bd-ask-status" role="alert">
          <span class="bd-ai-mark" aria-hidden="true">${alertIcon}</span>
          <p>
            <strong>${askFailure(ask.error)}</strong>
            <span class="bd-ai-sub">${ask.error.message}
              <code>${ask.error.code}${ask.error.status ? ` · ${ask.error.status}` : ''}</code></span>
          </p>
          <button type="button" class="button" @click=${() => void this.submit()}>Try again</button>
        </div>`
    }
  }

  private renderSuggestions(): TemplateResult {
    const s = this.suggestions
    const body =
      !s || s.status === 'loading'
        ? html`<ul class="bd-suggest-list" aria-hidden="true">
              ${[0, 1, 2, 3].map(() => html`<li><span class="bd-suggest-skeleton"></span></li>`)}
            </ul>
            <span class="sr-only" role="status">Loading suggestions</span>`
        : s.status === 'error'
          ? html`<div class="bd-ai-status failed" role="alert">
              <span class="bd-ai-mark" aria-hidden="true">${alertIcon}</span>
              <p><strong>Suggestions could not load.</strong><span class="bd-ai-sub">${s.error.message}</span></p>
              <button type="button" class="button" @click=${() => void this.loadSuggestions()}>Try again</button>
            </div>`
          : s.items.length === 0
            ? html`<p class="bd-ai-status" role="status">No suggestions for this data right now. Ask in words, or build from the fields below.</p>`
            : html`<ul class="bd-suggest-list">
                ${s.items.map(
                  (item) => html`<li>
                    <button
                      type="button"
                      class="bd-suggestion"
                      data-suggestion=${item.name}
                      aria-pressed=${this.picked === item.name ? 'true' : 'false'}
                      @click=${() => this.pick(item)}
                    >
                      <span class="bd-suggestion-name">${item.name}</span>
                      <span class="bd-suggestion-type">${CHART_LABELS[item.metric.chart.type] ?? item.metric.chart.type}</span>
                    </button>
                  </li>`,
                )}
              </ul>`
    return html`<div class="bd-suggest" id="bd-suggest-panel" role="region" aria-label="Suggested metrics">
      <h3 class="bd-section-title">Suggested for this data</h3>
      ${body}
    </div>`
  }
}
