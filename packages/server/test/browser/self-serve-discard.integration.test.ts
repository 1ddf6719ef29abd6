/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'

/**
 * Closing the builder or leaving edit-layout mode with changes not saved asks "Discard changes?"
 * inside the element (never window.confirm): focus moves to the question's Discard, Enter
 * discards, Escape keeps editing with everything as it was; with nothing changed, nothing asks.
 */

/** The focused element (through shadow roots): its id, its part and its text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
    return { id: el?.id ?? '', part: el?.getAttribute('part') ?? '', text: el?.textContent?.trim() ?? '' }
  })

describe.skipIf(!hasChromium)('discarding changes in Chromium', () => {
  const b = useBrowserSuite()

  /** The dashboard on a token that may build and arrange; any window.confirm/alert fails the test. */
  async function open(): Promise<{ page: Page; dialogs: string[] }> {
    const page = await b.openDashboard(await b.mint('acme', {}), { viewport: { width: 1440, height: 1200 } })
    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.dismiss()
    })
    return { page, dialogs }
  }
  const confirm = (page: Page) => page.locator('#d dialog[part~="confirm"]')
  const builderOpen = (page: Page) => page.locator('#d dialog[aria-labelledby="bd-title"][open]').count()
  const dimensions = (page: Page) => page.locator('#d [data-zone="dimensions"] .bd-item').count()

  it('the builder closes at once with nothing changed', async () => {
    const { page, dialogs } = await open()
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-field-channel').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => builderOpen(page)).toBe(0)
    expect(await confirm(page).evaluate((d) => (d as HTMLDialogElement).open)).toBe(false)
    expect((await focused(page)).part).toContain('new-metric-button')
    // Cancel too
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-field-channel').waitFor()
    await page.locator('#d .dialog-foot button', { hasText: 'Cancel' }).click()
    await expect.poll(() => builderOpen(page)).toBe(0)
    expect(dialogs).toEqual([])
    await page.close()
  }, 120_000)

  it('with a change, asks: Escape keeps editing, Enter discards', async () => {
    const { page, dialogs } = await open()
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-field-channel').click()
    await page.locator('#d .bd-menu [data-target="dimensions"]').click()
    await expect.poll(() => dimensions(page)).toBe(1)

    await page.keyboard.press('Escape')
    await confirm(page).locator('h2', { hasText: 'Discard changes?' }).waitFor()
    expect(await confirm(page).getAttribute('role')).toBe('alertdialog')
    expect(await focused(page)).toMatchObject({ id: 'ok', text: 'Discard' })
    // a modal of its own over the builder's (which it makes inert): focus cannot leave it
    expect(await confirm(page).evaluate((d) => d.matches(':modal'))).toBe(true)
    await page.keyboard.press('Escape')
    await expect.poll(() => confirm(page).evaluate((d) => (d as HTMLDialogElement).open)).toBe(false)
    expect(await builderOpen(page)).toBe(1)
    expect(await dimensions(page)).toBe(1)

    // the Close button asks too; Tab stays in the question; Enter on Discard closes
    await page.locator('#d .dialog-head [aria-label="Close"]').click()
    await expect.poll(() => focused(page)).toMatchObject({ id: 'ok' })
    await page.keyboard.press('Shift+Tab')
    expect(await focused(page)).toMatchObject({ id: 'cancel', text: 'Keep editing' })
    await page.keyboard.press('Tab')
    expect(await focused(page)).toMatchObject({ id: 'ok' })
    await page.keyboard.press('Enter')
    await expect.poll(() => builderOpen(page)).toBe(0)
    expect((await focused(page)).part).toContain('new-metric-button')
    // opened again: a new metric, the discarded choices gone
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-field-channel').waitFor()
    expect(await dimensions(page)).toBe(0)
    expect(dialogs).toEqual([])
    await page.close()
  }, 120_000)

  it('edit-layout mode: Cancel leaves at once with nothing changed, and asks in the bar after a move', async () => {
    const { page, dialogs } = await open()
    const part = (name: string) => page.locator('#d').locator(`[part~="${name}"]`)
    const places = () =>
      page.evaluate(() =>
        [...(document.getElementById('d')?.shadowRoot?.querySelectorAll<HTMLElement>('.card') ?? [])].map(
          (c) => `${c.dataset.metricId}:${c.style.cssText}`,
        ),
      )
    const before = await places()
    await part('edit-layout-button').click()
    await part('cancel-layout-button').click()
    await part('edit-bar').waitFor({ state: 'detached' })

    await part('edit-layout-button').click()
    await page.locator('#d .card[data-metric-id="orders"]').focus()
    await page.keyboard.press('ArrowLeft')
    await expect.poll(places).not.toEqual(before)
    const moved = await places()
    await part('cancel-layout-button').click()
    await part('discard-layout-confirm').waitFor()
    expect(await part('edit-bar').textContent()).toContain('Discard changes?')
    expect(await focused(page)).toMatchObject({ part: 'discard-layout-confirm' })
    await page.keyboard.press('Escape')
    await part('discard-layout-confirm').waitFor({ state: 'detached' })
    expect(await focused(page)).toMatchObject({ part: 'cancel-layout-button' })
    expect(await places()).toEqual(moved)

    await part('cancel-layout-button').click()
    await expect.poll(() => focused(page)).toMatchObject({ part: 'discard-layout-confirm' })
    await page.keyboard.press('Enter')
    await part('edit-bar').waitFor({ state: 'detached' })
    expect(await places()).toEqual(before)
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/demo-sales`, {
      headers: { authorization: `Bearer ${await b.mint('acme', {})}` },
    })
    expect(((await res.json()) as { dashboard: { customLayout?: boolean } }).dashboard.customLayout).toBe(false)
    expect(dialogs).toEqual([])
    await page.close()
  }, 120_000)
})
