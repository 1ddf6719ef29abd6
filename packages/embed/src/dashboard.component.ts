import { effectiveLayout } from '@strata/contract/grid'
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit'
import { property, state } from 'lit/decorators.js'
import { repeat } from 'lit/directives/repeat.js'
import { styleMap } from 'lit/directives/style-map.js'
import type { DrillFilter, LayoutItem, QueryResult, RuntimeEmbed, RuntimeFilter } from './api/types.js'
import { buildVisual, drawnUpFront, type Visual } from './charts/build.js'
import { loadShapedCharts } from './charts/load-shaped.js'
import { shapedLoaded } from './charts/shaped.js'
import type { DrillSession } from './drill/index.js'
import { EmbedController, type HostState, type MetricState } from './embed-controller.js'
import { emit } from './events.js'
import { pageUrl } from './filter-state.js'
import { defaultBaseUrl, normalizeBaseUrl } from './lib/base-url.js'
import type { FilterValue } from './lib/filters.js'
import { parseOptions, type StrataOptions } from './lib/options.js'
import { type ChartTheme, parseTheme, resolveChartTheme, type StrataTheme, themeToCssVars } from './lib/theme.js'
import { MenuController } from './menu-controller.js'
import type { FilterOptions } from './pickers.js'
import { type CardDrill, renderCard } from './render/card.js'
import type { FilterBarHost } from './render/filter-bar-host.js'
import { renderFilterBar } from './render/filters.js'
import { chevronIcon, clockIcon, layoutIcon, viewsIcon } from './render/icons.js'
import { renderSidebar, renderSidebarToggle } from './render/sidebar.js'
import { renderLoadError, renderLoading } from './render/states.js'
import type { LayoutViews } from './self-serve/index.js'
import type { SelfServeHost, SelfServeModule, SelfServeSessionApi } from './self-serve/metrics-host.js'
import { wantsSelfServe } from './self-serve/permissions.js'
import { styles } from './styles/index.js'

const TEXT_DEBOUNCE_MS = 400
/** The views menu's popup key and its toggle's id (self-serve/views/views.ts). */
const VIEWS = 'strata-views'

