/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'

/**
 * Self-serve on the real demo page (issue 15): the acme panel's token may build and arrange
 * (every self-serve flag on, a named user), globex's may not (every flag off). So acme's panel
 * shows the controls and globex's shows none; a metric acme's end user builds with the builder
 * is on acme's panel after a reload, and never on globex's.
 */

/** The controls each self-serve capability adds (parts the element exports). */
const CONTROLS = ['new-metric-button', 'card-menu-button', 'edit-layout-button', 'views-button'] as const
const NAME = 'Units by channel (acme built)'

const panel = (page: Page, tenant: 'acme' | 'globex') => page.locator(`strata-dashboard[data-tenant="${tenant}"]`)
const control = (page: Page, tenant: 'acme' | 'globex', part: string) =>
  panel(page, tenant).locator(`[part~="${part}"]`)
const cardTitled = (page: Page, tenant: 'acme' | 'globex', name: string) =>
  panel(page, tenant).locator('[part~="card"]', { has: page.locator(`[part~="card-title"]:text-is("${name}")`) })

/** Every metric id on a panel's cards. */
const metricIds = (page: Page, tenant: string) =>
  page.evaluate(
    (tenant) =>
      [
        ...(document
          .querySelector(`strata-dashboard[data-tenant="${tenant}"]`)
          ?.shadowRoot?.querySelectorAll('[data-metric-id]') ?? []),
      ].map((c) => c.getAttribute('data-metric-id')),
    tenant,
  )

/** What each panel shows of the self-serve controls, once acme's (the lazy chunk) are drawn. */
async function controlsShown(page: Page): Promise<Record<'acme' | 'globex', Record<string, number>>> {
  await control(page, 'acme', 'new-metric-button').waitFor({ timeout: 20_000 })
  await control(page, 'acme', 'edit-layout-button').waitFor()
  const out = { acme: {}, globex: {} } as Record<'acme' | 'globex', Record<string, number>>
  for (const tenant of ['acme', 'globex'] as const)
    for (const part of CONTROLS) out[tenant][part] = await control(page, tenant, part).count()
  return out
}

describe.skipIf(!hasChromium)('self-serve on the demo page in Chromium', () => {
  const b = useBrowserSuite()

  it('acme’s panel shows the builder, card menus, edit layout and views; globex’s shows none of them', async () => {
    const page = await b.openDemo()
    const shown = await controlsShown(page)
    for (const part of CONTROLS) {
      expect(shown.acme[part], `acme ${part}`).toBeGreaterThan(0)
      expect(shown.globex[part], `globex ${part}`).toBe(0)
    }
    // a card menu on every acme card, none of globex's overlays (dialogs, notices)
    expect(shown.acme['card-menu-button']).toBe((await metricIds(page, 'acme')).length)
    expect(await panel(page, 'globex').locator('strata-self-serve-overlay').count()).toBe(0)
    expect(await panel(page, 'globex').locator('[part~="resize-handle"]').count()).toBe(0)
    await page.close()
  })

  it('a metric acme’s end user builds is on acme’s panel after a reload, and never on globex’s', async () => {
    const page = await b.openDemo()
    await controlsShown(page)
    const globexBefore = await metricIds(page, 'globex')
    const acme = panel(page, 'acme')
    await control(page, 'acme', 'new-metric-button').click()
    await acme.locator('#bd-table').waitFor()
    await acme.locator('#bd-table').selectOption('main.orders')
    await acme.locator('#bd-field-quantity').click()
    await acme.locator('[role="menu"] [data-target="measures"]').click()
    await acme.locator('#bd-field-channel').click()
    await acme.locator('[role="menu"] [data-target="dimensions"]').click()
    await expect.poll(() => acme.locator('[data-zone="dimensions"] .bd-item').count()).toBe(1)
    await acme.locator('#bd-name').fill(NAME)
    // only shared metrics are kept for the tenant; acme's token names a user, so it could be private
    await acme.locator('input[name="bd-visibility"][value="shared"]').check()
    await acme.locator('#bd-save').click()
    await cardTitled(page, 'acme', NAME).waitFor({ timeout: 20_000 })
    const metricId = (await cardTitled(page, 'acme', NAME).getAttribute('data-metric-id')) ?? ''
    expect(metricId).toMatch(/^u_/)
    expect(await metricIds(page, 'globex')).toEqual(globexBefore)

    await page.reload()
    await page.waitForFunction(
      () => [...document.querySelectorAll('strata-dashboard')].every((e) => e.getAttribute('data-state') === 'ready'),
      null,
      { timeout: 30_000 },
    )
    const shown = await controlsShown(page)
    await cardTitled(page, 'acme', NAME).waitFor()
    expect(await metricIds(page, 'acme')).toContain(metricId)
    // globex: the same cards as before, none of acme's, and still no control
    expect(await metricIds(page, 'globex')).toEqual(globexBefore)
    expect(await cardTitled(page, 'globex', NAME).count()).toBe(0)
    const globexText = await page.evaluate(
      () => document.querySelector('strata-dashboard[data-tenant="globex"]')?.shadowRoot?.textContent ?? '',
    )
    expect(globexText).not.toContain(NAME)
    for (const part of CONTROLS) expect(shown.globex[part], `globex ${part}`).toBe(0)
    await page.close()

    // and globex's own token does not load it either (the same rule behind the page)
    const { token } = (await (await fetch(`${b.server.url}/demo/token?tenant=globex`)).json()) as { token: string }
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/demo-sales`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(JSON.stringify(await res.json())).not.toContain(metricId)
  }, 120_000)
})
