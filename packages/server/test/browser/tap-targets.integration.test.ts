/// <reference lib="dom" />
import { mkdirSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { dashboardReady, useBrowserSuite } from '../helpers/browser.js'
import { hasChromium } from '../helpers/chromium.js'
import { demoCompany } from '../helpers/demo-company.js'
import { settled } from '../helpers/docs-images.js'
import { pointOf } from '../helpers/echart.js'
import { runtimeCall } from '../helpers/second-origin.js'

/**
 * Tap targets on a 390 px phone (issue 28): every control an end user taps on the dashboard is
 * at least 44 px tall — the toolbar, the filter bar and its options, a card's buttons and menu,
 * "The company updated this metric" and its two answers, the Hidden list, the drill menu, a
 * drill chip and a drilled card's breadcrumbs, the rows dialog — measured with boundingBox in each
 * state, and the same controls stay compact (under 44 px) at 1440 px with a mouse. Screenshots
 * under STRATA_SHOTS (default /tmp/shots-taps).
 */
const SHOTS = process.env.STRATA_SHOTS ?? '/tmp/shots-taps'
// no isMobile: the host page has no viewport meta tag, and a mobile browser would lay it out 980 px wide
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true }
const MIN = 44

/** What a control is called in a failure: its part, else its label or text. */
type Measured = { what: string; height: number }

