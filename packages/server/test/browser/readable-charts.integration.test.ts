/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ARTIFACTS, CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/**
 * Charts people can read (issue 13), on the demo at a desktop and a phone width: no card's text is
 * clipped, every category of the bar chart has its label, time axes read by their grain, numbers
 * read by the document's formats ($, compact, %), the page never scrolls sideways (a wide table
 * scrolls inside its card), the metrics panel opens over the grid without resizing it, and every
 * dropdown is the element's own (no native select), driven by the keyboard. Screenshots of both
 * widths (panel and a dropdown open too) are kept as artifacts.
 */

interface Readout {
  /** The document is wider than the viewport. */
  readonly horizontalScroll: boolean
  /** Elements reaching past the viewport's right edge (what makes the page scroll sideways). */
  readonly wide: string[]
  /** Texts (single values, table headers) whose content is wider than their box. */
  readonly clipped: string[]
  /** Card titles with a word split across two lines (every panel, with its card buttons). */
  readonly brokenTitles: string[]
  readonly singleValues: { text: string; title: string }[]
  readonly headers: string[]
  readonly category: { data: string[]; interval: unknown; shown: number }
  readonly month: string[]
  readonly quarter: string[]
  readonly pieLabel: unknown
}

async function open(browser: Browser, server: ServerProcess, width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height }, locale: 'en-US' })
  await page.goto(`${server.url}/demo`)
  await page.waitForFunction(
    () => [...document.querySelectorAll('strata-dashboard')].every((e) => e.getAttribute('data-state') === 'ready'),
    null,
    { timeout: 30_000 },
  )
  // every chart drawn (the first frame after the results) and laid out at this width
  await page.waitForFunction(
    () => {
      const root = document.querySelector('strata-dashboard')?.shadowRoot
      const charts = [...(root?.querySelectorAll('[data-metric-id] .chart') ?? [])]
      return charts.length > 0 && charts.every((c) => (c as unknown as { chart?: unknown }).chart)
    },
    null,
    { timeout: 30_000 },
  )
  await new Promise((r) => setTimeout(r, 700))
  return page
}

interface Formatted {
  readonly revenue: { text: string; title: string }
  readonly average: string
  readonly refundRate: string
  /** The labels ECharts lays out on the value axis of Revenue by month. */
  readonly revenueTicks: string[]
  readonly table: { headers: string[]; revenue: string[]; refundRate: string[] }
  /** Native dropdowns inside the element. */
  readonly nativeSelects: number
}

/** The demo's formats as the first panel shows them. */
function formatted(page: Page): Promise<Formatted> {
  return page.evaluate(() => {
    const root = document.querySelector('strata-dashboard')?.shadowRoot as ShadowRoot
    const value = (id: string) => root.querySelector(`[data-metric-id="${id}"] [part~="value"]`) as HTMLElement
    type Chart = {
      getModel(): { getComponent(t: string, i: number): { axis: { getViewLabels(): { formattedLabel: string }[] } } }
    }
    const chart = (root.querySelector('[data-metric-id="revenue_by_month"] .chart') as unknown as { chart: Chart })
      .chart
    const table = root.querySelector('[data-metric-id="top_customers"] table') as HTMLTableElement
    const headers = [...table.querySelectorAll('th')].map((th) => th.textContent?.trim() ?? '')
    const column = (label: string) =>
      [...table.querySelectorAll('tbody tr')].map(
        (tr) => tr.children[headers.indexOf(label)]?.textContent?.trim() ?? '',
      )
    return {
      revenue: { text: value('revenue').textContent?.trim() ?? '', title: value('revenue').title },
      average: value('average_order').textContent?.trim() ?? '',
      refundRate: value('refund_rate').textContent?.trim() ?? '',
      revenueTicks: chart
        .getModel()
        .getComponent('yAxis', 0)
        .axis.getViewLabels()
        .map((l) => l.formattedLabel),
      table: { headers, revenue: column('Revenue'), refundRate: column('Refund rate') },
      nativeSelects: root.querySelectorAll('select, datalist').length,
    }
  })
}

