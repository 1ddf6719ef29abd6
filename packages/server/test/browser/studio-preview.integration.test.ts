/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { salesDocument } from '../helpers/analytics.js'
import { CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { checkAccessibility, STUDIO_DOCS, shootBoth } from '../helpers/studio.js'
import { type AdminApi, type AdminCall, STUDIO_ADMIN, studioCompany } from '../helpers/studio-company.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/**
 * The studio's preview and datamart edits, in Chromium, on a server whose preview tokens live
 * 6 seconds (STUDIO_PREVIEW_TTL_S): a dashboard screen with no data app says what to do; the
 * preview offers the tenant column's values (searched on the server) and still draws after its
 * token expired (the studio mints another on strata-token-expired); and an existing datamart
 * edited in the studio (a relationship added) changes what a query can do.
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)
const ADMIN = STUDIO_ADMIN
const TTL_S = 6

describe.skipIf(!hasChromium || !hasPostgres)('the studio: tenant list, token re-mint, datamart edit', () => {
  let dataDir: string
  let server: ServerProcess
  let browser: Browser
  let page: Page
  let wh: PgWarehouse
  let call: AdminCall
  let api: AdminApi
  /** Preview-token mints and runtime queries the page made: [time, status]. */
  const mints: number[] = []
  const queries: { at: number; status: number }[] = []

  /** The suggestions the tenant field offers now. */
  const suggestions = (input: string) =>
    page.evaluate(
      (id) => [...(document.getElementById(id) as HTMLInputElement).list!.options].map((o) => o.value),
      input,
    )

  beforeAll(async () => {
    wh = await createPgWarehouse()
    dataDir = tempDataDir()
    server = await startServer({
      env: { DATA_DIR: dataDir, STUDIO_PREVIEW_TTL_S: String(TTL_S) },
      readyTimeoutMs: 60_000,
    })
    ;({ call, api } = await studioCompany(server.url, wh))
    await api('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: salesDocument(wh.schema),
    })
    // a datamart without relationships, with a label and a hidden column the edit must keep
    await api('POST', '/api/v2/data-app/datamarts', {
      name: 'bare',
      datasourceName: 'warehouse',
      tableList: [
        {
          schemaName: wh.schema,
          name: 'orders',
          label: 'Orders',
          clientColumn: 'tenant',
          columns: [
            { name: 'status', label: 'Order status' },
            { name: 'amount', alias: 'amt', defaultSort: 'DESC' },
            { name: 'amount_eur', isCustomColumn: true, sql: 'amount * 0.92', label: 'Amount (EUR)' },
          ],
        },
        { schemaName: wh.schema, name: 'customers', clientColumn: 'tenant', columns: [{ name: 'name', isHide: true }] },
      ],
    })
    await api('POST', '/api/v2/workspace', { name: 'bare', connectionType: 'DATAMART', datamartName: 'bare' })
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (e) => console.error('page error:', e.message))
    page.on('response', (r) => {
      if (r.url().endsWith('/api/v2/studio/preview-token')) mints.push(Date.now())
      if (/\/embed\/runtime\/[^/]+\/query$/.test(r.url())) queries.push({ at: Date.now(), status: r.status() })
    })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await wh?.drop()
    removeDir(dataDir)
  })

  it('a dashboard with no data app yet says to create one, and links there', async () => {
    await page.goto(`${server.url}/studio`)
    await page.getByLabel('Email').fill(ADMIN.email)
    await page.getByLabel('Password').fill(ADMIN.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboards' }).click()
    await page.getByRole('link', { name: 'Sales overview' }).click()
    await page.getByText('A data app is needed first').waitFor()
    const link = page.getByRole('link', { name: 'Create a data app' })
    expect(await link.getAttribute('href')).toBe('#/data-apps')
    // nothing to build or preview without one: no tabs, no element
    expect(await page.getByRole('group', { name: 'Dashboard parts' }).count()).toBe(0)
    expect(await page.locator('strata-dashboard').count()).toBe(0)
    await checkAccessibility(page, 'dashboard (no data app)')
    await shootBoth(page, 'dashboard-no-data-app')
    await docsImage(page, 'dashboard-no-data-app-390', { ...STUDIO_DOCS, widths: [390] })
  })

  it("offers the tenant column's values in the preview, searched on the server", async () => {
    await api('POST', '/api/v2/data-app', { name: 'salesapp' })
    await page.reload()
    await page.getByRole('button', { name: 'Preview as a tenant' }).click()
    const field = page.getByLabel('Tenant (clientId)')
    await field.waitFor()
    const tenants = (
      await wh.query<{ tenant: string }>(`select distinct tenant from ${wh.schema}.orders order by tenant`)
    ).map((r) => r.tenant)
    await expect.poll(() => suggestions('pv-tenant')).toEqual(tenants)
    await page.getByText(`${tenants.length} tenants in ${wh.schema}.orders.tenant`).waitFor()
    await field.fill('GLO')
    await expect.poll(() => suggestions('pv-tenant')).toEqual(['globex'])
    await field.fill('nobody')
    await page.getByText('No tenant in').waitFor()
    await expect.poll(() => suggestions('pv-tenant')).toEqual([])
    await checkAccessibility(page, 'preview (tenant list)')
    await field.fill('glo')
    await expect.poll(() => suggestions('pv-tenant')).toEqual(['globex'])
    await shootBoth(page, 'dashboard-preview-tenants')
    await docsImage(page, 'dashboard-preview-tenants', { ...STUDIO_DOCS, height: 900 })
  })

  it('keeps drawing the preview after its token expired: the studio mints another', async () => {
    const field = page.getByLabel('Tenant (clientId)')
    await field.fill('globex')
    await page.getByRole('button', { name: 'Preview', exact: true }).click()
    await page.getByText('Seen as tenant').waitFor()
    const element = page.locator('studio-dashboard-preview strata-dashboard')
    await element.waitFor()
    await expect.poll(() => queries.filter((q) => q.status === 200).length, { timeout: 15_000 }).toBeGreaterThan(0)
    const minted = mints.length
    // past the token's life: the next query is refused, the element says so, the studio mints again
    await page.waitForTimeout((TTL_S + 1) * 1000)
    const expiredAt = Date.now()
    await element.evaluate((el) => (el as unknown as { refresh(): void }).refresh())
    await expect.poll(() => mints.length, { timeout: 15_000 }).toBeGreaterThan(minted)
    expect(queries.some((q) => q.at >= expiredAt && q.status === 401)).toBe(true)
    await expect.poll(() => queries.some((q) => q.at >= expiredAt && q.status === 200), { timeout: 15_000 }).toBe(true)
    // the same element, still showing globex's numbers, and no error on the page
    expect(await page.locator('studio-dashboard-preview strata-dashboard').count()).toBe(1)
    expect(await page.locator('.notice.error').count()).toBe(0)
    const state = await element.evaluate((el) => el.getAttribute('state') ?? el.shadowRoot?.textContent ?? '')
    expect(state).not.toMatch(/expired|error/i)
  }, 60_000)

  it('edits an existing datamart: a relationship added takes effect in a query', async () => {
    const crossTable = {
      name: 'By country',
      metrics: [
        {
          metricId: 'by_country',
          name: 'Revenue by country',
          chart: { type: 'bar', x: 'country', y: ['revenue'] },
          query: {
            from: `${wh.schema}.orders`,
            measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
            dimensions: [{ name: 'country', table: `${wh.schema}.customers`, column: 'country' }],
            orderBy: [{ name: 'country', direction: 'asc' }],
          },
        },
      ],
    }
    const importIt = () =>
      call('POST', '/api/v2/data-app/import-dashboard', {
        workspaceName: 'bare',
        dashboardId: 'by-country',
        importDashboardData: crossTable,
      })
    const before = await importIt()
    expect(before.status, JSON.stringify(before.json)).toBe(400)

    await page.getByRole('navigation').getByRole('link', { name: 'Datamarts' }).click()
    await page.getByRole('link', { name: 'Edit datamart bare' }).click()
    await page.getByRole('heading', { level: 1, name: 'Edit datamart bare' }).waitFor()
    // the stored choices are shown: both tables picked, the tenant column, the label, the hidden column
    const id = (table: string) => `${wh.schema}_${table}`
    expect(await page.locator(`#t-${id('orders')}`).isChecked()).toBe(true)
    expect(await page.locator(`#t-${id('customers')}`).isChecked()).toBe(true)
    expect(await page.locator(`#tenant-col-${id('orders')}`).inputValue()).toBe('tenant')
    expect(await page.getByLabel('Hide name').isChecked()).toBe(true)
    expect(await page.getByLabel('Label of status').inputValue()).toBe('Order status')
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('readonly')).not.toBeNull()
    await page.getByRole('button', { name: 'Add a relationship' }).click()
    await expect.poll(() => page.locator('#rel-1-left-column').inputValue()).toBe('customer_id')
    await checkAccessibility(page, 'datamart edit')
    await shootBoth(page, 'datamart-edit')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Datamart bare saved.').waitFor()
    await shootBoth(page, 'datamarts-saved')
    await docsImage(page, 'datamarts-saved', STUDIO_DOCS)

    const [listed] = (await api('GET', '/api/v2/data-app/datamarts')).data.filter(
      (d: { name: string }) => d.name === 'bare',
    )
    expect(listed.datamartRelationships).toMatchObject([
      { parentTableName: `${wh.schema}.orders`, parentColumnName: 'customer_id', childColumnName: 'id' },
    ])
    const orders = listed.datamartTables.find((t: { tableName: string }) => t.tableName === 'orders')
    const customers = listed.datamartTables.find((t: { tableName: string }) => t.tableName === 'customers')
    expect(orders.label).toBe('Orders')
    expect(orders.datamartTableColumns.find((c: { columnName: string }) => c.columnName === 'status').label).toBe(
      'Order status',
    )
    expect(customers.datamartTableColumns.find((c: { columnName: string }) => c.columnName === 'name').isHide).toBe(
      true,
    )
    // what the form does not show is kept as stored: a custom column, an alias, a default sort
    const column = (name: string) =>
      orders.datamartTableColumns.find((c: { columnName: string }) => c.columnName === name)
    expect(column('amount')).toMatchObject({ alias: 'amt', defaultSort: 'DESC' })
    expect(column('amount_eur')).toMatchObject({ isCustomColumn: true, sql: 'amount * 0.92', label: 'Amount (EUR)' })

    const after = await importIt()
    expect(after.status, JSON.stringify(after.json)).toBe(200)
    const { token } = (
      await api('POST', '/api/v2/studio/preview-token', {
        dataAppName: 'salesapp',
        workspaceName: 'bare',
        dashboardId: 'by-country',
        clientId: 'acme',
      })
    ).data
    const res = await fetch(`${server.url}/api/v2/embed/runtime/by-country/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ metricId: 'by_country' }),
    })
    const body = await res.json()
    expect(res.status, JSON.stringify(body)).toBe(200)
    const expected = await wh.query<{ country: string; revenue: string }>(
      `select c.country, sum(o.amount) revenue from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
       where o.tenant = 'acme' and c.tenant = 'acme' group by c.country order by c.country`,
    )
    expect(body.data.map((r: { country: string; revenue: unknown }) => [r.country, Number(r.revenue)])).toEqual(
      expected.map((r) => [r.country, Number(r.revenue)]),
    )
  }, 60_000)
})
