/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'
import { shootControl } from '../helpers/studio.js'

/**
 * An end user's own metric with a column format, in Chromium against the demo: the builder's
 * Formats row set by keyboard (Currency, its code, its decimals), drawn at once by the preview,
 * saved in the definition (the card draws it after a reload, and the builder reopens with it);
 * an end user is offered no comparison (an end user's definition has none).
 */
const SHOTS = process.env.COMPANY_SHOTS ?? '/tmp/shots-company'
const NAME = 'My revenue in yen'

/** The focused element's id, through shadow roots. */
const focusedId = (page: Page) =>
  page.evaluate(() => {
    let a = document.activeElement
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement
    return a?.id ?? ''
  })

describe.skipIf(!hasChromium)('an end user formats a column of their own metric', () => {
  const b = useBrowserSuite()
  let token: string

  beforeAll(async () => {
    await b.allowOnDemoEmbed({
      isAllowMetricCreation: true,
      metricCreationMode: 'DRAG_DROP',
      isAllowMetricUpdate: true,
    })
    token = await b.mint('acme', { isEnableMetricUpdation: true })
  }, 60_000)

  const card = (page: Page, name: string) =>
    page.locator('#d [part~="card"]', { has: page.locator(`[part~="card-title"]:text-is("${name}")`) })

  it('sets Currency JPY with no decimals by keyboard: previewed, saved, drawn after a reload, reopened with it', async () => {
    const page = await b.openDashboard(token)
    const el = (s: string) => page.locator(`#d ${s}`)
    await el('[part~="new-metric-button"]').click()
    await el('#bd-table').waitFor()
    await el('#bd-table').selectOption('main.orders')
    await el('#bd-field-amount').click()
    await el('[role="menu"] [data-target="measures"]').click()
    await el('.bd-preview[data-state="ready"] [part~="value"]').waitFor({ timeout: 20_000 })
    // a number: no comparison for an end user's metric
    expect(await el('#bd-compare').count()).toBe(0)
    const row = el('.bd-format[data-output="sum_amount"]')
    expect(await row.locator('label').textContent()).toBe('Total amount')
    await row.locator('select').first().focus()
    await page.keyboard.press('c')
    await row.locator('.bd-currency').waitFor()
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toMatch(/-currency$/)
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('jp')
    // two letters are not a currency: the save says so and stays
    await el('#bd-save').click()
    await expect.poll(() => el('.bd-status').textContent()).toMatch(/three-letter code/)
    expect(await focusedId(page)).toMatch(/-currency$/)
    expect(await row.locator('.bd-currency').getAttribute('aria-invalid')).toBe('true')
    await page.keyboard.type('y')
    await page.keyboard.press('Tab')
    expect(await focusedId(page)).toMatch(/-decimals$/)
    await page.keyboard.press('ArrowDown') // Auto decimals → 0 decimals
    await expect.poll(() => row.locator('.bd-decimals').inputValue()).toBe('0')
    await expect
      .poll(() => el('.bd-preview [part~="value"]').getAttribute('title'), { timeout: 20_000 })
      .toMatch(/^¥[\d,]+$/)
    await el('#bd-name').fill(NAME)
    await shootControl(page, 'builder-formats', row, SHOTS)
    await el('#bd-save').click()
    await card(page, NAME).waitFor({ timeout: 20_000 })
    await page.reload()
    await page.waitForFunction(() => customElements.get('strata-dashboard') !== undefined)
    await page.evaluate((t) => {
      const d = document.createElement('strata-dashboard')
      d.id = 'd'
      d.setAttribute('embed-id', 'demo-sales')
      d.setAttribute('token', t)
      document.body.replaceChildren(d)
    }, token)
    const saved = card(page, NAME)
    await saved.locator('[part~="value"]').waitFor({ timeout: 30_000 })
    expect(await saved.locator('[part~="value"]').getAttribute('title')).toMatch(/^¥[\d,]+$/)
    await saved.locator('[part~="card-menu-button"]').click()
    await el('[role="menuitem"][data-action="edit"]').click()
    await el('.bd-format[data-output="sum_amount"] .bd-currency').waitFor()
    expect(await el('.bd-format[data-output="sum_amount"] .bd-currency').inputValue()).toBe('JPY')
    expect(await el('.bd-format[data-output="sum_amount"] .bd-decimals').inputValue()).toBe('0')
    await page.close()
  }, 120_000)
})
