/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'
import type { ServerProcess } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { STUDIO_DOCS, shootBoth, shootControl } from '../helpers/studio.js'
import { type AdminApi, STUDIO_ADMIN } from '../helpers/studio-company.js'
import { type StudioRun, startStudioRun } from '../helpers/studio-run.js'
import { buildAsTenant, buildMetric, createDashboard, shownNumber, signIn } from '../helpers/studio-steps.js'
import type { PgWarehouse } from '../helpers/warehouse.js'

/**
 * The studio's authoring controls beyond building, in Chromium, in the element's company mode:
 * a card's "Remove from dashboard" (confirmed by keyboard; the saved document lacks the metric
 * and its card, the grid keeps no hole, a reload shows it gone), a reorder with the layout
 * editor's keys saved into the document, and a currency format and a comparison set in the
 * builder by keyboard (the preview shows them, the document keeps them, the card draws them).
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)

interface Doc {
  metrics: { metricId: string; name: string; formats?: unknown; comparison?: unknown }[]
  layout: { metricId: string; x: number; y: number; w: number; h: number }[]
}

describe.skipIf(!hasChromium || !hasPostgres)('the studio: removing, reordering, formats and comparison', () => {
  let run: StudioRun | undefined
  let server: ServerProcess
  let page: Page
  let wh: PgWarehouse
  let api: AdminApi
  const exported = async (): Promise<Doc> =>
    (await api('POST', '/api/v2/data-app/export-dashboard', { workspaceName: 'main', dashboardId: 'controls' })).data
  const el = (selector: string) => page.locator(`strata-dashboard ${selector}`)
  const cardOf = (metricId: string) => el(`.card[data-metric-id="${metricId}"]`)
  const saved = () =>
    page.waitForResponse((r) => r.url().includes('/api/v2/data-app/dashboard') && r.request().method() === 'PUT')
  /** The focused element's id, through shadow roots. */
  const focusedId = () =>
    page.evaluate(() => {
      let a = document.activeElement
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement
      return a?.id ?? ''
    })

  beforeAll(async () => {
    run = await startStudioRun({
      // an order of today: the revenue now differs from a month ago (the comparison has a change to show)
      prepare: (wh) =>
        wh.query(`insert into ${wh.schema}.orders values (9001, 3, 'acme', 'paid', 500, now() - interval '1 hour')`),
      page: { locale: 'en-US' },
    })
    ;({ server, page, wh, api } = run)
  }, 120_000)
  afterAll(() => run?.stop())

  it('builds four metrics in the company’s mode (the dashboard the controls work on)', async () => {
    await signIn(page, server.url, STUDIO_ADMIN)
    await createDashboard(page, 'Controls')
    await buildAsTenant(page, 'acme')
    const build = (name: string, table: string, measures: string[], dimensions: string[] = []) =>
      buildMetric(page, { name, table: `${wh.schema}.${table}`, measures, dimensions })
    await build('Revenue', 'orders', ['amount'])
    await build('Revenue by status', 'orders', ['amount'], ['status'])
    await build('Revenue by customer', 'orders', ['amount'], ['customer_id'])
    await build('Customers by country', 'customers', ['id'], ['country'])
  }, 180_000)

  it('removes a metric from its card menu by keyboard: gone from the document, the grid closed, gone after a reload', async () => {
    expect((await exported()).layout).toEqual([
      { metricId: 'revenue', x: 0, y: 0, w: 6, h: 4 },
      { metricId: 'revenue-by-status', x: 6, y: 0, w: 6, h: 4 },
      { metricId: 'revenue-by-customer', x: 0, y: 4, w: 6, h: 4 },
      { metricId: 'customers-by-country', x: 6, y: 4, w: 6, h: 4 },
    ])
    // the menu by keyboard: its button, Enter, down to the last item
    await cardOf('revenue-by-status').locator('[part~="card-menu-button"]').focus()
    await page.keyboard.press('Enter')
    const item = el('[role="menuitem"][data-action="remove"]')
    await item.waitFor()
    expect(await el('[role="menuitem"]').evaluateAll((items) => items.map((i) => i.textContent?.trim()))).toEqual([
      'Edit',
      'Remove from dashboard',
    ])
    await page.keyboard.press('End')
    expect(await item.evaluate((i) => i === (i.getRootNode() as ShadowRoot).activeElement)).toBe(true)
    await page.keyboard.press('Enter')
    // the confirmation names the metric and starts on Cancel (Enter alone removes nothing)
    const dialog = el('[role="alertdialog"], dialog[open]').filter({
      hasText: 'Remove this metric from the dashboard?',
    })
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('“Revenue by status”')
    await shootBoth(page, 'remove-confirm')
    // the picture without the notice of the metric built before (it fades after a few seconds)
    await expect.poll(() => el('.toast[part~="notice"]').first().textContent(), { timeout: 15_000 }).toBe('')
    await docsImage(page, 'remove-confirm', { ...STUDIO_DOCS, height: 900 })
    await shootControl(page, 'remove-confirm-dialog', dialog)
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'hidden' })
    expect((await exported()).metrics).toHaveLength(4)
    // again, and this time Remove
    await cardOf('revenue-by-status').locator('[part~="card-menu-button"]').focus()
    await page.keyboard.press('Enter')
    await item.waitFor()
    await page.keyboard.press('End')
    await page.keyboard.press('Enter')
    await dialog.waitFor()
    await page.keyboard.press('Tab')
    const put = saved()
    await page.keyboard.press('Enter')
    expect((await put).status()).toBe(200)
    await cardOf('revenue-by-status').waitFor({ state: 'detached' })
    const doc = await exported()
    expect(doc.metrics.map((m) => m.metricId)).toEqual(['revenue', 'revenue-by-customer', 'customers-by-country'])
    // the card below the removed one rose into its place: no hole
    expect(doc.layout).toEqual([
      { metricId: 'revenue', x: 0, y: 0, w: 6, h: 4 },
      { metricId: 'customers-by-country', x: 6, y: 0, w: 6, h: 4 },
      { metricId: 'revenue-by-customer', x: 0, y: 4, w: 6, h: 4 },
    ])
    await page.reload()
    await el('[part~="new-metric-button"]').waitFor({ timeout: 30_000 })
    await cardOf('customers-by-country').waitFor()
    expect(await el('.card[data-metric-id]').count()).toBe(3)
    expect(await cardOf('revenue-by-status').count()).toBe(0)
    // drawn where the document puts it: beside Revenue, on the top row
    const [top, beside] = await Promise.all([
      cardOf('revenue').boundingBox(),
      cardOf('customers-by-country').boundingBox(),
    ])
    expect(Math.abs((beside?.y ?? 0) - (top?.y ?? 1))).toBeLessThan(2)
    expect(beside?.x ?? 0).toBeGreaterThan(top?.x ?? 0)
  }, 90_000)

  it('reorders cards with the layout editor’s keys, saved into the company’s document', async () => {
    await el('[part~="edit-layout-button"]').click()
    await cardOf('revenue-by-customer').focus()
    // one step up: it passes Revenue, which goes below it
    await page.keyboard.press('ArrowUp')
    const put = saved()
    await el('[part~="save-layout-button"]').click()
    expect((await put).status()).toBe(200)
    await el('[part~="edit-bar"]').waitFor({ state: 'detached' })
    expect((await exported()).layout).toEqual([
      { metricId: 'revenue-by-customer', x: 0, y: 0, w: 6, h: 4 },
      { metricId: 'customers-by-country', x: 6, y: 0, w: 6, h: 4 },
      { metricId: 'revenue', x: 0, y: 4, w: 6, h: 4 },
    ])
  }, 60_000)

  it('sets a currency format and a comparison by keyboard: previewed, saved in the document, drawn by the card', async () => {
    await cardOf('revenue').locator('[part~="card-menu-button"]').click()
    await el('[role="menuitem"][data-action="edit"]').click()
    await el('#bd-name').waitFor()
    await el('.bd-preview[data-state="ready"]').waitFor({ timeout: 20_000 })
    const before = shownNumber((await el('.bd-preview [part~="value"]').textContent()) ?? '')
    expect(await el('.bd-preview [part~="change"]').count()).toBe(0)
    // Compare with: focus, then type-ahead picks "The previous period"
    await el('#bd-compare').focus()
    await page.keyboard.press('t')
    expect(await el('#bd-compare').inputValue()).toBe('previous-period')
    // Formats: Tab reaches the measure's style; "c" picks Currency, whose code comes next
    await page.keyboard.press('Tab')
    expect(await focusedId()).toMatch(/^bd-format-\d+-style$/)
    await page.keyboard.press('c')
    await el('.bd-currency').waitFor()
    await page.keyboard.press('Tab')
    expect(await focusedId()).toMatch(/^bd-format-\d+-currency$/)
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('eur')
    await page.keyboard.press('Tab')
    expect(await focusedId()).toMatch(/^bd-format-\d+-decimals$/)
    // "Auto decimals", then 0, 1, 2: the third option down
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown')
    await expect.poll(() => el('.bd-decimals').inputValue()).toBe('2')
    // the preview draws both: euros with two decimals, and the change against last month
    await expect.poll(() => el('.bd-preview [part~="value"]').textContent(), { timeout: 20_000 }).toMatch(/€/)
    await el('.bd-preview [part~="change"]').waitFor({ timeout: 20_000 })
    expect(await el('.bd-preview [part~="value"]').getAttribute('title')).toMatch(/^€[\d,]+\.\d\d$/)
    expect(shownNumber((await el('.bd-preview [part~="value"]').getAttribute('title')) ?? '')).toBeCloseTo(before, 0)
    await shootBoth(page, 'builder-format-compare')
    await docsImage(page, 'builder-format-compare', { ...STUDIO_DOCS, height: 900 })
    await shootControl(page, 'builder-compare', el('.bd-compare'))
    await shootControl(page, 'builder-formats-company', el('.bd-formats'))
    const put = saved()
    await el('#bd-save').click()
    expect((await put).status()).toBe(200)
    await el('dialog[open]')
      .waitFor({ state: 'detached' })
      .catch(() => undefined)
    const revenue = (await exported()).metrics.find((m) => m.metricId === 'revenue')
    expect(revenue?.formats).toEqual({ sum_amount: { style: 'currency', currency: 'EUR', decimals: 2 } })
    expect(revenue?.comparison).toEqual({ period: 'previous-period' })
    // the dashboard's card draws them, after a reload too
    await page.reload()
    await cardOf('revenue').locator('[part~="change"]').waitFor({ timeout: 30_000 })
    expect(await cardOf('revenue').locator('[part~="value"]').getAttribute('title')).toMatch(/^€[\d,]+\.\d\d$/)
    expect(await cardOf('revenue').locator('[part~="change"]').textContent()).toMatch(/▲/)
    // editing again starts from what was saved
    await cardOf('revenue').locator('[part~="card-menu-button"]').click()
    await el('[role="menuitem"][data-action="edit"]').click()
    await el('#bd-compare').waitFor()
    expect(await el('#bd-compare').inputValue()).toBe('previous-period')
    expect(await el('.bd-currency').inputValue()).toBe('EUR')
    // Nothing: saved without a comparison
    await el('#bd-compare').selectOption('')
    const again = saved()
    await el('#bd-save').click()
    expect((await again).status()).toBe(200)
    await expect
      .poll(async () => (await exported()).metrics.find((m) => m.metricId === 'revenue')?.comparison)
      .toBeUndefined()
  }, 120_000)
})
