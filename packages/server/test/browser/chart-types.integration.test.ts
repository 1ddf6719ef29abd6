/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEMO_EMBED, useBrowserSuite } from '../helpers/browser.js'
import { COMBO_METRIC, FUNNEL_METRIC, MONTH, ORDERS, REVENUE, SCATTER_METRIC } from '../helpers/chart-metrics.js'
import { ARTIFACTS, hasChromium } from '../helpers/chromium.js'

/**
 * The chart types with a shape (combo, scatter, funnel, pivot, trend) in Chromium on the demo's
 * data: an end user's metrics of each type, saved through the runtime API (a definition that does
 * not fit is a 400 naming the field), drawn by the element once their chunk has loaded, each with
 * its accessible text, at 1440 and 390 px (screenshots kept as artifacts, or in STRATA_SHOTS).
 */

const SHOTS = process.env.STRATA_SHOTS ?? join(ARTIFACTS, 'chart-types')
const METRICS = [
  COMBO_METRIC,
  SCATTER_METRIC,
  FUNNEL_METRIC,
  {
    name: 'Revenue by category and channel',
    chart: { type: 'pivot', x: 'category', columns: 'channel', y: ['revenue', 'orders'] },
    query: {
      from: 'main.orders',
      measures: [REVENUE, ORDERS],
      dimensions: [
        { name: 'category', column: 'category' },
        { name: 'channel', column: 'channel' },
      ],
    },
  },
  {
    name: 'Revenue this month',
    chart: { type: 'trend', x: 'month', y: ['revenue'] },
    query: { from: 'main.orders', measures: [REVENUE], dimensions: [MONTH] },
  },
]

describe.skipIf(!hasChromium)('the chart types with a shape in Chromium', () => {
  const b = useBrowserSuite()
  let token = ''
  const ids: string[] = []

  const create = async (metric: unknown) =>
    fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metric }),
    })

  beforeAll(async () => {
    await b.allowOnDemoEmbed({ isAllowMetricCreation: true, metricCreationMode: 'DRAG_DROP' })
    token = await b.mint('acme', {})
    for (const m of METRICS) {
      const res = await create(m)
      const body = (await res.json()) as { data: { metricId: string } }
      expect(res.status, JSON.stringify(body)).toBe(200)
      ids.push(body.data.metricId)
    }
    mkdirSync(SHOTS, { recursive: true })
  }, 120_000)

  it('refuses a definition that does not fit its type, naming the field', async () => {
    const res = await create({
      ...METRICS[1],
      chart: { type: 'scatter' },
      query: { ...METRICS[1]?.query, measures: [ORDERS] },
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /query\.measures: A scatter chart needs two measures, one for each axis; this one has 1 measure and 2 dimensions\./,
    )
  })

  /** Each new card once drawn: its state, what assistive technology reads, and what it shows. */
  async function cards(page: Page) {
    await page.waitForFunction(
      (ids) => {
        const root = document.getElementById('d')?.shadowRoot
        return ids.every((id) => {
          const card = root?.querySelector(`[data-metric-id="${id}"]`)
          if (card?.getAttribute('data-state') !== 'ready') return false
          const chart = card.querySelector('[part~="chart"]') as (Element & { chart?: unknown }) | null
          return chart !== null && (chart.classList.contains('chart') ? chart.chart !== undefined : true)
        })
      },
      ids,
      { timeout: 30_000 },
    )
    await new Promise((r) => setTimeout(r, 800))
    return page.evaluate((ids) => {
      const root = document.getElementById('d')?.shadowRoot as ShadowRoot
      return ids.map((id) => {
        const card = root.querySelector(`[data-metric-id="${id}"]`) as HTMLElement
        const chart = card.querySelector('[part~="chart"]') as HTMLElement & {
          chart?: { getOption(): { series?: { type: string; yAxisIndex?: number }[]; yAxis?: unknown[] } }
        }
        const option = chart.chart?.getOption()
        const wrap = card.querySelector('.pivot-wrap') as HTMLElement | null
        return {
          type: card.getAttribute('data-chart-type'),
          label: chart.getAttribute('aria-label') ?? '',
          series: option?.series?.map((s) => `${s.type}${s.yAxisIndex ? `@${s.yAxisIndex}` : ''}`) ?? [],
          yAxes: option?.yAxis?.length ?? 0,
          hiddenTable: card.querySelectorAll('table.sr-only tbody tr').length,
          pivot: wrap
            ? {
                headers: [...wrap.querySelectorAll('thead tr:first-child th')].map((th) => th.textContent?.trim()),
                foot: wrap.querySelector('tfoot th')?.textContent?.trim(),
                scrolls: wrap.scrollWidth > wrap.clientWidth,
                pageWide: document.documentElement.scrollWidth > window.innerWidth,
              }
            : null,
          spark: card.querySelectorAll('svg[part~="sparkline"] path').length,
          change: card.querySelector('[part~="change"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
        }
      })
    }, ids)
  }

  for (const width of [1440, 390]) {
    it(`draws each type at ${width} px`, async () => {
      const page = await b.openDashboard(token, { viewport: { width, height: 1000 } })
      const [combo, scatter, funnel, pivot, trend] = await cards(page)
      expect(combo).toMatchObject({ type: 'combo', series: ['bar', 'line@1'], yAxes: 2 })
      expect(combo?.label).toMatch(
        /^Combo chart: Revenue and orders by month\. .* Bars: revenue; line on the right axis: orders\.$/,
      )
      expect(combo?.hiddenTable).toBeGreaterThan(0)
      expect(scatter?.series[0]).toBe('scatter')
      expect(scatter?.label).toMatch(
        /^Scatter chart: Customers: orders against revenue\. \d+ points \(Customer\): Orders from .* across, Revenue from .* up, in \d+ series by Country\.$/,
      )
      expect(funnel).toMatchObject({ type: 'funnel', series: ['funnel'] })
      expect(funnel?.label).toMatch(/^Funnel: Orders by status \(funnel\)\. \d+ stages of orders: /)
      expect(pivot?.pivot).toMatchObject({
        headers: expect.arrayContaining(['Category', 'Total']),
        foot: 'Total',
        pageWide: false,
      })
      expect(pivot?.label).toMatch(
        /^Pivot table: Revenue by category and channel\. \d+ rows by Category, \d+ columns by Channel; Revenue, Orders\. Total: Revenue .*, Orders .*\.$/,
      )
      if (width === 390) expect(pivot?.pivot?.scrolls).toBe(true)
      expect(trend).toMatchObject({ type: 'trend', spark: 2 })
      expect(trend?.change).toMatch(/^[▲▼].*%\s*vs \w{3} \d{4}$/)
      expect(trend?.label).toMatch(
        /^Revenue this month: .* in \w{3} \d{4}, (up|down|unchanged) .*% compared with \w{3} \d{4}\. Trend over \d+ periods/,
      )
      await page.screenshot({ path: join(SHOTS, `chart-types-${width}.png`), fullPage: true })
      for (const [i, id] of ids.entries()) {
        const card = page.locator(`#d >> [data-metric-id="${id}"]`)
        await card.scrollIntoViewIfNeeded()
        await card.screenshot({ path: join(SHOTS, `card-${METRICS[i]?.chart.type}-${width}.png`) })
      }
      await page.close()
    }, 120_000)
  }
})
