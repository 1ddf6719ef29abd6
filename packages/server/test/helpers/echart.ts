import type { Locator } from 'playwright-core'

/** An element's text as it reads: runs of white space as one space, trimmed. */
export const norm = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim()

/** What the browser tests read of a drawn ECharts instance (the element keeps it as `chart`). */
export type EChart = {
  getOption(): { series: { name: string; type: string; data: unknown[] }[]; xAxis?: { data?: string[] }[] }
  convertToPixel(finder: object, value: unknown): number[]
  on(event: string, handler: () => void): void
  off(event: string, handler: () => void): void
  getModel(): {
    getSeriesByIndex(i: number): {
      getData(): {
        getItemLayout(i: number): {
          cx: number
          cy: number
          r: number
          r0: number
          startAngle: number
          endAngle: number
        }
      }
    }
  }
}

/**
 * Where data point `index` of a drawn chart is, in page coordinates: a slice's middle, a line's
 * point, a bar's middle (the place a finger or a click would aim at). `chart` is the card's
 * `[part~="chart"]`; it is scrolled into view first.
 */
export async function pointOf(chart: Locator, index: number): Promise<{ x: number; y: number }> {
  await chart.scrollIntoViewIfNeeded()
  const box = await chart.boundingBox()
  if (!box) throw new Error('no chart drawn')
  const [x, y] = await chart.evaluate((el, i) => {
    const c = (el as HTMLElement & { chart: EChart }).chart
    const series = c.getOption().series[0]
    if (!series) return [0, 0]
    if (series.type === 'pie') {
      const l = c.getModel().getSeriesByIndex(0).getData().getItemLayout(i)
      const mid = (l.startAngle + l.endAngle) / 2
      const r = (l.r + l.r0) / 2
      return [l.cx + r * Math.cos(mid), l.cy + r * Math.sin(mid)]
    }
    const raw = series.data[i]
    const v = typeof raw === 'object' && raw !== null && 'value' in raw ? (raw as { value: number }).value : raw
    const top = c.convertToPixel({ seriesIndex: 0 }, [i, v])
    const base = c.convertToPixel({ seriesIndex: 0 }, [i, 0])
    return series.type === 'line' ? [top[0], top[1]] : [top[0], ((top[1] ?? 0) + (base[1] ?? 0)) / 2]
  }, index)
  return { x: box.x + (x ?? 0), y: box.y + (y ?? 0) }
}
