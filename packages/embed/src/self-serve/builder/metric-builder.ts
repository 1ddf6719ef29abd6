import { isShapedChart } from '@strata/contract/chart-fit'
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit'
import { property, state } from 'lit/decorators.js'
import { isAbortError, StrataApiError } from '../../api/errors.js'
import type { ChartType, Comparison, MetricDefinition, Model, QueryResult, RuntimeMetric } from '../../api/types.js'
import type { Visual } from '../../charts/build.js'
import type { MetricState } from '../../embed-controller.js'
import { renderMetricBody } from '../../render/card.js'
import { alertIcon } from '../../render/icons.js'
import { styles } from '../../styles/index.js'
import { aiStyles } from '../ai/ai.styles.js'
import { AiAsk } from '../ai/ai-ask.js'
import { buttonStyles, dialogStyles } from '../common.styles.js'
import { COMPANY_METRIC_EVENT, companySave, inCompanyMode } from '../company-mode.js'
import type { ConfirmRequest } from '../menus/card-actions.js'
import { chartIcon, closeIcon } from '../metric-icons.js'
import type { BuilderElement, SelfServeSession } from '../session.js'
import { builderStyles } from './builder.styles.js'
import {
  addDimension,
  addFilter,
  addMeasure,
  BUILDER_CHARTS,
  type BuilderState,
  CHART_LABELS,
  chartOf,
  chartProblem,
  choicesOf,
  emptyState,
  fromDefinition,
  outputNames,
  type Problem,
  selectTable,
  suggestedName,
  tableOf,
  toDefinition,
  type Visibility,
} from './builder-state.js'
import { type FieldTarget, ROWS, renderFields, renderQuery } from './builder-view.js'
import { FieldDrag } from './field-drag.js'
import { formatStyles } from './format.styles.js'
import { formatControlId, renderComparison, renderFormats } from './format-view.js'
import { comparisonOf } from './formats.js'
import { BuilderValues } from './value-picker.js'

const PREVIEW_DEBOUNCE_MS = 350

/** Asked when the builder is closed with changes not saved (Enter discards, Escape keeps editing). */
const DISCARD: ConfirmRequest = {
  title: 'Discard changes?',
  message: 'What you changed in this metric has not been saved and will be lost.',
  confirm: 'Discard',
  cancel: 'Keep editing',
  danger: true,
  focus: 'confirm',
}

type Preview =
  | { readonly status: 'idle' }
  | { readonly status: 'loading'; readonly last?: Drawn }
  | ({ readonly status: 'ready' } & Drawn)
  | { readonly status: 'error'; readonly error: StrataApiError }

interface Drawn {
  readonly metric: RuntimeMetric
  readonly result: QueryResult
  readonly visual: Visual
}

/**
 * The metric builder (`<strata-metric-builder>`, inside the dashboard): a modal dialog to pick
 * a table, put fields into measures, dimensions and filters (drag them, or choose a field and
 * then where it goes), set sort and limit, pick the chart, see a live preview drawn by the
 * cards' own code, name it and save it. Escape closes it; focus goes back to what opened it.
 */
export class StrataMetricBuilder extends LitElement implements BuilderElement {
  static override styles = [...styles, buttonStyles, dialogStyles, builderStyles, formatStyles, aiStyles]

  @property({ attribute: false }) session: SelfServeSession | undefined

