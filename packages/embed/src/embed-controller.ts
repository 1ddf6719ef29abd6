import type { ReactiveController, ReactiveControllerHost } from 'lit'
import { RuntimeClient } from './api/client.js'
import { EMBED_GONE, isAbortError, StrataApiError } from './api/errors.js'
import type { LayoutItem, QueryResult, RuntimeEmbed, RuntimeMetric, SavedView } from './api/types.js'
import { DRILL_PARAM, DrillState } from './drill-state.js'
import { emit } from './events.js'
import { FilterState, pageUrl } from './filter-state.js'
import { saveBlob } from './lib/save-blob.js'

export type MetricStatus = 'loading' | 'ready' | 'empty' | 'error'
/**
 * `unavailable`: the embed no longer exists; `disconnected`: renewing the token kept failing.
 * Both are terminal: nothing is shown or asked for until the host acts (a new token, Try again).
 */
export type HostState = 'loading' | 'ready' | 'empty' | 'error' | 'expired' | 'unavailable' | 'disconnected'

export interface MetricState {
  readonly metric: RuntimeMetric
  status: MetricStatus
  /** The last result drawn; kept while a new query runs and while the token is renewed. */
  result?: QueryResult
  error?: StrataApiError
  /** Page of a table metric (1-based) being asked for, and the page `result` holds. */
  page: number
  resultPage: number
  downloading: boolean
  abort?: AbortController
}

export interface EmbedConfig {
  readonly baseUrl: string
  readonly embedId: string
  readonly token: string
  /** Show only this metric (undefined: all of them; '' with `single`: the first). */
  readonly metricId?: string | undefined
  readonly single: boolean
  readonly syncUrl: boolean
}

const sameConfig = (a: EmbedConfig | undefined, b: EmbedConfig) =>
  a !== undefined && a.baseUrl === b.baseUrl && a.embedId === b.embedId

/**
 * Loads the embed and queries its metrics for the element, with one AbortController per call:
 * a new filter value aborts the queries it replaces, leaving the document aborts everything.
 * The API client parks calls while the token is expired; this controller keeps the filters
 * and the last results meanwhile, so nothing is lost when the host sets a new token.
 */
