/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO } from '../../src/services/demo/seed.js'
import { DEMO_EMBED, useBrowserSuite } from '../helpers/browser.js'
import { ARTIFACTS, hasChromium } from '../helpers/chromium.js'
import { removeDir } from '../helpers/process.js'

/**
 * The builder's filter values in Chromium on the demo (issue 28, item 3): a filter on a text
 * column picks from that column's values for this tenant, through the runtime's
 * `…/model/columns/:table/:column/values` route, with the dashboard's searchable combobox:
 * typing searches on the server, the keyboard picks, Escape closes the picker and not the
 * builder, and the saved card's numbers are those of SQL on the warehouse (the demo's CSV files,
 * read here by DuckDB) for this tenant and that value. Screenshots at 1440 and 390 px
 * (artifacts, or STRATA_SHOTS).
 */
const SHOTS = process.env.STRATA_SHOTS ?? join(ARTIFACTS, 'builder-values')
const FILES = mkdtempSync(join(tmpdir(), 'strata-files-'))
const NAME = 'Revenue by category on mobile'

/** The focused element's id, through shadow roots (run in the page). */
function deepActiveId(): string {
  let el = document.activeElement
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
  return el?.id ?? ''
}

describe.skipIf(!hasChromium)('the builder’s value pickers in Chromium', () => {
  const b = useBrowserSuite({ env: { FILES_ROOT: FILES } })

  beforeAll(async () => {
    await b.allowOnDemoEmbed({ isAllowMetricCreation: true, metricCreationMode: 'DRAG_DROP' })
  }, 60_000)
  afterAll(() => removeDir(FILES))

  /** SQL on the warehouse: the demo's orders CSV through DuckDB. */
  async function sql(query: string, params: readonly string[]): Promise<Record<string, unknown>[]> {
    const db = await DuckDBInstance.create(':memory:')
    const conn = await db.connect()
    try {
      const csv = join(FILES, DEMO.folder, 'orders.csv').replaceAll("'", "''")
      await conn.run(`create view orders as select * from read_csv_auto('${csv}')`)
      const reader = await conn.runAndReadAll(query, [...params] as never)
      return reader.getRowObjectsJson() as Record<string, unknown>[]
    } finally {
      conn.closeSync()
    }
  }

  async function shoot(page: Page, name: string, widths: readonly number[] = [1440, 390]): Promise<void> {
    mkdirSync(SHOTS, { recursive: true })
    for (const width of widths) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 1000 })
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`) })
    }
    await page.setViewportSize({ width: 1440, height: 1000 })
  }

  it('searches a text column’s values on the server, picks one by keyboard, and the saved card matches SQL', async () => {
    const asked: { search: string; values: string[] }[] = []
    // the dashboard's date filter (last 12 months by default) applies to the new card too: the
    // application pins it to a range holding every order, so SQL compares all of acme's rows
    const token = await b.mint(
      'acme',
      {},
      {
        dashboardAppFilters: [
          { dashboardId: DEMO_EMBED, values: { period: { startDate: '2000-01-01', endDate: '2099-12-31' } } },
        ],
      },
    )
    const page = await b.openDashboard(token, {
      before: (p) =>
        p.on('response', async (r) => {
          const url = new URL(r.url())
          if (!url.pathname.endsWith('/model/columns/main.orders/channel/values')) return
          const body = (await r.json()) as { data: { values: string[] } }
          asked.push({ search: url.searchParams.get('search') ?? '', values: body.data.values })
        }),
    })
    await page.locator('#d [part~="new-metric-button"]').click()
    await page.locator('#d #bd-table').waitFor()
    await page.locator('#d #bd-table').selectOption('main.orders')
    for (const [field, target] of [
      ['amount', 'measures'],
      ['category', 'dimensions'],
      ['channel', 'filters'],
    ] as const) {
      await page.locator(`#d #bd-field-${field}`).click()
      await page.locator(`#d [role="menu"] [data-target="${target}"]`).click()
      await expect.poll(() => page.locator(`#d [data-zone="${target}"] .bd-item`).count()).toBe(1)
    }
    await page.locator('#d #bd-chart-table').check()
    const key = await page.locator('#d [data-zone="filters"] .bd-item').getAttribute('data-key')
    const trigger = page.locator(`#d #bd-filter-${key}-value`)
    expect(await trigger.getAttribute('aria-haspopup')).toBe('listbox')

    // the keyboard opens it: focus in the search box, the tenant's values listed
    await trigger.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.evaluate(deepActiveId)).toBe(`bd-filter-${key}-value-search`)
    const options = page.locator(`#d #bd-filter-${key}-value-list [role="option"]`)
    await expect.poll(() => options.count(), { timeout: 10_000 }).toBe(4)
    const all = await sql('select distinct channel from orders where tenant = $1 order by 1', ['acme'])
    expect(await options.allInnerTexts()).toEqual(all.map((r) => r.channel))
    await shoot(page, 'builder-value-picker', [1440])
    // on a phone: opened there, the list is brought into the builder's view (not left under its foot)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.keyboard.press('Escape')
    await expect.poll(() => page.evaluate(deepActiveId)).toBe(`bd-filter-${key}-value`)
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => options.count(), { timeout: 10_000 }).toBe(4)
    const inView = () =>
      options.last().evaluate((li) => {
        const r = li.getBoundingClientRect()
        const foot =
          li.getRootNode() instanceof ShadowRoot
            ? (li.getRootNode() as ShadowRoot).querySelector('.dialog-foot, footer')
            : null
        const bottom = foot ? foot.getBoundingClientRect().top : window.innerHeight
        return r.top >= 0 && r.bottom <= bottom
      })
    await expect.poll(inView).toBe(true)
    await shoot(page, 'builder-value-picker', [390])
    await page.setViewportSize({ width: 1440, height: 1000 })

    // typing searches on the server (case-insensitive, contains)
    await page.keyboard.type('OBI')
    await expect.poll(() => asked.some((a) => a.search === 'OBI'), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => options.allInnerTexts()).toEqual(['Mobile'])
    expect(asked.find((a) => a.search === 'OBI')?.values).toEqual(['Mobile'])
    // ↓ and Enter pick it; it shows as a chip; Escape closes the picker, not the builder
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await page.locator('#d [part~="filter-chip"][aria-label="Remove Mobile"]').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator(`#d #bd-filter-${key}-value-list`).isVisible()).toBe(false)
    expect(await page.locator('#d dialog[open]').count()).toBe(1)
    await expect.poll(() => page.evaluate(deepActiveId)).toBe(`bd-filter-${key}-value`)
    expect(await trigger.textContent()).toContain('Mobile')
    await page.locator('#d .bd-preview[data-state="ready"]').waitFor({ timeout: 20_000 })
    await shoot(page, 'builder-value-picked')

    await page.locator('#d #bd-name').fill(NAME)
    await page.locator('#d #bd-save').click()
    const card = page.locator('#d [part~="card"]', { has: page.locator(`[part~="card-title"]:text-is("${NAME}")`) })
    await card.locator('table.data tbody tr').first().waitFor({ timeout: 20_000 })
    const shown = await card
      .locator('table.data tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')))
    const expected = await sql(
      `select category, round(sum(amount), 2)::double as revenue from orders
       where tenant = $1 and channel = $2 group by category`,
      ['acme', 'Mobile'],
    )
    const asNumber = (text: string) => Number(text.replace(/[^0-9.-]/g, ''))
    const got: Record<string, number> = Object.fromEntries(
      shown.map(([category, value]) => [category, asNumber(value ?? '')]),
    )
    expect(Object.keys(got).sort()).toEqual(expected.map((r) => String(r.category)).sort())
    for (const r of expected) expect(got[String(r.category)]).toBeCloseTo(Number(r.revenue), 0)
    // and not the numbers of every channel
    const unfiltered = await sql('select round(sum(amount), 2)::double as revenue from orders where tenant = $1', [
      'acme',
    ])
    const total = Object.values(got).reduce((a, v) => a + v, 0)
    expect(total).toBeLessThan(Number(unfiltered[0]?.revenue) * 0.9)
    await page.close()
  }, 120_000)
})
