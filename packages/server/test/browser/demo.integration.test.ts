/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ARTIFACTS, CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/**
 * The demo in a real browser (Debian's chromium through playwright-core): every chart is
 * drawn, filters re-query, each tenant sees only its own numbers, and the error states of a
 * token outside allowedEmbeds and of an expired token. A screenshot is kept as an artifact.
 */

/** /demo in a new page, once every dashboard on it is ready. */
async function openDemoOf(browser: Browser, server: ServerProcess): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1400 } })
  await page.goto(`${server.url}/demo`)
  await page.waitForFunction(
    () => [...document.querySelectorAll('strata-dashboard')].every((e) => e.getAttribute('data-state') === 'ready'),
    null,
    { timeout: 30_000 },
  )
  return page
}

describe.skipIf(!hasChromium)('the demo in Chromium', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let key: string
  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir, DEMO: 'true' }, readyTimeoutMs: 60_000 })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    await new Promise((r) => setTimeout(r, 200))
    const printed = server.stderr.join('\n').match(/API key \(shown once\): (\S+)/)
    key = printed?.[1] ?? ''
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    removeDir(dataDir)
  })

  const openDemo = () => openDemoOf(browser, server)
  /** Per panel (tenant): each card's state, chart type and whether it drew something. */
  const cards = (page: Page) =>
    page.evaluate(() =>
      [...document.querySelectorAll('strata-dashboard')].map((el) => {
        const root = el.shadowRoot as ShadowRoot
        return {
          tenant: (el as HTMLElement).dataset.tenant,
          cards: [...root.querySelectorAll('[data-metric-id]')].map((card) => {
            const canvas = card.querySelector('canvas')
            let inked = false
            if (canvas) {
              const ctx = canvas.getContext('2d')
              const data = ctx?.getImageData(0, 0, canvas.width, canvas.height).data
              if (data) for (let i = 3; i < data.length; i += 4 * 16) if ((data[i] ?? 0) > 0) inked = true
            }
            const text = (card.querySelector('[part~="value"], [part~="table"]')?.textContent ?? '').trim()
            return {
              metricId: card.getAttribute('data-metric-id'),
              type: card.getAttribute('data-chart-type'),
              state: card.getAttribute('data-state'),
              drawn: inked || text.length > 0,
              value: (card.querySelector('[part~="value"]')?.textContent ?? '').trim(),
            }
          }),
        }
      }),
    )

  it('prints the demo URL and key once, and draws every chart for both tenants', async () => {
    expect(server.stderr.join('\n')).toContain(`${server.url}/demo`)
    expect(key).toMatch(/^sk_/)
    const page = await openDemo()
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'demo.png'), fullPage: true })
    const panels = await cards(page)
    expect(panels.map((p) => p.tenant)).toEqual(['acme', 'globex'])
    for (const panel of panels) {
      expect(panel.cards).toHaveLength(9)
      for (const card of panel.cards) {
        expect(card.state, `${panel.tenant}/${card.metricId}`).toBe('ready')
        expect(card.drawn, `${panel.tenant}/${card.metricId} drew nothing`).toBe(true)
      }
      expect(new Set(panel.cards.map((c) => c.type))).toEqual(
        new Set(['single-value', 'area', 'doughnut', 'bar', 'stacked-bar', 'table']),
      )
    }
    await page.close()
  })

  it('shows each tenant its own numbers, equal to what its token queries, never the other’s', async () => {
    const page = await openDemo()
    const panels = await cards(page)
    const revenue = async (tenant: string) => {
      const { token } = (await (await fetch(`${server.url}/demo/token?tenant=${tenant}`)).json()) as { token: string }
      const res = await fetch(`${server.url}/api/v2/embed/runtime/demo-sales/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ metricId: 'orders' }),
      })
      return ((await res.json()) as { data: { orders: number }[] }).data[0]?.orders
    }
    const shown = (tenant: string) =>
      Number(
        panels
          .find((p) => p.tenant === tenant)
          ?.cards.find((c) => c.metricId === 'orders')
          ?.value.replace(/\D/g, ''),
      )
    const acme = await revenue('acme')
    const globex = await revenue('globex')
    expect(acme).not.toBe(globex)
    expect(shown('acme')).toBe(acme)
    expect(shown('globex')).toBe(globex)
    // and the page never carried the other tenant's figure in acme's panel
    const acmeText = await page.evaluate(
      () =>
        (document.querySelector('strata-dashboard[data-tenant="acme"]') as HTMLElement).shadowRoot?.textContent ?? '',
    )
    expect(acmeText).not.toContain(Number(globex).toLocaleString('en-US'))
    await page.close()
  })

  it('re-queries and redraws when a filter changes', async () => {
    const page = await openDemo()
    const before = (await cards(page))[0]?.cards.find((c) => c.metricId === 'orders')?.value
    const queries: string[] = []
    page.on('request', (r) => {
      if (r.url().endsWith('/query')) queries.push(r.postData() ?? '')
    })
    await page.evaluate(() => {
      const el = document.querySelector('strata-dashboard[data-tenant="acme"]') as HTMLElement & {
        setFilter(name: string, value: unknown): void
      }
      el.setFilter('period', 'Last 30 days')
    })
    await page.waitForFunction(
      (prev) => {
        const el = document.querySelector('strata-dashboard[data-tenant="acme"]') as HTMLElement
        const value = el.shadowRoot?.querySelector('[data-metric-id="orders"] [part~="value"]')?.textContent?.trim()
        return el.getAttribute('data-state') === 'ready' && value !== prev
      },
      before,
      { timeout: 20_000 },
    )
    expect(queries.length).toBeGreaterThanOrEqual(8)
    expect(queries.some((q) => q.includes('Last 30 days'))).toBe(true)
    await page.close()
  })

  it('shows the error state for an embed outside allowedEmbeds, and for an expired token', async () => {
    const page = await browser.newPage()
    const { token } = (await (await fetch(`${server.url}/demo/token?tenant=acme`)).json()) as { token: string }
    // the shortest lifetime the mint accepts is one second
    const expired = await mint(1000)
    await new Promise((r) => setTimeout(r, 1020))
    await page.goto(`${server.url}/demo`)
    await page.evaluate(
      ({ token, expired }) => {
        document.body.innerHTML = `
          <strata-dashboard id="outside" embed-id="not-allowed" token="${token}"></strata-dashboard>
          <strata-dashboard id="expired" embed-id="demo-sales" token="${expired}"></strata-dashboard>`
      },
      { token, expired },
    )
    await page.waitForFunction(() => document.getElementById('outside')?.getAttribute('data-state') === 'error', null, {
      timeout: 15_000,
    })
    const message = await page.evaluate(() => document.getElementById('outside')?.shadowRoot?.textContent ?? '')
    expect(message).toMatch(/UNAUTHORIZED|may not load/)
    await page.waitForFunction(
      () => ['error', 'expired'].includes(document.getElementById('expired')?.getAttribute('data-state') ?? ''),
      null,
      { timeout: 15_000 },
    )
    await page.close()
  })

  it('carries on when the token expires mid-session: strata-token-expired, new token, filters kept', async () => {
    const page = await browser.newPage()
    await page.goto(`${server.url}/demo`)
    const short = await mint(4_000)
    const minted = Date.now()
    await page.evaluate(
      ({ token, base }) => {
        document.body.innerHTML = `<strata-dashboard id="d" embed-id="demo-sales" token="${token}"></strata-dashboard>`
        const el = document.getElementById('d') as HTMLElement & { token: string }
        ;(window as unknown as { expiredEvents: number }).expiredEvents = 0
        el.addEventListener('strata-token-expired', async () => {
          ;(window as unknown as { expiredEvents: number }).expiredEvents++
          const res = await fetch(`${base}/demo/token?tenant=acme`)
          el.token = ((await res.json()) as { token: string }).token
        })
      },
      { token: short, base: server.url },
    )
    await page.waitForFunction(() => document.getElementById('d')?.getAttribute('data-state') === 'ready', null, {
      timeout: 20_000,
    })
    await new Promise((r) => setTimeout(r, Math.max(0, 4_200 - (Date.now() - minted))))
    await page.evaluate(() =>
      (document.getElementById('d') as HTMLElement & { setFilter(n: string, v: unknown): void }).setFilter('channel', [
        'Web',
      ]),
    )
    await page.waitForFunction(() => (window as unknown as { expiredEvents: number }).expiredEvents > 0, null, {
      timeout: 15_000,
    })
    await page.waitForFunction(() => document.getElementById('d')?.getAttribute('data-state') === 'ready', null, {
      timeout: 20_000,
    })
    const filters = await page.evaluate(
      () => (document.getElementById('d') as HTMLElement & { filters: Record<string, unknown> }).filters,
    )
    expect(filters.channel).toEqual(['Web'])
    await page.close()
  })

  /** A real guest token for acme with a short lifetime, minted with the demo data app's printed key. */
  async function mint(expiryTime: number): Promise<string> {
    const res = await fetch(`${server.url}/api/v2/guest-token/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dataAppName: 'demo', clientId: 'acme', expiryTime }),
    })
    return ((await res.json()) as { token: string }).token
  }
})

