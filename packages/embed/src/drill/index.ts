import type { nothing, TemplateResult } from 'lit'
import type { Drill, DrillFilter, RuntimeFilter, RuntimeMetric } from '../api/types.js'
import { resolveAxes } from '../charts/axes.js'
import { categoriesOf } from '../charts/build.js'
import type { DrillLevel, DrillState } from '../drill-state.js'
import type { MetricState } from '../embed-controller.js'
import { emit } from '../events.js'
import type { UrlAdapter } from '../filter-state.js'
import { humanise } from '../lib/format.js'
import { chipsFor, decodeDrills, writeDrillParam } from './chips-url.js'
import { dimensionsOf, emptyResult, grainOf, pointName, segmentsOf, valueText } from './dimensions.js'
import { menuKey } from './menu-keys.js'
import { GRAIN_PLURAL, nextGrain, periodOf } from './periods.js'
import { type ChartPoint, eventPlace, highlight, placeOf, pointsOf, rowOf } from './points.js'
import { accepts, sameColumn, valueFor } from './values.js'
import { chipsView, type MenuItem, menuView, type OpenMenu, trailView } from './views.js'

/** What the dashboard gives the drill module (loaded on the first click on a data point). */
export interface DrillHost {
  readonly element: HTMLElement & { readonly renderRoot: ParentNode }
  readonly state: DrillState
  filters(): readonly RuntimeFilter[]
  /** Whether the end user may change dashboard filters (drill follows it). */
  editable(): boolean
  canSeeRows(): boolean
  locale(): string | undefined
  /** The metrics the element shows (a chip restored from the URL must name a column of one of them). */
  metrics(): readonly RuntimeMetric[]
  /** The page URL the chips are mirrored in (`options.syncUrl`), or undefined. */
  url(): UrlAdapter | undefined
  setFilter(name: string, value: unknown): void
  /** Re-queries after a drill change: every card, or `metricId`'s only. */
  changed(metricId?: string): void
  /** "See these rows": the underlying-rows dialog under `drill`. */
  viewRows(metric: RuntimeMetric, opener: HTMLElement | null, drill: Drill, label: string): void
  requestUpdate(): void
}

/**
 * Drill-down (docs/web-component.md#drill-down): the menu a click, a tap or Enter on a data point
 * or a table row opens ("Filter by Category = Books", "Show days of March 2026", "See these
 * rows"), the chips of values no dashboard filter holds, each card's breadcrumbs, and the
 * keyboard path through a chart's points. Loaded on first use; the state it changes lives in the
 * element (drill-state.ts), so the queries carry it without this module.
 */
export class DrillSession {
  private open: OpenMenu | undefined
  /** The data point focused with the arrow keys (its place among the chart's points), per card. */
  private readonly focused = new Map<string, number>()
  private announce = ''

  constructor(private readonly host: DrillHost) {
    document.addEventListener('pointerdown', this.onPointerDown, true)
  }

  dispose(): void {
    document.removeEventListener('pointerdown', this.onPointerDown, true)
  }

  /** A click or tap on a chart's data point (ECharts' click event). */
  pickChart(
    m: MetricState,
    params: { dataIndex?: number; name?: string; data?: unknown },
    event: Event | undefined,
    el: HTMLElement,
  ) {
    const rows = m.result?.data ?? []
    // a point that names its row (a scatter's), else the category's place
    let index = rowOf(params.data) ?? (typeof params.dataIndex === 'number' ? params.dataIndex : -1)
    const type = m.metric.chart.type
    if (type === 'pie' || type === 'doughnut' || type === 'funnel') {
      // these draw the rows with a value only: find the row by its category name
      const x = resolveAxes(m.metric.chart, m.result ?? emptyResult).x
      const names = categoriesOf(this.shown(m), m.result ?? emptyResult, x, this.host.locale()).categories
      index = names.indexOf(params.name ?? '')
    }
    if (index < 0 || index >= rows.length) return
    this.pick(m, index, undefined, eventPlace(event, el), el, false)
  }

