import type { ReactiveController, ReactiveControllerHost } from 'lit'
import { RuntimeClient } from './api/client.js'
import { isAbortError, StrataApiError } from './api/errors.js'
import type { QueryResult, RuntimeEmbed, RuntimeFilter, RuntimeMetric } from './api/types.js'
import { emit } from './events.js'
import {
  buildDashboardFilter,
  defaultOf,
  effectiveFilterValues,
  type FilterValue,
  initialFilterValues,
  isPinned,
  normalizeFilterValue,
  sameFilterValue,
  seenValues,
} from './lib/filters.js'
import { readUrlValues, writeUrlValues } from './lib/url-state.js'

export type MetricStatus = 'loading' | 'ready' | 'empty' | 'error'
export type HostState = 'loading' | 'ready' | 'empty' | 'error' | 'expired'

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
  values: Record<string, FilterValue> = {}
  private config: EmbedConfig | undefined
  private client: RuntimeClient | undefined
  private loadAbort: AbortController | undefined
  private readyFired = false
  private interrupted = false
  private readonly seen = new Map<string, Set<string>>()

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this)
  }

  /** Called on every update with the element's attributes; reloads only when the target changed. */
  configure(config: EmbedConfig): void {
    const previous = this.config
    this.config = config
    if (!config.embedId || !config.baseUrl) {
      this.reset()
      return
    }
    if (!sameConfig(previous, config) || !this.client) {
      this.reset()
      this.client = new RuntimeClient(config.baseUrl, config.embedId, config.token, {
        onTokenExpired: () => this.onTokenExpired(),
      })
      void this.load()
      return
    }
    if (previous?.token !== config.token) {
      this.client.setToken(config.token)
      this.host.requestUpdate()
    }
    if (previous?.metricId !== config.metricId || previous?.single !== config.single) this.rebuildMetrics(true)
  }

  get state(): HostState {
    if (this.client?.isExpired) return 'expired'
    if (this.loadError) return 'error'
    if (!this.embed) return 'loading'
    const states = [...this.metrics.values()]
    if (states.length === 0) return 'empty'
    if (states.some((m) => m.status === 'loading')) return 'loading'
    if (states.every((m) => m.status === 'empty')) return 'empty'
    return 'ready'
  }

  get editable(): boolean {
    return this.embed?.permissions.endUserDashboardFilter === true
  }

  get filters(): readonly RuntimeFilter[] {
    return this.embed?.dashboard.filters ?? []
  }

  /** Every filter's value in effect (pinned, chosen or default). */
  get effectiveValues(): Record<string, FilterValue> {
    return effectiveFilterValues(this.filters, this.values)
  }

  /** Values for a select filter: those seen so far in any result, plus the chosen ones. */
  optionsFor(filter: RuntimeFilter): string[] {
    const seen = new Set(this.seen.get(filter.name) ?? [])
    const v = this.values[filter.name]
    if (Array.isArray(v)) for (const s of v) seen.add(s)
    else if (typeof v === 'string') seen.add(v)
    return [...seen].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
  }

  /** Sets a filter (undefined clears it back to its default), re-queries every metric. */
  setFilter(name: string, raw: unknown): void {
    const filter = this.filters.find((f) => f.name === name)
    if (!filter || isPinned(filter) || !this.editable) return
    const value = normalizeFilterValue(filter.type, raw)
    if (value === undefined) delete this.values[name]
    else this.values[name] = value
    this.writeUrl()
    emit(this.host, 'strata-filter-change', { filters: this.effectiveValues })
    for (const m of this.metrics.values()) m.page = 1
    this.queryAll()
  }

  /** Whether any filter the end user can change differs from its default. */
  get canReset(): boolean {
    return this.filters.some(
      (f) => !isPinned(f) && this.values[f.name] !== undefined && !sameFilterValue(this.values[f.name], defaultOf(f)),
    )
  }

  /** Every filter back to its default (pinned ones stay as the token set them). */
  resetFilters(): void {
    if (!this.editable) return
    for (const f of this.filters) if (!isPinned(f)) delete this.values[f.name]
    this.writeUrl()
    emit(this.host, 'strata-filter-change', { filters: this.effectiveValues })
    for (const m of this.metrics.values()) m.page = 1
    this.queryAll()
  }

  setPage(metricId: string, page: number): void {
    const m = this.metrics.get(metricId)
    if (!m || page < 1 || page === m.page) return
    m.page = page
    void this.query(m)
  }

  /** Loads again after a load error, or re-queries one metric. */
  retry(metricId?: string): void {
    if (!this.embed) {
      void this.load()
      return
    }
    const m = metricId ? this.metrics.get(metricId) : undefined
    if (m) void this.query(m)
    else this.queryAll()
  }

  /** The metric's CSV through fetch (the bearer token cannot ride on a plain link), saved via a temporary link. */
  async download(metricId: string): Promise<void> {
    const m = this.metrics.get(metricId)
    if (!m || !this.client || m.downloading) return
    m.downloading = true
    this.host.requestUpdate()
    try {
      const blob = await this.client.download(metricId, this.dashboardFilter())
      const url = URL.createObjectURL(blob)
      const a = document.createElement('a')
      a.href = url
      a.download = `${m.metric.name.replace(/[^\p{L}\p{N}_.-]+/gu, '-').replace(/^-+|-+$/g, '') || metricId}.csv`
      a.hidden = true
      ;(this.host.shadowRoot ?? this.host).appendChild(a)
      a.click()
      a.remove()
      setTimeout(() => URL.revokeObjectURL(url), 10_000)
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
    this.abortAll()
    this.client = undefined
    this.embed = undefined
    this.loadError = undefined
    this.metrics.clear()
    this.seen.clear()
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

  private async load(): Promise<void> {
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
      const syncUrl = config.syncUrl && typeof location !== 'undefined'
      const fromUrl = syncUrl ? readUrlValues(embed.dashboard.filters, location.search) : {}
      // Values chosen before a reload (e.g. a new base-url) are kept where the filter still exists.
      this.values = { ...initialFilterValues(embed.dashboard.filters, fromUrl, this.editable), ...this.keptValues() }
      this.writeUrl()
      this.rebuildMetrics(true)
    } catch (e) {
      if (isAbortError(e) || client !== this.client) return
      this.loadError = toApiError(e)
      this.report(this.loadError)
    } finally {
      if (this.loadAbort === abort) this.loadAbort = undefined
      this.host.requestUpdate()
    }
  }

  private keptValues(): Record<string, FilterValue> {
    const out: Record<string, FilterValue> = {}
    for (const f of this.filters) {
      const v = this.values[f.name]
      if (v !== undefined && !isPinned(f) && this.editable) out[f.name] = v
    }
    return out
  }

  /** The metrics this element shows, per `metric-id`. */
  visibleMetrics(): RuntimeMetric[] {
    const all = this.embed?.metrics ?? []
    const id = this.config?.metricId
    if (id) return all.filter((m) => m.metricId === id)
    return this.config?.single ? all.slice(0, 1) : [...all]
  }

  private rebuildMetrics(query: boolean): void {
    for (const m of this.metrics.values()) m.abort?.abort()
    this.metrics.clear()
    this.readyFired = false
    const visible = this.visibleMetrics()
    const wanted = this.config?.metricId
    if (this.embed && wanted && visible.length === 0) {
      this.report(new StrataApiError('METRIC_NOT_FOUND', 0, `This embed has no metric "${wanted}"`))
    }
    for (const metric of visible) {
      this.metrics.set(metric.metricId, { metric, status: 'loading', page: 1, resultPage: 1, downloading: false })
    }
    if (query) this.queryAll()
    this.checkReady()
  }

  private queryAll(): void {
    for (const m of this.metrics.values()) void this.query(m)
  }

  private dashboardFilter() {
    return buildDashboardFilter(this.filters, this.values, this.editable)
  }

  private async query(m: MetricState): Promise<void> {
    const client = this.client
    if (!client) return
    m.abort?.abort()
    const abort = new AbortController()
    m.abort = abort
    m.status = 'loading'
    this.host.requestUpdate()
    const dashboardFilter = this.dashboardFilter()
    const page = m.page
    try {
      const result = await client.query(
        {
          metricId: m.metric.metricId,
          ...(dashboardFilter ? { dashboardFilter } : {}),
          ...(m.metric.chart.type === 'table' ? { pageNumber: page } : {}),
        },
        abort.signal,
      )
      if (abort.signal.aborted) return
      m.result = result
      m.resultPage = page
      m.error = undefined
      m.status = result.data.length === 0 && page === 1 ? 'empty' : 'ready'
      this.remember(result)
    } catch (e) {
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

  private remember(result: QueryResult): void {
    for (const f of this.filters) {
      if (f.type !== 'multi-select' && f.type !== 'single-select') continue
      const set = this.seen.get(f.name) ?? new Set<string>()
      this.seen.set(f.name, set)
      for (const v of seenValues(f, [result])) if (set.size < 1000) set.add(v)
    }
  }

  private checkReady(): void {
    if (this.readyFired || !this.embed || !this.config) return
    const states = [...this.metrics.values()]
    if (states.some((m) => m.status === 'loading')) return
    this.readyFired = true
    const detail = { embedId: this.config.embedId, metrics: states.length }
    // Charts draw in the animation frame after the render: announce once they have.
    void this.host.updateComplete.then(afterPaint).then(() => emit(this.host, 'strata-ready', detail))
  }

  private writeUrl(): void {
    if (!this.config?.syncUrl || typeof location === 'undefined' || typeof history === 'undefined') return
    const search = writeUrlValues(location.search, this.filters, this.values)
    if (search === location.search) return
    try {
      history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`)
    } catch {
      // sandboxed iframes may refuse: the filters still work, they are just not on the URL
    }
  }

  private onTokenExpired(): void {
    this.host.requestUpdate()
    emit(this.host, 'strata-token-expired', { embedId: this.config?.embedId ?? '' })
  }

  private report(error: StrataApiError, metricId?: string): void {
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
