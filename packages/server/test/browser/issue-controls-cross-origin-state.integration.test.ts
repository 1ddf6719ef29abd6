/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'
import { demoCompany } from '../helpers/demo-company.js'
import { settled } from '../helpers/docs-images.js'
import { type EChart as Chart, pointOf as chartPoint, norm } from '../helpers/echart.js'
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
 * More of issue 28's controls on a customer's host page of another origin than the server (the
 * companion of issue-controls-cross-origin), each with the tenant state it needs made through the
 * runtime API (or, for a company change, the company's API) and on a tenant the demo has rows for:
 * - the builder's filter value picker: this tenant's values of a column, searched and paged on the
 *   server, a typed value taken as written, by keyboard, and picked by a tap on a phone;
 * - "The company updated this metric": Keep mine by keyboard (gone after a reload), and the new
 *   version by taps on a phone;
 * - column formats: an id column as written, a currency and a percent column, at both widths;
 * - drill by taps on a 390 px phone: a bar → the menu → the dashboard filter, a slice → a drill
 *   chip, a bar → "See these rows";
 * - the Hidden list's Restore and the card menu's "Reset to the company's version" by keyboard,
 *   and the reset by taps on a phone.
 * Screenshots at 1440 and 390 px under STRATA_SHOTS (default /tmp/shots-sweep).
 */
const SHOTS = process.env.STRATA_SHOTS ?? '/tmp/shots-sweep'

describe.skipIf(!hasChromium)('more issue 28 controls on a second-origin host page', () => {
  const b = useBrowserSuite()
  const site = useSecondOrigin(b)
  const company = demoCompany(b)
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await b.allowOnDemoEmbed({
      isAllowMetricCreation: true,
      metricCreationMode: 'DRAG_DROP',
      isAllowMetricUpdate: true,
      isAllowManageMetrics: true,
      isAllowMetricDeletion: true,
    })
  }, 60_000)

  const card = (page: Page, metricId: string) => inDashboard(page, `[part~="card"][data-metric-id="${metricId}"]`)
  const title = (c: Locator) => c.locator('[part~="card-title"]').textContent().then(norm)

  const shoot = shooter(SHOTS)

  /** Where data point `index` of a card's chart is drawn, in page coordinates, once it is still. */
  async function pointOf(page: Page, metricId: string, index: number): Promise<{ x: number; y: number }> {
    const chart = card(page, metricId).locator('[part~="chart"]')
    await chart.scrollIntoViewIfNeeded()
    await settled(page)
    return chartPoint(chart, index)
  }

  it("the builder's value picker: the tenant's values searched and paged on the server, typed text kept, by keyboard and by a tap", async () => {
    const token = await b.mint('acme', {})
    const VALUES = '/model/columns/main.customers/name/values'
    const asked: URLSearchParams[] = []
    // what the server answers this tenant, page by page (the picker must show exactly that)
    const first = (await runtimeCall(b, token, 'GET', VALUES)).data as { values: string[]; nextCursor: string | null }
    expect(first.values).toHaveLength(100)
    expect(first.nextCursor).not.toBeNull()
    const second = (
      await runtimeCall(b, token, 'GET', `${VALUES}?cursor=${encodeURIComponent(first.nextCursor ?? '')}`)
    ).data as { values: string[] }
    expect(second.values.length).toBeGreaterThan(0)

    const open = async (options: Parameters<typeof site.open>[1] = {}) => {
      const page = await site.open(token, {
        ...options,
        before: (p) =>
          p.on('request', (r) => {
            const url = new URL(r.url())
            if (url.pathname.endsWith(VALUES)) asked.push(url.searchParams)
          }),
      })
      await inDashboard(page, '[part~="new-metric-button"]').click()
      await inDashboard(page, '#bd-table').selectOption('main.customers')
      for (const [field, target] of [
        ['__rows', 'measures'],
        ['segment', 'dimensions'],
        ['name', 'filters'],
      ] as const) {
        await inDashboard(page, `#bd-field-${field}`).click()
        await inDashboard(page, `[role="menu"] [data-target="${target}"]`).click()
        await expect.poll(() => inDashboard(page, `[data-zone="${target}"] .bd-item`).count()).toBe(1)
      }
      const key = await inDashboard(page, '[data-zone="filters"] .bd-item').getAttribute('data-key')
      return {
        page,
        id: `bd-filter-${key}-value`,
        trigger: inDashboard(page, `#bd-filter-${key}-value`),
        options: inDashboard(page, `#bd-filter-${key}-value-list [role="option"]`),
      }
    }

    const { page, id, trigger, options } = await open()
    expect(new URL(page.url()).origin).toBe(site.url)
    await trigger.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => deepFocus(page).then((f) => f.id)).toBe(`${id}-search`)
    await expect.poll(() => options.allInnerTexts(), { timeout: 15_000 }).toEqual(first.values)
    // ↓ down the list: near its end the next page comes from the server, after the first
    for (let i = 0; i < first.values.length; i++) await page.keyboard.press('ArrowDown')
    await expect.poll(() => options.allInnerTexts(), { timeout: 15_000 }).toEqual([...first.values, ...second.values])
    expect(asked.some((q) => q.get('cursor') === first.nextCursor)).toBe(true)
    // typing searches on the server
    await page.keyboard.type('lee')
    await expect.poll(() => asked.some((q) => q.get('search') === 'lee'), { timeout: 15_000 }).toBe(true)
    await expect.poll(async () => (await options.allInnerTexts()).length).toBeGreaterThan(0)
    const found = await options.allInnerTexts()
    expect(found.every((v) => v.toLowerCase().includes('lee'))).toBe(true)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await inDashboard(page, `[part~="filter-chip"][aria-label="Remove ${found[0]}"]`).waitFor()
    // a value no row holds, typed and taken as written with Enter
    await page.keyboard.press('Control+A')
    await page.keyboard.type('Zed Nobody')
    await expect.poll(() => asked.some((q) => q.get('search') === 'Zed Nobody'), { timeout: 15_000 }).toBe(true)
    // the server has none: only the value already chosen stays listed
    await expect.poll(() => options.allInnerTexts()).toEqual([found[0]])
    await page.keyboard.press('Enter')
    await inDashboard(page, '[part~="filter-chip"][aria-label="Remove Zed Nobody"]').waitFor()
    await shoot(page, 'builder-picker-cross-origin')
    await page.keyboard.press('Escape')
    expect(await inDashboard(page, 'dialog[open]').count()).toBe(1)
    expect(await trigger.textContent()).toContain('Zed Nobody')
    expect(await hostErrors(page)).toEqual([])
    await page.close()

    // on a phone, by taps
    const phone = await open(PHONE)
    await phone.trigger.tap()
    await expect.poll(() => phone.options.allInnerTexts(), { timeout: 15_000 }).toEqual(first.values)
    // the values came after the panel opened, and a chip row comes over it: the list stays in
    // the builder's view, above its foot (Cancel, Save metric), not pushed under it
    const listInView = () =>
      inDashboard(phone.page, `#${phone.id}-list`).evaluate((list) => {
        const r = list.getBoundingClientRect()
        const foot = (list.getRootNode() as ShadowRoot).querySelector('.dialog-foot')
        return r.height > 100 && r.top >= 0 && r.bottom <= (foot?.getBoundingClientRect().top ?? window.innerHeight) + 1
      })
    await expect.poll(listInView).toBe(true)
    const pick = phone.options.nth(2)
    const value = norm(await pick.textContent())
    await pick.tap()
    await inDashboard(phone.page, `[part~="filter-chip"][aria-label="Remove ${value}"]`).waitFor()
    await expect.poll(listInView).toBe(true)
    await phone.page.screenshot({ path: `${SHOTS}/touch-builder-picker-390.png` })
    expect(await hostErrors(phone.page)).toEqual([])
    await phone.page.close()
  }, 180_000)

  it('"The company updated this metric": Keep mine by keyboard stays after a reload; the new version by taps', async () => {
    const token = await b.mint('globex', { isEnableMetricUpdation: true, isEnableManageMetrics: true })
    const loaded = (await runtimeCall(b, token, 'GET', '')) as {
      metrics: { metricId: string; definition?: Record<string, unknown> }[]
    }
    const category = loaded.metrics.find((m) => m.metricId === 'revenue_by_category')
    expect(category?.definition).toBeDefined()
    await runtimeCall(b, token, 'PUT', '/metrics/revenue_by_category', {
      metric: { ...category?.definition, name: 'Our categories' },
    })
    await company.renameMetric('revenue_by_category', 'Revenue by category (net)')

    const page = await site.open(token)
    const c = card(page, 'revenue_by_category')
    const note = c.locator('[part~="company-update-note"]')
    await note.waitFor({ timeout: 20_000 })
    expect(norm(await note.textContent())).toContain('The company updated this metric')
    expect(await title(c)).toBe('Our categories')
    await expect.poll(() => c.getAttribute('data-state')).toBe('ready')
    await shoot(page, 'company-note-cross-origin', c)
    // Tab from "Use the new version" reaches "Keep mine"; Enter takes it
    await c.locator('[part~="company-update-use-new"]').focus()
    await page.keyboard.press('Tab')
    expect((await deepFocus(page)).part).toBe('company-update-keep')
    await page.keyboard.press('Enter')
    await expect.poll(() => note.count(), { timeout: 20_000 }).toBe(0)
    expect(await title(c)).toBe('Our categories')
    expect(await hostErrors(page)).toEqual([])
    await page.close()
    const reloaded = await site.open(token)
    await expect.poll(() => title(card(reloaded, 'revenue_by_category'))).toBe('Our categories')
    await settled(reloaded)
    expect(await card(reloaded, 'revenue_by_category').locator('[part~="company-update-note"]').count()).toBe(0)
    await reloaded.close()

    // the company changes it again: on a phone, the note's "Use the new version" and the confirm by taps
    await company.renameMetric('revenue_by_category', 'Revenue by category (gross)')
    const phone = await site.open(token, PHONE)
    const pc = card(phone, 'revenue_by_category')
    const useNew = pc.locator('[part~="company-update-use-new"]')
    await useNew.waitFor({ timeout: 20_000 })
    await useNew.scrollIntoViewIfNeeded()
    const box = await useNew.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true)
    await phone.screenshot({ path: `${SHOTS}/touch-company-note-390.png` })
    await useNew.tap()
    await inDashboard(phone, '[part~="confirm"] button').filter({ hasText: 'Reset' }).tap()
    await expect.poll(() => title(pc), { timeout: 30_000 }).toBe('Revenue by category (gross)')
    expect(await pc.locator('[part~="company-update-note"]').count()).toBe(0)
    expect(await hostErrors(phone)).toEqual([])
    await phone.close()
  }, 180_000)

  it('column formats: an id column as written, a currency and a percent column, at 1440 and 390 px', async () => {
    const token = await b.mint('acme', {})
    const made = (await runtimeCall(b, token, 'POST', '/metrics', {
      metric: {
        name: 'Revenue and refund rate by customer',
        chart: { type: 'table' },
        // customer_id has no format: an identifier by its name, never a quantity
        formats: { revenue: { style: 'currency', currency: 'USD' }, refund_rate: { style: 'percent', decimals: 1 } },
        query: {
          from: 'main.orders',
          dimensions: [{ name: 'customer_id', column: 'customer_id' }],
          measures: [
            { name: 'revenue', aggregate: 'sum', column: 'amount' },
            { name: 'refund_rate', aggregate: 'avg', column: 'refunded' },
          ],
          orderBy: [{ name: 'customer_id', direction: 'desc' }],
          limit: 20,
        },
      },
    })) as { data: { metricId: string } }
    const page = await site.open(token)
    const c = card(page, made.data.metricId)
    const rows = c.locator('tbody tr')
    await rows.first().waitFor({ timeout: 30_000 })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 })
      await c.scrollIntoViewIfNeeded()
      const cells = (await rows.first().locator('td').allTextContents()).map(norm)
      // the demo's customer ids go past 1,000: written without a group separator
      expect(cells[0], `${width} px`).toMatch(/^\d{4,}$/)
      expect(cells[1], `${width} px`).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/)
      expect(cells[2], `${width} px`).toMatch(/^\d{1,3}\.\d%$/)
    }
    await shoot(page, 'formats-cross-origin', c)
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 120_000)

  it('drill by taps on a 390 px phone: a bar filters the dashboard, a slice adds a chip, a bar opens its rows', async () => {
    const page = await site.open(await b.mint('acme', { isEnableUnderlyingData: true }), PHONE)
    const menu = inDashboard(page, '[part~="drill-menu"]')
    const item = (action: string) => inDashboard(page, `[part~="drill-menu"] [data-action="${action}"]`)
    const categories = await card(page, 'revenue_by_category')
      .locator('[part~="chart"]')
      .evaluate((el) => (el as HTMLElement & { chart: Chart }).chart.getOption().xAxis?.[0]?.data ?? [])
    expect(categories.length).toBeGreaterThan(1)
    // a bar → its menu, inside the screen → Filter by: the dashboard's Category filter
    let at = await pointOf(page, 'revenue_by_category', 1)
    await page.touchscreen.tap(at.x, at.y)
    await menu.waitFor()
    const box = await menu.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true)
    expect(norm(await item('filter').textContent())).toBe(`Filter by Category = ${categories[1]}`)
    await page.screenshot({ path: `${SHOTS}/touch-drill-menu-390.png` })
    await item('filter').tap()
    await expect.poll(async () => (await filtersOf(page)).category).toEqual([categories[1]])
    await dashboardReady(page)
    // a slice of Status (no dashboard filter on it) → a removable drill chip
    at = await pointOf(page, 'status_share', 0)
    await page.touchscreen.tap(at.x, at.y)
    const label = norm(await item('filter').textContent())
    expect(label).toMatch(/^Filter by Status = /)
    await item('filter').tap()
    const chip = inDashboard(page, '[part~="drill-chip"]')
    await chip.waitFor()
    expect(norm(await chip.textContent())).toContain(`Status: ${label.replace('Filter by Status = ', '')}`)
    await dashboardReady(page)
    await chip.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/touch-drill-chip-390.png` })
    // the one bar left → See these rows: that segment's rows, in a dialog that fits the phone
    at = await pointOf(page, 'revenue_by_category', 0)
    await page.touchscreen.tap(at.x, at.y)
    await item('rows').tap()
    const dialog = inDashboard(page, '[part~="underlying-dialog"]')
    await dialog.locator('tbody tr').first().waitFor()
    expect(norm(await dialog.locator('h2').textContent())).toContain(`Category = ${categories[1]}`)
    const d = await dialog.boundingBox()
    expect(d && d.x >= 0 && d.x + d.width <= 390, JSON.stringify(d)).toBe(true)
    const headers = (await dialog.locator('th').allInnerTexts()).map((h) => h.trim().toLowerCase())
    const col = headers.indexOf('category')
    expect(col).toBeGreaterThanOrEqual(0)
    const cells = await dialog.locator(`tbody tr td:nth-child(${col + 1})`).allInnerTexts()
    expect(new Set(cells.map((x) => x.trim()))).toEqual(new Set([categories[1]]))
    await page.screenshot({ path: `${SHOTS}/touch-drill-rows-390.png` })
    await dialog.locator('#close').tap()
    expect(await hostErrors(page)).toEqual([])
    await page.close()
  }, 150_000)

  it('the Hidden list\'s Restore and "Reset to the company\'s version" by keyboard, the reset by taps', async () => {
    const token = await b.mint('initech', { isEnableManageMetrics: true, isEnableMetricUpdation: true })
    await runtimeCall(b, token, 'DELETE', '/metrics/orders')
    const loaded = (await runtimeCall(b, token, 'GET', '')) as {
      metrics: { metricId: string; name: string; definition?: Record<string, unknown> }[]
    }
    const status = loaded.metrics.find((m) => m.metricId === 'status_share')
    expect(status?.definition).toBeDefined()
    const mine = async () =>
      runtimeCall(b, token, 'PUT', '/metrics/status_share', { metric: { ...status?.definition, name: 'Our statuses' } })
    await mine()

    const page = await site.open(token)
    expect(await card(page, 'orders').count()).toBe(0)
    // Hidden: Enter opens the list with focus on Restore; Enter restores
    const hidden = inDashboard(page, '[part~="hidden-button"]')
    await hidden.focus()
    await page.keyboard.press('Enter')
    await inDashboard(page, '[part~="hidden-list"]').waitFor()
    await expect.poll(async () => (await deepFocus(page)).text).toContain('Restore')
    await shoot(page, 'hidden-cross-origin')
    expect((await deepFocus(page)).text).toContain('Restore')
    await page.keyboard.press('Enter')
    await card(page, 'orders').waitFor({ timeout: 30_000 })
    expect(await hidden.count()).toBe(0)

    // the card menu: ↓ to "Reset to the company's version", Enter, then the confirm's Reset
    const c = card(page, 'status_share')
    await expect.poll(() => title(c)).toBe('Our statuses')
    await c.locator('[part~="card-menu-button"]').focus()
    await page.keyboard.press('ArrowDown')
    for (let i = 0; i < 8 && !(await deepFocus(page)).text.includes("Reset to the company's version"); i++)
      await page.keyboard.press('ArrowDown')
    expect((await deepFocus(page)).text).toContain("Reset to the company's version")
    await page.keyboard.press('Enter')
    await inDashboard(page, '[part~="confirm"][open]').waitFor()
    if ((await deepFocus(page)).id === 'cancel') await page.keyboard.press('Tab')
    expect((await deepFocus(page)).id).toBe('ok')
    await page.keyboard.press('Enter')
    await expect.poll(() => title(c), { timeout: 30_000 }).toBe(status?.name)
    expect(await hostErrors(page)).toEqual([])
    await page.close()

    // on a phone: the card menu's reset by taps
    await mine()
    const phone = await site.open(token, PHONE)
    const pc = card(phone, 'status_share')
    await expect.poll(() => title(pc)).toBe('Our statuses')
    await pc.scrollIntoViewIfNeeded()
    await pc.locator('[part~="card-menu-button"]').tap()
    const reset = inDashboard(phone, '[part~="card-menu-panel"] [role="menuitem"]').filter({
      hasText: "Reset to the company's version",
    })
    const box = await reset.boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box)).toBe(true)
    await phone.screenshot({ path: `${SHOTS}/touch-reset-menu-390.png` })
    await reset.tap()
    await inDashboard(phone, '[part~="confirm"] button').filter({ hasText: 'Reset' }).tap()
    await expect.poll(() => title(pc), { timeout: 30_000 }).toBe(status?.name)
    expect(await hostErrors(phone)).toEqual([])
    await phone.close()
  }, 180_000)
})
