/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { useBrowserSuite } from '../helpers/browser.js'
import { ARTIFACTS, hasChromium } from '../helpers/chromium.js'

/**
 * The metric builder and card menus in a real browser, against the real server (the demo's
 * DuckDB data, the self-serve routes of docs/runtime-api.md#self-serve-metrics): an end user builds a bar chart, sees it
 * drawn, finds it after a reload, edits it, archives and restores it; all of it by keyboard
 * too; and a token without the permissions shows none of the controls (nor loads their code).
 */

/** The focused element's id and part, through shadow roots (run in the page). */
function deepActiveId(): string {
  let el = document.activeElement
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
  return el?.id ?? ''
}
function deepActivePart(): string {
  let el = document.activeElement
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
  return el?.getAttribute('part') ?? ''
}

const NAME = 'Revenue by channel (mine)'

describe.skipIf(!hasChromium)('the self-serve builder in Chromium', () => {
  const b = useBrowserSuite()
  let builderToken: string
  let readOnlyToken: string
  let metricId = ''

  beforeAll(async () => {
    // the company lets end users of this embed build, change and manage metrics
    await b.allowOnDemoEmbed({
      isAllowMetricCreation: true,
      metricCreationMode: 'DRAG_DROP',
      isAllowMetricUpdate: true,
      isAllowMetricDeletion: true,
      isAllowManageMetrics: true,
    })
    builderToken = await b.mint('acme', {
      isEnableMetricUpdation: true,
      isEnableManageMetrics: true,
      isEnableArchiveMetrics: true,
    })
    readOnlyToken = await b.mint('acme', {
      isDisableMetricCreation: true,
      isEnableMetricUpdation: false,
      isEnableManageMetrics: false,
      isEnableArchiveMetrics: false,
      // and no other self-serve tool either (layout, views, underlying data), so nothing loads the self-serve chunk
      isEnableCustomizeLayout: false,
      isEnableCreateDashboardView: false,
      isEnableUnderlyingData: false,
    })
  }, 60_000)

  /** The dashboard alone on a page (the script from /sdk/), once it is ready; `sdk`: the /sdk/ files it fetched. */
  async function openDashboard(token: string, width = 1440): Promise<{ page: Page; sdk: string[] }> {
    const sdk: string[] = []
    const page = await b.openDashboard(token, {
      viewport: { width, height: 1000 },
      before: (page) =>
        page.on('request', (r) => {
          if (r.url().includes('/sdk/')) sdk.push(new URL(r.url()).pathname)
        }),
    })
    await page.evaluate(() => {
      ;(window as unknown as { changes: unknown[] }).changes = []
      document
        .getElementById('d')
        ?.addEventListener('strata-metric-change', (e) =>
          (window as unknown as { changes: unknown[] }).changes.push((e as CustomEvent).detail),
        )
    })
    return { page, sdk }
  }

  /** Whether the card's canvas has ink, or its table/value has text. */
  const drawn = (page: Page, selector: string) =>
    page.evaluate((sel) => {
      const find = (root: ParentNode): Element | null => {
        const hit = root.querySelector(sel)
        if (hit) return hit
        for (const el of root.querySelectorAll('*')) {
          const inner = el.shadowRoot ? find(el.shadowRoot) : null
          if (inner) return inner
        }
        return null
      }
      const card = find(document)
      const canvas = card?.querySelector('canvas')
      if (!canvas) return false
      const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data
      if (!data) return false
      for (let i = 3; i < data.length; i += 4 * 16) if ((data[i] ?? 0) > 0) return true
      return false
    }, selector)

  const card = (page: Page, name: string) =>
    page.locator('#d [part~="card"]', { has: page.locator(`[part~="card-title"]:text-is("${name}")`) })

  it('an end user builds a bar chart, sees it drawn, and finds it after a reload', async () => {
    const { page } = await openDashboard(builderToken)
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-table').waitFor()
    await page.locator('#d #bd-table').selectOption('main.orders')
    // drag one field, choose another
    await page.locator('#d #bd-field-amount').dragTo(page.locator('#d [data-zone="measures"]'))
    await page.locator('#d #bd-field-channel').click()
    await page.locator('#d [role="menu"] [data-target="dimensions"]').click()
    await expect.poll(() => page.locator('#d [data-zone="measures"] .bd-item').count()).toBe(1)
    await expect.poll(() => page.locator('#d [data-zone="dimensions"] .bd-item').count()).toBe(1)
    expect(await page.locator('#d #bd-chart-bar').isChecked()).toBe(true)
    // the live preview is drawn by the cards' code
    await page.locator('#d .bd-preview[data-state="ready"] canvas').waitFor({ timeout: 20_000 })
    expect(await drawn(page, '.bd-preview')).toBe(true)
    await page.locator('#d #bd-name').fill(NAME)
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'self-serve-builder.png') })
    await page.locator('#d #bd-save').click()

    await card(page, NAME).waitFor({ timeout: 20_000 })
    const created = card(page, NAME)
    expect(await created.getAttribute('data-chart-type')).toBe('bar')
    await page.waitForFunction(() => document.getElementById('d')?.getAttribute('data-state') === 'ready')
    metricId = (await created.getAttribute('data-metric-id')) ?? ''
    expect(metricId).toMatch(/^u_[A-Za-z0-9_-]{12}$/)
    await expect.poll(() => drawn(page, `.card[data-metric-id="${metricId}"]`), { timeout: 10_000 }).toBe(true)
    expect(await page.evaluate(() => (window as unknown as { changes: unknown[] }).changes)).toEqual([
      { action: 'create', metricId },
    ])
    // the dialog is gone and focus is on the new card
    expect(await page.locator('#d dialog[open]').count()).toBe(0)
    await page.close()

    const again = await openDashboard(builderToken)
    await card(again.page, NAME).waitFor()
    expect(await card(again.page, NAME).getAttribute('data-metric-id')).toBe(metricId)
    await expect.poll(() => drawn(again.page, `.card[data-metric-id="${metricId}"]`), { timeout: 10_000 }).toBe(true)
    await again.page.close()
  })

  it('edits it with the same builder, prefilled from its definition', async () => {
    expect(metricId).not.toBe('')
    const { page } = await openDashboard(builderToken)
    await card(page, NAME).locator('[part~="card-menu-button"]').click()
    await page.locator('#d [data-action="edit"]').click()
    await expect.poll(() => page.locator('#d #bd-name').inputValue()).toBe(NAME)
    await expect.poll(() => page.locator('#d [data-zone="measures"] .bd-item').count()).toBe(1)
    await page.locator('#d #bd-chart-line').check()
    await page.locator('#d #bd-name').fill(`${NAME} as a line`)
    await page.locator('#d #bd-save').click()
    await card(page, `${NAME} as a line`).waitFor({ timeout: 20_000 })
    const edited = card(page, `${NAME} as a line`)
    expect(await edited.getAttribute('data-metric-id')).toBe(metricId)
    expect(await edited.getAttribute('data-chart-type')).toBe('line')
    await page.close()
    const again = await openDashboard(builderToken)
    expect(await card(again.page, `${NAME} as a line`).getAttribute('data-chart-type')).toBe('line')
    await again.page.close()
  })

  it('archives it and restores it from the Archived list', async () => {
    const name = `${NAME} as a line`
    const { page } = await openDashboard(builderToken)
    await card(page, name).locator('[part~="card-menu-button"]').click()
    await page.locator('#d [data-action="archive"]').click()
    await expect.poll(() => card(page, name).count(), { timeout: 20_000 }).toBe(0)
    await page.locator('#d [part~="archived-button"]').click()
    await page.locator(`#d [aria-label="Restore ${name}"]`).click()
    await card(page, name).waitFor({ timeout: 20_000 })
    expect(await page.locator('#d [part~="archived-button"]').count()).toBe(0)
    await page.close()
  })

  it('works from the keyboard: open, add a field, Escape (then Enter to discard) closes and focus returns', async () => {
    const { page } = await openDashboard(builderToken)
    await page.locator('#d [part~="new-metric-button"]').focus()
    await page.keyboard.press('Enter')
    await page.locator('#d #bd-table').waitFor()
    await expect.poll(() => page.evaluate(deepActiveId)).toBe('bd-table')
    await page.locator('#d #bd-field-quantity').focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => page.evaluate(deepActiveId)).toBe('bd-menu-quantity-0')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter') // "Add as dimension"
    await expect.poll(() => page.locator('#d [data-zone="dimensions"] .bd-item').count()).toBe(1)
    await expect.poll(() => page.evaluate(deepActiveId)).toBe('bd-field-quantity')
    // a field was added: Escape asks first (focus on Discard), Enter discards and closes
    await page.keyboard.press('Escape')
    await expect.poll(() => page.evaluate(deepActiveId)).toBe('ok')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('#d dialog[open]').count()).toBe(0)
    expect(await page.evaluate(deepActivePart)).toContain('new-metric-button')
    await page.close()
  })

  it('a token without the permissions shows none of the controls, and never loads their code', async () => {
    // the self-serve module defines <strata-self-serve-overlay> when it is imported: defined on
    // the builder's page, never on the read-only one (whatever other chunks a dashboard fetches)
    const selfServeLoaded = (page: Page) =>
      page.evaluate(() => customElements.get('strata-self-serve-overlay') !== undefined)
    const withTools = await openDashboard(builderToken)
    await withTools.page.locator('#d [part~="new-metric-button"]').waitFor()
    expect(await selfServeLoaded(withTools.page)).toBe(true)
    await withTools.page.close()

    const { page } = await openDashboard(readOnlyToken)
    await page.waitForTimeout(500)
    for (const part of ['new-metric-button', 'card-menu-button', 'archived-button', 'card-menu']) {
      expect(await page.locator(`#d [part~="${part}"]`).count(), part).toBe(0)
    }
    expect(await page.locator('#d strata-self-serve-overlay').count()).toBe(0)
    expect(await selfServeLoaded(page)).toBe(false)
    await page.close()
  })
})
