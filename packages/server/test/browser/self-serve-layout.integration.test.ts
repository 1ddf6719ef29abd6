/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { ARTIFACTS, hasChromium } from '../helpers/chromium.js'

/**
 * Edit-layout mode and saved views in Chromium, on the demo's dashboard, against the real server
 * (PUT/DELETE /layout, GET/POST/DELETE /views): a card dragged to another place and resized by its
 * corner is where it was put after a reload; a card moved with the arrow keys is announced and
 * saved; a view saves the filters and switching to it applies them; a token without the
 * permissions shows none of the controls. The embed allows both (isAllowMetricLayoutChange,
 * isAllowCreateDashboardView); each token's flags decide. Screenshots are kept as artifacts.
 */

interface CardBox {
  readonly id: string
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

type Flags = Record<string, boolean>

describe.skipIf(!hasChromium)('edit-layout mode and views in Chromium', () => {
  const b = useBrowserSuite()
  beforeAll(() => b.allowOnDemoEmbed({ isAllowMetricLayoutChange: true, isAllowCreateDashboardView: true }), 60_000)

  /** A guest token of the demo data app for `clientId`, with these permission flags. */
  const mint = (clientId: string, permissions: Flags) => b.mint(clientId, permissions)

  const allowed: Flags = { isEnableCustomizeLayout: true, isEnableCreateDashboardView: true }

  /** One <strata-dashboard id="d"> on this token (the element script alone on the page), once it is ready. */
  const open = (token: string, width = 1440, height = 1500): Promise<Page> =>
    b.openDashboard(token, { viewport: { width, height } })

  const ready = (page: Page) => dashboardReady(page)

  /** Each card's grid place, read from the element (column, row, span) — what the user sees. */
  const cards = (page: Page): Promise<CardBox[]> =>
    page.evaluate(() =>
      [...(document.getElementById('d')?.shadowRoot?.querySelectorAll<HTMLElement>('.card') ?? [])]
        .map((c) => {
          const s = getComputedStyle(c)
          const n = (v: string) => Number.parseInt(s.getPropertyValue(v), 10)
          return { id: c.dataset.metricId ?? '', x: n('--x') - 1, y: n('--y') - 1, w: n('--w'), h: n('--h') }
        })
        .sort((a, b) => a.id.localeCompare(b.id)),
    )

  const part = (page: Page, name: string) => page.locator('#d').locator(`[part~="${name}"]`)

  /** The layout the load returns for this token. */
  async function loadedLayout(token: string): Promise<{ layout: CardBox[]; custom: boolean | undefined }> {
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/demo-sales`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const body = (await res.json()) as {
      dashboard: { layout: { metricId: string; x: number; y: number; w: number; h: number }[]; customLayout?: boolean }
    }
    return {
      layout: body.dashboard.layout
        .map((i) => ({ id: i.metricId, x: i.x, y: i.y, w: i.w, h: i.h }))
        .sort((a, b) => a.id.localeCompare(b.id)),
      custom: body.dashboard.customLayout,
    }
  }

  it('moves a card by dragging and resizes one by its corner; the layout is the same after a reload', async () => {
    const token = await mint('acme', allowed)
    // tall enough for the whole dashboard: the pointer stays in the viewport
    const page = await open(token, 1440, 2600)
    const before = await cards(page)
    await part(page, 'edit-layout-button').click()
    await part(page, 'edit-bar').waitFor()
    // entering the mode moves nothing
    expect(await cards(page)).toEqual(before)

    // drag the first card (revenue, 3 columns wide at the top left) three columns to the right
    const revenue = page.locator('#d').locator('.card[data-metric-id="revenue"]')
    const from = before.find((c) => c.id === 'revenue') as CardBox
    const box = (await revenue.boundingBox()) as { x: number; y: number; width: number; height: number }
    const column = box.width / from.w
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 + column * 3, box.y + box.height / 2, { steps: 10 })
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'self-serve-mid-drag.png') })
    await page.mouse.up()
    const moved = await cards(page)
    expect(moved.find((c) => c.id === 'revenue')).toMatchObject({ x: from.x + 3, y: from.y })
    // no two cards overlap
    for (const a of moved)
      for (const b of moved)
        if (a.id < b.id)
          expect(
            a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h,
            `${a.id} overlaps ${b.id}`,
          ).toBe(false)

    // resize the wide table (top_customers) by its corner: 3 rows taller
    const table = page.locator('#d').locator('.card[data-metric-id="top_customers"]')
    const tableFrom = moved.find((c) => c.id === 'top_customers') as CardBox
    const corner = (await table.locator('[part~="resize-handle"]').boundingBox()) as { x: number; y: number }
    const tableBox = (await table.boundingBox()) as { height: number }
    const row = tableBox.height / tableFrom.h
    await page.mouse.move(corner.x + 8, corner.y + 8)
    await page.mouse.down()
    await page.mouse.move(corner.x + 8 - column * 4, corner.y + 8 + row * 3, { steps: 10 })
    await page.mouse.up()
    const resized = await cards(page)
    expect(resized.find((c) => c.id === 'top_customers')).toMatchObject({ w: tableFrom.w - 4, h: tableFrom.h + 3 })

    await part(page, 'save-layout-button').click()
    await part(page, 'edit-bar').waitFor({ state: 'detached' })
    // leaving the mode moves nothing either
    expect(await cards(page)).toEqual(resized)
    await page.screenshot({ path: join(ARTIFACTS, 'self-serve-saved-layout.png'), fullPage: true })
    await page.close()

    // the server returns it from now on, and a new page draws it
    expect(await loadedLayout(token)).toEqual({ layout: resized, custom: true })
    const again = await open(token)
    expect(await cards(again)).toEqual(resized)
    // another tenant still has the company's layout
    const globex = await open(await mint('globex', allowed))
    expect(await cards(globex)).toEqual(before)
    await globex.close()

    // reset to the company's
    await part(again, 'edit-layout-button').click()
    await part(again, 'reset-layout-button').click()
    await part(again, 'reset-layout-confirm').click()
    await part(again, 'edit-bar').waitFor({ state: 'detached' })
    expect(await cards(again)).toEqual(before)
    expect((await loadedLayout(token)).custom).toBe(false)
    await again.close()
  }, 120_000)

  it('moves a card with the arrow keys and resizes it with Shift+arrows, announcing each step', async () => {
    const token = await mint('acme', { ...allowed })
    const page = await open(token)
    const before = await cards(page)
    await part(page, 'edit-layout-button').click()
    await part(page, 'edit-bar').waitFor()
    const orders = page.locator('#d').locator('.card[data-metric-id="orders"]')
    await orders.focus()
    const from = before.find((c) => c.id === 'orders') as CardBox
    await page.keyboard.press('ArrowLeft')
    const live = part(page, 'live')
    await expect.poll(() => live.textContent()).toContain(`Orders moved to column ${from.x}, row ${from.y + 1}`)
    await page.keyboard.press('Shift+ArrowDown')
    await expect.poll(() => live.textContent()).toContain(`Orders resized to ${from.w} columns by ${from.h + 1} rows`)
    // the focus stays on the card it moves
    expect(
      await page.evaluate(() =>
        document.getElementById('d')?.shadowRoot?.activeElement?.getAttribute('data-metric-id'),
      ),
    ).toBe('orders')
    const after = await cards(page)
    expect(after.find((c) => c.id === 'orders')).toMatchObject({ x: from.x - 1, w: from.w, h: from.h + 1 })
    await part(page, 'save-layout-button').click()
    await part(page, 'edit-bar').waitFor({ state: 'detached' })
    await page.close()
    expect((await loadedLayout(token)).layout.find((c) => c.id === 'orders')).toMatchObject({
      x: from.x - 1,
      h: from.h + 1,
    })
    // and back to the company's for the next test
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/demo-sales/layout`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    })
    expect(res.status).toBe(200)
  }, 120_000)

  it('saves the current filters as a view, lists it after a reload, and switching to it applies them', async () => {
    const token = await mint('acme', allowed)
    const page = await open(token)
    // the empty state
    await part(page, 'views-button').click()
    await expect.poll(() => part(page, 'views-empty').textContent()).toContain('No saved views yet')
    await page.keyboard.press('Escape')

    await page.evaluate(() => {
      const el = document.getElementById('d') as HTMLElement & { setFilter(n: string, v: unknown): void }
      el.setFilter('channel', ['Web'])
      el.setFilter('period', 'Last 30 days')
    })
    await ready(page)
    await part(page, 'views-button').click()
    await part(page, 'view-name').fill('Web, last 30 days')
    await part(page, 'save-view-button').click()
    await part(page, 'view-item').first().waitFor()
    expect(await part(page, 'views-button').textContent()).toContain('Web, last 30 days')
    // the same name again: refused in place, nothing sent
    const posts: string[] = []
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/views')) posts.push(r.url())
    })
    await part(page, 'view-name').fill('Web, last 30 days')
    await part(page, 'save-view-button').click()
    await expect.poll(() => part(page, 'views-panel').textContent()).toContain('already exists')
    expect(posts).toEqual([])
    expect(await part(page, 'view-item').count()).toBe(1)
    await page.screenshot({ path: join(ARTIFACTS, 'self-serve-views-open.png') })
    await page.keyboard.press('Escape')
    await page.close()

    // a new page: the filters are back at their defaults, the view is listed (from the load)
    const again = await open(token)
    const defaults = await again.evaluate(
      () => (document.getElementById('d') as HTMLElement & { filters: object }).filters,
    )
    expect(defaults).not.toMatchObject({ channel: ['Web'] })
    const queries: string[] = []
    again.on('request', (r) => {
      if (r.url().endsWith('/query')) queries.push(r.postData() ?? '')
    })
    await part(again, 'views-button').click()
    await part(again, 'view-item').filter({ hasText: 'Web, last 30 days' }).click()
    await ready(again)
    const applied = await again.evaluate(
      () => (document.getElementById('d') as HTMLElement & { filters: object }).filters,
    )
    expect(applied).toMatchObject({ channel: ['Web'], period: 'Last 30 days' })
    expect(queries.some((q) => q.includes('Last 30 days'))).toBe(true)
    expect(await part(again, 'views-button').textContent()).toContain('Web, last 30 days')
    await again.screenshot({ path: join(ARTIFACTS, 'self-serve-view-applied.png'), fullPage: true })

    // another tenant does not see it
    const globex = await open(await mint('globex', allowed))
    await part(globex, 'views-button').click()
    await expect.poll(() => part(globex, 'views-empty').textContent()).toContain('No saved views yet')
    await globex.close()

    // delete it, after a confirmation
    await part(again, 'views-button').click()
    await part(again, 'view-delete').first().click()
    await part(again, 'view-delete-confirm').click()
    await expect.poll(() => part(again, 'views-empty').textContent()).toContain('No saved views yet')
    await again.close()
    const res = await fetch(`${b.server.url}/api/v2/embed/runtime/demo-sales/views`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(((await res.json()) as { data: unknown[] }).data).toEqual([])
  }, 120_000)

  it('shows none of the controls to a token without the permissions, nor loads their module', async () => {
    // with the permissions: the self-serve module's chunks are fetched once the dashboard is ready
    // (a dashboard also fetches chunks of its own: charts drawn on demand, the value pickers)
    const allowedPage = await open(await mint('acme', allowed))
    await ready(allowedPage)
    await expect.poll(async () => await part(allowedPage, 'edit-layout-button').count()).toBe(1)
    // the self-serve module defines <strata-self-serve-overlay> when it is imported
    const selfServeLoaded = (page: Page) =>
      page.evaluate(() => customElements.get('strata-self-serve-overlay') !== undefined)
    expect(await selfServeLoaded(allowedPage)).toBe(true)
    await allowedPage.close()

    for (const [clientId, flags] of [
      // every self-serve flag off (the demo's embed also allows building and underlying data, which load the chunk)
      [
        'acme',
        {
          isEnableCustomizeLayout: false,
          isEnableCreateDashboardView: false,
          isDisableMetricCreation: true,
          isEnableMetricUpdation: false,
          isEnableManageMetrics: false,
          isEnableArchiveMetrics: false,
          isEnableUnderlyingData: false,
        },
      ],
      ['globex', {}],
    ] as const) {
      // globex's token sets no flag, so it inherits the embed's (allowed): only acme's is refused
      const page = await open(await mint(clientId, flags))
      await ready(page)
      const shown = clientId === 'globex'
      expect(await part(page, 'edit-layout-button').count()).toBe(shown ? 1 : 0)
      expect(await part(page, 'views-button').count()).toBe(shown ? 1 : 0)
      if (!shown) {
        expect(await page.locator('#d').locator('[part~="resize-handle"]').count()).toBe(0)
        expect(await selfServeLoaded(page)).toBe(false)
      }
      await page.close()
    }
  }, 120_000)
})
