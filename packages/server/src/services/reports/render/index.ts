import { buildVisual, type ChartTheme, DEFAULT_CHART_THEME, type RuntimeMetric } from '@strata/embed/chart-options'
import type { MetricResult } from '../../query/metric-queries.js'
import { cardSvg } from './card.js'
import { safeName, uniqueNames } from './filename.js'
import { cardsToPdf, PDF_CONTENT_WIDTH } from './pdf.js'
import { svgToPng } from './png.js'

export type { RuntimeMetric } from '@strata/embed/chart-options'

export interface ReportInput {
  /** The report's (dashboard's) name: the PDF's heading and file name. */
  readonly title: string
  /**
   * The token's time zone: the PDF says when it was made in it. Time axes need no zone: the rows hold
   * the warehouse's wall clock in the token's zone already, and the web component's labels (used here)
   * show them as they are.
   */
  readonly timezone: string
  readonly items: readonly { readonly metric: RuntimeMetric; readonly result: MetricResult }[]
  readonly format: 'png' | 'pdf'
  /** Number and date formatting (BCP 47), as a browser's locale does for the web component; default en-US. */
  readonly locale?: string
  /** When the report was made (the PDF's subtitle); default now. */
  readonly now?: Date
}

export interface ReportFile {
  readonly filename: string
  readonly contentType: string
  readonly content: Buffer
}

/**
 * The web component's default light theme (packages/embed/src/lib/theme.ts), so a report looks like
 * the dashboard. Its font list quotes family names with `"`, which ECharts' SVG output writes
 * unescaped into a `style="…"` attribute (the canvas never meets it): the same names in `'` quotes.
 */
const THEME: ChartTheme = { ...DEFAULT_CHART_THEME, font: DEFAULT_CHART_THEME.font.replaceAll('"', "'") }
/** A PNG card's width (px, before PNG_SCALE): a half-width dashboard card on a wide screen. */
const PNG_WIDTH = 720

/**
 * A dashboard's metrics drawn for an email report from the same chart options as the web component
 * (`buildVisual` of @strata/embed/chart-options), with its default theme: `png` one image per metric
 * (named from the metric), `pdf` one document with a heading and every metric's card.
 */
export async function renderReport(input: ReportInput): Promise<ReportFile[]> {
  const locale = input.locale ?? 'en-US'
  const visuals = input.items.map(({ metric, result }) => ({
    metric,
    visual: buildVisual(metric, result, { theme: THEME, locale }),
  }))
  if (input.format === 'png') {
    const names = uniqueNames(visuals.map(({ metric }) => safeName(metric.name, safeName(metric.metricId, 'metric'))))
    const files: ReportFile[] = []
    // one after another: each PNG is drawn on a thread of the pool, and a report is no rush
    for (const [i, { metric, visual }] of visuals.entries()) {
      const card = cardSvg(metric, visual, {
        theme: THEME,
        width: PNG_WIDTH,
        margin: 12,
        chartHeight: 320,
        tableRows: 25,
      })
      files.push({ filename: `${names[i]}.png`, contentType: 'image/png', content: await svgToPng(card.svg) })
    }
    return files
  }
  const cards = visuals.map(({ metric, visual }) => ({
    name: metric.name,
    card: cardSvg(metric, visual, {
      theme: THEME,
      width: PDF_CONTENT_WIDTH,
      margin: 0,
      chartHeight: 230,
      tableRows: 18,
    }),
  }))
  const content = await cardsToPdf(input.title, madeAt(input.now ?? new Date(), input.timezone, locale), cards)
  return [{ filename: `${safeName(input.title, 'report')}.pdf`, contentType: 'application/pdf', content }]
}

/** "Generated Nov 24, 2026, 5:00 AM (Europe/Berlin)"; a zone the runtime does not know reads as UTC. */
function madeAt(now: Date, timezone: string, locale: string): string {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(now)
  try {
    return `Generated ${format(timezone)} (${timezone})`
  } catch {
    return `Generated ${format('UTC')} (UTC)`
  }
}
