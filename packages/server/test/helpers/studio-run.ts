/**
 * What the studio's authoring tests in Chromium run on: a new PostgreSQL warehouse, the built
 * server on a data directory of its own, the company set up through the API (studioCompany:
 * admin, datasource, datamart `sales`, workspace `main`) with the data app `salesapp`, and a
 * page at 1440 × 900 whose script errors are logged. stop() undoes it all.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { CHROMIUM } from './chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from './process.js'
import { type AdminApi, type AdminCall, studioCompany } from './studio-company.js'
import { createPgWarehouse, type PgWarehouse } from './warehouse.js'

export interface StudioRunOptions {
  /** Run on the new warehouse before the server reads it. */
  readonly prepare?: (wh: PgWarehouse) => Promise<unknown>
  /** The server's environment beyond DATA_DIR. */
  readonly env?: Record<string, string>
  /** The page's options beyond its 1440 × 900 viewport. */
  readonly page?: BrowserContextOptions
}

export interface StudioRun {
  readonly wh: PgWarehouse
  readonly server: ServerProcess
  readonly api: AdminApi
  readonly call: AdminCall
  readonly browser: Browser
  readonly page: Page
  stop(): Promise<void>
}

export async function startStudioRun(options: StudioRunOptions = {}): Promise<StudioRun> {
  const wh = await createPgWarehouse()
  const dataDir = tempDataDir()
  let server: ServerProcess | undefined
  let browser: Browser | undefined
  const stop = async () => {
    await browser?.close()
    await server?.stop()
    await wh.drop()
    removeDir(dataDir)
  }
  try {
    await options.prepare?.(wh)
    server = await startServer({ env: { DATA_DIR: dataDir, ...options.env }, readyTimeoutMs: 60_000 })
    const { api, call } = await studioCompany(server.url, wh)
    await api('POST', '/api/v2/data-app', { name: 'salesapp' })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, ...options.page })
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('page error:', e.message))
    return { wh, server, api, call, browser, page, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