  /**
   * Opens the menu for row `index` of a card: by `column` (a table's cell), else by the chart's
   * dimensions (a scatter point's: the one naming the point and the one colouring its series).
   * Nothing opens when the row has no drillable dimension.
   */
  pick(
    m: MetricState,
    index: number,
    column: string | undefined,
    at: { x: number; y: number },
    opener: HTMLElement | null,
    keyboard: boolean,
  ): void {
    const row = m.result?.data[index]
    const columns = m.metric.drillColumns ?? {}
    if (!row) return
    const levels = this.host.state.levelsOf(m.metric.metricId)
    const locale = this.host.locale()
    const dims = dimensionsOf(m, row, column)
    const [dimension] = dims
    if (dimension === undefined) return
    const target = columns[dimension]
    if (!target) return
    const value = row[dimension]
    const grain = grainOf(m, levels, dimension)
    const shown = valueText(m, levels, row, dimension, locale)
    const items: MenuItem[] = []
    const down = grain ? nextGrain(grain) : undefined
    const period = grain ? periodOf(value, grain) : undefined
    if (down && period && grain) {
      items.push({
        id: 'down',
        label: `Show ${GRAIN_PLURAL[down]} of ${shown}`,
        run: () => this.drillDown(m, { dimension, grain: down, filter: { ...target, value: period }, label: shown }),
      })
    }
    // each dimension's value: what "Filter by" offers, and what "See these rows" narrows to
    const segment = segmentsOf(m, levels, row, dims, locale)
    if (this.host.editable()) {
      for (const [i, s] of segment.entries()) {
        items.push({
          id: i === 0 ? 'filter' : `filter-${s.dim}`,
          label: `Filter by ${s.label} = ${s.text}`,
          run: () => this.filterBy(s.filter, `${s.label}: ${s.text}`),
        })
      }
    }
    if (segment.length > 0 && this.host.canSeeRows() && m.metric.chart.type !== 'table') {
      items.push({
        id: 'rows',
        label: 'See these rows',
        run: () => {
          const own = this.host.state.bodyFor(m.metric.metricId)
          const drill: Drill = { ...own, filters: [...(own?.filters ?? []), ...segment.map((s) => s.filter)] }
          this.host.viewRows(m.metric, opener, drill, segment.map((s) => `${s.label} = ${s.text}`).join(', '))
        },
      })
    }
    if (items.length === 0) return
    const title =
      segment.length > 0 ? segment.map((s) => `${s.label}: ${s.text}`).join(' · ') : `${humanise(dimension)}: ${shown}`
    this.open = { metricId: m.metric.metricId, x: at.x, y: at.y, title, items, opener }
    this.host.requestUpdate()
    void this.focusMenu(keyboard)
  }