  @state() private open = false
  @state() private editing: RuntimeMetric | undefined
  @state() private s: BuilderState = emptyState()
  @state() private model: Model | undefined
  @state() private modelError: StrataApiError | undefined
  @state() private preview: Preview = { status: 'idle' }
  @state() private saving = false
  @state() private saveError: StrataApiError | undefined
  @state() private showAll = false
  @state() private search = ''
  @state() private menu: string | undefined
  @state() private over: FieldTarget | undefined
  /** The field being dragged, drawn at the pointer. */
  @state() private ghost: { readonly label: string; readonly x: number; readonly y: number } | undefined
  private opener: HTMLElement | null = null
  private timer: ReturnType<typeof setTimeout> | undefined
  private abort: AbortController | undefined
  private focusNext: string | undefined
  /** The definition (without its name) the preview shows or is running. */
  private previewKey = ''
  /** The choices when the builder opened (choicesOf): anything else is a change to discard or save. */
  private baseline = ''
  /** The discard question is open. */
  private asking = false
  /** The Ask box and suggestions (ai-ask.ts), for a new metric when the AI pilot answers. */
  private readonly ai = new AiAsk({
    addController: (c) => this.addController(c),
    removeController: (c) => this.removeController(c),
    requestUpdate: () => this.requestUpdate(),
    get updateComplete() {
      return Promise.resolve(true)
    },
    client: () => this.session?.host.client,
    flags: () => this.session?.host.embed()?.ai,
    load: (metric) => this.loadDefinition(metric),
    focus: (id) => {
      this.focusNext = id
    },
  })
  /** The text filters' value pickers (the column's values for this tenant). */
  private readonly values = new BuilderValues(this, () => this.session?.host.client)
  private readonly drag = new FieldDrag({
    root: () => this.renderRoot as ShadowRoot,
    setOver: (target) => {
      if (this.over !== target) this.over = target
    },
    setGhost: (ghost) => {
      this.ghost = ghost
    },
    drop: (target, key) => this.addTo(target, key === ROWS ? null : key),
    closeMenu: () => {
      this.menu = undefined
    },
  })

  override connectedCallback(): void {
    super.connectedCallback()
    if (this.session) this.session.builder = this
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearTimeout(this.timer)
    this.abort?.abort()
  }

  /** Opens the builder: empty (a new metric) or with a metric's definition (editing it). */
  show(metric: RuntimeMetric | undefined, opener: HTMLElement | null): void {
    this.opener = opener
    this.editing = metric
    this.saveError = undefined
    this.showAll = false
    this.search = ''
    this.menu = undefined
    this.values.reset()
    this.preview = { status: 'idle' }
    this.previewKey = ''
    this.s = metric?.definition
      ? fromDefinition(metric.definition, this.model, metric.comparison?.period)
      : emptyState()
    const priv = this.session?.host.embed()?.privateMetrics
    if (!metric && priv?.available) this.s = { ...this.s, visibility: priv.byDefault ? 'private' : 'shared' }
    this.baseline = choicesOf(this.s)
    this.open = true
    this.ai.reset()
    this.focusNext = metric ? 'bd-name' : this.session?.host.embed()?.ai?.metric ? 'bd-ask' : 'bd-table'
    void this.loadModel()
  }

