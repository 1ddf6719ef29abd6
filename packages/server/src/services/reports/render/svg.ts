import { fitCategoryLabels } from '@strata/embed/chart-options'
import { BarChart, FunnelChart, LineChart, PieChart, ScatterChart } from 'echarts/charts'
import { GridSimpleComponent } from 'echarts/components'
import { type EChartsCoreOption, init, use } from 'echarts/core'
import { SVGRenderer } from 'echarts/renderers'

// The chart types and components the web component registers (packages/embed/src/charts/echarts.ts and,
// for the less common types, packages/embed/src/shaped-charts.ts),
// with the SVG renderer in place of the canvas one: ECharts draws to an SVG string in Node (server-side rendering).
use([BarChart, LineChart, PieChart, ScatterChart, FunnelChart, GridSimpleComponent, SVGRenderer])

/**
 * An ECharts option (the web component's, from `buildVisual`) drawn to an SVG document `width` ×
 * `height` px. The category labels are fitted to the width as the web component fits them; no animation.
 */
export function chartSvg(option: Record<string, unknown>, width: number, height: number): string {
  const chart = init(null, null, { renderer: 'svg', ssr: true, width, height })
  try {
    chart.setOption({ ...fitCategoryLabels(option, width), animation: false } as EChartsCoreOption)
    return chart.renderToSVGString()
  } finally {
    chart.dispose()
  }
}

/**
 * The drawing inside an SVG document (its root element's children), to place inside another SVG.
 * ECharts' `<style>` holds only :hover rules, meaningless on paper, and the PDF converter reads no CSS: dropped.
 */
export function svgBody(svg: string): string {
  const start = svg.indexOf('>', svg.indexOf('<svg'))
  const end = svg.lastIndexOf('</svg>')
  if (start === -1 || end === -1) return ''
  return svg.slice(start + 1, end).replace(/<style[\s\S]*?<\/style>/g, '')
}
