/// <reference lib="dom" />
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BrowserContextOptions, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { type BrowserSuite, DEMO_EMBED, dashboardReady } from './browser.js'

/**
 * The customer's own site on another origin than Strata (another port of 127.0.0.1), its
 * origin whitelisted on the demo data app, serving a host page that loads the element script
 * from Strata and shows one `<strata-dashboard id="d">` on the token in its URL. Registered as
 * hooks in a `describe` after `useBrowserSuite`, whose server it whitelists.
 */
export interface SecondOrigin {
  /** http://127.0.0.1:<port>, not the server's origin. */
  readonly url: string
  /** The host page on `token` in a new page, once the dashboard is ready (unless `ready: false`). */
  open(
    token: string,
    options?: BrowserContextOptions & { readonly before?: (page: Page) => unknown; readonly ready?: boolean },
  ): Promise<Page>
}

const hostPage = (strata: string, token: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Customer app</title>
<script type="module" src="${strata}/sdk/strata-embed.js"></script></head>
<body style="margin:0;background:#fff;font-family:system-ui">
<h1 style="font-size:16px;margin:12px 16px">Customer app</h1>
<strata-dashboard id="d" embed-id="${DEMO_EMBED}" token="${token}" options='{"syncUrl":false}'></strata-dashboard>
<script type="module">
  window.errors = []
  document.getElementById('d').addEventListener('strata-error', (e) => window.errors.push(e.detail))
</script></body></html>`

export function useSecondOrigin(b: BrowserSuite): SecondOrigin {
  let site: Server | undefined
  let url = ''
  beforeAll(async () => {
    site = createServer((req, res) => {
      const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? ''
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(b.server.url, token))
    })
    await new Promise<void>((resolve) => site?.listen(0, '127.0.0.1', resolve))
    const port = (site.address() as AddressInfo).port
    url = `http://127.0.0.1:${port}`
    if (new URL(url).origin === new URL(b.server.url).origin) throw new Error('the host page must be another origin')
    // the customer whitelists its site's origin (host:port, no scheme)
    await b.api('PUT', '/api/v2/data-app/whitelist-domains', { domains: [`127.0.0.1:${port}`] })
  }, 30_000)
  afterAll(async () => {
    await new Promise((r) => (site ? site.close(r) : r(undefined)))
  })
  return {
    get url() {
      return url
    },
    async open(token, { before, ready = true, ...context } = {}) {
      const page = await b.browser.newPage({ viewport: { width: 1440, height: 1000 }, locale: 'en-US', ...context })
      await before?.(page)
      await page.goto(`${url}/?token=${encodeURIComponent(token)}`)
      if (ready) await dashboardReady(page)
      return page
    },
  }
}

/** A part of the host page's `<strata-dashboard id="d">` (the locator pierces its shadow roots). */
export const inDashboard = (page: Page, selector: string): Locator => page.locator(`#d >> ${selector}`)

/** What the host page's `strata-error` listener collected. */
export const hostErrors = (page: Page): Promise<unknown[]> =>
  page.evaluate(() => (window as unknown as { errors: unknown[] }).errors)

/** The element's `filters` property (the dashboard filters' values). */
export const filtersOf = (page: Page): Promise<Record<string, unknown>> =>
  page.evaluate(() => (document.getElementById('d') as unknown as { filters: Record<string, unknown> }).filters)

/** The focused element through shadow roots: its id, its part, its text. */
export const deepFocus = (page: Page): Promise<{ id: string; part: string; text: string }> =>
  page.evaluate(() => {
    let el = document.activeElement
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
    return { id: el?.id ?? '', part: el?.getAttribute('part') ?? '', text: (el?.textContent ?? '').trim() }
  })

/** A runtime call on the demo dashboard with a guest token, as the element would make it; 200 expected. */
export async function runtimeCall(
  b: BrowserSuite,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${b.server.url}/api/v2/embed/runtime/${DEMO_EMBED}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`)
  return JSON.parse(text) as Record<string, unknown>
}