/**
 * An embedded Strata dashboard: its filters, its metrics on a 12-column grid, and every chart
 * type of the dashboard document. Talks to the runtime API with a guest token.
 *
 * @summary `<strata-dashboard token="…" embed-id="…">`
 *
 * @fires strata-ready - `{ embedId, metrics }` once every metric has been drawn (or settled as empty or failed) the first time.
 * @fires strata-error - `{ code, message, status, metricId?, reason? }` when a call fails (not for an expired token), and once when the element stops: the embed is gone (`reason: "EMBED_GONE"`) or renewing the token kept failing (`TOKEN_REFRESH_FAILED`).
 * @fires strata-filter-change - `{ filters }` after the end user changes a filter: every filter's value in effect.
 * @fires strata-drill-change - `{ drills }` after the end user adds or removes a drill chip: every chip in effect, as the `drills` property.
 * @fires strata-token-expired - `{ embedId }` when the token stops working; set a new `token` to carry on.
 * @fires strata-metric-change - `{ action, metricId }` after the end user created, edited, deleted, hid, archived, restored or shared a metric.
 *
 * @csspart base - The root wrapper; receives the theme's custom properties.
 * @csspart header - The dashboard header.
 * @csspart title - The dashboard name.
 * @csspart banner - The "session expired" notice.
 * @csspart filters - The filter bar (a form).
 * @csspart filter - One filter field (`data-filter`, `data-type`, `data-locked`).
 * @csspart filter-label - A filter's label.
 * @csspart filter-control - A filter's control(s); also `date-start`, `date-end`, `number-min`, `number-max`.
 * @csspart dropdown - A filter's dropdown (date presets, Any/Yes/No, values): its trigger is a `filter-control`.
 * @csspart dropdown-panel - Its panel (for a multi-select also `multi-select-panel`).
 * @csspart dropdown-option - One option of it.
 * @csspart multi-select - A multi-select filter's dropdown (also `dropdown`).
 * @csspart single-select - A single-select filter's dropdown (also `dropdown`).
 * @csspart reset-button - "Reset filters".
 * @csspart filter-chips - A multi-select's chosen values at the top of its open panel; `filter-chip` is one (a button named "Remove <value>").
 * @csspart toolbar - The header's controls (self-serve buttons, the metrics list).
 * @csspart new-metric-button - "New metric" (opens the metric builder).
 * @csspart card-menu - A card's actions menu element (View underlying data, Edit, Archive, Share, Delete or Hide); also `card-menu-button` (its ⋯ button) and `card-menu-panel`.
 * @csspart underlying-dialog - The dialog of a card's underlying rows (docs/web-component.md#underlying-data).
 * @csspart underlying-progress - The bar over its rows while a new sort or page loads (they stay, dimmed).
 * @csspart drill-menu - The drill-down menu (docs/web-component.md#drill-down); also `drill-menu-item`, `drill-chips`, `drill-chip`, `drill-breadcrumbs`, `drill-breadcrumb`.
 * @csspart ai-summary - The AI summary line under a card's chart (`data-state`: loading, ready, stale, error); also `ai-summary-refresh` and `ai-summary-dismiss`.
 * @csspart archived-button - The toolbar's "Archived" button; also `archived-list`, the list it opens.
 * @csspart sidebar-toggle - The "Metrics" button that opens the list of metrics.
 * @csspart sidebar - The list of metrics (a panel over the grid).
 * @csspart sidebar-item - One entry of it (a button).
 * @csspart edit-layout-button - "Edit layout" (`permissions.customizeLayout`).
 * @csspart edit-bar - The bar over the header in edit-layout mode; its buttons: `save-layout-button`, `cancel-layout-button`, `reset-layout-button`, `reset-layout-confirm`.
 * @csspart move-handle - In edit-layout mode, the surface over a card that drags it.
 * @csspart resize-handle - In edit-layout mode, a card's resize corner.
 * @csspart drop-target - Where a dragged card will land.
 * @csspart views-button - The views menu's toggle (`permissions.dashboardViews`).
 * @csspart views-panel - The views menu; in it `view-item`, `view-delete`, `view-delete-confirm`, `views-empty`, `view-name`, `save-view-button`.
 * @csspart grid - The layout grid.
 * @csspart card - One metric (`data-metric-id`, `data-state`, `data-chart-type`).
 * @csspart unfiltered-note - Under a card's title when an active dashboard filter (or a drill chip) is one its metric does not take: "Not filtered by Country".
 * @csspart card-header - A card's header.
 * @csspart card-title - A card's title.
 * @csspart card-body - A card's body.
 * @csspart download-button - A card's CSV download button.
 * @csspart chart - Where the chart, table or number is drawn.
 * @csspart legend - A chart's legend.
 * @csspart tooltip - A chart's tooltip.
 * @csspart table - A table metric's table.
 * @csspart pagination - A table metric's pager.
 * @csspart page-previous - Its previous-page button.
 * @csspart page-next - Its next-page button.
 * @csspart value - A single value's number.
 * @csspart change - A single value's ▲/▼ change against the comparison.
 * @csspart skeleton - A loading placeholder.
 * @csspart empty - "No data".
 * @csspart error - An error: message, code and a retry button. Also what replaces the dashboard when it stopped for good (the host's `data-state` is `unavailable` for a deleted embed, without a retry, `disconnected` for a token that could not be renewed).
 * @csspart error-message - The server's message.
 * @csspart error-code - The error code and HTTP status.
 * @csspart retry-button - "Try again".
 *
 * @cssprop --strata-color-background - Behind the cards.
 * @cssprop --strata-color-surface - Cards, filter bar, menus.
 * @cssprop --strata-color-text - Text.
 * @cssprop --strata-color-muted - Secondary text, axes.
 * @cssprop --strata-color-primary - Focus rings, accents.
 * @cssprop --strata-color-border - Borders, grid lines.
 * @cssprop --strata-color-positive - A good change of a single value.
 * @cssprop --strata-color-negative - A bad change, errors.
 * @cssprop --strata-font - Font family (text and charts).
 * @cssprop --strata-radius - Corner radius.
 * @cssprop --strata-gap - Space between cards.
 * @cssprop --strata-shadow - Card shadow.
 * @cssprop --strata-palette - Comma-separated series colours.
 * @cssprop --strata-row-height - One layout row (80px).
 * @cssprop --strata-metric-height - Height of a single-metric view (360px).
 */