export class EmbedController implements ReactiveController {
  embed: RuntimeEmbed | undefined
  loadError: StrataApiError | undefined
  readonly metrics = new Map<string, MetricState>()
  readonly filters = new FilterState()
  /** Drill-down chips and each card's time-series levels (docs/web-component.md#drill-down). */
  readonly drill = new DrillState()
  /** Restores chips through the drill module (the element loads it); resolves true when they changed. */
  restoreDrills: ((raw: unknown) => Promise<boolean>) | undefined
  /** Chips the page set (the `drills` property) before the embed was there to check them against. */
  private wantedDrills: unknown
  private config: EmbedConfig | undefined
  private client: RuntimeClient | undefined
  private loadAbort: AbortController | undefined
  private readyFired = false
  private interrupted = false

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this)
  }

  /** Called on every update with the element's attributes; reloads only when the target changed. */
  configure(config: EmbedConfig): void {
    const previous = this.config
    this.config = config
    if (!config.embedId || !config.baseUrl) {
      this.reset()
      if (config.embedId) {
        this.loadError = new StrataApiError('INVALID_BASE_URL', 0, 'base-url must be an http(s) URL')
        this.report(this.loadError)
      }
      return
    }
    if (!sameConfig(previous, config) || !this.client) {
      this.reset()
      this.client = new RuntimeClient(config.baseUrl, config.embedId, config.token, {
        onTokenExpired: () => this.onTokenExpired(),
        onStopped: (error) => this.onStopped(error),
      })
      void this.load()
      return
    }
    if (previous?.token !== config.token) {
      this.client.setToken(config.token)
      // after a stop, a new token is the host acting on it: start over with it
      if (this.client.stopped) this.retry()
      this.host.requestUpdate()
    }
    if (previous?.metricId !== config.metricId || previous?.single !== config.single) this.rebuildMetrics(true)
  }

  get state(): HostState {
    const stopped = this.client?.stopped
    if (stopped) return stopped.reason === EMBED_GONE ? 'unavailable' : 'disconnected'
    if (this.client?.isExpired) return 'expired'
    if (this.loadError) return 'error'
    if (!this.embed) return 'loading'
    const states = [...this.metrics.values()]
    if (states.length === 0) return 'empty'
    if (states.some((m) => m.status === 'loading')) return 'loading'
    if (states.every((m) => m.status === 'error')) return 'error'
    if (states.every((m) => m.status === 'empty')) return 'empty'
    return 'ready'
  }

  /** The error every metric failed with, when there are two or more and all failed alike (code and message). */
  get sharedError(): StrataApiError | undefined {
    const errors = [...this.metrics.values()].map((m) => (m.status === 'error' ? m.error : undefined))
    const first = errors[0]
    if (errors.length < 2 || !first) return undefined
    return errors.every((e) => e?.code === first.code && e.message === first.message) ? first : undefined
  }

  /** Sets a filter as the end user would (undefined: back to its default) and re-queries every metric. */
  setFilter(name: string, raw: unknown): void {
    if (this.filters.set(name, raw)) this.filtersChanged()
  }

  /** After a drill change: every card again (a chip), or one card (its time-series levels). */
  drillChanged(metricId?: string): void {
    const m = metricId ? this.metrics.get(metricId) : undefined
    if (m) {
      m.page = 1
      void this.query(m)
    } else {
      for (const s of this.metrics.values()) s.page = 1
      this.queryAll()
    }
  }

  /** Chips from the page (the `drills` property): checked once the embed is loaded, then every card again. */
  setDrills(raw: unknown): void {
    if (!this.embed) this.wantedDrills = raw
    else void this.restoreDrills?.(raw).then((changed) => changed && this.drillChanged())
  }

  /** Every filter back to its default (pinned ones stay as the token set them). */
  resetFilters(): void {
    if (this.filters.reset()) this.filtersChanged()
  }

  private filtersChanged(): void {
    emit(this.host, 'strata-filter-change', { filters: this.filters.effective })
    for (const m of this.metrics.values()) m.page = 1
    this.queryAll()
  }

  /** Every end-user filter to these values (absent: its default), e.g. a saved view's; one re-query. */
  applyFilters(values: Readonly<Record<string, unknown>>): void {
    let changed = false
    for (const f of this.filters.filters) changed = this.filters.set(f.name, values[f.name]) || changed
    if (changed) this.filtersChanged()
  }

  /** A layout in effect from now on (saved, reset or a view's), and whether it is a customised one. */
  setLayout(layout: readonly LayoutItem[], customLayout: boolean): void {
    if (!this.embed) return
    this.embed = { ...this.embed, dashboard: { ...this.embed.dashboard, layout, customLayout } }
    this.host.requestUpdate()
  }

  /** The saved views after one was saved or deleted. */
  setViews(views: readonly SavedView[]): void {
    if (!this.embed) return
    this.embed = { ...this.embed, views }
    this.host.requestUpdate()
  }

  /** Reports a failed call as `strata-error`. */
  fail(e: unknown): void {
    if (!isAbortError(e)) this.report(toApiError(e))
  }

  setPage(metricId: string, page: number): void {
    const m = this.metrics.get(metricId)
    if (!m || page < 1 || page === m.page) return
    m.page = page
    void this.query(m)
  }

  /** Loads again after a load error or a stop, or re-queries one metric. */
  retry(metricId?: string): void {
    if (this.client?.stopped) {
      this.client.restart()
      void this.load()
      return
    }
    if (!this.embed || this.loadError) {
      void this.load()
      return
    }
    const m = metricId ? this.metrics.get(metricId) : undefined
    if (m) void this.query(m)
    else this.queryAll()
  }

  /** The API client of the embed shown (undefined before a target is set). */
  get api(): RuntimeClient | undefined {
    return this.client
  }

  /**
   * Loads the embed again (after an end user changed its metrics) and queries every metric;
   * cards whose metric is unchanged keep their chart while they update, so nothing flashes.
   */
  reload(): Promise<void> {
    return this.load(true)
  }

  /** The metric's CSV through fetch (the bearer token cannot ride on a plain link), saved via a temporary link. */
  async download(metricId: string): Promise<void> {
    const m = this.metrics.get(metricId)
    if (!m || !this.client || m.downloading) return
    m.downloading = true
    this.host.requestUpdate()
    try {
      const blob = await this.client.download(metricId, this.filters.dashboardFilter)
      saveBlob(
        blob,
        `${m.metric.name.replace(/[^\p{L}\p{N}_.-]+/gu, '-').replace(/^-+|-+$/g, '') || metricId}.csv`,
        this.host.shadowRoot ?? this.host,
      )
    } catch (e) {
      if (!isAbortError(e)) this.report(toApiError(e), metricId)
    } finally {
      m.downloading = false
      this.host.requestUpdate()
    }
  }

  hostConnected(): void {
    if (!this.interrupted) return
    this.interrupted = false
    if (!this.embed) void this.load()
    else for (const m of this.metrics.values()) if (m.status === 'loading') void this.query(m)
  }

  hostDisconnected(): void {
    const busy = this.loadAbort !== undefined || [...this.metrics.values()].some((m) => m.abort)
    this.abortAll()
    this.interrupted = busy
  }

  private reset(): void {
    this.client?.restart() // its renewal timer must not stop the next one's dashboard
    this.client = undefined
    this.clear()
  }

  /** Nothing shown and nothing running: no embed, no metric, no call. */
  private clear(): void {
    this.abortAll()
    this.embed = undefined
    this.loadError = undefined
    this.metrics.clear()
    this.drill.clear()
    this.readyFired = false
    this.host.requestUpdate()
  }

  private abortAll(): void {
    this.loadAbort?.abort()
    this.loadAbort = undefined
    for (const m of this.metrics.values()) {
      m.abort?.abort()
      m.abort = undefined
    }
  }

  private async load(keep = false): Promise<void> {
    const client = this.client
    const config = this.config
    if (!client || !config) return
    this.loadAbort?.abort()
    const abort = new AbortController()
    this.loadAbort = abort
    this.loadError = undefined
    this.host.requestUpdate()
    try {
      const embed = await client.load(abort.signal)
      if (abort.signal.aborted || client !== this.client) return
      this.embed = embed
      const editable = embed.permissions.endUserDashboardFilter === true
      const url = config.syncUrl ? pageUrl() : undefined
      this.filters.open(embed.dashboard.filters, editable, url)
      // chips the page set or the URL holds: checked by the drill module before the first queries
      const drills = this.wantedDrills ?? new URLSearchParams(url?.search).get(DRILL_PARAM)
      this.wantedDrills = undefined
      if (!keep && drills != null && editable) await this.restoreDrills?.(drills)
      if (abort.signal.aborted || client !== this.client) return
      this.rebuildMetrics(true, keep ? new Map(this.metrics) : undefined)
    } catch (e) {
      if (isAbortError(e) || client !== this.client || abort.signal.aborted) return
      this.loadError = toApiError(e)
      this.report(this.loadError)
    } finally {
      if (this.loadAbort === abort) this.loadAbort = undefined
      this.host.requestUpdate()
    }
  }

  /** The metrics this element shows, per `metric-id`. */
  visibleMetrics(): RuntimeMetric[] {
    const all = this.embed?.metrics ?? []
    const id = this.config?.metricId
    if (id) return all.filter((m) => m.metricId === id)
    return this.config?.single ? all.slice(0, 1) : [...all]
  }

  private rebuildMetrics(query: boolean, previous?: ReadonlyMap<string, MetricState>): void {
    for (const m of this.metrics.values()) m.abort?.abort()
    this.metrics.clear()
    // a reload (previous states kept) does not announce strata-ready again
    if (!previous) this.readyFired = false
    const visible = this.visibleMetrics()
    const wanted = this.config?.metricId
    if (this.embed && wanted && visible.length === 0) {
      this.loadError = new StrataApiError('METRIC_NOT_FOUND', 0, `This embed has no metric "${wanted}"`)
      this.report(this.loadError)
    } else if (this.loadError?.code === 'METRIC_NOT_FOUND') this.loadError = undefined
    for (const metric of visible) {
      const before = previous?.get(metric.metricId)
      const same = before && JSON.stringify(before.metric) === JSON.stringify(metric)
      this.metrics.set(
        metric.metricId,
        same && before.result
          ? {
              metric,
              status: 'loading',
              result: before.result,
              page: 1,
              resultPage: before.resultPage,
              downloading: false,
            }
          : { metric, status: 'loading', page: 1, resultPage: 1, downloading: false },
      )
    }
    if (query) this.queryAll()
    this.checkReady()
  }

  private queryAll(): void {
    for (const m of this.metrics.values()) void this.query(m)
  }

  private async query(m: MetricState): Promise<void> {
    const client = this.client
    if (!client) return
    m.abort?.abort()
    const abort = new AbortController()
    m.abort = abort
    m.status = 'loading'
    this.host.requestUpdate()
    const dashboardFilter = this.filters.dashboardFilter
    const drill = this.drill.bodyFor(m.metric.metricId)
    const page = m.page
    try {
      const result = await client.query(
        {
          metricId: m.metric.metricId,
          ...(dashboardFilter ? { dashboardFilter } : {}),
          ...(drill ? { drill } : {}),
          ...(m.metric.chart.type === 'table' ? { pageNumber: page } : {}),
        },
        abort.signal,
      )
      if (abort.signal.aborted) return
      m.result = result
      m.resultPage = page
      m.error = undefined
      m.status = result.data.length === 0 && page === 1 ? 'empty' : 'ready'
      this.filters.remember(result)
    } catch (e) {
      // (a stop aborts every query: onStopped)
      if (isAbortError(e) || abort.signal.aborted) return
      m.error = toApiError(e)
      m.status = 'error'
      this.report(m.error, m.metric.metricId)
    } finally {
      if (m.abort === abort) m.abort = undefined
    }
    this.host.requestUpdate()
    this.checkReady()
  }

  private checkReady(): void {
    if (this.readyFired || !this.embed || !this.config || this.loadError) return
    const states = [...this.metrics.values()]
    if (states.some((m) => m.status === 'loading')) return
    this.readyFired = true
    const detail = { embedId: this.config.embedId, metrics: states.length }
    // Charts draw in the animation frame after the render: announce once they have.
    void this.host.updateComplete.then(afterPaint).then(() => emit(this.host, 'strata-ready', detail))
  }

  private onTokenExpired(): void {
    this.host.requestUpdate()
    emit(this.host, 'strata-token-expired', { embedId: this.config?.embedId ?? '' })
  }

  /**
   * The embed is gone, or the token could not be renewed: nothing of it stays on screen (no
   * stale numbers, no filters), no call is made, and the page hears it once as `strata-error`.
   */
  private onStopped(error: StrataApiError): void {
    this.clear()
    this.report(error)
  }

  /** The developer's text: to the console and the page's `strata-error` listeners (the end user reads a sentence). */
  private report(error: StrataApiError, metricId?: string): void {
    console.error(`strata: ${metricId ? `metric ${metricId}: ` : ''}${error.message} (${error.code} ${error.status})`)
    emit(this.host, 'strata-error', {
      code: error.code,
      message: error.message,
      status: error.status,
      ...(metricId ? { metricId } : {}),
    })
  }
}

function toApiError(e: unknown): StrataApiError {
  if (e instanceof StrataApiError) return e
  return new StrataApiError('CLIENT_ERROR', 0, e instanceof Error ? e.message : String(e))
}

/** Two animation frames (the chart draws in the first); a timer when frames do not run (hidden tab). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 500)
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer)
        resolve()
      }),
    )
  })
}
