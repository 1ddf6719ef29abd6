/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { shootBoth } from '../helpers/studio.js'

/**
 * The studio's session with a short-lived access token (ADMIN_ACCESS_TTL_S=6): it refreshes
 * before the token ends, so the admin keeps working; when the refresh is refused (the refresh
 * token spent elsewhere) the studio says the session ended and offers to sign in again.
 */
const ADMIN = { firstName: 'Alice', companyName: 'Acme', email: 'alice@example.com', password: 'Str0ng!Pass' }

describe.skipIf(!hasChromium)('the studio session', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let page: Page
  const refreshes: number[] = []

  beforeAll(async () => {
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir, ADMIN_ACCESS_TTL_S: '6' }, readyTimeoutMs: 60_000 })
    await fetch(`${server.url}/api/v2/admin-account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.setDefaultTimeout(10_000)
    page.on('response', (r) => {
      if (r.url().endsWith('/api/v2/admin-account/jwt/refresh')) refreshes.push(r.status())
    })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    removeDir(dataDir)
  })

  it('offers sign-in (not account creation) once the account exists', async () => {
    await page.goto(`${server.url}/studio`)
    await page.getByRole('heading', { name: 'Sign in to the studio' }).waitFor()
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Datasources' }).waitFor()
  })

  it('refreshes before the access token ends: after three lifetimes the screens still load', async () => {
    await page.waitForTimeout(18_000)
    expect(refreshes.length).toBeGreaterThanOrEqual(3)
    expect(refreshes.every((s) => s === 200)).toBe(true)
    await page.getByRole('navigation').getByRole('link', { name: 'Data apps' }).click()
    await page.getByText('No data app yet').waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
  }, 40_000)

  it('when the refresh is refused, says the session ended and offers to sign in again', async () => {
    // spend the tab's refresh token elsewhere: the studio's next refresh is refused
    const token = await page.evaluate(() => sessionStorage.getItem('strata.studio.refresh'))
    const spent = await fetch(`${server.url}/api/v2/admin-account/jwt/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: token }),
    })
    expect(spent.status).toBe(200)
    await page.getByRole('heading', { name: 'Sign in to the studio' }).waitFor({ timeout: 15_000 })
    expect(await page.getByRole('status').textContent()).toMatch(/Your session has ended\. Sign in again/)
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await shootBoth(page, '19-session-ended')
  }, 30_000)
})
