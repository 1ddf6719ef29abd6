/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { salesDocument } from '../helpers/analytics.js'
import { CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { shootBoth } from '../helpers/studio.js'
import {
  backwardSteps,
  checkDialog,
  checkNames,
  checkScreen,
  checkStructure,
  tabOrder,
} from '../helpers/studio-a11y.js'
import { type AdminApi, STUDIO_ADMIN, studioCompany } from '../helpers/studio-company.js'
import { buildAsTenant, createDataApp, dismissKey, signIn } from '../helpers/studio-steps.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/**
 * Every screen of the studio, for keyboard and screen-reader users, on a server with the demo
 * and a PostgreSQL datasource: at 1440 and at 390 px, each screen has one main landmark with its
 * h1, a named navigation, no skipped heading level, a name for every control in Chromium's
 * accessibility tree, and a Tab order that starts at the skip link, goes through the navigation
 * (or the Menu button) and then the screen's controls in reading order, each with a visible
 * focus. The two confirmations are modal dialogs that keep the focus and give it back. Each
 * screen is photographed at both widths (STUDIO_SHOTS).
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasChromium || !hasPostgres)('the studio: every screen, by keyboard and screen reader', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let page: Page
  let wh: PgWarehouse
  let api: AdminApi
  let embedId = ''

  const open = async (route: string, heading: string | RegExp) => {
    await page.goto(`${server.url}/studio#/${route}`)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  }
  /** The checks at both widths, then the screenshots. */
  const look = async (name: string) => {
    await page.setViewportSize({ width: 1440, height: 900 })
    await checkScreen(page, `${name} at 1440`)
    await page.setViewportSize({ width: 390, height: 844 })
    await checkScreen(page, `${name} at 390`)
    await page.setViewportSize({ width: 1440, height: 900 })
    await shootBoth(page, name)
  }

  beforeAll(async () => {
    wh = await createPgWarehouse()
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir, DEMO: 'true' }, readyTimeoutMs: 150_000 })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    page = await context.newPage()
    page.setDefaultTimeout(15_000)
  }, 240_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await wh?.drop()
    removeDir(dataDir)
  }, 180_000)

  it('the account forms: a main landmark, named fields, Tab in reading order', async () => {
    for (const phase of ['create', 'signin'] as const) {
      if (phase === 'create') {
        await page.goto(`${server.url}/studio`)
        await page.getByRole('heading', { name: 'Welcome to Strata' }).waitFor()
      } else {
        ;({ api } = await studioCompany(server.url, wh))
        await page.reload()
        await page.getByRole('heading', { name: 'Sign in to the studio' }).waitFor()
      }
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
        const screen = `${phase} at ${width}`
        await checkStructure(page, screen, false)
        await checkNames(page, screen)
        const stops = await tabOrder(page, page.locator('input').first())
        expect(stops.at(-1)?.name, screen).toMatch(/^button:(Create the account|Sign in)/)
        expect(backwardSteps(stops), screen).toEqual([])
      }
      await page.setViewportSize({ width: 1440, height: 900 })
      await shootBoth(page, `a11y-${phase}`)
    }
    await signIn(page, server.url, { email: STUDIO_ADMIN.email, password: STUDIO_ADMIN.password })
  }, 180_000)

  it('datasources: the list, the form, a datasource with its sync in progress, its edit form', async () => {
    await look('a11y-datasources')
    await open('datasources/new', 'Add a datasource')
    await page.getByLabel('Host', { exact: true }).waitFor()
    await look('a11y-datasource-new')
    await open('datasources/warehouse', 'warehouse')
    await page.getByRole('heading', { name: `${wh.schema}.orders` }).waitFor()
    await look('a11y-datasource-detail')
    // the sync's progress, held back long enough to be seen
    await page.route('**/api/v2/datasource/sync*', async (route) => {
      await new Promise((r) => setTimeout(r, 2500))
      await route.continue()
    })
    await page.getByRole('button', { name: 'Sync tables' }).click()
    await page.locator('progress').waitFor()
    await shootBoth(page, 'a11y-datasource-syncing')
    await page.getByTestId('sync-result').waitFor()
    await page.unroute('**/api/v2/datasource/sync*')
    await shootBoth(page, 'a11y-datasource-synced')
    await open('datasources/warehouse?edit', 'Edit warehouse')
    await page.getByLabel('Host', { exact: true }).waitFor()
    await look('a11y-datasource-edit')
  }, 180_000)

  it('datamarts: the list, a new one with a relationship, an existing one', async () => {
    await open('datamarts', 'Datamarts')
    await page.getByRole('link', { name: 'Edit datamart sales', exact: true }).waitFor()
    await look('a11y-datamarts')
    await open('datamarts/new?datasource=warehouse', 'Create a datamart')
    await page.getByLabel(`${wh.schema}.orders`).check()
    await page.getByLabel(`${wh.schema}.customers`).check()
    await page.getByRole('button', { name: 'Add a relationship' }).click()
    await look('a11y-datamart-new')
    await open('datamarts/sales', 'Edit datamart sales')
    await page.getByRole('group', { name: 'Relationship 1' }).waitFor()
    await look('a11y-datamart-edit')
  }, 180_000)

  it('workspaces', async () => {
    await open('workspaces', 'Workspaces')
    await page.getByRole('cell', { name: 'main', exact: true }).waitFor()
    await look('a11y-workspaces')
  }, 180_000)

  it("data apps: the list, a new key shown once, a data app's keys and origins, the revoke dialog", async () => {
    await page.goto(`${server.url}/studio#/datasources`)
    const key = await createDataApp(page, 'salesapp')
    await look('a11y-data-app-key')
    await dismissKey(page, key)
    await look('a11y-data-apps')
    await open('data-apps/salesapp', 'salesapp')
    await page.getByRole('table', { name: 'API keys of salesapp' }).waitFor()
    await page.getByLabel('Key name').fill('production')
    await page.getByRole('button', { name: 'Create a key' }).click()
    await page.getByTestId('fresh-key').waitFor()
    await look('a11y-data-app-new-key')
    await page.getByRole('button', { name: 'I have saved it' }).click()
    await page.getByRole('textbox', { name: 'Origin' }).fill('https://app.example.com')
    await page.getByRole('button', { name: 'Add the origin' }).click()
    await page.getByRole('alert').filter({ hasText: 'Leave out the scheme' }).waitFor()
    await look('a11y-data-app-origin-error')
    const revoke = page.getByRole('button', { name: 'Revoke key production' })
    await checkDialog(page, revoke, 'revoke a key')
    await revoke.click()
    await page.getByRole('alertdialog', { name: 'Revoke key production?' }).waitFor()
    await shootBoth(page, 'a11y-data-app-revoke')
    await page.getByRole('button', { name: 'Keep it' }).click()
  }, 180_000)

  it('dashboards: the list, Build, Filters, SQL metric, Rollups, Preview as a tenant', async () => {
    await api('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: salesDocument(wh.schema),
    })
    await open('dashboards', 'Dashboards')
    await page.locator('a[href="#/dashboards/main/sales-overview"]').waitFor()
    await look('a11y-dashboards')
    await open('dashboards/main/sales-overview', 'Sales overview')
    await page.getByRole('group', { name: 'Dashboard parts' }).waitFor()
    await buildAsTenant(page, 'acme')
    await look('a11y-dashboard-build')
    await page.getByRole('button', { name: 'Filters' }).click()
    await page.getByRole('button', { name: 'Save filters' }).waitFor()
    await look('a11y-dashboard-filters')
    await page.getByRole('button', { name: 'SQL metric' }).click()
    await page.getByRole('button', { name: 'Run on the warehouse' }).waitFor()
    await look('a11y-dashboard-sql')
    // the rollups panel (a chunk loaded when its tab opens): the empty state, then a declared rollup's form
    await page.getByRole('button', { name: 'Rollups' }).click()
    await page.getByText('No rollup yet').waitFor()
    await page.getByRole('radio', { name: 'Declared', exact: true }).check()
    await page.getByRole('group', { name: 'Measures' }).waitFor()
    await look('a11y-dashboard-rollups')
    await page.getByRole('button', { name: 'Preview as a tenant' }).click()
    await page.locator('#pv-tenant').fill('globex')
    await page.getByRole('button', { name: 'Preview', exact: true }).click()
    await page.locator('strata-dashboard[aria-label="Preview as globex"]').waitFor()
    await look('a11y-dashboard-preview')
  }, 180_000)

  it('embeds: the list, a new one, its settings and snippets, the delete dialog', async () => {
    await page.goto(`${server.url}/studio#/embeds?app=salesapp`)
    await page.getByText('No embed in salesapp yet').waitFor()
    await look('a11y-embeds-empty')
    await page.getByRole('link', { name: 'Create embed' }).click()
    await page.getByRole('heading', { name: 'Create an embed' }).waitFor()
    await page.getByLabel('Workspace').selectOption('main')
    await expect.poll(() => page.getByLabel('Dashboard', { exact: true }).inputValue()).toBe('sales-overview')
    await page.getByLabel('One metric of it').check()
    await look('a11y-embed-new')
    await page.getByLabel('The whole dashboard').check()
    await page.getByLabel('Name', { exact: true }).fill('Sales for customers')
    await page.getByLabel('See the underlying data and download it').check()
    await page.getByRole('button', { name: 'Create the embed' }).click()
    await page.getByRole('heading', { level: 1, name: 'Sales for customers' }).waitFor()
    embedId = /emb_[0-9a-f]+/.exec((await page.locator('.lead code').textContent()) ?? '')?.[0] ?? ''
    await look('a11y-embed-detail')
    const remove = page.getByRole('button', { name: 'Delete this embed' })
    await checkDialog(page, remove, 'delete an embed')
    await remove.click()
    await page.getByRole('alertdialog', { name: 'Delete Sales for customers?' }).waitFor()
    await shootBoth(page, 'a11y-embed-delete')
    await page.getByRole('button', { name: 'Keep it' }).click()
    await page.goto(`${server.url}/studio#/embeds?app=salesapp`)
    await page.getByRole('link', { name: 'Sales for customers' }).waitFor()
    expect(embedId).toMatch(/^emb_/)
    await look('a11y-embeds')
  }, 180_000)

  it('a screen that does not exist', async () => {
    await open('nowhere', 'Not found')
    await look('a11y-not-found')
  }, 60_000)
})
