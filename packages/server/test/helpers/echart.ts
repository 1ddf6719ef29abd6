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