/** The first panel's grid and table sizes, the page's scroll width, and the metrics panel. */
function geometry(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('strata-dashboard')?.shadowRoot as ShadowRoot
    const grid = root.querySelector('[part~="grid"]') as HTMLElement
    const card = root.querySelector('[data-metric-id="top_customers"]') as HTMLElement
    const wrap = card.querySelector('.table-wrap') as HTMLElement
    const panel = root.querySelector('[part~="sidebar"]') as HTMLElement
    const toggle = root.querySelector('[part~="sidebar-toggle"]') as HTMLElement
    return {
      gridWidth: grid.getBoundingClientRect().width,
      gridLeft: grid.getBoundingClientRect().left,
      cardWidth: card.getBoundingClientRect().width,
      table: { scrollWidth: wrap.scrollWidth, clientWidth: wrap.clientWidth },
      page: { scrollWidth: (document.scrollingElement as Element).scrollWidth, innerWidth },
      panelShown: panel.checkVisibility(),
      expanded: toggle.getAttribute('aria-expanded'),
      focused: (root.activeElement as HTMLElement | null)?.getAttribute('part') ?? null,
    }
  })
}

function readout(page: Page): Promise<Readout> {
  return page.evaluate(() => {
    type Chart = {
      getOption(): {
        xAxis: { data?: string[]; axisLabel?: { interval?: unknown } }[]
        series: { label?: unknown }[]
      }
      getModel(): { getComponent(t: string, i: number): { axis: { getViewLabels(): unknown[] } } }
    }
    const root = document.querySelector('strata-dashboard')?.shadowRoot as ShadowRoot
    const card = (id: string) => root.querySelector(`[data-metric-id="${id}"]`) as HTMLElement
    const chartOf = (id: string) => (card(id).querySelector('.chart') as unknown as { chart: Chart }).chart
    const clipped: string[] = []
    const fits = (el: Element) => {
      if (el.scrollWidth > el.clientWidth)
        clipped.push(`${el.textContent?.trim()} (${el.scrollWidth} > ${el.clientWidth})`)
    }
    const brokenTitles: string[] = []
    for (const dashboard of document.querySelectorAll('strata-dashboard')) {
      for (const title of dashboard.shadowRoot?.querySelectorAll('[part~="card-title"]') ?? []) {
        // the title's text node (Lit puts a marker comment before it)
        const text = [...title.childNodes].find((n): n is Text => n instanceof Text && n.data.trim() !== '')
        if (text === undefined) continue
        for (const m of text.data.matchAll(/\S+/g)) {
          const range = document.createRange()
          range.setStart(text, m.index ?? 0)
          range.setEnd(text, (m.index ?? 0) + m[0].length)
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
          if (lines.size > 1) brokenTitles.push(`${text.data}: "${m[0]}" on ${lines.size} lines`)
        }
      }
    }
    const values = [...root.querySelectorAll('[part~="value"]')]
    const headers = [...root.querySelectorAll('[part~="table"] th')]
    for (const el of [...values, ...headers]) fits(el)
    const wide: string[] = []
    const walk = (node: Document | ShadowRoot) => {
      for (const el of node.querySelectorAll('*')) {
        // a table scrolls inside its own region; screen-reader text is clipped to nothing
        if (el.closest('.table-wrap, .sr-only')) continue
        const r = el.getBoundingClientRect()
        if (
          r.width > 0 &&
          r.right > document.documentElement.clientWidth + 1 &&
          getComputedStyle(el).position !== 'fixed'
        )
          wide.push(
            `${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').replace(/\s+/g, '.')} ${Math.round(r.right)}`,
          )
        if (el.shadowRoot) walk(el.shadowRoot)
      }
    }
    walk(document)
    const bar = chartOf('revenue_by_category')
    const barAxis = bar.getOption().xAxis[0]
    return {
      horizontalScroll: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      wide: wide.slice(0, 10),
      clipped,
      brokenTitles,
      singleValues: values.map((v) => ({ text: v.textContent?.trim() ?? '', title: v.getAttribute('title') ?? '' })),
      headers: headers.map((h) => h.textContent?.trim() ?? ''),
      category: {
        data: barAxis?.data ?? [],
        interval: barAxis?.axisLabel?.interval,
        // the labels ECharts lays out on the axis (after its own interval logic)
        shown: bar.getModel().getComponent('xAxis', 0).axis.getViewLabels().length,
      },
      month: chartOf('revenue_by_month').getOption().xAxis[0]?.data ?? [],
      quarter: chartOf('orders_by_channel').getOption().xAxis[0]?.data ?? [],
      pieLabel: chartOf('status_share').getOption().series[0]?.label,
    }
  })
}