describe.skipIf(!hasChromium)('the demo in Chromium with a row limit below some results', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({
      env: { DATA_DIR: dataDir, DEMO: 'true', QUERY_ROW_LIMIT: '5' },
      readyTimeoutMs: 60_000,
    })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    removeDir(dataDir)
  })

  it('says under each cut chart or table that it shows the first rows only, and nowhere else', async () => {
    const page = await openDemoOf(browser, server)
    const cards = await page.evaluate(() =>
      [
        ...((document.querySelector('strata-dashboard') as HTMLElement).shadowRoot as ShadowRoot).querySelectorAll(
          '[part~="card"]',
        ),
      ].map((card) => ({
        metricId: card.getAttribute('data-metric-id'),
        type: card.getAttribute('data-chart-type'),
        note: card.querySelector('[part~="truncated-note"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? null,
      })),
    )
    // what the server says for the same metrics, with the same tenant's token
    const { token } = (await (await fetch(`${server.url}/demo/token?tenant=acme`)).json()) as { token: string }
    for (const card of cards) {
      const res = await fetch(`${server.url}/api/v2/embed/runtime/demo-sales/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ metricId: card.metricId, ...(card.type === 'table' ? { pageNumber: 1 } : {}) }),
      })
      const cut = res.headers.get('strata-truncated') === 'true'
      expect(card.note !== null, `${card.metricId}: note ${card.note}, header ${cut}`).toBe(cut)
      if (cut) expect(card.note).toMatch(/^Showing the first 5 rows/)
    }
    expect(cards.some((c) => c.note !== null)).toBe(true)
    expect(cards.some((c) => c.note === null)).toBe(true)
    await page.close()
  })
})
