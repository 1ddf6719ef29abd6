/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { COMBO_METRIC, FUNNEL_METRIC, SCATTER_METRIC } from '../helpers/chart-metrics.js'
import { hasChromium } from '../helpers/chromium.js'
import { settled } from '../helpers/docs-images.js'
import { type EChart, norm } from '../helpers/echart.js'
import {
  deepFocus,
  filtersOf,
  hostErrors,
  inDashboard,
  runtimeCall,
  useSecondOrigin,
} from '../helpers/second-origin.js'
import { PHONE, shooter } from '../helpers/shots.js'

/**
 * The last of issue 28's items on a customer's host page of another origin than the server (the
 * third file with issue-controls-cross-origin and its -state companion):
 * - a SQL metric that declares the dashboard filters it takes: Category picked by keyboard changes
 *   its numbers (they add up to the Orders card's count, a query metric on the same filters), and
 *   Country, which it does not take, leaves them as they were and marks it "Not filtered by Country";
 * - a grid without holes: hidden metrics leave none (the cards after them move up or left, in the
 *   company's order), and an end user's new metrics go two per row at half width;
 * - a card failing alone (a token whose filter for that metric is misspelt) in a card one and two
 *   rows high: a plain sentence, Try again whole and reachable by keyboard at 1440 px and by a tap
 *   at 390 px, the developer's text in `strata-error` only;
 * - combo, scatter and funnel charts made by the tenant, drawn with their series.
 * Screenshots at 1440 and 390 px under STRATA_SHOTS (default /tmp/shots-sweep).
 */
const SHOTS = process.env.STRATA_SHOTS ?? '/tmp/shots-sweep'

type Box = { top: number; bottom: number; left: number; right: number; width: number }