  private async loadModel(): Promise<void> {
    if (!this.session) return
    this.modelError = undefined
    try {
      this.model = await this.session.model()
      // what the model fills in (the first table, an edited metric's labels) is not a change
      const clean = !this.changed()
      if (!this.s.table && this.model.tables[0]) this.s = selectTable(this.s, this.model.tables[0].name)
      else if (this.editing?.definition)
        this.s = {
          ...fromDefinition(this.editing.definition, this.model, this.editing.comparison?.period),
          ...pick(this.s),
        }
      if (clean) this.baseline = choicesOf(this.s)
      this.schedulePreview()
    } catch (e) {
      this.modelError = e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e))
    }
  }

  /** A metric from the AI band (an answer or a suggestion): the builder's state, to preview, adjust and save. */
  private loadDefinition(metric: MetricDefinition): void {
    const visibility = this.s.visibility
    this.update_({ ...fromDefinition(metric, this.model), ...(visibility ? { visibility } : {}) })
    this.showAll = false
    this.menu = undefined
  }

  /** Whether the end user changed anything since the builder opened. */
  private changed(): boolean {
    return this.open && choicesOf(this.s) !== this.baseline
  }

  /** The end user closes (Close, Cancel, Escape): with changes, only once they agree to discard them. */
  private async requestClose(): Promise<void> {
    if (!this.open || this.asking) return
    const overlay = this.session?.overlay
    if (this.changed() && overlay) {
      this.asking = true
      const discard = await overlay.confirm(DISCARD)
      this.asking = false
      if (!discard) return
    }
    this.close()
  }

  private close(): void {
    if (!this.open) return
    this.drag.cancel()
    this.open = false
    this.menu = undefined
    clearTimeout(this.timer)
    this.abort?.abort()
    this.ai.reset()
    const opener = this.opener
    this.opener = null
    if (opener?.isConnected) opener.focus()
  }

  protected override updated(changed: PropertyValues): void {
    const dialog = this.renderRoot.querySelector('dialog')
    if (dialog && this.open && !dialog.open) dialog.showModal()
    if (dialog && !this.open && dialog.open) dialog.close()
    if (this.focusNext) {
      const el = this.renderRoot.querySelector<HTMLElement>(`#${CSS.escape(this.focusNext)}`)
      // a control still disabled (the table list while the model loads) takes focus on a later update
      el?.focus()
      if (el && this.shadowRoot?.activeElement === el) this.focusNext = undefined
    }
    if (changed.has('s') && this.open) this.schedulePreview()
  }

  private update_(next: BuilderState): void {
    this.s = next
    this.saveError = undefined
  }

  private addTo(target: FieldTarget, column: string | null): void {
    const table = tableOf(this.model, this.s.table)
    const col = column === null ? null : table?.columns.find((c) => c.name === column)
    if (column !== null && !col) return
    if (target === 'measures') this.update_(addMeasure(this.s, col ?? null))
    else if (col && target === 'dimensions') this.update_(addDimension(this.s, col))
    else if (col && target === 'filters') this.update_(addFilter(this.s, col))
  }

  private problems(): readonly Problem[] {
    const r = toDefinition(this.s, this.model)
    return r.ok ? [] : r.problems
  }

  /** Whether the builder saves into the company's document (the studio): a comparison can be set there. */
  private get company(): boolean {
    return this.session ? inCompanyMode(this.session.host.element) : false
  }

  /** The comparison the metric is saved and previewed with (the company's mode only). */
  private comparison(): Comparison | undefined {
    return this.company ? comparisonOf(this.s) : undefined
  }

  private schedulePreview(): void {
    const r = this.model ? toDefinition(this.s, this.model) : undefined
    const comparison = this.comparison()
    // the name alone changed: the data is the same (the preview's title reads the state)
    const key = r?.ok ? JSON.stringify({ ...r.metric, name: '', comparison }) : ''
    if (key && key === this.previewKey && (this.preview.status === 'ready' || this.preview.status === 'loading')) return
    this.previewKey = key
    clearTimeout(this.timer)
    if (!r?.ok) {
      this.abort?.abort()
      if (this.preview.status !== 'idle') this.preview = { status: 'idle' }
      return
    }
    const last =
      this.preview.status === 'ready'
        ? pickDrawn(this.preview)
        : this.preview.status === 'loading'
          ? this.preview.last
          : undefined
    if (this.preview.status !== 'loading') this.preview = last ? { status: 'loading', last } : { status: 'loading' }
    this.timer = setTimeout(() => void this.runPreview(r.metric, comparison), PREVIEW_DEBOUNCE_MS)
  }

  private async runPreview(metric: MetricDefinition, comparison: Comparison | undefined): Promise<void> {
    const session = this.session
    if (!session) return
    this.abort?.abort()
    const abort = new AbortController()
    this.abort = abort
    try {
      const result = await session.api.preview(metric, session.host.dashboardFilter(), abort.signal, comparison)
      if (abort.signal.aborted) return
      const runtime = runtimeMetricOf(metric, this.editing?.metricId, comparison)
      this.preview = { status: 'ready', metric: runtime, result, visual: session.host.visual(runtime, result) }
    } catch (e) {
      if (isAbortError(e) || abort.signal.aborted) return
      this.preview = {
        status: 'error',
        error: e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e)),
      }
    }
  }

  private async save(): Promise<void> {
    const session = this.session
    if (!session || this.saving) return
    const r = toDefinition(this.s, this.model)
    if (!r.ok) {
      this.showAll = true
      const first = r.problems[0]
      this.focusNext = first ? focusTarget(first, this.s) : undefined
      this.requestUpdate()
      return
    }
    this.saving = true
    this.saveError = undefined
    try {
      const editing = this.editing
      const comparison = this.comparison()
      const company = companySave<string>(session.host.element, COMPANY_METRIC_EVENT, {
        metric: r.metric,
        metricId: editing?.metricId,
        ...(comparison ? { comparison } : {}),
      })
      const metricId = company
        ? await company
        : editing
          ? await session.api.updateMetric(editing.metricId, r.metric)
          : await session.api.createMetric(r.metric, this.s.visibility)
      this.saving = false
      this.opener = null
      this.close()
      await session.saved({ action: editing ? 'update' : 'create', metricId }, r.metric.name)
    } catch (e) {
      this.saving = false
      this.saveError = e instanceof StrataApiError ? e : new StrataApiError('CLIENT_ERROR', 0, String(e))
      this.focusNext = 'bd-save'
    }
  }

  private onKeydown = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape') return
    e.preventDefault()
    e.stopPropagation()
    if (this.drag.dragging) {
      this.drag.cancel()
      return
    }
    if (this.ai.cancel()) return
    if (this.menu !== undefined) {
      const id = `bd-field-${this.menu}`
      this.menu = undefined
      this.focusNext = id
      return
    }
    void this.requestClose()
  }

  override render(): TemplateResult {
    const title = this.editing ? 'Edit metric' : 'New metric'
    return html`<dialog
      aria-labelledby="bd-title"
      @keydown=${this.onKeydown}
      @cancel=${(e: Event) => {
        e.preventDefault()
        if (this.ai.cancel()) return
        void this.requestClose()
      }}
      @close=${() => {
        if (this.open) this.close()
      }}
    >
      ${
        this.open
          ? html`<header class="dialog-head">
                <h2 id="bd-title">${title}</h2>
                <button type="button" class="icon-button" aria-label="Close" title="Close (Esc)" @click=${() => void this.requestClose()}>
                  ${closeIcon}
                </button>
              </header>
              ${this.modelError ? this.renderModelError(this.modelError) : this.renderBody()} ${this.renderFoot()}
              ${
                this.ghost
                  ? html`<div class="bd-ghost" aria-hidden="true" style="translate:${this.ghost.x}px ${this.ghost.y}px">
                      ${this.ghost.label}
                    </div>`
                  : nothing
              }`
          : nothing
      }
    </dialog>`
  }

  private renderModelError(error: StrataApiError): TemplateResult {
    return html`<div class="bd-body" style="display:flex">
      <div class="error" role="alert">
        ${alertIcon}
        <p class="error-message">The fields you can build with could not be loaded: ${error.message}</p>
        <code class="error-code">${error.code}${error.status ? ` · ${error.status}` : ''}</code>
        <button type="button" class="button" @click=${() => void this.loadModel()}>Try again</button>
      </div>
    </div>`
  }

  private renderBody(): TemplateResult {
    const problems = this.problems()
    const view = {
      model: this.model,
      state: this.s,
      search: this.search,
      menu: this.menu,
      over: this.over,
      showAll: this.showAll,
      setSearch: (text: string) => {
        this.search = text
      },
      setTable: (table: string) => this.update_(selectTable(this.s, table)),
      openMenu: (column: string | undefined, focus?: string) => {
        this.menu = column
        if (focus) this.focusNext = focus
      },
      add: (target: FieldTarget, column: string | null) => {
        const from = this.menu
        this.menu = undefined
        this.addTo(target, column)
        if (from !== undefined) this.focusNext = `bd-field-${from}`
      },
      press: (e: PointerEvent, key: string, label: string, targets: readonly FieldTarget[]) =>
        this.drag.down(e, key, label, targets),
      endsDrag: () => this.drag.consumeClick(),
      update: (next: BuilderState) => this.update_(next),
      valueInput: (...args: Parameters<BuilderValues['render']>) => this.values.render(...args),
      focus: (id: string) => {
        this.focusNext = id
      },
    }
    const ai = this.ai.shown(this.editing !== undefined)
    return html`<div class="bd-body ${ai ? 'with-ai' : ''}">
      ${ai ? this.ai.render() : nothing}
      <div class="bd-col bd-fields">${renderFields(view)}</div>
      <div class="bd-col bd-query">${renderQuery(view, problems)}</div>
      <div class="bd-col bd-output">${this.renderOutput(problems)}</div>
    </div>`
  }

  private renderOutput(problems: readonly Problem[]): TemplateResult {
    const s = this.s
    const type = chartOf(s)
    const suggested = suggestedName(this.model, s) || 'New metric'
    const priv = this.session?.host.embed()?.privateMetrics
    const formatView = {
      model: this.model,
      state: s,
      showAll: this.showAll,
      update: (next: BuilderState) => this.update_(next),
    }
    return html`<div>
        <label class="bd-label" for="bd-name">Name</label>
        <input
          id="bd-name"
          class="bd-control"
          maxlength="200"
          autocomplete="off"
          placeholder=${suggested}
          .value=${s.name}
          @input=${(e: Event) => this.update_({ ...s, name: (e.target as HTMLInputElement).value })}
        />
      </div>
      <fieldset class="bd-charts">
        <legend>Chart</legend>
        <div class="bd-chart-options">
          ${BUILDER_CHARTS.map((c) => {
            // a chart with a shape is offered only when the fields fit it (the one chosen stays, to show its problem)
            const unfit = isShapedChart(c) && type !== c && chartProblem(c, s) !== null
            return html`<label data-chart=${c} class=${unfit ? 'unfit' : ''} title=${unfit ? (chartProblem(c, s) ?? '') : nothing}
              ><input
                type="radio"
                id="bd-chart-${c}"
                name="bd-chart"
                value=${c}
                ?disabled=${unfit}
                aria-describedby=${unfit ? `bd-chart-why-${c}` : nothing}
                .checked=${type === c && (s.chart !== null || s.measures.length + s.dimensions.length > 0)}
                @change=${() => this.update_({ ...s, chart: c })}
              />${CHART_LABELS[c]}</label
            >`
          })}
        </div>
        ${this.renderUnfitCharts(type)}
      </fieldset>
      ${this.renderPreview(problems)}
      ${this.company ? renderComparison(formatView) : nothing}
      ${renderFormats(formatView, problems)}
      ${
        priv?.available && !this.editing
          ? html`<fieldset class="bd-visibility">
            <legend>Who sees it</legend>
            ${(['private', 'shared'] as const).map(
              (v: Visibility) => html`<label
                ><input
                  type="radio"
                  name="bd-visibility"
                  value=${v}
                  .checked=${(s.visibility ?? 'shared') === v}
                  @change=${() => this.update_({ ...s, visibility: v })}
                />${v === 'private' ? 'Only me' : 'Everyone in my organisation'}</label
              >`,
            )}
          </fieldset>`
          : nothing
      }`
  }

  /** Why the charts not offered cannot show these fields, behind a disclosure (reachable by keyboard and touch). */
  private renderUnfitCharts(type: ChartType): TemplateResult | typeof nothing {
    const s = this.s
    const unfit = BUILDER_CHARTS.flatMap((c) => {
      const why = isShapedChart(c) && type !== c ? chartProblem(c, s) : null
      return why === null ? [] : [{ c, why }]
    })
    if (unfit.length === 0) return nothing
    return html`<details class="bd-chart-why" part="builder-chart-why">
      <summary>Why are some charts not available?</summary>
      <ul>
        ${unfit.map(({ c, why }) => html`<li id="bd-chart-why-${c}">${why}</li>`)}
      </ul>
    </details>`
  }

  private renderPreview(problems: readonly Problem[]): TemplateResult {
    const p = this.preview
    const name = this.s.name.trim() || suggestedName(this.model, this.s) || 'New metric'
    const drawn = p.status === 'ready' ? p : p.status === 'loading' ? p.last : undefined
    const state = p.status === 'ready' ? (p.result.data.length === 0 ? 'empty' : 'ready') : p.status
    return html`<section class="bd-preview card" aria-labelledby="bd-preview-title" data-state=${state}>
      <header class="card-header">
        <h3 class="card-title" id="bd-preview-title"><span class="sr-only">Preview: </span>${name}</h3>
        ${p.status === 'loading' ? html`<span class="spinner" role="status" aria-label="Updating the preview"></span>` : nothing}
      </header>
      <div class="card-body">
        ${
          p.status === 'error'
            ? html`<div class="error" role="alert">
              ${alertIcon}
              <strong>The preview could not run</strong>
              <p class="error-message">${p.error.message}</p>
              <code class="error-code">${p.error.code}${p.error.status ? ` · ${p.error.status}` : ''}</code>
              <button type="button" class="button" @click=${() => this.schedulePreview()}>Try again</button>
            </div>`
            : drawn
              ? renderMetricBody(previewHost(this.session), previewState(drawn, p.status), drawn.visual)
              : this.renderGuide(problems)
        }
      </div>
    </section>`
  }

  private renderGuide(problems: readonly Problem[]): TemplateResult {
    if (!this.model || this.preview.status === 'loading')
      return html`<div class="skeleton ${chartOf(this.s)}" aria-hidden="true"></div>
        <span class="sr-only" role="status">Loading the preview</span>`
    const first = problems[0]
    const message =
      first?.where === 'fields' || !first
        ? html`<strong>Start with a field</strong><span>Drag one into Measures or Dimensions, or choose it in the list.</span>`
        : first.where === 'chart'
          ? html`<strong>${CHART_LABELS[chartOf(this.s)]} chart</strong><span>${first.message}</span>`
          : first.where.startsWith('filter-')
            ? html`<strong>Finish the filter</strong><span>${first.message}</span>`
            : html`<span>${first.message}</span>`
    return html`<div class="bd-guide" role="status">${chartIcon}${message}</div>`
  }

  private renderFoot(): TemplateResult {
    const e = this.saveError
    const blocking = this.showAll ? this.problems() : []
    return html`<footer class="dialog-foot">
      <p class="bd-status ${e || blocking.length ? 'error' : ''}" role="alert">
        ${e ? `Not saved: ${e.message}` : blocking.length ? `Not saved: ${blocking[0]?.message}` : ''}
      </p>
      <button type="button" class="button" @click=${() => void this.requestClose()}>Cancel</button>
      <button
        type="button"
        id="bd-save"
        class="button primary"
        ?disabled=${this.saving || !this.model}
        @click=${() => void this.save()}
      >
        ${this.saving ? html`<span class="spinner"></span>` : nothing}${this.editing ? 'Save changes' : 'Save metric'}
      </button>
    </footer>`
  }
}