export class StrataDashboard extends LitElement {
  static override styles = styles

  /** The guest token. Set a new one at any time (e.g. on `strata-token-expired`): calls carry on without a reload. */
  @property() token = ''

  /** The embed to show; a dashboard id of an embed of the token's data app works too. */
  @property({ attribute: 'embed-id' }) embedId = ''

  /** Alias of `embed-id`. */
  @property({ attribute: 'dashboard-id' }) dashboardId = ''

  /** Show only this metric. */
  @property({ attribute: 'metric-id' }) metricId = ''

  /** The Strata server; default: the origin this script was loaded from, else the page's. */
  @property({ attribute: 'base-url' }) baseUrl = ''

  /** JSON (attribute) or object (property): `{ colors: { background, surface, text, muted, primary, border }, font, radius, palette }`. */
  @property() theme: StrataTheme | string | undefined

  /** JSON (attribute) or object (property): `{ height, showFilters, locale, rowHeight, syncUrl }`. */
  @property() options: StrataOptions | string | undefined

  /** Shows one metric (the `metric-id`, else the first) without the dashboard chrome. */
  protected get single(): boolean {
    return false
  }

  private readonly controller = new EmbedController(this)
  private readonly menus = new MenuController(this)
  private parsedTheme: StrataTheme = {}
  private parsedOptions: StrataOptions = {}
  private chartTheme: ChartTheme | undefined
  private readonly visuals = new WeakMap<QueryResult, { key: string; visual: Visual }>()
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  /** The self-serve UI (builder, card menus), loaded on demand when the permissions call for it. */
  private selfServe: { session: SelfServeSessionApi; client: unknown } | undefined
  private selfServeLoading: Promise<void> | undefined
  @state() private search: Record<string, string> = {}
  /** The pickers' values from the server, per API client (a new embed or token source starts afresh). */
  private pickerValues: { client: unknown; options: FilterOptions } | undefined
  /** The pickers' module (pickers.ts), loaded when a picker first asks for values. */
  private pickers: typeof import('./pickers.js') | undefined
  private pickersLoading = false
  @state() private customRanges: ReadonlySet<string> = new Set()
  /** Edit-layout mode and views (a module loaded on first use) for the embed `layoutViewsOf`. */
  private layoutViews: LayoutViews | undefined
  private layoutViewsOf: string | undefined
  private layoutViewsModule: Promise<typeof import('./self-serve/index.js')> | undefined
  /** Drill-down's menu, chips and breadcrumbs (drill/index.ts), loaded on the first click on a data point. */
  private drillSession: DrillSession | undefined
  private drillLoading: Promise<DrillSession | undefined> | undefined

  constructor() {
    super()
    // chips from the URL or the `drills` property are checked by the drill module, loaded for them
    this.controller.restoreDrills = (raw) => this.loadDrill().then((d) => d?.restore(raw) ?? false)
  }

  /** Every filter's value in effect (pinned, chosen or default). */
  get filters(): Readonly<Record<string, FilterValue>> {
    return this.controller.filters.effective
  }

  /** `loading`, `ready`, `empty`, `error`, `expired`, `unavailable` or `disconnected` (also on the `data-state` attribute). */
  get state(): HostState {
    return this.controller.state
  }

  /**
   * The drill chips in effect, `{ table, column, value }` each. Set it to restore chips a page kept
   * (an entry on a column no shown metric drills on, or of the wrong form, is dropped).
   */
  get drills(): readonly DrillFilter[] {
    return this.controller.drill.chips.map((c) => c.filter)
  }
  set drills(value: readonly DrillFilter[]) {
    this.controller.setDrills(value)
  }

  /** Sets a filter as the end user would (undefined: back to its default); ignored for pinned or read-only filters. */
  setFilter(name: string, value: unknown): void {
    this.controller.setFilter(name, value)
  }

