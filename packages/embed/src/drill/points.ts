import type { MetricState } from '../embed-controller.js'

/** One drawn point of a chart: the result row it shows, and where ECharts holds it. */
export interface ChartPoint {
  readonly row: number
  /** Set where the point's series is not every row's (a scatter groups its points by series). */
  readonly seriesIndex?: number
  readonly dataIndex: number
}

type Chart = {
  getOption(): { series?: { data?: unknown[] }[] }
  dispatchAction(a: Record<string, unknown>): void
  convertToPixel(finder: Record<string, unknown>, value: unknown): unknown
}
const chartOf = (el: HTMLElement) => (el as HTMLElement & { chart?: Chart }).chart

/** The result row a point of the option carries (`row`, as a scatter's points do), if any. */
export function rowOf(data: unknown): number | undefined {
  const row = typeof data === 'object' && data !== null ? (data as { row?: unknown }).row : undefined
  return typeof row === 'number' && Number.isInteger(row) && row >= 0 ? row : undefined
}

/**
 * The points the arrow keys go through, in the result's order: the points that carry their row
 * (a scatter: one per row with both measures, in its series), else one per result row.
 */
export function pointsOf(m: MetricState, el: HTMLElement): ChartPoint[] {
  const tagged: ChartPoint[] = []
  const series = chartOf(el)?.getOption().series ?? []
  for (const [seriesIndex, s] of series.entries()) {
    for (const [dataIndex, d] of (s.data ?? []).entries()) {
      const row = rowOf(d)
      if (row !== undefined) tagged.push({ row, seriesIndex, dataIndex })
    }
  }
  if (tagged.length > 0) return tagged.sort((a, b) => a.row - b.row)
  return Array.from({ length: m.result?.data.length ?? 0 }, (_, row) => ({ row, dataIndex: row }))
}

/** ECharts' own emphasis on the focused point (the instance the chart element carries). */
export function highlight(el: HTMLElement, from: ChartPoint | undefined, to: ChartPoint): void {
  const chart = chartOf(el)
  if (!chart) return
  const at = (p: ChartPoint) => ({
    dataIndex: p.dataIndex,
    ...(p.seriesIndex === undefined ? {} : { seriesIndex: p.seriesIndex }),
  })
  if (from) chart.dispatchAction({ type: 'downplay', ...at(from) })
  chart.dispatchAction({ type: 'highlight', ...at(to) })
}

/**
 * Where the menu of a point opened from the keyboard goes, in the viewport: on a scatter's point
 * itself, else at the point's share of the chart's width (its category).
 */
export function placeOf(el: HTMLElement, point: ChartPoint, index: number, count: number): { x: number; y: number } {
  const box = el.getBoundingClientRect()
  const chart = chartOf(el)
  if (point.seriesIndex !== undefined && chart) {
    const data = chart.getOption().series?.[point.seriesIndex]?.data?.[point.dataIndex] as { value?: unknown }
    const at = chart.convertToPixel({ seriesIndex: point.seriesIndex }, data?.value)
    if (Array.isArray(at) && typeof at[0] === 'number' && typeof at[1] === 'number') {
      return { x: box.left + at[0], y: box.top + at[1] }
    }
  }
  return { x: box.left + ((index + 0.5) / count) * box.width, y: box.top + box.height / 2 }
}

/** Where a click or tap happened, else the middle of the element. */
export function eventPlace(event: Event | undefined, el: HTMLElement): { x: number; y: number } {
  if (event && 'clientX' in event && typeof event.clientX === 'number') {
    return { x: event.clientX, y: (event as MouseEvent).clientY }
  }
  const touch = (event as TouchEvent | undefined)?.changedTouches?.[0]
  if (touch) return { x: touch.clientX, y: touch.clientY }
  const box = el.getBoundingClientRect()
  return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
}