describe.skipIf(!hasChromium)('the demo reads at 1440 and 390 px', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir, DEMO: 'true' }, readyTimeoutMs: 60_000 })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    mkdirSync(ARTIFACTS, { recursive: true })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    removeDir(dataDir)
  })

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    it(`at ${width}×${height}: no clipped text, every category labelled, time ticks by grain, numbers formatted, no sideways scroll, metrics panel over the grid`, async () => {
      const page = await open(browser, server, width, height)
      await page.screenshot({ path: join(ARTIFACTS, `demo-${width}.png`), fullPage: true })
      // the first panel screen by screen, legible at full size
      const tall = await page.evaluate(() => document.documentElement.scrollHeight)
      for (let i = 0; i < Math.min(4, Math.floor(tall / height)); i++) {
        await page.screenshot({
          path: join(ARTIFACTS, `demo-${width}-${i + 1}.png`),
          fullPage: true,
          clip: { x: 0, y: i * height, width, height },
        })
      }
      const r = await readout(page)
      expect({ scroll: r.horizontalScroll, wide: r.wide }).toEqual({ scroll: false, wide: [] })
      expect(r.clipped).toEqual([])
      expect(r.brokenTitles).toEqual([])
      // single values fit, with the full value on hover
      expect(r.singleValues).toHaveLength(4)
      for (const v of r.singleValues) {
        expect(v.text.length).toBeLessThanOrEqual(10)
        expect(v.title.replace(/[^\d]/g, '').startsWith(v.text.replace(/[^\d]/g, '').slice(0, 1))).toBe(true)
      }
      // table headers from labels, not raw lowercase column names
      expect(r.headers).toEqual(['Customer', 'Country', 'Segment', 'Revenue', 'Orders', 'Refund rate'])
      // every category of the bar chart labelled
      expect(r.category.data.length).toBeGreaterThanOrEqual(4)
      expect(r.category.interval).toBe(0)
      expect(r.category.shown).toBe(r.category.data.length)
      // month axis by its grain ("Dec 2025"); the SQL metric's quarters inferred ("Q1 2026"); never a raw date
      expect(r.month.length).toBeGreaterThan(1)
      expect(r.quarter.length).toBeGreaterThan(2)
      for (const t of [...r.month, ...r.quarter]) expect(t).not.toMatch(/\d{4}-\d{2}-\d{2}/)
      for (const t of r.month) expect(t).toMatch(/^[A-Z][a-z]{2} \d{4}$/)
      for (const t of r.quarter) expect(t).toMatch(/^Q[1-4] \d{4}$/)
      expect(r.pieLabel).toMatchObject({ position: 'inside', formatter: '{d}%', overflow: 'none' })

      // the document's formats: compact dollars on the card and in full on hover, a percent, currency ticks
      const f = await formatted(page)
      expect(f.revenue.text).toMatch(/^\$\d+(\.\d+)?[KM]$/)
      expect(f.revenue.title).toMatch(/^\$\d{1,3}(,\d{3})+\.\d{2}$/)
      expect(f.average).toMatch(/^\$[\d,]+\.\d{2}$/)
      expect(f.refundRate).toMatch(/^\d{1,2}\.\d%$/)
      expect(f.revenueTicks.length).toBeGreaterThan(2)
      for (const t of f.revenueTicks) expect(t).toMatch(/^\$\d+(\.\d)?[KM]?$/)
      expect(f.table.revenue.length).toBeGreaterThan(5)
      for (const c of f.table.revenue) expect(c).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/)
      for (const c of f.table.refundRate) expect(c).toMatch(/^\d{1,3}\.\d%$/)
      // one dropdown style: no native select (or datalist) in the element
      expect(f.nativeSelects).toBe(0)

      // the wide table scrolls inside its card; the page does not
      const before = await geometry(page)
      expect(before.page.scrollWidth).toBeLessThanOrEqual(before.page.innerWidth)
      expect(before.cardWidth).toBeLessThanOrEqual(before.gridWidth + 1)
      if (width < 600) expect(before.table.scrollWidth).toBeGreaterThan(before.table.clientWidth)

      // the metrics panel opens over the grid: same width, same place; Escape gives focus back to its toggle
      expect(before.panelShown).toBe(false)
      await page.locator('strata-dashboard >> [part~="sidebar-toggle"]').first().click()
      const opened = await geometry(page)
      expect(opened).toMatchObject({ panelShown: true, expanded: 'true', focused: 'sidebar-item' })
      expect(opened.gridWidth).toBe(before.gridWidth)
      expect(opened.gridLeft).toBe(before.gridLeft)
      expect(opened.page.scrollWidth).toBeLessThanOrEqual(opened.page.innerWidth)
      await page.screenshot({ path: join(ARTIFACTS, `demo-${width}-metrics-panel.png`) })
      await page.keyboard.press('Escape')
      expect(await geometry(page)).toMatchObject({ panelShown: false, expanded: 'false', focused: 'sidebar-toggle' })
      await page.close()
    })
  }

  it('every dropdown works from the keyboard: arrows, Enter, Escape, with listbox roles', async () => {
    const page = await open(browser, server, 1440, 900)
    const state = () =>
      page.evaluate(() => {
        const root = document.querySelector('strata-dashboard')?.shadowRoot as ShadowRoot
        const trigger = root.querySelector('[data-filter="period"] [role="combobox"]') as HTMLElement
        const list = root.getElementById(trigger.getAttribute('aria-controls') ?? '') as HTMLElement
        const active = trigger.getAttribute('aria-activedescendant')
        return {
          expanded: trigger.getAttribute('aria-expanded'),
          listShown: list.checkVisibility(),
          listRole: list.getAttribute('role'),
          options: list.querySelectorAll('[role="option"]').length,
          active: active ? root.getElementById(active)?.textContent?.trim() : null,
          value: trigger.textContent?.trim(),
          focused: root.activeElement === trigger,
        }
      })
    const period = page.locator('strata-dashboard >> [data-filter="period"] [role="combobox"]').first()
    await period.focus()
    await page.keyboard.press('ArrowDown')
    expect(await state()).toMatchObject({
      expanded: 'true',
      listShown: true,
      listRole: 'listbox',
      options: 18,
      active: 'Last 12 months',
    })
    await page.screenshot({ path: join(ARTIFACTS, 'demo-1440-dropdown.png') })
    await page.keyboard.press('ArrowUp')
    expect((await state()).active).toBe('Last year')
    await page.keyboard.press('Enter')
    expect(await state()).toMatchObject({ expanded: 'false', listShown: false, value: 'Last year', focused: true })
    await page.waitForFunction(() => {
      const el = document.querySelector('strata-dashboard') as unknown as { filters: Record<string, unknown> }
      return el.filters.period === 'Last year'
    })
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Escape')
    expect(await state()).toMatchObject({ expanded: 'false', listShown: false, value: 'Last year', focused: true })

    // a multi-select: the search box gets focus, arrows pick, Enter toggles, Escape returns to the trigger
    const country = page.locator('strata-dashboard >> [data-filter="country"] [part~="filter-control"]').first()
    await country.focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Escape')
    const chosen = await page.evaluate(() => {
      const root = document.querySelector('strata-dashboard')?.shadowRoot as ShadowRoot
      const trigger = root.querySelector('[data-filter="country"] [part~="filter-control"]') as HTMLElement
      const el = document.querySelector('strata-dashboard') as unknown as { filters: Record<string, unknown> }
      return {
        filter: el.filters.country,
        expanded: trigger.getAttribute('aria-expanded'),
        focused: root.activeElement === trigger,
        multiselectable: root
          .querySelector('[data-filter="country"] [role="listbox"]')
          ?.getAttribute('aria-multiselectable'),
      }
    })
    expect(chosen).toMatchObject({ expanded: 'false', focused: true, multiselectable: 'true' })
    expect(chosen.filter).toEqual([expect.stringMatching(/^[A-Z]{2}$/)])
    await page.close()
  })
})
