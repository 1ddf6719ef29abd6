/// <reference lib="dom" />
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { CHROMIUM } from './chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from './process.js'

/**
 * The setup the browser suites share, as vitest hooks registered by one call in a `describe`:
 * the built server with the demo on (a data directory of its own), Debian's Chromium through
 * playwright-core, and the demo data app's API key the server prints once. Then the pages the
 * suites open: /demo once every panel is ready, or one `<strata-dashboard id="d">` on a token.
 *
 * As in suite.ts, the values exist once the hooks ran: read `b.server`, `b.browser` … in a hook
 * or a test (a read while the file is collected throws).
 */
export interface BrowserSuiteOptions {
  /** Added to the server's environment (DATA_DIR and DEMO=true are set). */
  readonly env?: Record<string, string>
  /** Extra Chromium switches (--no-sandbox is always there). */
  readonly args?: readonly string[]
}

export interface BrowserSuite {
  readonly server: ServerProcess
  readonly browser: Browser
  /** The demo data app's API key (printed once, at the first start). */
  readonly key: string
  /** A call of the admin API with the key; throws on a status other than 2xx. */
  api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>
  /** A guest token of the demo data app for `clientId` on the demo dashboard, with these flags. */
  mint(clientId: string, permissions: Record<string, boolean>, params?: Record<string, unknown>): Promise<string>
  /** Sets access settings of the demo dashboard's embed (what end users of it may do). */
  allowOnDemoEmbed(accessSettings: Record<string, unknown>): Promise<void>
  /** /demo in a new page, once every dashboard on it is ready. */
  openDemo(options?: BrowserContextOptions): Promise<Page>
  /**
   * A page of the server's origin holding one `<strata-dashboard id="d">` on `token` (the
   * element script only: none of the demo's own panels), once it is ready.
   */
  openDashboard(token: string, options?: DashboardPageOptions): Promise<Page>
}

export interface DashboardPageOptions extends BrowserContextOptions {
  /** The embed to show (default: the demo's dashboard). */
  readonly embedId?: string
  /** Run on the new page before it loads anything (to listen to its requests, say). */
  readonly before?: (page: Page) => unknown
}

/** The demo's dashboard (its embed's dashboardId). */
export const DEMO_EMBED = 'demo-sales'

const HOST_PAGE =
  '<!doctype html><html><body style="margin:0"><script type="module" src="/sdk/strata-embed.js"></script></body></html>'

export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let dataDir: string | undefined
  let server: ServerProcess | undefined
  let browser: Browser | undefined
  let key = ''

  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir, DEMO: 'true', ...options.env }, readyTimeoutMs: 60_000 })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', ...(options.args ?? [])] })
    key = server.stderr.join('\n').match(/API key \(shown once\): (\S+)/)?.[1] ?? ''
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    if (dataDir) removeDir(dataDir)
  })

  const need = <T>(name: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`${name} is set by the suite's hooks: read it in a hook or a test`)
    return value
  }

  const suite: BrowserSuite = {
    get server() {
      return need('server', server)
    },
    get browser() {
      return need('browser', browser)
    },
    get key() {
      return need('key', key || undefined)
    },
    async api(method, path, body) {
      const res = await fetch(`${suite.server.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${suite.key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const json = (await res.json()) as Record<string, unknown>
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
      return json
    },
    async mint(clientId, permissions, params = {}) {
      const created = await suite.api('POST', '/api/v2/guest-token/create', {
        dataAppName: 'demo',
        clientId,
        params: { allowedEmbeds: [DEMO_EMBED], timezone: 'UTC', ...params },
        permissions: { isShowDashboardName: true, ...permissions },
        expiryTime: 60 * 60 * 1000,
      })
      return created.token as string
    },
    async allowOnDemoEmbed(accessSettings) {
      const listed = (await suite.api('GET', '/api/v2/data-app/embeds')) as {
        data: { embedId: string; embedMetadata: { dashboardId: string } }[]
      }
      const embedId = listed.data.find((e) => e.embedMetadata.dashboardId === DEMO_EMBED)?.embedId
      await suite.api('PUT', '/api/v2/data-app/embeds', { embedId, accessSettings })
    },
    async openDemo(context = {}) {
      const page = await suite.browser.newPage({ viewport: { width: 1600, height: 1400 }, locale: 'en-US', ...context })
      await page.goto(`${suite.server.url}/demo`)
      await page.waitForFunction(
        () => [...document.querySelectorAll('strata-dashboard')].every((e) => e.getAttribute('data-state') === 'ready'),
        null,
        { timeout: 30_000 },
      )
      return page
    },
    async openDashboard(token, { embedId = DEMO_EMBED, before, ...context } = {}) {
      const page = await suite.browser.newPage({ viewport: { width: 1440, height: 1000 }, locale: 'en-US', ...context })
      await before?.(page)
      const url = `${suite.server.url}/host-page`
      await page.route(url, (route) => route.fulfill({ contentType: 'text/html', body: HOST_PAGE }))
      await page.goto(url)
      await page.waitForFunction(() => customElements.get('strata-dashboard') !== undefined)
      await page.evaluate(
        ({ token, embedId }) => {
          const el = document.createElement('strata-dashboard')
          el.id = 'd'
          el.setAttribute('embed-id', embedId)
          el.setAttribute('token', token)
          document.body.replaceChildren(el)
        },
        { token, embedId },
      )
      await dashboardReady(page)
      return page
    },
  }
  return suite
}

/** Waits until `<strata-dashboard id="d">` is ready (after a load or a change that queries again). */
export const dashboardReady = (page: Page, id = 'd'): Promise<unknown> =>
  page.waitForFunction((id) => document.getElementById(id)?.getAttribute('data-state') === 'ready', id, {
    timeout: 30_000,
  })
