/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ARTIFACTS, CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'

/**
 * The production setup: the host page is served by the customer's own site, on another origin
 * than Strata, and loads the web component from Strata. Here a tiny node:http server on another
 * port of 127.0.0.1 plays the customer's site and backend (it mints guest tokens server-side with
 * the data app key). Its origin is whitelisted; the same site reached as `localhost` is another
 * origin, not whitelisted.
 */

type Dashboard = HTMLElement & {
  token: string
  filters: Record<string, unknown>
  setFilter(name: string, value: unknown): void
}

describe.skipIf(!hasChromium)('the web component on another origin than the server', () => {
  let dataDir: string
  let strata: ServerProcess
  let site: Server
  let sitePort: number
  let browser: Browser
  let key: string
  /** The token the next page load starts with (the test sets it). */
  let firstToken = ''

  /** What a customer backend does: mint a guest token with the data app key, server-side. */
  async function mint(expiryTime: number): Promise<string> {
    const res = await fetch(`${strata.url}/api/v2/guest-token/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ dataAppName: 'demo', clientId: 'acme', expiryTime }),
    })
    expect(res.status).toBe(200)
    return ((await res.json()) as { token: string }).token
  }

  const hostPage = (token: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer app</title>
<script type="module" src="${strata.url}/sdk/strata-embed.js"></script></head>
<body style="margin:0;background:#fff;font-family:system-ui">
<h1 style="font-size:16px;margin:12px 16px">Customer app on <span id="origin"></span></h1>
<strata-dashboard id="d" embed-id="demo-sales" token="${token}" options='{"syncUrl":false}'></strata-dashboard>
<script type="module">
  document.getElementById('origin').textContent = location.origin
  const el = document.getElementById('d')
  window.expiredEvents = 0
  window.errors = []
  el.addEventListener('strata-error', (e) => window.errors.push(e.detail))
  // the documented refresh without reload: ask our own backend for a new token
  el.addEventListener('strata-token-expired', async () => {
    window.expiredEvents++
    const res = await fetch('/token')
    el.token = (await res.json()).token
  })
</script></body></html>`

  beforeAll(async () => {
    dataDir = tempDataDir()
    strata = await startServer({ env: { DATA_DIR: dataDir, DEMO: 'true' }, readyTimeoutMs: 60_000 })
    await new Promise((r) => setTimeout(r, 200))
    key = strata.stderr.join('\n').match(/API key \(shown once\): (\S+)/)?.[1] ?? ''
    expect(key).toMatch(/^sk_/)
    site = createServer((req, res) => {
      if (req.url === '/token') {
        mint(60 * 60 * 1000).then(
          (token) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token })),
          () => res.writeHead(500).end(),
        )
        return
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(firstToken))
    })
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
    sitePort = (site.address() as AddressInfo).port
    // the customer whitelists its site's origin (host:port, no scheme)
    const put = await fetch(`${strata.url}/api/v2/data-app/whitelist-domains`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domains: [`127.0.0.1:${sitePort}`] }),
    })
    expect(put.status).toBe(200)
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await new Promise((r) => (site ? site.close(r) : r(undefined)))
    await strata?.stop()
    removeDir(dataDir)
  })

  it('expiry → strata-token-expired → new token → the dashboard draws again with the end user’s filters kept', async () => {
    const siteUrl = `http://127.0.0.1:${sitePort}`
    expect(new URL(siteUrl).origin).not.toBe(new URL(strata.url).origin)
    firstToken = await mint(4_000)
    const minted = Date.now()
    const page = await browser.newPage({ viewport: { width: 1400, height: 1300 } })
    const statuses: number[] = []
    const queries: { body: string; token: string }[] = []
    page.on('response', (r) => {
      if (r.url().startsWith(strata.url) && r.request().method() !== 'OPTIONS') statuses.push(r.status())
    })
    page.on('request', (r) => {
      if (r.url().endsWith('/query') && r.method() === 'POST') {
        queries.push({ body: r.postData() ?? '', token: r.headers().authorization ?? '' })
      }
    })
    await page.goto(siteUrl)
    await page.waitForFunction(() => document.getElementById('d')?.getAttribute('data-state') === 'ready', null, {
      timeout: 30_000,
    })
    // the end user picks a filter value, then the session's token expires
    await page.evaluate(() => (document.getElementById('d') as Dashboard).setFilter('channel', ['Web']))
    await page.waitForFunction(() => document.getElementById('d')?.getAttribute('data-state') === 'ready', null, {
      timeout: 20_000,
    })
    await new Promise((r) => setTimeout(r, Math.max(0, 4_300 - (Date.now() - minted))))
    const beforeRefresh = queries.length
    await page.evaluate(() => (document.getElementById('d') as Dashboard).setFilter('country', ['DE', 'FR']))
    await page.waitForFunction(() => (window as unknown as { expiredEvents: number }).expiredEvents > 0, null, {
      timeout: 15_000,
    })
    await page.waitForFunction(() => document.getElementById('d')?.getAttribute('data-state') === 'ready', null, {
      timeout: 20_000,
    })
    // the browser read the server's 401 (not a network error), then the retried calls answered 200
    expect(statuses).toContain(401)
    const state = await page.evaluate(() => {
      const el = document.getElementById('d') as Dashboard
      const cards = [...(el.shadowRoot as ShadowRoot).querySelectorAll('[data-metric-id]')]
      return {
        filters: el.filters,
        expiredEvents: (window as unknown as { expiredEvents: number }).expiredEvents,
        errors: (window as unknown as { errors: unknown[] }).errors,
        cards: cards.map((c) => c.getAttribute('data-state')),
        text: (el.shadowRoot as ShadowRoot).textContent ?? '',
      }
    })
    expect(state.expiredEvents).toBe(1)
    expect(state.errors).toEqual([])
    expect(state.filters.channel).toEqual(['Web'])
    expect(state.filters.country).toEqual(['DE', 'FR'])
    expect(state.cards.length).toBeGreaterThan(0)
    for (const card of state.cards) expect(card).toBe('ready')
    expect(state.text).not.toMatch(/NETWORK_ERROR|Failed to fetch/)
    // after the refresh, every query carries the new token and both filter values
    const after = queries.slice(beforeRefresh).filter((q) => q.token !== `Bearer ${firstToken}`)
    expect(after.length).toBeGreaterThan(0)
    for (const q of after) {
      expect(q.body).toContain('Web')
      expect(q.body).toContain('"DE","FR"')
    }
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'cross-origin-after-refresh.png'), fullPage: true })
    await page.close()
  }, 90_000)

  it('an origin that is not whitelisted sees a network error, and the server logs why', async () => {
    firstToken = await mint(60 * 60 * 1000)
    const page = await browser.newPage()
    // the same site by another name is another origin, one no data app whitelists
    await page.goto(`http://localhost:${sitePort}`)
    await page.waitForFunction(() => document.getElementById('d')?.getAttribute('data-state') === 'error', null, {
      timeout: 30_000,
    })
    const text = await page.evaluate(() => document.getElementById('d')?.shadowRoot?.textContent ?? '')
    expect(text).toMatch(/NETWORK_ERROR|Failed to fetch/)
    const line = await strata.waitForLog((l) => l.level === 40 && String(l.msg).includes(`localhost:${sitePort}`))
    expect(String(line.msg)).toMatch(/^CORS: origin http:\/\/localhost:\d+ refused/)
    await page.close()
  }, 60_000)
})
