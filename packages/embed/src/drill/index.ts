import { html, nothing, type TemplateResult } from 'lit'
import type { Drill, DrillFilter, RuntimeFilter, RuntimeMetric } from '../api/types.js'
import { resolveAxes } from '../charts/axes.js'
import { categoriesOf } from '../charts/build.js'
import type { DrillLevel, DrillState } from '../drill-state.js'
import type { MetricState } from '../embed-controller.js'
import { formatTime, humanise, labelOf } from '../lib/format.js'
import { GRAIN_PLURAL, nextGrain, periodOf } from './periods.js'
import { drillStyles } from './styles.js'

/** What the dashboard gives the drill module (loaded on the first click on a data point). */
export interface DrillHost {
  readonly element: HTMLElement & { readonly renderRoot: ParentNode }
  readonly state: DrillState
  filters(): readonly RuntimeFilter[]
  /** Whether the end user may change dashboard filters (drill follows it). */
  editable(): boolean
  canSeeRows(): boolean
  locale(): string | undefined
  setFilter(name: string, value: unknown): void
  /** Re-queries after a drill change: every card, or `metricId`'s only. */
  changed(metricId?: string): void
  /** "See these rows": the underlying-rows dialog under `drill`; false when it is not available. */
  viewRows(metric: RuntimeMetric, opener: HTMLElement | null, drill: Drill, label: string): boolean
  requestUpdate(): void
}

interface MenuItem {
  readonly id: string
  readonly label: string
  run(): void
}

interface OpenMenu {
  readonly metricId: string
  readonly x: number
  readonly y: number
  readonly title: string
  readonly items: readonly MenuItem[]
  readonly opener: HTMLElement | null
}

const MENU_WIDTH = 260

/**
 * Drill-down (docs/web-component.md#drill-down): the menu a click, a tap or Enter on a data point
 * or a table row opens ("Filter by Category = Books", "Show days of March 2026", "See these
 * rows"), the chips of values no dashboard filter holds, each card's breadcrumbs, and the
 * keyboard path through a chart's points. Loaded on first use; the state it changes lives in the
 * element (drill-state.ts), so the queries carry it without this module.
 */
export class DrillSession {
  private open: OpenMenu | undefined
  /** The data point focused with the arrow keys, per card. */
  private readonly focused = new Map<string, number>()
  private announce = ''

  constructor(private readonly host: DrillHost) {
    document.addEventListener('pointerdown', this.onPointerDown, true)
  }

  dispose(): void {
    document.removeEventListener('pointerdown', this.onPointerDown, true)
  }

  /** A click or tap on a chart's data point (ECharts' click event). */
  pickChart(m: MetricState, params: { dataIndex?: number; name?: string }, event: Event | undefined, el: HTMLElement) {
    const rows = m.result?.data ?? []
    let index = typeof params.dataIndex === 'number' ? params.dataIndex : -1
    const type = m.metric.chart.type
    if (type === 'pie' || type === 'doughnut' || type === 'funnel') {
      // these draw the rows with a value only: find the row by its category name
      const x = resolveAxes(m.metric.chart, m.result ?? emptyResult).x
      const names = categoriesOf(this.shown(m), m.result ?? emptyResult, x, this.host.locale()).categories
      index = names.indexOf(params.name ?? '')
    }
    if (index < 0 || index >= rows.length) return
    const point = pointOf(event, el)
    this.pick(m, index, undefined, point, el, false)
  }

