/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { checkAccessibility, STUDIO_DOCS, STUDIO_SHOTS, shootBoth } from '../helpers/studio.js'
import {
  addPostgresDatasource,
  createAccount,
  createDataApp,
  createWorkspace,
  dismissKey,
  openScreen,
  signIn,
  syncTables,
} from '../helpers/studio-steps.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/**
 * The studio in Chromium on a fresh server: the first visit creates the admin account, then a
 * PostgreSQL datasource on the local server (a small schema with a tenant column, made here) is
 * tested, saved and synced, its tables seen; a datamart with a tenant column, a workspace and a
 * data app whose key is shown once; sign out. Every screen passes the accessibility checks and
 * is photographed at 1440 and 390 px.
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)
const ADMIN = { firstName: 'Alice', company: 'Acme', email: 'alice@example.com', password: 'Str0ng!Pass' }

describe.skipIf(!hasChromium || !hasPostgres)('the studio: from a fresh server to a data app', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let page: Page
  let warehouse: PgWarehouse
  const calls: string[] = []

  beforeAll(async () => {
    warehouse = await createPgWarehouse()
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir }, readyTimeoutMs: 60_000 })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.setDefaultTimeout(10_000)
    page.on('request', (r) => {
      if (r.url().includes('/api/')) calls.push(`${r.method()} ${new URL(r.url()).pathname}`)
    })
  }, 90_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await warehouse?.drop()
    removeDir(dataDir)
  })

  it('is served with its own CSP and caching, and its module is not the embed', async () => {
    const res = await fetch(`${server.url}/studio`)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/)
    const html = await res.text()
    const src = html.match(/src="([^"]+studio\.js\?v=[0-9a-f]+)"/)?.[1]
    expect(src).toBeDefined()
    const js = await fetch(new URL(src!, server.url))
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/)
    const stale = await fetch(`${server.url}/studio/studio.js?v=old`)
    expect(stale.headers.get('cache-control')).toBe('no-cache')
    const body = await js.text()
    expect(body).toContain('strata-studio')
    // the dashboard screens draw <strata-dashboard> from /sdk/ at run time: none of its code is in
    // the studio's module (not its runtime client, its charts or its self-serve parts; the tag's
    // name alone appears, in the embed snippets the studio shows)
    expect(body).toContain('/sdk/strata-embed.js')
    expect(body).not.toContain('/api/v2/embed/runtime')
    expect(body).not.toMatch(/echarts/i)
    expect(body).not.toContain('strata-card-menu')
    expect(body).not.toContain('strata-metric-builder')
  })

  it('offers to create the admin account on the first visit, and signs in with it', async () => {
    const errors: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) errors.push(m.text())
    })
    await page.goto(`${server.url}/studio`)
    await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor()
    // the first field has the focus; every field is labelled
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('firstName')
    await checkAccessibility(page, 'create account')
    await shootBoth(page, '01-create-account')
    await docsImage(page, 'create-account', STUDIO_DOCS)
    // a weak password: the server's rule, in a sentence that says what to fix
    await page.getByLabel('Your first name').fill(ADMIN.firstName)
    await page.getByLabel('Company').fill(ADMIN.company)
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill('weakpassword')
    await page.getByRole('button', { name: 'Create the account and sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/Something in the form is not right/)
    await shootBoth(page, '02-create-account-error')
    // nothing was created: the first visit's form again, filled in right
    await createAccount(page, server.url, ADMIN)
    expect(errors).toEqual([]) // the CSP refused nothing (no inline style or script)
    // the access token is in memory only; the refresh token per tab; nothing in localStorage
    const stored = await page.evaluate(() => ({ local: localStorage.length, session: Object.keys(sessionStorage) }))
    expect(stored).toEqual({ local: 0, session: ['strata.studio.refresh'] })
  })

  it('shows what to do on the empty datasources screen', async () => {
    await expect.poll(() => page.getByText('No datasource yet').count()).toBe(1)
    // a new screen puts the focus on its heading: Tab goes on into the screen
    const stops = await checkAccessibility(page, 'datasources (empty)')
    expect(stops[0]).toBe('a:Add a datasource')
    // from the top of the page: the skip link first, then the navigation in order
    await page.locator('a.skip').focus()
    const order: string[] = []
    for (let i = 0; i < 6; i++) {
      order.push(await page.evaluate(() => (document.activeElement?.textContent ?? '').trim()))
      await page.keyboard.press('Tab')
    }
    expect(order).toEqual(['Skip to content', 'Strata studio', 'Datasources', 'Datamarts', 'Workspaces', 'Dashboards'])
    await shootBoth(page, '03-datasources-empty')
  })

  it('adds a PostgreSQL datasource from the generated form: a wrong password names the fix, then it saves and shows the tables', async () => {
    await page.getByRole('link', { name: 'Add a datasource' }).first().click()
    await page.getByRole('heading', { name: 'Add a datasource' }).waitFor()
    await expect.poll(() => page.getByLabel('Type').inputValue()).toBe('postgres')
    // the form comes from the type's credential schema: its labels and descriptions
    await page.getByLabel('Host', { exact: true }).waitFor()
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('password')
    await checkAccessibility(page, 'datasource form')
    await shootBoth(page, '04-datasource-form')
    await docsImage(page, 'datasource-form', STUDIO_DOCS)
    // another type's form: MongoDB's, with its CA field (a PEM text area), then back to PostgreSQL
    await page.getByLabel('Type').selectOption('mongodb')
    await page.getByText(/^More options/).click()
    await page.getByLabel('TLS CA certificate', { exact: true }).waitFor()
    await checkAccessibility(page, 'datasource form (mongodb)')
    await shootBoth(page, '04-datasource-form-mongodb')
    await page.getByLabel('Type').selectOption('postgres')
    await page.getByLabel('Host', { exact: true }).waitFor()
    const c = warehouse.credentials
    await page.getByLabel('Name', { exact: true }).fill('warehouse')
    await page.getByLabel('Host', { exact: true }).fill(c.host)
    await page.getByLabel('Port', { exact: true }).fill('1') // nothing listens there
    await page.getByLabel('Username', { exact: true }).fill(c.username)
    await page.getByLabel('Password', { exact: true }).fill(c.password)
    await page.getByLabel('Database', { exact: true }).fill(c.database)
    await page.getByLabel('Schema', { exact: true }).fill(c.schema)
    await page.getByRole('button', { name: 'Test connection and save' }).click()
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 20_000 })
      .toMatch(/Strata could not connect with these details\. Check the host, port/)
    await shootBoth(page, '05-datasource-connection-error')
    // nothing was stored: the datasource added from the list, as a person does it
    await openScreen(page, 'Datasources')
    await page.getByText('No datasource yet').waitFor()
    await addPostgresDatasource(page, 'warehouse', c, 'orders')
    expect(await page.getByRole('table', { name: `Columns of ${c.schema}.orders` }).textContent()).toMatch(/tenant/)
    await checkAccessibility(page, 'datasource tables')
    await shootBoth(page, '06-datasource-tables')
    await docsImage(page, 'datasource-tables', STUDIO_DOCS)
  })

  it('syncs: a table created since appears, with the progress and the result announced', async () => {
    await warehouse.query(`create table ${warehouse.schema}.refunds (id integer, tenant text, amount numeric)`)
    expect(await syncTables(page, 'warehouse')).toMatch(/Synced warehouse in \d+\.\d s: 3 tables/)
    await page.getByRole('heading', { name: `${warehouse.schema}.refunds` }).waitFor()
    await shootBoth(page, '07-datasource-synced')
  })

  it('lists the datasource', async () => {
    await openScreen(page, 'Datasources')
    await page.getByRole('link', { name: 'warehouse' }).waitFor()
    await checkAccessibility(page, 'datasources')
    await shootBoth(page, '08-datasources')
  })

  it('creates a datamart: tables picked, the tenant column, a hidden column and a label', async () => {
    await openScreen(page, 'Datamarts')
    await page.getByText('No datamart yet').waitFor()
    await checkAccessibility(page, 'datamarts (empty)')
    await shootBoth(page, '09-datamarts-empty')
    await page.getByRole('link', { name: 'Create a datamart' }).first().click()
    await page.getByRole('heading', { name: 'Create a datamart' }).waitFor()
    const s = warehouse.schema
    await page.getByLabel(`${s}.orders`).check()
    await page.getByLabel(`${s}.customers`).check()
    // the tenant column is proposed from its name; it can be changed
    const ordersSet = page.getByRole('group', { name: `${s}.orders` })
    expect(await ordersSet.getByLabel('Tenant column').inputValue()).toBe('tenant')
    await ordersSet.getByLabel('Label', { exact: true }).fill('Orders')
    await ordersSet.getByLabel('Hide status').check()
    await ordersSet.getByLabel('Label of amount').fill('Amount')
    await page.getByLabel('Name', { exact: true }).fill('sales')
    await checkAccessibility(page, 'datamart form')
    await shootBoth(page, '10-datamart-form')
    await docsImage(page, 'datamart-form', STUDIO_DOCS)
    await page.getByRole('button', { name: 'Create the datamart' }).click()
    await page.getByRole('heading', { name: 'Datamarts' }).waitFor()
    await page.getByRole('cell', { name: 'sales' }).waitFor()
    expect(await page.getByRole('table', { name: 'Datamarts' }).textContent()).toMatch(/orders \(tenant\)/)
    await shootBoth(page, '11-datamarts')
    // what was saved: through the API, with the admin's session
    const token = await page.evaluate(async () => {
      const refresh = sessionStorage.getItem('strata.studio.refresh')
      const res = await fetch('/api/v2/admin-account/jwt/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: refresh }),
      })
      const { data } = await res.json()
      sessionStorage.setItem('strata.studio.refresh', data.refreshToken)
      return data.accessToken as string
    })
    const list = await (
      await fetch(`${server.url}/api/v2/data-app/datamarts`, { headers: { authorization: `Bearer ${token}` } })
    ).json()
    const orders = list.data[0].datamartTables.find((t: { tableName: string }) => t.tableName === 'orders')
    expect(orders).toMatchObject({ clientColumn: 'tenant', label: 'Orders' })
    const columns = new Map(
      orders.datamartTableColumns.map((c: { columnName: string }) => [c.columnName, c]) as [string, unknown][],
    )
    expect(columns.get('status')).toMatchObject({ isHide: true })
    expect(columns.get('amount')).toMatchObject({ label: 'Amount' })
  })

  it('creates a workspace on the datamart', async () => {
    await openScreen(page, 'Workspaces')
    await page.getByText('No workspace yet').waitFor()
    await checkAccessibility(page, 'workspaces (empty)')
    await shootBoth(page, '12-workspaces-empty')
    await createWorkspace(page, 'main')
    await shootBoth(page, '13-workspaces')
  })

  it('creates a data app: its key is shown once, with a copy button, and never again', async () => {
    await openScreen(page, 'Data apps')
    await page.getByText('No data app yet').waitFor()
    await checkAccessibility(page, 'data apps (empty)')
    const key = await createDataApp(page, 'salesapp')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('key-heading')
    await checkAccessibility(page, 'data app key')
    await shootBoth(page, '14-data-app-key')
    await docsImage(page, 'data-app-key-390', { ...STUDIO_DOCS, widths: [390] })
    // the key works on the data app's routes
    const embeds = await fetch(`${server.url}/api/v2/data-app/embeds`, { headers: { authorization: `Bearer ${key}` } })
    expect(embeds.status).toBe(200)
    // a name taken: the error says what to do
    await page.getByLabel('Name', { exact: true }).fill('salesapp')
    await page.getByRole('button', { name: 'Create the data app' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/A data app has this name already/)
    await dismissKey(page, key)
    await shootBoth(page, '15-data-apps')
  })

  it('at 390 px the navigation is a menu, reachable and usable by keyboard', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    const menu = page.getByRole('button', { name: 'Menu' })
    expect(await page.getByRole('navigation').isVisible()).toBe(false)
    expect(await menu.getAttribute('aria-expanded')).toBe('false')
    await menu.focus()
    await page.keyboard.press('Enter')
    expect(await menu.getAttribute('aria-expanded')).toBe('true')
    await page.getByRole('navigation').getByRole('link', { name: 'Datasources' }).waitFor()
    await page.screenshot({ path: `${STUDIO_SHOTS}/16-menu-open-390.png`, fullPage: true })
    await page.keyboard.press('Tab') // the first link of the menu
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Datasources')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Datasources' }).waitFor()
    expect(await page.getByRole('navigation').isVisible()).toBe(false) // closed after choosing
    await page.setViewportSize({ width: 1440, height: 900 })
  })

  it('signs out: back to the sign-in form, the refresh token gone; signing in again works', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in to the studio' }).waitFor()
    expect(await page.getByRole('status').textContent()).toMatch(/You are signed out/)
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await checkAccessibility(page, 'sign in')
    await shootBoth(page, '17-sign-in')
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill('Wr0ng!pass')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/The password is not right/)
    await shootBoth(page, '18-sign-in-error')
    await signIn(page, server.url, ADMIN)
    // a reload resumes the session (refresh token in this tab's sessionStorage)
    await page.reload()
    await page.getByRole('heading', { name: 'Datasources' }).waitFor()
    // every call the studio made is an API route (no other server part)
    expect(calls.every((c) => / \/api\/v2\//.test(c))).toBe(true)
  })
})