  /** Keys on a focused chart: ←/→ (↑/↓) move between points, Enter or Space opens the point's menu. */
  chartKey(m: MetricState, e: KeyboardEvent, el: HTMLElement): void {
    const points = pointsOf(m, el)
    const count = points.length
    if (count === 0) return
    const id = m.metric.metricId
    const now = this.focused.get(id)
    const move = (to: number) => {
      e.preventDefault()
      const next = Math.max(0, Math.min(count - 1, to))
      const point = points[next] as ChartPoint
      this.focused.set(id, next)
      highlight(el, now === undefined ? undefined : points[now], point)
      const name = pointName(m, this.host.state.levelsOf(id), point.row, this.host.locale())
      this.announce = `${name} (${next + 1} of ${count}). Enter for options.`
      this.host.requestUpdate()
    }
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        move(now === undefined ? 0 : now + 1)
        return
      case 'ArrowLeft':
      case 'ArrowUp':
        move(now === undefined ? 0 : now - 1)
        return
      case 'Home':
        move(0)
        return
      case 'End':
        move(count - 1)
        return
      case 'Enter':
      case ' ': {
        e.preventDefault()
        const index = Math.min(now ?? 0, count - 1)
        if (now === undefined) move(0)
        const point = points[index] as ChartPoint
        this.pick(m, point.row, undefined, placeOf(el, point, index, count), el, true)
        return
      }
    }
  }

  /** Escape or Backspace on a drilled card: one level up. */
  cardKey(m: MetricState, e: KeyboardEvent): void {
    if (this.open || (e.key !== 'Escape' && e.key !== 'Backspace')) return
    const target = e.composedPath()[0]
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return
    const depth = this.host.state.levelsOf(m.metric.metricId).length
    if (depth === 0) return
    e.preventDefault()
    this.up(m.metric.metricId, depth - 1)
  }

  /** The metric as its card draws it now: the time dimension's grain the drill shows. */
  shown(m: MetricState): RuntimeMetric {
    const last = this.host.state.levelsOf(m.metric.metricId).at(-1)
    if (!last) return m.metric
    return { ...m.metric, timeGrains: { ...m.metric.timeGrains, [last.dimension]: last.grain } }
  }

  /** A card's breadcrumbs while its time series is drilled: "All months › March 2026". */
  trail(m: MetricState): TemplateResult | typeof nothing {
    const id = m.metric.metricId
    return trailView(m.metric, this.host.state.levelsOf(id), (depth) => this.up(id, depth))
  }

  /** The chips of drilled values no dashboard filter holds (one row, under the filter bar). */
  chips(): TemplateResult | typeof nothing {
    return chipsView(this.host.state.chips, (i) => this.removeChip(i))
  }

  /** The open menu (rendered once, at the end of the element) and the live announcement. */
  menu(): TemplateResult {
    return menuView(
      this.open,
      this.announce,
      (e) => this.menuKey(e),
      (item) => this.choose(item),
    )
  }

  /** The chips in effect, as the `drills` property and `strata-drill-change` give them. */
  drills(): DrillFilter[] {
    return this.host.state.chips.map((c) => ({ ...c.filter }))
  }

  /**
   * Chips from the page URL or the `drills` property: every chip replaced by the well-formed
   * entries on a column the shown metrics drill on (none when the end user may not filter);
   * the URL follows. True when the chips changed (the cards query again).
   */
  restore(raw: unknown): boolean {
    const before = JSON.stringify(this.drills())
    const chips = this.host.editable() ? chipsFor(decodeDrills(raw), this.host.metrics(), this.host.locale()) : []
    this.host.state.setChips(chips)
    this.writeUrl()
    this.host.requestUpdate()
    return JSON.stringify(this.drills()) !== before
  }

  private writeUrl(): void {
    const url = this.host.url()
    if (!url) return
    const search = writeDrillParam(url.search, this.drills())
    if (search !== url.search) url.replace(search)
  }

  /** After the end user added or removed a chip: the URL, the page's event, every card again. */
  private chipsChanged(): void {
    this.writeUrl()
    emit(this.host.element, 'strata-drill-change', { drills: this.drills() })
    this.host.changed()
  }

  private drillDown(m: MetricState, level: DrillLevel): void {
    if (this.host.state.push(m.metric.metricId, level)) {
      this.focused.delete(m.metric.metricId)
      this.announce = `${m.metric.name}: ${level.label} by ${level.grain}`
      this.host.changed(m.metric.metricId)
    }
  }

  private up(metricId: string, depth: number): void {
    if (this.host.state.truncate(metricId, depth)) {
      this.focused.delete(metricId)
      this.announce = depth === 0 ? 'Back to the whole series' : 'Up one level'
      this.host.changed(metricId)
    }
  }

  /** The dashboard filter on the same column when there is one the end user may set, else a chip. */
  private filterBy(filter: DrillFilter, label: string): void {
    const f = this.host.filters().find((x) => !x.locked && sameColumn(x, filter) && accepts(x.type, filter.value))
    if (f) {
      this.host.setFilter(f.name, valueFor(f.type, filter.value))
      this.announce = `Filtered by ${label}`
      return
    }
    if (this.host.state.addChip({ filter, label })) {
      this.announce = `Filtered by ${label}`
      this.chipsChanged()
    }
  }

  private removeChip(index: number): void {
    if (this.host.state.removeChip(index)) {
      this.announce = 'Drill filter removed'
      this.chipsChanged()
      // focus stays in the row of chips, or goes to the grid when it is empty
      void this.afterRender(() => {
        const root = this.host.element.renderRoot
        const next = root.querySelectorAll<HTMLElement>('[part~="drill-chip"]')[Math.max(0, index - 1)]
        ;(next ?? root.querySelector<HTMLElement>('.grid'))?.focus()
      })
    }
  }

  private choose(item: MenuItem): void {
    const opener = this.open?.opener
    this.close(false)
    item.run()
    if (item.id !== 'rows') opener?.focus({ preventScroll: true })
  }

  private close(refocus: boolean): void {
    const opener = this.open?.opener
    this.open = undefined
    this.host.requestUpdate()
    if (refocus) opener?.focus({ preventScroll: true })
  }

  private menuKey(e: KeyboardEvent): void {
    const items = [...this.host.element.renderRoot.querySelectorAll<HTMLElement>('[part~="drill-menu-item"]')]
    menuKey(e, items, (refocus) => this.close(refocus))
  }

  private async focusMenu(_keyboard: boolean): Promise<void> {
    await this.afterRender(() =>
      this.host.element.renderRoot
        .querySelector<HTMLElement>('[part~="drill-menu-item"]')
        ?.focus({ preventScroll: true }),
    )
  }

  private async afterRender(run: () => void): Promise<void> {
    await (this.host.element as HTMLElement & { updateComplete?: Promise<unknown> }).updateComplete
    run()
  }

  private readonly onPointerDown = (e: PointerEvent) => {
    if (!this.open) return
    const inside = e.composedPath().some((n) => n instanceof HTMLElement && n.classList.contains('drill-menu'))
    if (!inside) this.close(false)
  }
}

/** The lazily loaded module's entry. */
export function createDrill(host: DrillHost): DrillSession {
  return new DrillSession(host)
}