describe.skipIf(!hasChromium)('tap targets on a phone', () => {
  const b = useBrowserSuite()
  const company = demoCompany(b)
  let token = ''

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true })
    await b.allowOnDemoEmbed({
      isAllowMetricCreation: true,
      metricCreationMode: 'DRAG_DROP',
      isAllowMetricUpdate: true,
      isAllowManageMetrics: true,
      isAllowMetricDeletion: true,
      isAllowUnderlyingData: true,
    })
    token = await b.mint('globex', {
      isEnableMetricUpdation: true,
      isEnableManageMetrics: true,
      isEnableUnderlyingData: true,
    })
    // a hidden company metric (the Hidden list) and a tenant's version of one the company then changes (the note)
    await runtimeCall(b, token, 'DELETE', '/metrics/orders')
    const loaded = (await runtimeCall(b, token, 'GET', '')) as {
      metrics: { metricId: string; definition?: Record<string, unknown> }[]
    }
    const category = loaded.metrics.find((m) => m.metricId === 'revenue_by_category')
    await runtimeCall(b, token, 'PUT', '/metrics/revenue_by_category', {
      metric: { ...category?.definition, name: 'Our categories' },
    })
    await company.renameMetric('revenue_by_category', 'Revenue by category (net)')
  }, 120_000)

  /**
   * Every control shown under `scope` (a part of the dashboard; the whole element by default):
   * buttons, inputs, selects, links, menu items and options, through shadow roots, with the
   * height they take on the screen.
   */
  const controls = (page: Page, scope?: string): Promise<Measured[]> =>
    page.evaluate((scope) => {
      const found: { what: string; height: number }[] = []
      const seen = new Set<Element>()
      const walk = (root: Document | ShadowRoot | Element) => {
        for (const el of root.querySelectorAll('*')) {
          if (el.shadowRoot) walk(el.shadowRoot)
          if (seen.has(el)) continue
          seen.add(el)
          const tappable = el.matches(
            'button, input:not([type=hidden]), select, textarea, a[href], [role=menuitem], [role=option], [role=tab]',
          )
          if (!tappable) continue
          const r = el.getBoundingClientRect()
          const style = getComputedStyle(el)
          if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue
          // a control inside a native option list of another control is measured as that control
          if (el.closest('[role=option], [role=menuitem]') !== el && el.closest('[role=option], [role=menuitem]'))
            continue
          const what =
            el.getAttribute('part') ||
            el.getAttribute('aria-label') ||
            (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40) ||
            el.tagName.toLowerCase()
          found.push({ what, height: Math.round(r.height * 10) / 10 })
        }
      }
      const host = document.getElementById('d')
      const start = scope ? findDeep(host?.shadowRoot ?? null, scope) : host?.shadowRoot
      /** The first match of `selector` under `root` that is on the screen (cards each hold a hidden menu). */
      function findDeep(root: ShadowRoot | null, selector: string): Element | null {
        if (!root) return null
        for (const hit of root.querySelectorAll(selector)) if (hit.getBoundingClientRect().width > 0) return hit
        for (const el of root.querySelectorAll('*')) {
          const inner = findDeep(el.shadowRoot, selector)
          if (inner) return inner
        }
        return null
      }
      if (start) walk(start)
      return found
    }, scope)

  const small = (found: Measured[]) => found.filter((c) => c.height < MIN)

  it('every control an end user taps is at least 44 px tall at 390 px, compact at 1440 px', async () => {
    const page = await b.openDashboard(token, PHONE)
    const shown: Record<string, Measured[]> = {}
    const look = async (state: string, scope?: string) => {
      await settled(page)
      const found = await controls(page, scope)
      expect(found.length, `${state}: controls found`).toBeGreaterThan(0)
      shown[state] = small(found)
    }
    // the dashboard as it opens: toolbar, filter bar, card buttons, the company note
    const note = page.locator('#d [part~="company-update-note"]')
    await note.waitFor({ timeout: 20_000 })
    await look('dashboard')
    await note.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/note-390.png` })

    // a filter's options
    const trigger = page.locator('#d [data-filter="category"] [part~="filter-control"]').first()
    await trigger.tap()
    await page.locator('#d [data-filter="category"] [role="option"]').first().waitFor()
    await look('filter options', '[data-filter="category"]')
    await page.screenshot({ path: `${SHOTS}/filter-options-390.png` })
    await page.keyboard.press('Escape')

    // the Hidden list
    await page.locator('#d [part~="hidden-button"]').tap()
    await page.locator('#d [part~="hidden-list"]').waitFor()
    await look('hidden list', '[part~="hidden-list"]')
    await page.screenshot({ path: `${SHOTS}/hidden-list-390.png` })
    await page.keyboard.press('Escape')

    // a card's menu
    const card = page.locator('#d [data-metric-id="revenue_by_category"]')
    await card.scrollIntoViewIfNeeded()
    await card.locator('[part~="card-menu-button"]').tap()
    await page.locator('#d [part~="card-menu-panel"] [role="menuitem"]').first().waitFor()
    await look('card menu', '[part~="card-menu-panel"]')
    await page.screenshot({ path: `${SHOTS}/card-menu-390.png` })
    await page.keyboard.press('Escape')

    // the drill menu on a slice of Status (no dashboard filter on it: Filter by makes a chip)
    const drillMenu = page.locator('#d [part~="drill-menu"]')
    const slice = page.locator('#d [data-metric-id="status_share"] [part~="chart"]')
    await settled(page)
    let at = await pointOf(slice, 0)
    await page.touchscreen.tap(at.x, at.y)
    await drillMenu.waitFor()
    await look('drill menu', '[part~="drill-menu"]')
    await page.screenshot({ path: `${SHOTS}/drill-menu-390.png` })
    await page.locator('#d [part~="drill-menu"] [data-action="filter"]').tap()
    await page.locator('#d [part~="drill-chip"]').waitFor()
    await dashboardReady(page)
    await look('drill chips', '[part~="drill-chips"]')
    await page.locator('#d [part~="drill-chip"]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/drill-chip-390.png` })

    // a month of the time series → its days: the breadcrumbs
    const months = page.locator('#d [data-metric-id="revenue_by_month"] [part~="chart"]')
    await settled(page)
    at = await pointOf(months, 1)
    await page.touchscreen.tap(at.x, at.y)
    await page.locator('#d [part~="drill-menu"] [data-action="down"]').tap()
    await page.locator('#d [part~="drill-breadcrumbs"]').waitFor()
    await dashboardReady(page)
    await look('breadcrumbs', '[part~="drill-breadcrumbs"]')
    await page.locator('#d [part~="drill-breadcrumbs"]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/breadcrumbs-390.png` })

    // the rows dialog
    await card.scrollIntoViewIfNeeded()
    await card.locator('[part~="card-menu-button"]').tap()
    await page.locator('#d [part~="card-menu-panel"] [data-action="rows"]').tap()
    await page.locator('#d [part~="underlying-dialog"] tbody tr').first().waitFor()
    await look('rows dialog', '[part~="underlying-dialog"]')
    await page.locator('#d [part~="underlying-dialog"] #close').tap()

    expect(shown).toEqual(Object.fromEntries(Object.keys(shown).map((k) => [k, []])))

    // at 1440 px with a mouse the same controls stay compact: the note's answers read as links
    const desk = await b.openDashboard(token)
    await desk.locator('#d [part~="company-update-note"]').waitFor({ timeout: 20_000 })
    const answers = await desk.locator('#d [part~="company-update-keep"]').boundingBox()
    expect(answers?.height).toBeLessThan(MIN)
    const chipless = await desk.locator('#d [part~="card-menu-button"]').first().boundingBox()
    expect(chipless?.height).toBeLessThan(MIN)
    await desk.locator('#d [part~="company-update-note"]').scrollIntoViewIfNeeded()
    await desk.screenshot({ path: `${SHOTS}/note-1440.png` })
    await desk.close()
    await page.close()
  }, 180_000)
})