  /** Queries every metric again (or loads the embed again after a load error or a stop). */
  refresh(): void {
    this.controller.retry()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    for (const t of this.timers.values()) clearTimeout(t)
    this.timers.clear()
    this.drillSession?.dispose()
    this.drillSession = undefined
    this.drillLoading = undefined
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('theme')) {
      this.parsedTheme = parseTheme(this.theme)
      this.chartTheme = undefined
    }
    if (changed.has('options')) this.parsedOptions = parseOptions(this.options)
    if (
      changed.has('token') ||
      changed.has('embedId') ||
      changed.has('dashboardId') ||
      changed.has('metricId') ||
      changed.has('baseUrl') ||
      changed.has('options')
    ) {
      this.controller.configure({
        baseUrl: this.resolvedBaseUrl(),
        embedId: (this.embedId || this.dashboardId).trim(),
        token: this.token?.trim() ?? '',
        metricId: this.metricId.trim() || undefined,
        single: this.single,
        syncUrl: this.parsedOptions.syncUrl !== false,
      })
    }
  }

  protected override updated(): void {
    const state = this.controller.state
    if (this.getAttribute('data-state') !== state) this.setAttribute('data-state', state)
    // fetch the self-serve module ahead of the first click, once the dashboard has drawn
    const p = this.controller.embed?.permissions
    if (state === 'ready' && !this.layoutViewsModule && !this.single && (p?.customizeLayout || p?.dashboardViews)) {
      setTimeout(() => void this.loadLayoutViews(), 0)
    }
    this.loadSelfServe()
  }

  /**
   * Loads the self-serve chunk once the embed says the token may use it (a single metric only
   * `onDemand`: its underlying rows, from the drill menu).
   */
  private loadSelfServe(onDemand = false): Promise<void> | undefined {
    const embed = this.controller.embed
    const client = this.controller.api
    if (!embed || !client || this.selfServe?.client === client) return undefined
    if (!onDemand && (this.single || this.metricId || embed.embedType === 'metric' || !wantsSelfServe(embed))) return
    this.selfServeLoading ??= import('./self-serve/index.js')
      .then((mod: SelfServeModule) => {
        if (this.controller.api === client)
          this.selfServe = { session: mod.createSession(this.selfServeHost()), client }
      })
      .catch((e: unknown) => {
        const message = e instanceof Error ? e.message : String(e)
        emit(this, 'strata-error', {
          code: 'CLIENT_ERROR',
          message: `The self-serve tools could not load: ${message}`,
          status: 0,
        })
      })
      .finally(() => {
        this.selfServeLoading = undefined
        this.requestUpdate()
      })
    return this.selfServeLoading
  }

  /** "See these rows" from the drill menu: the self-serve chunk's dialog (loaded first on a single metric). */
  private async viewRows(...args: Parameters<SelfServeSessionApi['viewRows']>): Promise<void> {
    await this.loadSelfServe(true)
    await this.updateComplete
    this.selfServe?.session.viewRows(...args)
  }

  private selfServeHost(): SelfServeHost {
    const c = this.controller
    return {
      element: this,
      get client() {
        const api = c.api
        if (!api) throw new Error('The embed is not loaded')
        return api
      },
      embed: () => c.embed,
      reload: (focusMetricId) => this.reloadEmbed(focusMetricId),
      visual: (metric, result) => buildVisual(metric, result, { theme: this.resolveChartTheme(), locale: this.locale }),
      locale: () => this.locale,
      dashboardFilter: () => c.filters.dashboardFilter,
      drill: (metricId) => c.drill.bodyFor(metricId),
      requestUpdate: () => this.requestUpdate(),
      report: (e) => emit(this, 'strata-error', { code: e.code, message: e.message, status: e.status }),
      changed: (change) => emit(this, 'strata-metric-change', change),
    }
  }

  /** After a self-serve change: the embed again (one request), then focus on the metric's card (or the grid). */
  private async reloadEmbed(focusMetricId?: string): Promise<void> {
    await this.controller.reload()
    await this.updateComplete
    if (focusMetricId && this.renderRoot.querySelector(`.card[data-metric-id="${CSS.escape(focusMetricId)}"]`)) {
      this.scrollToMetric(focusMetricId)
      return
    }
    const active = this.shadowRoot?.activeElement
    if (!active?.isConnected) this.renderRoot.querySelector<HTMLElement>('.card')?.focus()
  }

  /** The self-serve module's edit-layout mode and views for this embed (loaded once). */
  private async loadLayoutViews(): Promise<LayoutViews | undefined> {
    const embed = this.controller.embed
    if (!embed) return undefined
    if (this.layoutViews && this.layoutViewsOf === embed.embedId) return this.layoutViews
    this.layoutViewsModule ??= import('./self-serve/index.js')
    try {
      const m = await this.layoutViewsModule
      if (this.controller.embed?.embedId !== embed.embedId) return undefined
      if (!this.layoutViews || this.layoutViewsOf !== embed.embedId) {
        this.layoutViews = m.createLayoutViews(this, this.controller, this.menus, () => this.shownPlacements())
        this.layoutViewsOf = embed.embedId
      }
      this.requestUpdate()
      return this.layoutViews
    } catch (e) {
      this.layoutViewsModule = undefined
      this.controller.fail(e)
      return undefined
    }
  }

  /** The self-serve module when it is loaded for the embed shown. */
  private get loadedLayoutViews(): LayoutViews | undefined {
    return this.layoutViewsOf === this.controller.embed?.embedId ? this.layoutViews : undefined
  }

  /** Every card's place as shown (reading order): the layout being edited, else the embed's. */
  private shownPlacements(): LayoutItem[] {
    const editor = this.loadedLayoutViews?.editor
    if (editor?.active) return editor.placements()
    const embed = this.controller.embed
    return embed ? effectiveLayout(embed.dashboard.layout, [...this.controller.metrics.keys()]) : []
  }

  private resolvedBaseUrl(): string {
    const page = typeof location === 'undefined' ? '' : location.origin
    if (this.baseUrl.trim())
      return normalizeBaseUrl(this.baseUrl.trim(), typeof location === 'undefined' ? undefined : location.href)
    return defaultBaseUrl(import.meta.url, page)
  }

  private get locale(): string | undefined {
    return this.parsedOptions.locale
  }

  private resolveChartTheme(): ChartTheme {
    if (!this.chartTheme) {
      const computed = getComputedStyle(this)
      this.chartTheme = resolveChartTheme(this.parsedTheme, (name) => computed.getPropertyValue(name))
    }
    return this.chartTheme
  }

  private visualOf = (m: MetricState): Visual | undefined => {
    const result = m.result
    if (!result) return undefined
    const type = m.metric.chart.type
    if (!drawnUpFront(type) && !shapedLoaded()) {
      // the card keeps its skeleton while the chunk of the less common chart types loads
      loadShapedCharts().then(
        () => this.requestUpdate(),
        (e: unknown) =>
          emit(this, 'strata-error', {
            code: 'CLIENT_ERROR',
            message: `The ${type} chart could not load: ${e instanceof Error ? e.message : String(e)}`,
            status: 0,
          }),
      )
      return undefined
    }
    const theme = this.resolveChartTheme()
    const metric = this.drilledMetric(m)
    const grains = metric === m.metric ? '' : JSON.stringify(metric.timeGrains)
    const key = `${m.resultPage}|${this.locale ?? ''}|${theme.palette.join()}|${theme.text}|${theme.font}|${grains}`
    const cached = this.visuals.get(result)
    if (cached?.key === key) return cached.visual
    const visual = buildVisual(metric, result, { theme, locale: this.locale, page: m.resultPage })
    this.visuals.set(result, { key, visual })
    return visual
  }

  /** The metric as its card draws it: a drilled time series at the grain it was drilled to. */
  private drilledMetric(m: MetricState): MetricState['metric'] {
    const last = this.controller.drill.levelsOf(m.metric.metricId).at(-1)
    if (!last) return m.metric
    return { ...m.metric, timeGrains: { ...m.metric.timeGrains, [last.dimension]: last.grain } }
  }

  /** The drill module, loaded once (on the first click, tap or Enter on a data point). */
  private loadDrill(): Promise<DrillSession | undefined> {
    this.drillLoading ??= import('./drill/index.js').then(
      (mod) => {
        const c = this.controller
        this.drillSession = mod.createDrill({
          element: this,
          state: c.drill,
          // a single metric drills into chips of its own, never the dashboard's filters
          filters: () => (this.isSingle ? [] : c.filters.filters),
          editable: () => c.filters.isEditable,
          canSeeRows: () => c.embed?.permissions.underlyingData === true,
          locale: () => this.locale,
          metrics: () => c.visibleMetrics(),
          url: () => (this.parsedOptions.syncUrl === false ? undefined : pageUrl()),
          setFilter: (name, value) => this.applyFilter(name, value, false),
          changed: (metricId) => c.drillChanged(metricId),
          viewRows: (...args) => void this.viewRows(...args),
          requestUpdate: () => this.requestUpdate(),
        })
        this.requestUpdate()
        return this.drillSession
      },
      (e: unknown) => {
        this.drillLoading = undefined
        emit(this, 'strata-error', {
          code: 'CLIENT_ERROR',
          message: `Drill-down could not load: ${e instanceof Error ? e.message : String(e)}`,
          status: 0,
        })
        return undefined
      },
    )
    return this.drillLoading
  }

  /** Whether the element shows one metric (`<strata-metric>`, a `metric-id`, a metric embed). */
  private get isSingle(): boolean {
    return this.single || Boolean(this.metricId) || this.controller.embed?.embedType === 'metric'
  }

  /** What a card's points and rows do: drill-down when the end user may filter and the metric names its columns. */
  private cardDrill(): CardDrill | undefined {
    if (!this.controller.embed?.permissions.endUserDashboardFilter) return undefined
    const withDrill = (run: (d: DrillSession) => void) => {
      if (this.drillSession) run(this.drillSession)
      else void this.loadDrill().then((d) => d && run(d))
    }
    return {
      on: (m) => m.metric.drillColumns !== undefined && m.status !== 'error',
      chart: (m) => (params, event, el) => withDrill((d) => d.pickChart(m, params, event, el)),
      chartKey: (m, e, el) => {
        if (this.drillSession) this.drillSession.chartKey(m, e, el)
        else if (['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Enter', ' ', 'Home', 'End'].includes(e.key)) {
          e.preventDefault()
          withDrill((d) => d.chartKey(m, e, el))
        }
      },
      row: (m, index, column, e, el) => {
        const box = el.getBoundingClientRect()
        const pointer = e instanceof MouseEvent && e.detail > 0
        const at = pointer ? { x: e.clientX, y: e.clientY } : { x: box.left + 16, y: box.bottom }
        withDrill((d) => d.pick(m, index, column, at, el, !pointer))
      },
      cardKey: (m, e) => this.drillSession?.cardKey(m, e),
      trail: (m) => this.drillSession?.trail(m) ?? nothing,
    }
  }

  override render(): TemplateResult {
    const c = this.controller
    const embed = c.embed
    const single = this.isSingle
    const o = this.parsedOptions
    const vars: Record<string, string> = { ...themeToCssVars(this.parsedTheme) }
    if (o.height) vars[single ? '--strata-metric-height' : 'height'] = o.height
    if (o.rowHeight) vars['--strata-row-height'] = `${o.rowHeight}px`
    return html`<div
      class="root ${single ? 'single' : ''}"
      part="base"
      style=${styleMap(vars)}
      aria-busy=${c.state === 'loading' ? 'true' : 'false'}
    >
      ${
        c.state === 'expired'
          ? html`<div class="banner" part="banner" role="status">
            ${clockIcon}<span>Your session has expired. Reconnecting…</span>
          </div>`
          : nothing
      }
      ${
        c.api?.stopped
          ? renderLoadError(c.api.stopped, () => c.retry(), single ? 'metric' : 'dashboard', true)
          : c.loadError
            ? renderLoadError(c.loadError, () => c.retry(), single ? 'metric' : 'dashboard')
            : embed
              ? this.renderEmbed(embed, single)
              : renderLoading(single)
      }
    </div>`
  }

  private renderEmbed(embed: RuntimeEmbed, single: boolean): TemplateResult {
    const c = this.controller
    const { permissions } = embed
    const states = [...c.metrics.values()]
    const showFilters = (this.parsedOptions.showFilters ?? !this.single) && c.filters.filters.length > 0
    const showSidebar = permissions.showSideBar && !single && states.length > 1
    const canLayout = permissions.customizeLayout && !single && states.length > 0
    const canViews = permissions.dashboardViews && !single
    const lv = single ? undefined : this.loadedLayoutViews
    const editing = lv?.editor.active === true
    const selfServe = !single && wantsSelfServe(embed) ? this.selfServe?.session : undefined
    const placements = new Map(this.shownPlacements().map((p) => [p.metricId, p]))
    const ordered = single ? states : [...placements.keys()].map((id) => c.metrics.get(id)!).filter(Boolean)
    const cardHost = {
      locale: this.locale,
      expired: c.state === 'expired',
      canDownload: permissions.download,
      visualOf: this.visualOf,
      download: (id: string) => void c.download(id),
      setPage: (id: string, page: number) => c.setPage(id, page),
      retry: (id: string) => c.retry(id),
      ...(selfServe
        ? {
            menu: (m: MetricState) => selfServe.cardMenu(m.metric),
            note: (m: MetricState) => selfServe.cardNote(m),
            below: (m: MetricState) => selfServe.cardBelow(m),
          }
        : {}),
      edit: editing ? lv?.editor.card : undefined,
      drill: editing ? undefined : this.cardDrill(),
      unfilteredBy: (m: MetricState) => {
        const names = m.metric.unfiltered ?? []
        const effective = c.filters.effective
        const filters = names.length
          ? c.filters.filters
              .filter((f) => names.includes(f.name) && isActive(effective[f.name]))
              .map((f) => f.label ?? f.name)
          : []
        // drill chips on a table the metric cannot reach (or any, for a SQL metric) leave it unfiltered too
        const reaches = m.metric.drillTables
        const chips = reaches
          ? c.drill.chips.filter((chip) => !reaches.includes(chip.filter.table)).map((chip) => chip.label)
          : []
        return [...filters, ...chips]
      },
    }
    const showTitle = permissions.showDashboardName && !single
    // the toolbar's place is kept while the self-serve chunk loads, so the header does not jump
    const tools = !single && (wantsSelfServe(embed) || canLayout || canViews)
    const viewsOpen = this.menus.isOpen(VIEWS)
    // every card failed alike (a token problem): said once, for the dashboard
    const shared = single || editing ? undefined : c.sharedError
    return html`
      ${
        showTitle || showSidebar || tools
          ? html`<header class="header" part="header">
            ${showTitle ? html`<h2 class="title" part="title">${embed.dashboard.name}</h2>` : nothing}
            <div class="toolbar" part="toolbar" ?inert=${editing}>
              ${
                canViews
                  ? html`<div class="views-anchor">
                    <button
                      type="button"
                      id=${VIEWS}
                      class="button"
                      part="views-button"
                      data-menu=${VIEWS}
                      aria-expanded=${viewsOpen ? 'true' : 'false'}
                      aria-controls="strata-views-panel"
                      @click=${() => (viewsOpen ? this.menus.close(true) : void this.loadLayoutViews().then((v) => v?.views.open()))}
                    >
                      ${viewsIcon}<span class="views-label">${lv?.views.label ?? 'Views'}</span>${chevronIcon}
                    </button>
                    ${lv ? lv.views.render() : nothing}
                  </div>`
                  : nothing
              }
              ${
                canLayout
                  ? html`<button
                    type="button"
                    class="button"
                    part="edit-layout-button"
                    @click=${() => void this.loadLayoutViews().then((v) => v?.editor.enter(this.shownPlacements()))}
                  >
                    ${layoutIcon}<span>Edit layout</span>
                  </button>`
                  : nothing
              }
              ${selfServe ? selfServe.toolbar() : nothing}
              ${
                showSidebar
                  ? html`<div class="sidebar-anchor">
                    ${renderSidebarToggle(this.menus)}
                    ${renderSidebar(this.menus, ordered, (id) => this.scrollToMetric(id))}
                  </div>`
                  : nothing
              }
            </div>
            ${editing && lv ? lv.editor.renderBar(embed.dashboard.customLayout === true) : nothing}
          </header>`
          : nothing
      }
      ${showFilters ? renderFilterBar(this.filterBarHost()) : nothing}
      ${this.drillSession ? this.drillSession.chips() : nothing}
      <div class="body">
        ${
          shared
            ? renderLoadError(shared, () => c.retry(), 'dashboard')
            : html`<div class="grid" part="grid">
          ${
            ordered.length === 0
              ? html`<div class="empty" part="empty">No metrics to show</div>`
              : repeat(
                  ordered,
                  (m) => m.metric.metricId,
                  (m, i) => renderCard(cardHost, m, single ? undefined : placements.get(m.metric.metricId), i),
                )
          }
          ${editing && lv ? lv.editor.renderDropTarget() : nothing}
        </div>`
        }
      </div>
      ${lv ? lv.editor.renderLive() : nothing}
      ${selfServe ? selfServe.overlays() : single && this.selfServe ? this.selfServe.session.overlays() : nothing}
      ${this.drillSession ? this.drillSession.menu() : nothing}
    `
  }

  private filterBarHost(): FilterBarHost {
    const c = this.controller
    const state = c.filters
    return {
      filters: state.filters,
      values: state.values,
      editable: state.isEditable,
      locale: this.locale,
      canReset: state.canReset,
      menus: this.menus,
      optionsFor: (f: RuntimeFilter) => {
        const page = this.filterOptions()?.get(f.name, this.search[f.name] ?? '')
        // until the server's first page comes, the values seen in rows (never an empty list)
        if (!page || (page.loading && page.values.length === 0)) return state.optionsFor(f)
        const chosen = state.values[f.name]
        const picked = Array.isArray(chosen) ? chosen.map(String) : typeof chosen === 'string' ? [chosen] : []
        return [...new Set([...picked.filter((v) => !page.values.includes(v)), ...page.values])]
      },
      loadOptions: (f) => this.filterOptions()?.want(f.name, this.search[f.name] ?? ''),
      chips: (selected, onChange) => this.pickers?.chips(selected, onChange),
      moreOptions: (f) => this.filterOptions()?.more(f.name, this.search[f.name] ?? ''),
      optionsPending: (f) => {
        const page = this.filterOptions()?.get(f.name, this.search[f.name] ?? '')
        return { loading: page?.loading === true, more: page ? page.next !== null : false }
      },
      setFilter: (name, value, debounce) => this.applyFilter(name, value, debounce === true),
      resetFilters: () => {
        this.customRanges = new Set()
        c.resetFilters()
      },
      searchText: (name) => this.search[name] ?? '',
      setSearchText: (name, text) => {
        this.search = { ...this.search, [name]: text }
        this.filterOptions()?.want(name, text, true)
      },
      isCustomRange: (name) => this.customRanges.has(name),
      setCustomRange: (name, on) => {
        const next = new Set(this.customRanges)
        if (on) next.add(name)
        else next.delete(name)
        this.customRanges = next
      },
    }
  }

  /** The server's values for the pickers, through the current API client. */
  private filterOptions(): FilterOptions | undefined {
    const client = this.controller.api
    if (!client) return undefined
    if (!this.pickers) {
      this.loadPickers()
      return undefined
    }
    if (this.pickerValues?.client !== client) {
      this.pickerValues = {
        client,
        options: new this.pickers.FilterOptions(
          () => client,
          () => this.requestUpdate(),
        ),
      }
    }
    return this.pickerValues.options
  }

  private loadPickers(): void {
    if (this.pickersLoading) return
    this.pickersLoading = true
    import('./pickers.js')
      .then((mod) => {
        this.pickers = mod
        this.requestUpdate()
      })
      .catch(() => {
        // the pickers keep the values seen in the metrics' rows
      })
  }

  private applyFilter(name: string, value: unknown, debounce: boolean): void {
    clearTimeout(this.timers.get(name))
    this.timers.delete(name)
    if (!debounce) {
      this.controller.setFilter(name, value)
      return
    }
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name)
        this.controller.setFilter(name, value)
      }, TEXT_DEBOUNCE_MS),
    )
  }

  private scrollToMetric(metricId: string): void {
    const card = this.renderRoot.querySelector<HTMLElement>(`.card[data-metric-id="${CSS.escape(metricId)}"]`)
    if (!card) return
    const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches
    card.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' })
    card.focus({ preventScroll: true })
  }
}

/** Whether a filter value narrows anything ("All time" and an empty list do not). */
function isActive(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false
  if (Array.isArray(value)) return value.length > 0
  return !(typeof value === 'string' && value.trim().toLowerCase() === 'all time')
}
