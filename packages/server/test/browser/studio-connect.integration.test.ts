/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'
import { createPasswordDatabase, type PasswordDatabase } from '../helpers/mariadb-user.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { checkAccessibility, STUDIO_DOCS, shootBoth } from '../helpers/studio.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/**
 * The studio's "connect data" screens beyond the first setup, in Chromium on a fresh server:
 * editing a datasource keeps its stored password (a MariaDB user that has one: the datasource
 * still connects after an edit that left the password empty), a refused field is named under
 * its input; a sync shows its progress and what changed; a datamart's relationship is added in
 * the form and joins in a real query, FULL JOIN is offered only where the engine has it, and
 * the server's refusal of a relationship is shown beside it.
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)
const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)
const ADMIN = { firstName: 'Alice', companyName: 'Acme', email: 'alice@example.com', password: 'Str0ng!Pass' }
const num = (v: unknown) => Math.round(Number(v) * 100) / 100

describe.skipIf(!hasChromium || !hasPostgres || !hasMaria)('the studio: edit, relationships, sync', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let page: Page
  let warehouse: PgWarehouse
  let shop: PasswordDatabase
  let token: string

  const api = async (method: string, path: string, body?: unknown, bearer = token) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    // biome-ignore lint/suspicious/noExplicitAny: JSON answers, read field by field below
    return { status: res.status, json: (await res.json()) as Record<string, any> }
  }

  beforeAll(async () => {
    warehouse = await createPgWarehouse()
    shop = await createPasswordDatabase()
    dataDir = tempDataDir()
    server = await startServer({ env: { DATA_DIR: dataDir }, readyTimeoutMs: 60_000 })
    const created = await fetch(`${server.url}/api/v2/admin-account`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    })
    token = ((await created.json()) as { data: { accessToken: string } }).data.accessToken
    for (const body of [
      { datasourceType: 'mysql', credentials: { name: 'shop', ...shop.credentials } },
      { datasourceType: 'postgres', credentials: { name: 'warehouse', ...warehouse.credentials } },
    ]) {
      const res = await api('POST', '/api/v2/datasource', body)
      expect(res.status, JSON.stringify(res.json)).toBe(200)
    }
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.setDefaultTimeout(10_000)
    await page.goto(`${server.url}/studio`)
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Datasources' }).waitFor()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await warehouse?.drop()
    await shop?.drop()
    removeDir(dataDir)
  })

  it('opens the edit form with the stored values; the password is never shown and says it is kept', async () => {
    await page.getByRole('link', { name: 'shop' }).click()
    await page.getByRole('heading', { name: 'shop' }).waitFor()
    await page.getByRole('link', { name: 'Edit connection' }).click()
    await page.getByRole('heading', { name: 'Edit shop' }).waitFor()
    const c = shop.credentials
    expect(await page.getByLabel('Host', { exact: true }).inputValue()).toBe(c.host)
    expect(await page.getByLabel('Port', { exact: true }).inputValue()).toBe(String(c.port))
    expect(await page.getByLabel('User', { exact: true }).inputValue()).toBe(c.user)
    const password = page.getByLabel('Password', { exact: true })
    expect(await password.inputValue()).toBe('')
    expect(await password.getAttribute('placeholder')).toBe('Stored — leave empty to keep')
    expect(await page.getByText('Stored — leave empty to keep it.').count()).toBe(1)
    expect(await page.content()).not.toContain(c.password)
    expect(await page.getByLabel('Type').isDisabled()).toBe(true)
    await checkAccessibility(page, 'datasource edit')
    await shootBoth(page, '20-datasource-edit')
    await docsImage(page, 'datasource-edit', { ...STUDIO_DOCS, height: 760 })
  })

  it('names the refused field under its input: a stored password is not sent to a new host', async () => {
    await page.getByLabel('Host', { exact: true }).fill('localhost')
    await page.getByRole('button', { name: 'Test connection and save changes' }).click()
    await expect
      .poll(() => page.locator('#cred-password-error').textContent())
      .toMatch(/^password is required when host changes: a stored secret is only reused/)
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    // the focus is on the field to fix
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cred-password')
    await checkAccessibility(page, 'datasource edit (field error)')
    await shootBoth(page, '21-datasource-edit-field-error')
    await docsImage(page, 'datasource-edit-error-390', { ...STUDIO_DOCS, widths: [390] })
  })

  it('keeps the stored password when it is left empty: saved after a tested connection, and it still connects', async () => {
    await page.getByLabel('Host', { exact: true }).fill(shop.credentials.host)
    await page.getByLabel('Database', { exact: true }).fill(shop.credentials.database)
    await page.getByRole('button', { name: 'Test connection and save changes' }).click()
    await page.getByRole('heading', { name: 'shop' }).waitFor({ timeout: 20_000 })
    await expect.poll(() => page.getByRole('status').allTextContents()).toContainEqual(expect.stringMatching(/^Saved/))
    // the datasource connects with the kept password (this MariaDB user has one; a wrong one is refused)
    const synced = await api('POST', '/api/v2/datasource/sync', { input: { datasourceId: 'shop' } })
    expect(synced.json).toEqual({ data: { message: 'Synced datasource shop: 1 tables' } })
    const wrong = await api('PUT', '/api/v2/datasource', {
      datasourceType: 'mysql',
      credentials: { name: 'shop', ...shop.credentials, password: 'not-it' },
    })
    expect(wrong.json.error.code).toBe('DATASOURCE_CONNECTION_ERROR')
  })

  it('syncs with an indeterminate progress and the elapsed time, then says what changed', async () => {
    await warehouse.query(`create table ${warehouse.schema}.refunds (id integer, tenant text, amount numeric)`)
    await warehouse.query(`alter table ${warehouse.schema}.customers add column segment text`)
    await page.getByRole('navigation').getByRole('link', { name: 'Datasources' }).click()
    await page.getByRole('link', { name: 'warehouse' }).click()
    await page.getByRole('heading', { name: 'warehouse' }).waitFor()
    // a slow warehouse: the sync's answer is held back 4 s, so its progress is on screen meanwhile
    await page.route('**/api/v2/datasource/sync', async (route) => {
      await new Promise((r) => setTimeout(r, 4000))
      await route.continue()
    })
    await page.getByRole('button', { name: 'Sync tables' }).click()
    await page.getByRole('progressbar', { name: 'Sync in progress' }).waitFor()
    await expect.poll(() => page.getByTestId('sync-elapsed').textContent()).toMatch(/^([0-3]\.\d) s elapsed$/)
    await expect.poll(() => page.getByTestId('sync-elapsed').textContent()).not.toBe('0.0 s elapsed')
    expect(await page.getByRole('button', { name: 'Syncing…' }).isDisabled()).toBe(true)
    await shootBoth(page, '22-sync-progress')
    const result = page.getByTestId('sync-result')
    await result.waitFor()
    await page.unroute('**/api/v2/datasource/sync')
    expect(await result.textContent()).toMatch(/Synced warehouse in \d+\.\d s: 3 tables, 14 columns\./)
    expect(await result.textContent()).toContain(`New table: ${warehouse.schema}.refunds`)
    expect(await result.textContent()).toContain(`New column: ${warehouse.schema}.customers.segment`)
    await page.getByRole('heading', { name: `${warehouse.schema}.refunds` }).waitFor()
    await checkAccessibility(page, 'datasource synced')
    await shootBoth(page, '23-sync-result')
    // the top of the page, for docs/studio.md
    await docsImage(page, 'datasource-sync', { ...STUDIO_DOCS, height: 420 })
    // again, nothing changed: it says so
    await page.getByRole('button', { name: 'Sync tables' }).click()
    await expect.poll(() => result.textContent()).toMatch(/Nothing changed since the last sync/)
  })

  it('offers FULL JOIN only where the engine has it, and shows the server refusal beside the relationship', async () => {
    await page.goto(`${server.url}/studio#/datamarts/new?datasource=shop`)
    await page.getByRole('heading', { name: 'Create a datamart' }).waitFor()
    await page.getByLabel(`${shop.credentials.database}.items`).check()
    await page.getByRole('button', { name: 'Add a relationship' }).click()
    const rel = page.getByRole('group', { name: 'Relationship 1' })
    // the focus goes to the new relationship's first field
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('rel-1-left-table')
    const full = rel.getByLabel('Join').locator('option[value="FULL JOIN"]')
    expect(await full.isDisabled()).toBe(true)
    expect(await full.textContent()).toMatch(/not on mysql/)
    // a types list that claims FULL JOIN for mysql (as an older server might): the server still refuses, beside it
    await page.route('**/api/v2/datasource/types', async (route) => {
      const res = await route.fetch()
      const body = (await res.json()) as { data: { datasourceType: string; fullJoin: boolean }[] }
      for (const t of body.data) t.fullJoin = true
      await route.fulfill({ response: res, json: body })
    })
    await page.reload()
    await page.getByRole('heading', { name: 'Create a datamart' }).waitFor()
    await page.getByLabel(`${shop.credentials.database}.items`).check()
    await page.getByRole('button', { name: 'Add a relationship' }).click()
    await rel.getByLabel('Join').selectOption('FULL JOIN')
    await page.getByLabel('Name', { exact: true }).fill('shopmart')
    await page.getByRole('button', { name: 'Create the datamart' }).click()
    await expect
      .poll(() => rel.locator('.field-error').textContent())
      .toMatch(/^joinType: mysql datasources have no FULL JOIN/)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('rel-1-left-table')
    await shootBoth(page, '24-relationship-refused')
    await page.unroute('**/api/v2/datasource/types')
    // removing it leaves the datamart without relationships, and the focus on the add button
    await rel.getByRole('button', { name: 'Remove relationship 1' }).click()
    expect(await page.getByRole('group', { name: 'Relationship 1' }).count()).toBe(0)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('add-relationship')
  })

  it('adds a relationship in the datamart form; the join works in a query of a dashboard', async () => {
    await page.goto(`${server.url}/studio#/datamarts/new?datasource=warehouse`)
    await page.getByRole('heading', { name: 'Create a datamart' }).waitFor()
    const s = warehouse.schema
    expect(await page.getByText('Pick two or more tables above to join them.').count()).toBe(1)
    await page.getByLabel(`${s}.orders`).check()
    await page.getByLabel(`${s}.customers`).check()
    await page.getByRole('button', { name: 'Add a relationship' }).click()
    const rel = page.getByRole('group', { name: 'Relationship 1' })
    // guessed from the names: orders.customer_id = customers.id; the pickers hold the tables' columns
    expect(await rel.getByLabel('Left table').inputValue()).toBe(`${s}.orders`)
    expect(await rel.getByLabel('Left column').inputValue()).toBe('customer_id')
    expect(await rel.getByLabel('Right table').inputValue()).toBe(`${s}.customers`)
    expect(await rel.getByLabel('Right column').inputValue()).toBe('id')
    expect(await rel.getByLabel('Right column').locator('option').allTextContents()).toEqual([
      'id (integer)',
      'name (string)',
      'country (string)',
      'tenant (string)',
      'segment (string)',
    ])
    expect(await rel.getByLabel('Join').locator('option[value="FULL JOIN"]').isDisabled()).toBe(false)
    await rel.getByLabel('Join').selectOption('INNER JOIN')
    await page.getByLabel('Name', { exact: true }).fill('sales')
    await checkAccessibility(page, 'datamart form with a relationship')
    await shootBoth(page, '25-datamart-relationship')
    await docsImage(page, 'datamart-relationships', { ...STUDIO_DOCS, target: page.locator('section.relationships') })
    await page.getByRole('button', { name: 'Create the datamart' }).click()
    await page.getByRole('cell', { name: 'sales' }).waitFor()
    const list = await api('GET', '/api/v2/data-app/datamarts?expandDetails=true')
    const sales = list.json.data.find((d: { name: string }) => d.name === 'sales')
    expect(sales.datamartRelationships).toEqual([
      expect.objectContaining({
        parentTableName: `${s}.orders`,
        parentColumnName: 'customer_id',
        childTableName: `${s}.customers`,
        childColumnName: 'id',
        join: 'INNER JOIN',
      }),
    ])
    // a dashboard metric over orders by the customers' country: the query joins through it
    const { key } = (await api('POST', '/api/v2/data-app', { name: 'salesapp' })).json
    expect(
      (await api('POST', '/api/v2/workspace', { name: 'main', connectionType: 'DATAMART', datamartName: 'sales' }))
        .status,
    ).toBe(200)
    const imported = await api('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: salesDocument(s),
    })
    expect(imported.status, JSON.stringify(imported.json)).toBe(200)
    const embed = await api(
      'POST',
      '/api/v2/data-app/embeds',
      {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'Sales',
        accessSettings: ACCESS,
      },
      key,
    )
    const res = await api(
      'POST',
      '/api/v2/data-app/query',
      { embedId: embed.json.id, metricId: 'revenue_by_country', clientId: 'acme' },
      key,
    )
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const expected = await warehouse.query<{ country: string; revenue: string }>(
      `select c.country, sum(o.amount) revenue from ${s}.orders o join ${s}.customers c on c.id = o.customer_id
       where o.tenant = 'acme' and c.tenant = 'acme' group by c.country order by c.country`,
    )
    expect(expected.length).toBeGreaterThan(1)
    const rows = res.json.data as { country: string; revenue: unknown }[]
    expect(rows.map((r) => [r.country, num(r.revenue)])).toEqual(expected.map((r) => [r.country, num(r.revenue)]))
  })
})