  /**
   * Opens the menu for row `index` of a card: by `column` (a table's cell), else by the chart's
   * category dimension. Nothing opens when the row has no drillable dimension.
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
    const x = resolveAxes(m.metric.chart, m.result ?? emptyResult).x
    const dimension = [column, x, ...Object.keys(columns)].find((d) => d !== undefined && d in columns && d in row)
    if (dimension === undefined) return
    const target = columns[dimension]
    if (!target) return
    const value = row[dimension]
    const grain = this.grainOf(m, dimension)
    const shown = grain ? formatTime(value, grain, this.host.locale()) : labelOf(value)
    const label = humanise(dimension)
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
    const filterValue: DrillFilter['value'] | undefined = period ?? scalar(value)
    if (filterValue !== undefined && this.host.editable()) {
      items.push({
        id: 'filter',
        label: `Filter by ${label} = ${shown}`,
        run: () => this.filterBy({ ...target, value: filterValue }, `${label}: ${shown}`),
      })
    }
    if (filterValue !== undefined && this.host.canSeeRows() && m.metric.chart.type !== 'table') {
      items.push({
        id: 'rows',
        label: 'See these rows',
        run: () => {
          const own = this.host.state.bodyFor(m.metric.metricId)
          const drill: Drill = {
            ...own,
            filters: [...(own?.filters ?? []), { ...target, value: filterValue }],
          }
          this.host.viewRows(m.metric, opener, drill, `${label} = ${shown}`)
        },
      })
    }
    if (items.length === 0) return
    this.open = { metricId: m.metric.metricId, x: at.x, y: at.y, title: `${label}: ${shown}`, items, opener }
    this.host.requestUpdate()
    void this.focusMenu(keyboard)
  }

  /** Keys on a focused chart: ←/→ (↑/↓) move between points, Enter or Space opens the point's menu. */
  chartKey(m: MetricState, e: KeyboardEvent, el: HTMLElement): void {
    const rows = m.result?.data.length ?? 0
    if (rows === 0) return
    const id = m.metric.metricId
    const now = this.focused.get(id)
    const move = (to: number) => {
      e.preventDefault()
      const next = Math.max(0, Math.min(rows - 1, to))
      this.focused.set(id, next)
      highlight(el, now, next)
      const row = m.result?.data[next]
      const x = resolveAxes(m.metric.chart, m.result ?? emptyResult).x
      const grain = x ? this.grainOf(m, x) : undefined
      const name = row && x ? (grain ? formatTime(row[x], grain, this.host.locale()) : labelOf(row[x])) : ''
      this.announce = `${name} (${next + 1} of ${rows}). Enter for options.`
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
        move(rows - 1)
        return
      case 'Enter':
      case ' ': {
        e.preventDefault()
        const index = now ?? 0
        if (now === undefined) move(0)
        const box = el.getBoundingClientRect()
        const at = { x: box.left + ((index + 0.5) / rows) * box.width, y: box.top + box.height / 2 }
        this.pick(m, index, undefined, at, el, true)
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
    const levels = this.host.state.levelsOf(id)
    if (levels.length === 0) return nothing
    const first = levels[0] as DrillLevel
    const top = m.metric.timeGrains?.[first.dimension]
    const topLabel = `All ${top && top in GRAIN_PLURAL ? GRAIN_PLURAL[top as keyof typeof GRAIN_PLURAL] : 'periods'}`
    const crumbs = [topLabel, ...levels.map((l) => l.label)]
    return html`${drillStyles}<nav class="drill-trail" part="drill-breadcrumbs" aria-label="Drill-down of ${m.metric.name}">
      <ol>
        ${crumbs.map((c, i) =>
          i === crumbs.length - 1
            ? html`<li><span aria-current="page">${c}</span></li>`
            : html`<li>
                <button type="button" part="drill-breadcrumb" @click=${() => this.up(id, i)}>${c}</button
                ><span class="sep" aria-hidden="true">›</span>
              </li>`,
        )}
      </ol>
      <span class="hint">Esc: up one level</span>
    </nav>`
  }

  /** The chips of drilled values no dashboard filter holds (one row, under the filter bar). */
  chips(): TemplateResult | typeof nothing {
    const chips = this.host.state.chips
    if (chips.length === 0) return nothing
    return html`${drillStyles}<div class="drill-chips" part="drill-chips" role="group" aria-label="Drill-down filters">
      <span class="drill-chips-label">Drilled into</span>
      ${chips.map(
        (c, i) => html`<button
          type="button"
          class="drill-chip"
          part="drill-chip"
          aria-label="Remove drill filter ${c.label}"
          @click=${() => this.removeChip(i)}
        >
          <span>${c.label}</span><span aria-hidden="true">×</span>
        </button>`,
      )}
    </div>`
  }

  /** The open menu (rendered once, at the end of the element) and the live announcement. */
  menu(): TemplateResult {
    const o = this.open
    const left = o ? Math.max(8, Math.min(o.x, window.innerWidth - MENU_WIDTH - 8)) : 0
    const top = o ? Math.max(8, Math.min(o.y + 8, window.innerHeight - (56 + o.items.length * 44))) : 0
    return html`${drillStyles}<span class="sr-only" role="status" aria-live="polite">${this.announce}</span>
      ${
        o
          ? html`<div
            class="drill-menu"
            part="drill-menu"
            role="menu"
            aria-label=${o.title}
            style="left:${left}px;top:${top}px"
            @keydown=${(e: KeyboardEvent) => this.menuKey(e)}
          >
            <div class="drill-menu-title" aria-hidden="true">${o.title}</div>
            ${o.items.map(
              (item) => html`<button
                type="button"
                role="menuitem"
                part="drill-menu-item"
                data-action=${item.id}
                tabindex="-1"
                @click=${() => this.choose(item)}
              >
                ${item.label}
              </button>`,
            )}
          </div>`
          : nothing
      }`
  }

  private grainOf(m: MetricState, dimension: string): string | undefined {
    const levels = this.host.state.levelsOf(m.metric.metricId)
    const last = [...levels].reverse().find((l) => l.dimension === dimension)
    return last?.grain ?? m.metric.timeGrains?.[dimension]
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
      this.host.changed()
    }
  }

  private removeChip(index: number): void {
    if (this.host.state.removeChip(index)) {
      this.announce = 'Drill filter removed'
      this.host.changed()
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
    const at = items.indexOf(e.composedPath()[0] as HTMLElement)
    const go = (i: number) => {
      e.preventDefault()
      items[(i + items.length) % items.length]?.focus()
    }
    switch (e.key) {
      case 'ArrowDown':
        go(at + 1)
        return
      case 'ArrowUp':
        go(at - 1)
        return
      case 'Home':
        go(0)
        return
      case 'End':
        go(items.length - 1)
        return
      case 'Escape':
        e.preventDefault()
        e.stopPropagation()
        this.close(true)
        return
      case 'Tab':
        this.close(true)
        return
    }
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

const emptyResult = {
  data: [],
  timeTaken: 0,
  totalRecords: 0,
  metaData: { columns: [], groupbyColumnList: [] },
  metricid: '',
  error: null,
} as const

/** A drill value from a row's cell: strings, numbers and booleans (a null or an object is not one). */
function scalar(v: unknown): string | number | boolean | undefined {
  if (typeof v === 'string') return v.length <= 500 ? v : undefined
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'boolean') return v
  return undefined
}

const tableMatches = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`)
const sameColumn = (f: RuntimeFilter, d: DrillFilter) => f.column === d.column && tableMatches(f.table, d.table)

function accepts(type: string, value: DrillFilter['value']): boolean {
  const range = typeof value === 'object'
  switch (type) {
    case 'date-range':
      return range
    case 'multi-select':
    case 'single-select':
    case 'text':
      return typeof value === 'string'
    case 'number-range':
      return typeof value === 'number'
    case 'boolean':
      return typeof value === 'boolean'
    default:
      return false
  }
}

function valueFor(type: string, value: DrillFilter['value']): unknown {
  switch (type) {
    case 'multi-select':
      return [value]
    case 'number-range':
      return { min: value, max: value }
    default:
      return value
  }
}

/** Where a click or tap happened, else the middle of the element. */
function pointOf(event: Event | undefined, el: HTMLElement): { x: number; y: number } {
  if (event && 'clientX' in event && typeof event.clientX === 'number') {
    return { x: event.clientX, y: (event as MouseEvent).clientY }
  }
  const touch = (event as TouchEvent | undefined)?.changedTouches?.[0]
  if (touch) return { x: touch.clientX, y: touch.clientY }
  const box = el.getBoundingClientRect()
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
}

type Chart = { dispatchAction(a: Record<string, unknown>): void }
/** ECharts' own emphasis on the focused point (the instance the chart element carries). */
function highlight(el: HTMLElement, from: number | undefined, to: number): void {
  const chart = (el as HTMLElement & { chart?: Chart }).chart
  if (!chart) return
  if (from !== undefined) chart.dispatchAction({ type: 'downplay', dataIndex: from })
  chart.dispatchAction({ type: 'highlight', dataIndex: to })
}

/** The lazily loaded module's entry. */
export function createDrill(host: DrillHost): DrillSession {
  return new DrillSession(host)
}
