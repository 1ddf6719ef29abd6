import type { EChartsType } from 'echarts/core'

interface SeriesLike {
  readonly name?: string
  readonly type?: string
  readonly data?: readonly unknown[]
  /** The measure's own number format (same decimals as its table column). */
  readonly tooltip?: {
    readonly valueFormatter?: (v: number) => string
    /** A scatter point's two measures (x, y): their names and formats. */
    readonly pair?: readonly string[]
    readonly pairFormatters?: readonly ((v: number) => string)[]
  }
}

/**
 * A small HTML tooltip in place of ECharts' tooltip component (which pulls in ~17 KB gzip of
 * axis-pointer code): for axis charts it shows every series at the hovered category, for pies
 * the hovered slice. Styled by the host's CSS (`part="tooltip"`).
 */
export class ChartTooltip {
  private readonly box: HTMLDivElement
  private option: Record<string, unknown> = {}
  private readonly format = (v: number) => v.toLocaleString(undefined, { maximumFractionDigits: 2 })

  constructor(
    private readonly chart: EChartsType,
    private readonly container: HTMLElement,
  ) {
    this.box = document.createElement('div')
    this.box.className = 'tooltip'
    this.box.setAttribute('part', 'tooltip')
    this.box.setAttribute('aria-hidden', 'true')
    this.box.hidden = true
    container.appendChild(this.box)
    const zr = chart.getZr()
    zr.on('mousemove', (e: { offsetX: number; offsetY: number }) => this.onMove(e.offsetX, e.offsetY))
    zr.on('globalout', () => this.hide())
    chart.on('mouseover', (p: unknown) => this.onItem(p as PieParams))
    chart.on('mouseout', () => {
      if (this.isItem) this.hide()
    })
  }

  setOption(option: Record<string, unknown>) {
    this.option = option
    this.hide()
  }

  dispose() {
    this.box.remove()
  }

  private get series(): SeriesLike[] {
    const s = this.option.series
    return Array.isArray(s) ? (s as SeriesLike[]) : []
  }

  /** Pies, funnels and scatter charts: the tooltip shows the item under the pointer. */
  private get isItem(): boolean {
    const type = this.series[0]?.type
    return type === 'pie' || type === 'funnel' || type === 'scatter'
  }

  private colorAt(i: number): string {
    const colors = this.option.color
    return Array.isArray(colors) && colors.length ? String(colors[i % colors.length]) : '#888'
  }

  private onMove(x: number, y: number) {
    if (this.isItem) return
    const finder = { gridIndex: 0 }
    if (!this.chart.containPixel(finder, [x, y])) return this.hide()
    const horizontal = (this.option.yAxis as { type?: string } | undefined)?.type === 'category'
    const axis = (horizontal ? this.option.yAxis : this.option.xAxis) as { data?: unknown[] } | undefined
    const categories = axis?.data ?? []
    const point = this.chart.convertFromPixel(finder, [x, y]) as unknown as number[]
    const index = Math.round(point[horizontal ? 1 : 0] ?? -1)
    if (!(index >= 0 && index < categories.length)) return this.hide()
    const rows = this.series.map((s, i) => {
      const v = s.data?.[index]
      const text = typeof v === 'number' ? (s.tooltip?.valueFormatter ?? this.format)(v) : '–'
      return [s.name ?? '', text, this.colorAt(i)] as const
    })
    this.show(String(categories[index]), rows, x, y)
  }

  private onItem(p: PieParams) {
    if (!this.isItem || p.componentType !== 'series') return
    const s = this.series[p.seriesIndex ?? 0]
    const color = p.color ?? this.colorAt(p.dataIndex ?? 0)
    const at = [p.event?.offsetX ?? 0, p.event?.offsetY ?? 0] as const
    if (Array.isArray(p.value)) {
      const values = p.value as unknown[]
      const rows = (s?.tooltip?.pair ?? []).map((name, i) => {
        const v = values[i]
        const f = s?.tooltip?.pairFormatters?.[i] ?? this.format
        return [name, typeof v === 'number' ? f(v) : '–', color] as const
      })
      return this.show(p.name || p.seriesName || '', rows, ...at)
    }
    const pct = typeof p.percent === 'number' ? ` (${p.percent}%)` : ''
    const format = this.series[0]?.tooltip?.valueFormatter ?? this.format
    const value = typeof p.value === 'number' ? format(p.value) : String(p.value ?? '')
    this.show(
      p.seriesName ?? '',
      [[p.name ?? '', value + pct, p.color ?? this.colorAt(p.dataIndex ?? 0)]],
      p.event?.offsetX ?? 0,
      p.event?.offsetY ?? 0,
    )
  }

  private show(title: string, rows: readonly (readonly [string, string, string])[], x: number, y: number) {
    const box = this.box
    box.replaceChildren()
    const head = document.createElement('div')
    head.className = 'tooltip-title'
    head.textContent = title
    box.appendChild(head)
    for (const [name, value, color] of rows) {
      const row = document.createElement('div')
      row.className = 'tooltip-row'
      const swatch = document.createElement('span')
      swatch.className = 'swatch'
      swatch.style.background = color
      const label = document.createElement('span')
      label.className = 'tooltip-name'
      label.textContent = name
      const val = document.createElement('span')
      val.className = 'tooltip-value'
      val.textContent = value
      row.append(swatch, label, val)
      box.appendChild(row)
    }
    box.hidden = false
    const { clientWidth: w, clientHeight: h } = this.container
    const bw = box.offsetWidth
    const bh = box.offsetHeight
    const left = x + 14 + bw > w ? Math.max(0, x - 14 - bw) : x + 14
    const top = Math.min(Math.max(0, y - bh / 2), Math.max(0, h - bh))
    box.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`
  }

  /** Hides the tooltip (also when a click on a point opens the drill menu over it). */
  hide() {
    this.box.hidden = true
  }
}

interface PieParams {
  readonly componentType?: string
  readonly seriesName?: string
  readonly name?: string
  readonly value?: unknown
  readonly percent?: number
  readonly color?: string
  readonly dataIndex?: number
  readonly seriesIndex?: number
  readonly event?: { readonly offsetX?: number; readonly offsetY?: number }
}