describe.skipIf(!hasChromium)('issue 28 proofs on a second-origin host page', () => {
  const b = useBrowserSuite()
  const site = useSecondOrigin(b)
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await b.allowOnDemoEmbed({
      isAllowMetricCreation: true,
      metricCreationMode: 'DRAG_DROP',
      isAllowManageMetrics: true,
      isAllowMetricDeletion: true,
      isAllowMetricLayoutChange: true,
    })
  }, 60_000)

  const card = (page: Page, metricId: string) => inDashboard(page, `[part~="card"][data-metric-id="${metricId}"]`)

  const shoot = shooter(SHOTS)

  /** Picks the first option of a dashboard multi-select whose label is `value`, by keyboard. */
  async function pick(page: Page, filter: string, value: string): Promise<void> {
    const trigger = inDashboard(page, `[data-filter="${filter}"] [part~="filter-control"]`).first()
    await trigger.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.type(value)
    const labels = inDashboard(page, `[data-filter="${filter}"] [role="option"] .option-label`)
    await expect.poll(() => labels.allInnerTexts(), { timeout: 15_000 }).toEqual([value])
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await filtersOf(page))[filter]).toEqual([value])
    await page.keyboard.press('Escape')
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('false')
    await dashboardReady(page)
    await settled(page)
  }

  it('a SQL metric takes the dashboard filters it declares: Category changes its numbers, Country marks it "Not filtered by"', async () => {
    const page = await site.open(await b.mint('acme', {}))
    const channel = card(page, 'orders_by_channel')
    /** Every number the SQL metric's stacked bars draw, added up. */
    const channelTotal = () =>
      channel.locator('[part~="chart"]').evaluate((el) => {
        const series = (el as HTMLElement & { chart: EChart }).chart.getOption().series
        const value = (v: unknown) => Number(typeof v === 'object' && v !== null && 'value' in v ? v.value : v)
        return series.flatMap((s) => s.data.map(value)).reduce((x, y) => x + (Number.isFinite(y) ? y : 0), 0)
      })
    /** The Orders card's count (a query metric on main.orders), as its full text says it. */
    const ordersCount = async () =>
      Number(((await card(page, 'orders').locator('[part~="value"]').getAttribute('title')) ?? '').replace(/\D/g, ''))
    const note = (metricId: string) => card(page, metricId).locator('[part~="unfiltered-note"]')
    await settled(page)
    const all = await channelTotal()
    // under Order date's default alone, the SQL metric counts the orders the Orders card counts
    expect(all).toBeGreaterThan(0)
    expect(all).toBe(await ordersCount())

    await pick(page, 'category', 'Software')
    const software = await channelTotal()
    expect(software).toBeGreaterThan(0)
    expect(software).toBeLessThan(all)
    expect(software).toBe(await ordersCount())
    expect(await note('orders_by_channel').count()).toBe(0)

    // Country is not one it takes: its numbers stay, the Orders card's go down, and the card says so
    await pick(page, 'country', 'US')
    const us = await ordersCount()
    expect(us).toBeGreaterThan(0)
    expect(us).toBeLessThan(software)
    expect(await channelTotal()).toBe(software)
    await expect.poll(() => note('orders_by_channel').textContent().then(norm)).toBe('Not filtered by Country')
    expect(await note('orders').count()).toBe(0)
    expect(await note('revenue_by_category').count()).toBe(0)
    await shoot(page, 'sql-filters-cross-origin', channel)
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 120_000)

  it('no holes: hidden metrics leave none, the order kept; new metrics go two per row at half width', async () => {
    const token = await b.mint('globex', { isEnableManageMetrics: true })
    const hidden = ['orders', 'revenue_by_category']
    for (const metricId of hidden) await runtimeCall(b, token, 'DELETE', `/metrics/${metricId}`)
    const made: string[] = []
    for (const name of ['Revenue by segment', 'Orders by segment']) {
      const res = (await runtimeCall(b, token, 'POST', '/metrics', {
        metric: {
          name,
          chart: { type: 'bar', x: 'segment', y: ['value'] },
          query: {
            from: 'main.orders',
            measures: [
              name.startsWith('Revenue')
                ? { name: 'value', aggregate: 'sum', column: 'amount' }
                : { name: 'value', aggregate: 'count' },
            ],
            dimensions: [{ name: 'segment', table: 'main.customers', column: 'segment' }],
          },
        },
      })) as { data: { metricId: string } }
      made.push(res.data.metricId)
    }
    const company = [
      'revenue',
      'orders',
      'average_order',
      'refund_rate',
      'revenue_by_month',
      'status_share',
      'revenue_by_category',
      'orders_by_channel',
      'top_customers',
    ]
    const page = await site.open(token, { viewport: { width: 1440, height: 1600 } })
    await settled(page)
    const boxes = await inDashboard(page, '[part~="card"]')
      .first()
      .evaluate((first) =>
        Object.fromEntries(
          [...(first.getRootNode() as ShadowRoot).querySelectorAll<HTMLElement>('[part~="card"]')].map((c) => {
            const r = c.getBoundingClientRect()
            return [c.dataset.metricId, { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width }]
          }),
        ),
      )
    const at = (id: string): Box => {
      const box = boxes[id]
      if (!box) throw new Error(`no card ${id}: ${Object.keys(boxes).join(', ')}`)
      return box
    }
    for (const id of hidden) expect(boxes[id]).toBeUndefined()
    // reading order (top to bottom, then left to right) is the company's, less the hidden, then the new
    const reading = Object.keys(boxes).sort((x, y) => at(x).top - at(y).top || at(x).left - at(y).left)
    expect(reading).toEqual([...company.filter((id) => !hidden.includes(id)), ...made])
    const GAP = 32 // at most the grid's gap between two cards that touch
    // the first row closes up where Orders was: each card starts right after the one before
    const row = ['revenue', 'average_order', 'refund_rate'].map(at)
    for (const [i, box] of row.entries()) {
      expect(box.top).toBeCloseTo(at('revenue').top, 0)
      if (i > 0) expect(box.left - (row[i - 1]?.right ?? 0), `card ${i} of the first row`).toBeLessThan(GAP)
    }
    // Orders by channel takes Revenue by category's place, under Revenue by month
    expect(at('orders_by_channel').left).toBeCloseTo(at('revenue').left, 0)
    expect(at('orders_by_channel').top - at('revenue_by_month').bottom).toBeLessThan(GAP)
    expect(at('orders_by_channel').top - at('revenue_by_month').bottom).toBeGreaterThanOrEqual(0)
    // the new ones: side by side under the last card, each half the grid's width
    const [one, two] = made.map(at)
    const grid = at('top_customers')
    if (!one || !two) throw new Error('the new metrics are not drawn')
    expect(one.top).toBeCloseTo(two.top, 0)
    expect(one.top - grid.bottom).toBeLessThan(GAP)
    expect(one.left).toBeCloseTo(grid.left, 0)
    expect(two.right).toBeCloseTo(grid.right, 0)
    expect(two.left - one.right).toBeLessThan(GAP)
    expect(one.width).toBeCloseTo(two.width, 0)
    expect(Math.abs(one.width * 2 + (two.left - one.right) - grid.width)).toBeLessThan(2)
    await shoot(page, 'no-holes-cross-origin')
    await shoot(page, 'no-holes-new-cross-origin', card(page, made[1] ?? ''))
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 120_000)

  it("a card failing alone, one and two rows high: a plain sentence, Try again whole, by keyboard and by a tap; the developer's text in strata-error", async () => {
    const failing = ['revenue', 'orders']
    const token = await b.mint(
      'initech',
      { isEnableCustomizeLayout: true },
      // a metric filter misspelt for these two metrics only: they fail, the others draw
      { appFilters: failing.map((metricId) => ({ metricId, values: { Categori: ['Software'] } })) },
    )
    await runtimeCall(b, token, 'PUT', '/layout', {
      layout: [
        { metricId: 'revenue', x: 0, y: 0, w: 3, h: 1 },
        { metricId: 'orders', x: 3, y: 0, w: 2, h: 2 },
      ],
    })
    const queried: string[] = []
    const open = (options: Parameters<typeof site.open>[1] = {}) =>
      site.open(token, {
        ...options,
        before: (p) =>
          p.on('request', (r) => {
            if (r.url().endsWith('/query') && r.method() === 'POST')
              queried.push((JSON.parse(r.postData() ?? '{}') as { metricId?: string }).metricId ?? '')
          }),
      })
    /**
     * Each failing card, scrolled into view: its text, and whether Try again is whole inside it
     * and the topmost thing at its middle.
     */
    const failed = (page: Page) =>
      inDashboard(page, '[part~="card"]')
        .first()
        .evaluate((first) => {
          const root = first.getRootNode() as ShadowRoot
          return [...root.querySelectorAll<HTMLElement>('[part~="card"][data-state="error"]')].map((c) => {
            c.scrollIntoView({ block: 'center' })
            const button = c.querySelector<HTMLElement>('[part~="retry-button"]')
            const r = button?.getBoundingClientRect()
            const hit = r ? root.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) : null
            // every box between the button and the card that clips its content holds the button whole
            const clippers: HTMLElement[] = [c]
            for (let el = button?.parentElement; el && el !== c; el = el.parentElement)
              if (getComputedStyle(el).overflow !== 'visible') clippers.push(el)
            return {
              id: c.dataset.metricId ?? '',
              text: (c.textContent ?? '').replace(/\s+/g, ' ').trim(),
              label: (button?.textContent ?? '').trim(),
              whole:
                !!r &&
                !!button &&
                clippers.every((el) => {
                  const k = el.getBoundingClientRect()
                  return r.top >= k.top && r.bottom <= k.bottom && r.left >= k.left && r.right <= k.right
                }) &&
                button.scrollHeight <= button.clientHeight + 1 &&
                button.scrollWidth <= button.clientWidth + 1,
              onTop: !!hit && !!button && (hit === button || button.contains(hit)),
              height: r?.height ?? 0,
            }
          })
        })
    const check = async (page: Page, where: string) => {
      await expect
        .poll(async () => (await failed(page)).map((c) => c.id).sort(), { timeout: 30_000 })
        .toEqual([...failing].sort())
      for (const c of await failed(page)) {
        expect(c.text, `${c.id} at ${where}`).toContain("This chart couldn't load its data")
        expect(c.text).not.toContain('Categori')
        expect(c.label).toBe('Try again')
        expect(c.whole, `${c.id}'s Try again whole at ${where}`).toBe(true)
        expect(c.onTop, `${c.id}'s Try again on top at ${where}`).toBe(true)
        expect(c.height).toBeGreaterThanOrEqual(24)
      }
      // the developer's text, with the misspelt name, went to the host page's listener
      const errors = (await hostErrors(page)) as { message?: string; metricId?: string }[]
      expect(errors.some((e) => e.message?.includes('no filter named "Categori"'))).toBe(true)
    }

    const page = await open()
    await expect
      .poll(() => card(page, 'revenue_by_month').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('ready')
    await check(page, '1440 px')
    await shoot(page, 'short-card-error-cross-origin', card(page, 'revenue'))
    await check(page, '1440 px, after the screenshots')
    // by keyboard: Tab reaches Try again, Enter asks again
    const before = queried.filter((id) => id === 'revenue').length
    await card(page, 'revenue').locator('[part~="retry-button"]').focus()
    expect((await deepFocus(page)).part).toBe('retry-button')
    await page.keyboard.press('Enter')
    await expect.poll(() => queried.filter((id) => id === 'revenue').length).toBeGreaterThan(before)
    await expect.poll(() => card(page, 'revenue').getAttribute('data-state'), { timeout: 30_000 }).toBe('error')
    await page.close()

    // on a phone, by a tap
    const phone = await open(PHONE)
    await check(phone, '390 px')
    const tapped = queried.filter((id) => id === 'orders').length
    await card(phone, 'orders').locator('[part~="retry-button"]').tap()
    await expect.poll(() => queried.filter((id) => id === 'orders').length).toBeGreaterThan(tapped)
    await expect.poll(() => card(phone, 'orders').getAttribute('data-state'), { timeout: 30_000 }).toBe('error')
    await card(phone, 'revenue').scrollIntoViewIfNeeded()
    await phone.screenshot({ path: `${SHOTS}/touch-short-card-error-390.png` })
    await phone.close()
  }, 150_000)

  it('combo, scatter and funnel charts made by the tenant, drawn with their series', async () => {
    const token = await b.mint('acme', {})
    const metrics = [COMBO_METRIC, SCATTER_METRIC, FUNNEL_METRIC]
    const ids: string[] = []
    for (const metric of metrics) {
      const res = (await runtimeCall(b, token, 'POST', '/metrics', { metric })) as { data: { metricId: string } }
      ids.push(res.data.metricId)
    }
    const [comboId = '', scatterId = '', funnelId = ''] = ids
    /** What the card's ECharts instance holds: each series' type, axis and number of points. */
    const drawn = async (page: Page, metricId: string) => {
      const c = card(page, metricId)
      await c.scrollIntoViewIfNeeded()
      await expect.poll(() => c.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready')
      const chart = c.locator('[part~="chart"]')
      await expect
        .poll(() => chart.evaluate((el) => (el as { chart?: unknown }).chart !== undefined), { timeout: 30_000 })
        .toBe(true)
      return chart.evaluate((el) => {
        const option = (el as HTMLElement & { chart: EChart }).chart.getOption() as ReturnType<EChart['getOption']> & {
          yAxis?: unknown[]
        }
        return {
          series: option.series.map((s) => ({
            type: s.type,
            axis: (s as { yAxisIndex?: number }).yAxisIndex ?? 0,
            points: s.data.length,
          })),
          yAxes: option.yAxis?.length ?? 0,
        }
      })
    }
    for (const [width, options] of [
      [1440, {}],
      [390, PHONE],
    ] as const) {
      const page = await site.open(token, options)
      expect(new URL(page.url()).origin).toBe(site.url)
      const combo = await drawn(page, comboId)
      expect(
        combo.series.map((s) => `${s.type}@${s.axis}`),
        `${width} px`,
      ).toEqual(['bar@0', 'line@1'])
      expect(combo.yAxes).toBe(2)
      expect(combo.series[0]?.points).toBeGreaterThan(1)
      expect(combo.series[1]?.points).toBe(combo.series[0]?.points)
      const scatter = await drawn(page, scatterId)
      expect(scatter.series.length, `${width} px`).toBeGreaterThan(1)
      expect(scatter.series.every((s) => s.type === 'scatter')).toBe(true)
      expect(scatter.series.reduce((n, s) => n + s.points, 0)).toBeGreaterThan(10)
      const funnel = await drawn(page, funnelId)
      expect(
        funnel.series.map((s) => s.type),
        `${width} px`,
      ).toEqual(['funnel'])
      expect(funnel.series[0]?.points).toBeGreaterThan(1)
      for (const id of ids) {
        await card(page, id).scrollIntoViewIfNeeded()
        await settled(page)
        await card(page, id).screenshot({
          path: `${SHOTS}/chart-${id === comboId ? 'combo' : id === scatterId ? 'scatter' : 'funnel'}-cross-origin-${width}.png`,
        })
      }
      expect(await hostErrors(page)).toEqual([])
      await page.close()
    }
  }, 150_000)
})
