/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_EMBED, dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'
import { pointOf as chartPoint, norm } from '../helpers/echart.js'

/**
 * Drill-down in the end user's dashboard (issue 28): a click on a bar sets the dashboard filter
 * of that column and the numbers follow the server's; a slice of a column without a filter adds
 * a removable chip; a time series drills year → months → days and back through its breadcrumbs
 * and Escape; "See these rows" opens that segment's rows; the keyboard path (arrows, Enter); a
 * finger on a 390 px phone; and a host page on another origin. Screenshots under STRATA_SHOTS
 * (default /tmp/shots-drill).
 */
const SHOTS = process.env.STRATA_SHOTS ?? '/tmp/shots-drill'
const FLAGS = { isEnableUnderlyingData: true }
type Dashboard = HTMLElement & { filters: Record<string, unknown> }

describe.skipIf(!hasChromium)('drill-down in Chromium', () => {
  const b = useBrowserSuite()
  let site: Server | undefined
  let siteUrl = ''
  let token = ''
  /** The tenant's year-grained metric (the server names it). */
  let yearId = ''

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    token = await b.mint('acme', FLAGS)
    // a year-grained series: the tenant's own metric, made through the builder's route
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}/metrics`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        metric: {
          name: 'Revenue by year',
          chart: { type: 'bar', x: 'year', y: ['revenue'] },
          query: {
            from: 'main.orders',
            measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
            dimensions: [{ name: 'year', column: 'created_at', timeGrain: 'year' }],
            orderBy: [{ name: 'year', direction: 'asc' }],
          },
          formats: { revenue: { style: 'currency', currency: 'USD' } },
        },
      }),
    })
    const created = await res.text()
    expect(res.status, created).toBeLessThan(300)
    yearId = created.match(/"metricId":"([^"]+)"/)?.[1] ?? ''
    expect(yearId).toMatch(/^u_/)
    // the customer's own site, on another origin, whitelisted
    site = createServer(async (req, res) => {
      const minted = await b.mint('acme', FLAGS)
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer app</title>
<script type="module" src="${b.server.url}/sdk/strata-embed.js"></script></head>
<body style="margin:0;font-family:system-ui"><h1 style="font-size:16px;margin:12px 16px">Customer app</h1>
<strata-dashboard id="d" embed-id="${DEMO_EMBED}" token="${minted}" options='{"syncUrl":false}'></strata-dashboard>
</body></html>`)
      void req
    })
    await new Promise<void>((resolve) => site?.listen(0, '127.0.0.1', resolve))
    const port = (site.address() as AddressInfo).port
    siteUrl = `http://127.0.0.1:${port}`
    await b.api('PUT', '/api/v2/data-app/whitelist-domains', { domains: [`127.0.0.1:${port}`] })
  }, 120_000)
  afterAll(async () => {
    await new Promise((r) => (site ? site.close(r) : r(undefined)))
  })

  const card = (page: Page, metricId: string) => page.locator(`#d [data-metric-id="${metricId}"]`)
  const menu = (page: Page) => page.locator('#d [part~="drill-menu"]')
  const item = (page: Page, action: string) => page.locator(`#d [part~="drill-menu"] [data-action="${action}"]`)
  const filters = (page: Page) => page.evaluate(() => (document.getElementById('d') as Dashboard).filters)

  /** Where data point `index` of a card's chart is drawn, in page coordinates. */
  const pointOf = (page: Page, metricId: string, index: number) =>
    chartPoint(card(page, metricId).locator('[part~="chart"]'), index)
  /**
   * Clicks data point `index` until `action` shows in the drill menu: a chart that has just been
   * redrawn animates its bars and points into place, so the point is aimed at again (3 tries).
   */
  async function openMenuAt(page: Page, metricId: string, index: number, action: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const at = await pointOf(page, metricId, index)
      await page.mouse.click(at.x, at.y)
      try {
        await item(page, action).waitFor({ timeout: 3_000 })
        return
      } catch (e) {
        if (attempt >= 2) throw e
        await page.waitForTimeout(700)
      }
    }
  }
  /** The card's chart categories (its axis labels) and the rows' values of its first measure. */
  const seriesOf = (page: Page, metricId: string) =>
    card(page, metricId)
      .locator('[part~="chart"]')
      .evaluate((el) => {
        const o = (el as HTMLElement & { chart: { getOption(): Record<string, unknown> } }).chart.getOption() as {
          xAxis?: { data?: string[] }[]
          series: { data: unknown[] }[]
        }
        return { categories: o.xAxis?.[0]?.data ?? [], values: o.series[0]?.data ?? [] }
      })
  /** The next answer of a card's query. */
  const answer = (page: Page, metricId: string) =>
    page
      .waitForResponse((r) => r.url().endsWith('/query') && (r.request().postData() ?? '').includes(`"${metricId}"`))
      .then((r) => r.json() as Promise<{ data: Record<string, unknown>[] }>)
  const focusedAction = (page: Page) =>
    page.evaluate(() => {
      let el = document.activeElement
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
      return el?.getAttribute('data-action') ?? el?.getAttribute('part') ?? el?.tagName
    })

  it('a bar filters the dashboard by its value: the filter is set and the totals are the segment’s', async () => {
    const page = await b.openDashboard(token)
    const { categories, values } = await seriesOf(page, 'revenue_by_category')
    expect(categories.length).toBeGreaterThan(1)
    const at = await pointOf(page, 'revenue_by_category', 1)
    await page.mouse.click(at.x, at.y)
    await menu(page).waitFor()
    expect(await item(page, 'filter').textContent().then(norm)).toBe(`Filter by Category = ${categories[1]}`)
    await page.screenshot({ path: `${SHOTS}/drill-menu-1440.png` })
    const revenue = answer(page, 'revenue')
    await item(page, 'filter').click()
    expect((await filters(page)).category).toEqual([categories[1]])
    const total = Number((await revenue).data[0]?.revenue)
    // the segment's total is the bar's value: every card follows the same filter
    expect(total).toBeCloseTo(Number(values[1]), 2)
    await dashboardReady(page)
    expect((await seriesOf(page, 'revenue_by_category')).categories).toEqual([categories[1]])
    await expect.poll(() => menu(page).count()).toBe(0)
    await page.screenshot({ path: `${SHOTS}/drill-filtered-1440.png` })
    await page.close()
  }, 120_000)

  it('a slice of a column no filter holds adds a chip; removing it restores the numbers', async () => {
    const page = await b.openDashboard(token)
    const slices = (await seriesOf(page, 'status_share')).values as { name: string; value: number }[]
    const before = Number((await fetchQuery('orders')).data[0]?.orders)
    const at = await pointOf(page, 'status_share', 0)
    await page.mouse.click(at.x, at.y)
    await menu(page).waitFor()
    const label = await item(page, 'filter').textContent().then(norm)
    expect(label).toMatch(/^Filter by Status = /)
    const status = label.replace('Filter by Status = ', '')
    const orders = answer(page, 'orders')
    await item(page, 'filter').click()
    const chip = page.locator('#d [part~="drill-chip"]')
    await chip.waitFor()
    expect(await chip.textContent().then(norm)).toContain(`Status: ${status}`)
    // the Orders card now counts the slice's orders, as the doughnut counted them
    const drilled = Number((await orders).data[0]?.orders)
    expect(drilled).toBeLessThan(before)
    expect(drilled).toBe(Number(slices.find((x) => x.name === status)?.value))
    await dashboardReady(page)
    // the SQL metric takes no drill filter: its card says the chip does not apply; Orders does not
    const note = (id: string) => page.locator(`#d [data-metric-id="${id}"] [part~="unfiltered-note"]`)
    await expect
      .poll(() => note('orders_by_channel').textContent().then(norm))
      .toBe(`Not filtered by Status: ${status}`)
    expect(await note('orders').count()).toBe(0)
    await page.screenshot({ path: `${SHOTS}/drill-chip-1440.png` })
    const restored = answer(page, 'orders')
    await chip.click()
    expect(Number((await restored).data[0]?.orders)).toBe(before)
    await expect.poll(() => chip.count()).toBe(0)
    await expect.poll(() => note('orders_by_channel').count()).toBe(0)
    await page.close()
  }, 120_000)

  it('a time series drills year → months → days and back by breadcrumb and Escape', async () => {
    const page = await b.openDashboard(token)
    const years = await seriesOf(page, yearId)
    expect(years.categories.length).toBeGreaterThan(0)
    const last = years.categories.length - 1
    const year = years.categories[last] as string
    await openMenuAt(page, yearId, last, 'down')
    expect(await item(page, 'down').textContent().then(norm)).toBe(`Show months of ${year}`)
    const months = answer(page, yearId)
    await item(page, 'down').click()
    const monthRows = (await months).data
    expect(monthRows.length).toBeGreaterThan(1)
    for (const r of monthRows) expect(String(r.year).slice(0, 4)).toBe(year)
    const sum = monthRows.reduce((s, r) => s + Number(r.revenue), 0)
    expect(sum).toBeCloseTo(Number(years.values[last]), 1)
    await dashboardReady(page)
    const trail = card(page, yearId).locator('[part~="drill-breadcrumbs"]')
    await expect.poll(() => trail.textContent().then(norm)).toContain(`All years`)
    // months → days
    const shown = await seriesOf(page, yearId)
    await openMenuAt(page, yearId, 0, 'down')
    expect(await item(page, 'down').textContent().then(norm)).toBe(`Show days of ${shown.categories[0]}`)
    const days = answer(page, yearId)
    await item(page, 'down').click()
    expect((await days).data.length).toBeGreaterThan(monthRows.length)
    await dashboardReady(page)
    await expect.poll(() => trail.locator('li').count()).toBe(3)
    await card(page, yearId).scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/drill-days-1440.png` })
    // Escape on the card: up one level (days → months)
    const up = answer(page, yearId)
    await card(page, yearId).locator('[part~="chart"]').focus()
    await page.keyboard.press('Escape')
    expect((await up).data.length).toBe(monthRows.length)
    await expect.poll(() => trail.locator('li').count()).toBe(2)
    // the breadcrumb "All years": back to the dashboard's own grain
    const top = answer(page, yearId)
    await trail.locator('[part~="drill-breadcrumb"]').first().click()
    expect((await top).data.length).toBe(years.categories.length)
    await expect.poll(() => trail.count()).toBe(0)
    await page.close()
  }, 120_000)

  it('"See these rows" opens the rows of the clicked segment only', async () => {
    const page = await b.openDashboard(token)
    const { categories } = await seriesOf(page, 'revenue_by_category')
    const at = await pointOf(page, 'revenue_by_category', 0)
    await page.mouse.click(at.x, at.y)
    await item(page, 'rows').click()
    const dialog = page.locator('#d [part~="underlying-dialog"]')
    await dialog.locator('tbody tr').first().waitFor()
    expect(await dialog.locator('h2').textContent().then(norm)).toContain(`Category = ${categories[0]}`)
    const headers = (await dialog.locator('th').allInnerTexts()).map((h) => h.trim().toLowerCase())
    const col = headers.indexOf('category')
    expect(col).toBeGreaterThanOrEqual(0)
    const cells = await dialog.locator(`tbody tr td:nth-child(${col + 1})`).allInnerTexts()
    expect(new Set(cells)).toEqual(new Set([categories[0]]))
    await page.screenshot({ path: `${SHOTS}/drill-rows-1440.png` })
    await page.keyboard.press('Escape')
    await page.close()
  }, 120_000)

  it('works from the keyboard: arrows between points, Enter opens the menu, Enter filters', async () => {
    const page = await b.openDashboard(token)
    const { categories } = await seriesOf(page, 'revenue_by_category')
    const chart = card(page, 'revenue_by_category').locator('[part~="chart"]')
    await chart.focus()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Enter')
    await menu(page).waitFor()
    await expect.poll(() => focusedAction(page)).toBe('filter')
    expect(await item(page, 'filter').textContent().then(norm)).toBe(`Filter by Category = ${categories[1]}`)
    await page.screenshot({ path: `${SHOTS}/drill-keyboard-1440.png` })
    // Escape closes the menu and focus goes back to the chart
    await page.keyboard.press('Escape')
    await expect.poll(() => menu(page).count()).toBe(0)
    expect(await focusedAction(page)).toBe('chart')
    await page.keyboard.press('Enter')
    await menu(page).waitFor()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await filters(page)).category).toEqual([categories[1]])
    // a table row: Tab to it, Enter opens the menu on its first drillable column
    const row = card(page, 'top_customers').locator('tbody tr').first()
    await row.focus()
    await page.keyboard.press('Enter')
    await expect
      .poll(async () => (await item(page, 'filter').textContent().then(norm)).startsWith('Filter by Customer = '))
      .toBe(true)
    await page.keyboard.press('Escape')
    await page.close()
  }, 120_000)

  it('with a finger on a 390 px phone', async () => {
    const page = await b.openDashboard(token, { viewport: { width: 390, height: 844 }, hasTouch: true })
    const { categories } = await seriesOf(page, 'revenue_by_category')
    const at = await pointOf(page, 'revenue_by_category', 0)
    await page.touchscreen.tap(at.x, at.y)
    await menu(page).waitFor()
    const box = await menu(page).boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true)
    await page.screenshot({ path: `${SHOTS}/drill-menu-390.png` })
    await item(page, 'filter').tap()
    await expect.poll(async () => (await filters(page)).category).toEqual([categories[0]])
    await dashboardReady(page)
    // drill the status doughnut for a chip, then the monthly series for breadcrumbs
    const slice = await pointOf(page, 'status_share', 0)
    await page.touchscreen.tap(slice.x, slice.y)
    await item(page, 'filter').tap()
    await page.locator('#d [part~="drill-chip"]').waitFor()
    await dashboardReady(page)
    // the series redrawn under the chip (its animation settles) before a point is aimed at
    await card(page, 'revenue_by_month').scrollIntoViewIfNeeded()
    await page.waitForTimeout(1500)
    const month = await pointOf(page, 'revenue_by_month', 1)
    await page.touchscreen.tap(month.x, month.y)
    await item(page, 'down').tap()
    await card(page, 'revenue_by_month').locator('[part~="drill-breadcrumbs"]').waitFor()
    await dashboardReady(page)
    await page.locator('#d [part~="drill-chip"]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/drill-chip-390.png` })
    await card(page, 'revenue_by_month').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/drill-breadcrumbs-390.png` })
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(scroll).toBeLessThanOrEqual(390)
    await page.close()
  }, 120_000)

  it('on a host page of another origin', async () => {
    const page = await b.browser.newPage({ viewport: { width: 1440, height: 1000 } })
    await page.goto(siteUrl)
    await dashboardReady(page)
    const { categories } = await seriesOf(page, 'revenue_by_category')
    const at = await pointOf(page, 'revenue_by_category', 0)
    await page.mouse.click(at.x, at.y)
    const revenue = answer(page, 'revenue')
    await item(page, 'filter').click()
    expect(Number((await revenue).data[0]?.revenue)).toBeGreaterThan(0)
    expect((await filters(page)).category).toEqual([categories[0]])
    await dashboardReady(page)
    await page.screenshot({ path: `${SHOTS}/drill-cross-origin-1440.png` })
    await page.close()
  }, 120_000)

  it('a token that may not filter draws no clickable chart', async () => {
    const locked = await b.mint('acme', FLAGS, { accessPermissions: { isAllowEndUserDashboardFilter: false } })
    const page = await b.openDashboard(locked)
    const chart = card(page, 'revenue_by_category').locator('[part~="chart"]')
    expect(await chart.getAttribute('tabindex')).toBeNull()
    const at = await pointOf(page, 'revenue_by_category', 0)
    await page.mouse.click(at.x, at.y)
    await page.waitForTimeout(300)
    expect(await menu(page).count()).toBe(0)
    await page.close()
  }, 60_000)

  async function fetchQuery(metricId: string): Promise<{ data: Record<string, unknown>[] }> {
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metricId }),
    })
    expect(res.status).toBe(200)
    return (await res.json()) as { data: Record<string, unknown>[] }
  }
})
