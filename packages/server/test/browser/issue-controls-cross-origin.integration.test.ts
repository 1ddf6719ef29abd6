/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { DEMO_EMBED, dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'
import { filtersOf, hostErrors, inDashboard, useSecondOrigin } from '../helpers/second-origin.js'
import { PHONE, shooter } from '../helpers/shots.js'

/**
 * The end user's controls of issue 28 on a customer's host page of another origin than the
 * server (its origin whitelisted), with one server and one browser: the dashboard multi-select's
 * value picker (searched on the server, picked with the keyboard), the underlying rows sorted by
 * the server across pages, a token's misspelt filter as a plain sentence, the Hidden list's
 * Restore, a tenant's pivot table and trend drawn, a touch pass on a 390 px phone (picker and
 * card menu → rows by taps), and "Not filtered by Country" on the SQL metric, the filter set by taps. Screenshots at 1440 and 390 px under STRATA_SHOTS (default /tmp/shots-sweep).
 */
const SHOTS = process.env.STRATA_SHOTS ?? '/tmp/shots-sweep'
const FLAGS = { isEnableUnderlyingData: true, isEnableDownloadMetrics: true }

describe.skipIf(!hasChromium)('issue 28 controls on a second-origin host page', () => {
  const b = useBrowserSuite()
  const site = useSecondOrigin(b)
  beforeAll(() => mkdirSync(SHOTS, { recursive: true }))

  const optionLabels = (page: Page, filter: string) =>
    inDashboard(page, `[data-filter="${filter}"] [role="option"] .option-label`).allInnerTexts()
  const dialog = (page: Page) => page.locator('#d [part~="underlying-dialog"]')
  const count = async (page: Page) => (await dialog(page).locator('.count').textContent())?.trim() ?? ''

  const shoot = shooter(SHOTS)

  it('is served from another origin than the server, and draws with no error', async () => {
    expect(new URL(site.url).origin).not.toBe(new URL(b.server.url).origin)
    const page = await site.open(await b.mint('acme', FLAGS))
    expect(new URL(page.url()).origin).toBe(site.url)
    const cards = await inDashboard(page, '[part~="card"]').count()
    expect(cards).toBeGreaterThan(2)
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  })

  it('a dashboard multi-select: searched on the server, picked with the keyboard', async () => {
    const searches: string[] = []
    const page = await site.open(await b.mint('acme', {}), {
      before: (p) =>
        p.on('request', (r) => {
          const url = new URL(r.url())
          if (url.pathname.endsWith('/filters/category/values')) searches.push(url.searchParams.get('search') ?? '')
        }),
    })
    const trigger = inDashboard(page, '[data-filter="category"] [part~="filter-control"]').first()
    await trigger.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => optionLabels(page, 'category')).toEqual(expect.arrayContaining(['Software']))
    await page.keyboard.type('soft')
    await expect.poll(() => searches.at(-1)).toBe('soft')
    await expect.poll(() => optionLabels(page, 'category')).toEqual(['Software'])
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await filtersOf(page)).category).toEqual(['Software'])
    await shoot(page, 'picker')
    await page.keyboard.press('Escape')
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('false')
    await dashboardReady(page)
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  })

  it('underlying rows: a column header sorts on the server, and page 2 continues the order', async () => {
    const bodies: Record<string, unknown>[] = []
    const page = await site.open(await b.mint('acme', FLAGS), {
      before: (p) =>
        p.on('request', (r) => {
          if (r.url().endsWith('/underlying') && r.method() === 'POST') bodies.push(JSON.parse(r.postData() ?? '{}'))
        }),
    })
    const card = inDashboard(page, '[data-metric-id="revenue_by_category"]')
    await card.locator('[part~="card-menu-button"]').click()
    await inDashboard(page, '[part~="card-menu-panel"] [data-action="rows"]').click()
    await dialog(page).locator('tbody tr').first().waitFor()
    expect(await count(page)).toMatch(/^Rows 1–100 of /)

    // on the second page first: a new sort goes back to page 1
    await dialog(page).locator('#next').click()
    await expect.poll(() => count(page)).toMatch(/^Rows 101–/)
    const headers = (await dialog(page).locator('th').allInnerTexts()).map((h) => h.trim())
    const column = headers.indexOf('id')
    expect(column).toBeGreaterThanOrEqual(0)
    const ids = async () =>
      (
        await dialog(page)
          .locator(`tbody tr td:nth-child(${column + 1})`)
          .allInnerTexts()
      ).map(Number)
    const idButton = dialog(page).locator('th button[data-column="id"]')
    await idButton.click()
    await idButton.click()
    await expect.poll(() => dialog(page).locator('th').nth(column).getAttribute('aria-sort')).toBe('descending')
    await expect.poll(() => count(page)).toMatch(/^Rows 1–100 of /)
    await expect.poll(() => bodies.at(-1)).toMatchObject({ pageNumber: 1, sort: { column: 'id', direction: 'desc' } })
    const idle = () => dialog(page).locator('.body').getAttribute('aria-busy')
    const descending = (xs: number[]) => xs.length > 0 && xs.every((x, i) => i === 0 || x < (xs[i - 1] ?? x))
    await expect.poll(idle).toBe('false')
    await expect.poll(async () => descending(await ids())).toBe(true)
    const first = await ids()
    expect(first).toEqual([...first].sort((x, y) => y - x))
    await shoot(page, 'rows-sorted')

    await dialog(page).locator('#next').click()
    await expect.poll(() => count(page)).toMatch(/^Rows 101–/)
    expect(bodies.at(-1)).toMatchObject({ pageNumber: 2, sort: { column: 'id', direction: 'desc' } })
    await expect.poll(idle).toBe('false')
    await expect.poll(async () => descending(await ids())).toBe(true)
    const second = await ids()
    expect(second.length).toBeGreaterThan(0)
    expect(second).toEqual([...second].sort((x, y) => y - x))
    // the server's order continues: every id of page 2 is below every id of page 1
    expect(Math.max(...second)).toBeLessThan(Math.min(...first))
    expect(headers).not.toContain('tenant')
    await page.keyboard.press('Escape')
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 90_000)

  it('touch on a 390 px phone: the picker and the card menu → underlying rows, by taps', async () => {
    const page = await site.open(await b.mint('acme', FLAGS), PHONE)
    // the multi-select's picker by taps
    const trigger = inDashboard(page, '[data-filter="category"] [part~="filter-control"]').first()
    await trigger.tap()
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(async () => (await optionLabels(page, 'category')).length).toBeGreaterThan(0)
    const option = inDashboard(page, '[data-filter="category"] [role="option"]').first()
    const label = ((await option.locator('.option-label').textContent()) ?? '').trim()
    await option.tap()
    await expect.poll(async () => (await filtersOf(page)).category).toEqual([label])
    await page.screenshot({ path: `${SHOTS}/touch-picker-390.png` })
    await page.keyboard.press('Escape')
    await dashboardReady(page)

    // the card menu → the rows, by taps; the dialog fits the phone
    const card = inDashboard(page, '[data-metric-id="revenue_by_category"]')
    await card.scrollIntoViewIfNeeded()
    await card.locator('[part~="card-menu-button"]').tap()
    await inDashboard(page, '[part~="card-menu-panel"] [data-action="rows"]').tap()
    await dialog(page).locator('tbody tr').first().waitFor()
    const box = await dialog(page).boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true)
    await dialog(page).locator('th button').first().tap()
    await expect.poll(() => dialog(page).locator('th').first().getAttribute('aria-sort')).toBe('ascending')
    await page.screenshot({ path: `${SHOTS}/touch-rows-390.png` })
    await dialog(page).locator('#close').tap()
    await expect.poll(() => dialog(page).evaluate((d) => (d as HTMLDialogElement).open)).toBe(false)
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 90_000)

  it('"Not filtered by Country" on the SQL metric that ignores Country, the filter set by taps on a phone', async () => {
    const page = await site.open(await b.mint('acme', {}), PHONE)
    const note = (metricId: string) => inDashboard(page, `[data-metric-id="${metricId}"] [part~="unfiltered-note"]`)
    expect(await note('orders_by_channel').count()).toBe(0)
    const trigger = inDashboard(page, '[data-filter="country"] [part~="filter-control"]').first()
    await trigger.tap()
    await expect.poll(async () => (await optionLabels(page, 'country')).length).toBeGreaterThan(0)
    await inDashboard(page, '[data-filter="country"] [role="option"]').first().tap()
    await expect.poll(async () => (await filtersOf(page)).country).toEqual([expect.stringMatching(/^[A-Z]{2}$/)])
    await page.keyboard.press('Escape')
    await dashboardReady(page)
    // the SQL metric that does not read Country says so; a metric that takes Country does not
    await expect
      .poll(async () => ((await note('orders_by_channel').textContent()) ?? '').trim())
      .toBe('Not filtered by Country')
    expect(await note('orders_by_channel').getAttribute('role')).toBe('note')
    expect(await note('revenue_by_category').count()).toBe(0)
    await note('orders_by_channel').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/touch-not-filtered-390.png` })
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 90_000)

  it('a token with a misspelt filter: a plain sentence on the page, the developer text in strata-error', async () => {
    const token = await b.mint(
      'acme',
      {},
      { dashboardAppFilters: [{ dashboardId: DEMO_EMBED, values: { Categori: ['Books'] } }] },
    )
    const page = await site.open(token, { ready: false })
    // every card fails alike: once all have, the dashboard says it once
    const error = inDashboard(page, '[part~="error"]').first()
    await expect
      .poll(async () => ((await error.count()) ? await error.textContent() : ''), { timeout: 30_000 })
      .toContain("This dashboard couldn't load its data")
    const text = (await error.textContent()) ?? ''
    expect(await inDashboard(page, '[part~="card"]').count()).toBe(0)
    expect(text).not.toContain('Categori')
    expect(await inDashboard(page, '[part~="retry-button"]').count()).toBe(1)
    await expect
      .poll(async () => ((await hostErrors(page)) as { message: string }[]).some((e) => e.message.includes('Categori')))
      .toBe(true)
    await shoot(page, 'error')
    await page.close()
  }, 60_000)

  it('the Hidden list: a hidden metric comes back with Restore, by taps on a phone', async () => {
    await b.allowOnDemoEmbed({ isAllowManageMetrics: true, isAllowMetricDeletion: true })
    const token = await b.mint('hider', { isEnableManageMetrics: true })
    const hide = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}/metrics/orders`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(hide.status).toBe(200)
    const page = await site.open(token, PHONE)
    const card = inDashboard(page, '[data-metric-id="orders"]')
    expect(await card.count()).toBe(0)
    await inDashboard(page, '[part~="hidden-button"]').tap()
    const restore = inDashboard(page, '[part~="hidden-list"] button').filter({ hasText: 'Restore' }).first()
    await restore.waitFor()
    await page.screenshot({ path: `${SHOTS}/touch-hidden-390.png` })
    await restore.tap()
    await card.waitFor({ timeout: 30_000 })
    expect(await inDashboard(page, '[part~="hidden-button"]').count()).toBe(0)
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 60_000)

  it('a pivot table with totals and a trend with its sparkline, made by the tenant, drawn', async () => {
    await b.allowOnDemoEmbed({ isAllowMetricCreation: true, metricCreationMode: 'DRAG_DROP' })
    const token = await b.mint('acme', {})
    const revenue = { name: 'revenue', column: 'amount', aggregate: 'sum' }
    const made: string[] = []
    for (const metric of [
      {
        name: 'Revenue by category and channel',
        chart: { type: 'pivot', x: 'category', columns: 'channel', y: ['revenue'] },
        query: {
          from: 'main.orders',
          measures: [revenue],
          dimensions: [
            { name: 'category', column: 'category' },
            { name: 'channel', column: 'channel' },
          ],
        },
      },
      {
        name: 'Revenue this month',
        chart: { type: 'trend', x: 'month', y: ['revenue'] },
        query: {
          from: 'main.orders',
          measures: [revenue],
          dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
        },
      },
    ]) {
      const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}/metrics`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ metric }),
      })
      const body = (await res.json()) as { data: { metricId: string } }
      expect(res.status, JSON.stringify(body)).toBe(200)
      made.push(body.data.metricId)
    }
    const [pivotId, trendId] = made
    const page = await site.open(token)
    const pivotCard = inDashboard(page, `[data-metric-id="${pivotId}"]`)
    await pivotCard.scrollIntoViewIfNeeded()
    await expect
      .poll(async () => `${await pivotCard.getAttribute('data-state')} ${await pivotCard.textContent()}`, {
        timeout: 30_000,
      })
      .toMatch(/^ready /)
    const pivot = pivotCard.locator('.pivot-wrap')
    await expect.poll(() => pivot.locator('tfoot th').first().textContent()).toMatch(/Total/)
    expect(await pivot.locator('thead th').allTextContents()).toEqual(expect.arrayContaining(['Total']))
    const spark = inDashboard(page, `[data-metric-id="${trendId}"] svg[part~="sparkline"] path`)
    await expect.poll(() => spark.count(), { timeout: 30_000 }).toBe(2)
    await shoot(page, 'pivot-trend', pivotCard)
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 90_000)
})