/** The parts of the state an end user may have changed while the model loaded. */
const pick = (s: BuilderState): Partial<BuilderState> => (s.visibility ? { visibility: s.visibility } : {})

const pickDrawn = (d: Drawn): Drawn => ({ metric: d.metric, result: d.result, visual: d.visual })

function focusTarget(p: Problem, s: BuilderState): string {
  if (p.where === 'table') return 'bd-table'
  if (p.where === 'limit') return 'bd-limit'
  if (p.where.startsWith('filter-')) return `bd-${p.where}-value`
  if (p.where === 'chart') return `bd-chart-${chartOf(s)}`
  if (p.where.startsWith('format-')) {
    const output = outputNames(s).find((o) => `format-${o.name}` === p.where)
    if (output) return formatControlId(output.key, 'currency')
  }
  return 'bd-field-search'
}

/** The definition as the card will see it (chart, formats, time grains). */
function runtimeMetricOf(metric: MetricDefinition, metricId = 'preview', comparison?: Comparison): RuntimeMetric {
  const grains = Object.fromEntries(
    (metric.query.dimensions ?? []).flatMap((d) => (d.timeGrain ? [[d.name, d.timeGrain] as const] : [])),
  )
  return {
    metricId,
    name: metric.name,
    chart: { ...metric.chart, y: metric.chart.y ? [...metric.chart.y] : undefined },
    ...(metric.formats ? { formats: metric.formats } : {}),
    ...(comparison ? { comparison } : {}),
    ...(Object.keys(grains).length ? { timeGrains: grains } : {}),
    origin: 'tenant',
    isPublished: false,
    visibility: 'shared',
    createdByUser: null,
  }
}

function previewState(d: Drawn, status: Preview['status']): MetricState {
  return {
    metric: d.metric,
    status: status === 'loading' ? 'loading' : d.result.data.length === 0 ? 'empty' : 'ready',
    result: d.result,
    page: 1,
    resultPage: 1,
    downloading: false,
  }
}

function previewHost(session: SelfServeSession | undefined) {
  return {
    locale: session?.host.locale(),
    expired: false,
    canDownload: false,
    visualOf: () => undefined,
    download: () => undefined,
    setPage: () => undefined,
    retry: () => undefined,
  }
}
