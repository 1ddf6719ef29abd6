import { GridSimpleComponent } from 'echarts/components'
import { type EChartsCoreOption, type EChartsType, init, use } from 'echarts/core'
import { install as BarChart } from 'echarts/lib/chart/bar/install.js'
import { install as LineChart } from 'echarts/lib/chart/line/install.js'
import { CanvasRenderer } from 'echarts/renderers'
import { nothing } from 'lit'
import { AsyncDirective, directive, type ElementPart, type PartInfo, PartType } from 'lit/async-directive.js'
import { fitCategoryLabels } from './build.js'
import { ChartTooltip } from './tooltip.js'

// Only what the chart types need (the full build is ~3× larger). Legend and tooltip are our
// own HTML: lighter than ECharts' components, and reachable by assistive technology.
// Pie, doughnut, scatter and funnel series come with the chunk of the less common chart types (shaped-charts.ts).
use([LineChart, BarChart, GridSimpleComponent, CanvasRenderer])

/**
 * `<div ${echart(option)}>`: draws an ECharts option into the element, resizes with it, and
 * disposes the instance when the element leaves the DOM.
 */
class EChartDirective extends AsyncDirective {
  private element?: HTMLElement
  private chart: EChartsType | undefined
  private tooltip: ChartTooltip | undefined
  private resizer: ResizeObserver | undefined
  private option: Record<string, unknown> | undefined
  private frame = 0
  private width = 0
  /** What a click (or tap) on a data point does: drill-down, when the card offers it. */
  private onPick: PickHandler | undefined

  constructor(info: PartInfo) {
    super(info)
    if (info.type !== PartType.ELEMENT) throw new Error('echart() is an element directive')
  }

  render(_option: Record<string, unknown>, _onPick?: PickHandler) {
    return nothing
  }

  override update(part: ElementPart, [option, onPick]: [Record<string, unknown>, PickHandler | undefined]) {
    this.element = part.element as HTMLElement
    this.onPick = onPick
    if (option !== this.option) {
      this.option = option
      this.schedule()
    }
    return nothing
  }

  /** After the element is in the document and laid out: ECharts reads the container's size. */
  private schedule() {
    cancelAnimationFrame(this.frame)
    this.frame = requestAnimationFrame(() => this.draw())
  }

  private draw() {
    const el = this.element
    if (!el || !this.isConnected || !el.isConnected || !this.option) return
    if (!this.chart) {
      this.chart = init(el, undefined, { renderer: 'canvas' })
      this.tooltip = new ChartTooltip(this.chart, el)
      this.chart.on('click', (p) => {
        const params = p as Parameters<PickHandler>[0] & { event?: { event?: Event } }
        if (!this.element || !this.onPick) return
        this.tooltip?.hide()
        this.onPick(params, params.event?.event, this.element)
      })
      this.resizer = new ResizeObserver(() => this.fit())
      this.resizer.observe(el)
      // The instance for tests and hosts that inspect what was drawn (getOption()).
      Object.defineProperty(el, 'chart', { value: this.chart, configurable: true })
    }
    this.width = el.clientWidth
    this.chart.setOption(fitCategoryLabels(this.option, this.width) as EChartsCoreOption, { notMerge: true })
    this.tooltip?.setOption(this.option)
  }

  /** On resize: the category labels refitted to the new width, then the canvas resized. */
  private fit() {
    const el = this.element
    if (!el || !this.chart || !this.option) return
    if (el.clientWidth !== this.width) {
      this.width = el.clientWidth
      // Merged (not replaced): only the axis labels change, nothing re-animates.
      this.chart.setOption(fitCategoryLabels(this.option, this.width) as EChartsCoreOption)
    }
    this.chart.resize()
  }

  protected override disconnected() {
    cancelAnimationFrame(this.frame)
    this.resizer?.disconnect()
    this.tooltip?.dispose()
    this.chart?.dispose()
    this.chart = undefined
    this.tooltip = undefined
    this.resizer = undefined
  }

  protected override reconnected() {
    this.schedule()
  }
}

/**
 * A click or tap on a data point: ECharts' event parameters (`data` is the point as the option
 * gives it: a scatter's carries the index of its result row), the DOM event, the chart's element.
 */
export type PickHandler = (
  params: { readonly dataIndex?: number; readonly name?: string; readonly data?: unknown },
  event: Event | undefined,
  element: HTMLElement,
) => void

export const echart = directive(EChartDirective)
