/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'

/**
 * The dashboard filters' value pickers and the "Not filtered by …" note (issue 28, items 3
 * and 4), on the demo in Chromium:
 * - a multi-select filter's values come from the runtime's filter-values route, searched there;
 *   one is picked with the keyboard only, shows as a chip, and the dashboard queries again
 *   with it;
 * - a card whose metric does not take an active filter (the SQL metric "Orders by channel and
 *   quarter" does not take Country) says so under its title; the others do not.
 * Screenshots at 1440 and 390 px under /tmp/shots-pickui/ (or STRATA_SHOTS).
 */
const SHOTS = process.env.STRATA_SHOTS ?? '/tmp/shots-pickui'

type Filters = Record<string, unknown>

describe.skipIf(!hasChromium)('filter value pickers in Chromium', () => {
  const b = useBrowserSuite()

  const inDashboard = (page: Page, selector: string) => page.locator(`#d >> ${selector}`)
  const filtersOf = (page: Page) =>
    page.evaluate(() => (document.getElementById('d') as unknown as { filters: Filters }).filters)
  const optionLabels = (page: Page, filter: string) =>
    inDashboard(page, `[data-filter="${filter}"] [role="option"] .option-label`).allInnerTexts()
  const notes = (page: Page) =>
    page.evaluate(() =>
      [...(document.getElementById('d')?.shadowRoot?.querySelectorAll('[part~="card"]') ?? [])]
        .map((card) => ({
          metricId: card.getAttribute('data-metric-id'),
          note: card.querySelector('[part~="unfiltered-note"]')?.textContent?.trim() ?? null,
        }))
        .filter((c) => c.note !== null),
    )

  async function shoot(page: Page, name: string): Promise<void> {
    mkdirSync(SHOTS, { recursive: true })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 })
      // a layout pass at the new width before the picture
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: width === 390 })
    }
    await page.setViewportSize({ width: 1440, height: 1000 })
  }

  it('searches a multi-select on the server, picks a value with the keyboard, shows it as a chip and queries with it', async () => {
    const searches: string[] = []
    const queries: string[] = []
    const page = await b.openDashboard(await b.mint('acme', {}), {
      before: (p) =>
        p.on('request', (r) => {
          const url = new URL(r.url())
          if (url.pathname.endsWith('/filters/category/values')) searches.push(url.searchParams.get('search') ?? '')
          if (url.pathname.endsWith('/query')) queries.push(r.postData() ?? '')
        }),
    })

    const trigger = inDashboard(page, '[data-filter="category"] [part~="filter-control"]').first()
    const search = inDashboard(page, '[data-filter="category"] input[role="combobox"]')
    await trigger.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('true')
    await expect.poll(() => search.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true)
    // opening asks the server for the first page: the tenant's categories
    await expect
      .poll(() => optionLabels(page, 'category'))
      .toEqual(expect.arrayContaining(['Hardware', 'Software', 'Services']))
    expect(searches).toContain('')

    await page.keyboard.type('soft')
    // the server is asked for the typed text (after a pause in typing), and only its match is left
    await expect.poll(() => searches.at(-1)).toBe('soft')
    await expect.poll(() => optionLabels(page, 'category')).toEqual(['Software'])
    await expect
      .poll(() => inDashboard(page, '[data-filter="category"] [role="listbox"]').getAttribute('aria-busy'))
      .toBe('false')
    for (const s of searches.slice(1)) expect('soft'.startsWith(s)).toBe(true)
    await shoot(page, 'picker-search')
    await docsImage(page, 'value-picker', {
      widths: [390],
      focus: inDashboard(page, '[data-filter="category"] [role="listbox"]'),
    })

    const before = queries.length
    await page.keyboard.press('ArrowDown')
    await expect
      .poll(() => search.getAttribute('aria-activedescendant'))
      .toBe(await inDashboard(page, '[data-filter="category"] [role="option"]').first().getAttribute('id'))
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await filtersOf(page)).category).toEqual(['Software'])
    // the chosen value is a removable chip at the top of the open panel
    await expect
      .poll(() => inDashboard(page, '[data-filter="category"] [part~="filter-chip"]').getAttribute('aria-label'))
      .toBe('Remove Software')
    await expect
      .poll(() => inDashboard(page, '[data-filter="category"] [role="option"]').first().getAttribute('aria-selected'))
      .toBe('true')
    await shoot(page, 'picker-chosen')

    await page.keyboard.press('Escape')
    await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('false')
    await expect.poll(() => trigger.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true)
    await expect.poll(() => trigger.textContent()).toContain('Software')
    // the dashboard queries again with the value
    await expect.poll(() => queries.slice(before).some((q) => q.includes('"Software"'))).toBe(true)
    await dashboardReady(page)
    await page.close()
  })

  it('says "Not filtered by Country" on the card of a metric that does not take Country, once Country is set', async () => {
    const page = await b.openDashboard(await b.mint('acme', {}))
    expect(await notes(page)).toEqual([])

    const trigger = inDashboard(page, '[data-filter="country"] [part~="filter-control"]').first()
    await trigger.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(async () => (await optionLabels(page, 'country')).length).toBeGreaterThan(0)
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await filtersOf(page)).country).toEqual([expect.stringMatching(/^[A-Z]{2}$/)])
    await page.keyboard.press('Escape')
    await dashboardReady(page)

    await expect.poll(() => notes(page)).toEqual([{ metricId: 'orders_by_channel', note: 'Not filtered by Country' }])
    const note = inDashboard(page, '[data-metric-id="orders_by_channel"] [part~="unfiltered-note"]')
    expect(await note.getAttribute('role')).toBe('note')
    expect(await note.getAttribute('aria-label')).toContain('ignores the Country filter')
    await note.scrollIntoViewIfNeeded()
    await shoot(page, 'unfiltered-note')
    await docsImage(page, 'not-filtered-by', { widths: [390], focus: note })

    // clearing Country takes the note away
    await trigger.focus()
    await page.keyboard.press('ArrowDown')
    await inDashboard(page, '[data-filter="country"] [part~="dropdown-panel"] button:has-text("Clear")').click()
    await expect.poll(async () => (await filtersOf(page)).country ?? []).toEqual([])
    await expect.poll(() => notes(page)).toEqual([])
    await page.close()
  })
})
