/// <reference lib="dom" />
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'
import type { ServerProcess } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { checkAccessibility, STUDIO_DOCS, shootBoth } from '../helpers/studio.js'
import { type AdminApi, STUDIO_ADMIN } from '../helpers/studio-company.js'
import { type StudioRun, startStudioRun } from '../helpers/studio-run.js'
import { buildAsTenant, buildMetric, signIn } from '../helpers/studio-steps.js'
import type { PgWarehouse } from '../helpers/warehouse.js'

/**
 * Authoring in the studio, in Chromium: on a server whose data is connected (a PostgreSQL
 * schema with a tenant column), a new dashboard gets four metrics from the web component's own
 * builder in the company's mode (saved into the document with PUT, not as a tenant's metric),
 * a filter and a SQL metric the warehouse refuses; it is previewed as two tenants whose numbers
 * are the warehouse's for each; and the document the studio saved equals what the same
 * dashboard written by hand imports to. Every screen passes the accessibility checks and is
 * photographed at 1440 and 390 px.
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)
const ADMIN = STUDIO_ADMIN

describe.skipIf(!hasChromium || !hasPostgres)('the studio: authoring and previewing a dashboard', () => {
  let run: StudioRun | undefined
  let server: ServerProcess
  let page: Page
  let wh: PgWarehouse
  let api: AdminApi
  const exported = async (dashboardId: string) =>
    (await api('POST', '/api/v2/data-app/export-dashboard', { workspaceName: 'main', dashboardId })).data
  /** The checks from the screen's heading (Tab then walks the screen from its top). */
  const a11y = async (screen: string) => {
    await page.locator('h1').focus()
    await checkAccessibility(page, screen)
  }
  /** A tenant's revenue under the dashboard's status filter (its default: paid and shipped). */
  const revenueOf = async (tenant: string) => {
    const [row] = await wh.query<{ s: string }>(
      `select sum(amount) s from ${wh.schema}.orders where tenant = $1 and status in ('paid', 'shipped')`,
      [tenant],
    )
    return Number(row?.s)
  }

  beforeAll(async () => {
    run = await startStudioRun({
      // the fixture's tenants have the same revenue: one more order makes acme's differ
      prepare: (wh) =>
        wh.query(
          `insert into ${wh.schema}.orders values (9001, 3, 'acme', 'paid', 500, timestamptz '2026-03-01 00:00:00+00')`,
        ),
      page: { acceptDownloads: true },
    })
    ;({ server, page, wh, api } = run)
    if (process.env.DEBUG_STUDIO)
      page.on(
        'response',
        (r) => r.url().includes('/api/') && console.log('RESP', r.status(), r.request().method(), r.url()),
      )
  }, 120_000)
  afterAll(() => run?.stop())

  it('lists dashboards (none yet) and creates one from a name', async () => {
    await signIn(page, server.url, ADMIN)
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboards' }).click()
    await page.getByText('No dashboard yet').waitFor()
    await checkAccessibility(page, 'dashboards (empty)')
    await shootBoth(page, 'dashboards-empty')
    await page.getByLabel('Name', { exact: true }).fill('Sales overview')
    await page.getByRole('button', { name: 'Create the dashboard' }).click()
    await page.getByRole('heading', { level: 1, name: 'Sales overview' }).waitFor()
    expect(page.url()).toContain('#/dashboards/main/sales-overview')
    await page.getByText('Pick a tenant to build with').waitFor()
    await checkAccessibility(page, 'dashboard (no tenant)')
  })

  const build = (name: string, table: string, measures: string[], dimensions: string[] = []) =>
    buildMetric(page, { name, table: `${wh.schema}.${table}`, measures, dimensions })

  it('builds four metrics with the element’s builder and lays them out, saved into the company’s document', async () => {
    await buildAsTenant(page, 'acme')
    await checkAccessibility(page, 'dashboard build (empty)')
    await shootBoth(page, 'dashboard-build-empty')
    await build('Revenue', 'orders', ['amount'])
    await build('Revenue by status', 'orders', ['amount'], ['status'])
    await build('Revenue by customer', 'orders', ['amount'], ['customer_id'])
    await build('Customer ids by country', 'customers', ['id'], ['country'])
    const doc = await exported('sales-overview')
    expect(doc.metrics.map((m: { name: string }) => m.name)).toEqual([
      'Revenue',
      'Revenue by status',
      'Revenue by customer',
      'Customer ids by country',
    ])
    expect(doc.layout).toHaveLength(4)
    // the element's layout editor: a card one row taller, saved into the document
    await page.locator('strata-dashboard [part~="edit-layout-button"]').click()
    await page.locator('strata-dashboard .card[data-metric-id="customer-ids-by-country"]').focus()
    await page.keyboard.press('Shift+ArrowDown')
    const layoutSaved = page.waitForResponse(
      (r) => r.url().includes('/api/v2/data-app/dashboard') && r.request().method() === 'PUT',
    )
    await page.locator('strata-dashboard [part~="save-layout-button"]').click()
    expect((await layoutSaved).status()).toBe(200)
    await page.locator('strata-dashboard [part~="edit-bar"]').waitFor({ state: 'detached' })
    expect((await exported('sales-overview')).layout.at(-1)).toEqual({
      metricId: 'customer-ids-by-country',
      x: 6,
      y: 4,
      w: 6,
      h: 5,
    })
    // the company's metrics, not a tenant's: no tenant owns them
    for (const m of doc.metrics) expect(m.createdByClient ?? null).toBeNull()
    await checkAccessibility(page, 'dashboard build (four metrics)')
    await shootBoth(page, 'dashboard-build')
    await docsImage(page, 'dashboard-build', STUDIO_DOCS)
  }, 120_000)

  it('edits the filters in a form, names the warehouse’s error for a SQL metric, then adds it', async () => {
    await page.getByRole('button', { name: 'Filters' }).click()
    await page.getByText('No filter yet').waitFor()
    await page.getByRole('button', { name: 'Add a filter' }).click()
    await page.getByLabel('Name', { exact: true }).fill('status')
    await page.getByLabel('Label', { exact: true }).fill('Order status')
    await page.getByLabel('Column', { exact: true }).selectOption(`${wh.schema}.orders|status`)
    await page.getByLabel('Default', { exact: true }).fill('paid, shipped')
    await page.getByRole('button', { name: 'Save filters' }).click()
    await page.getByText('Saved: 1 filter.').waitFor()
    expect((await exported('sales-overview')).filters).toEqual([
      {
        name: 'status',
        label: 'Order status',
        type: 'multi-select',
        table: `${wh.schema}.orders`,
        column: 'status',
        default: ['paid', 'shipped'],
      },
    ])
    await a11y('dashboard filters')
    await shootBoth(page, 'dashboard-filters')
    await docsImage(page, 'dashboard-filters-390', { ...STUDIO_DOCS, widths: [390] })

    await page.getByRole('button', { name: 'SQL metric' }).click()
    await page.getByLabel('Name', { exact: true }).fill('Orders per status')
    await page
      .getByLabel('SQL', { exact: true })
      .fill(`select status, count(*) as orders from ${wh.schema}.orders group by statuz`)
    await page.getByRole('button', { name: 'Run on the warehouse' }).click()
    await page.getByRole('alert').filter({ hasText: 'The warehouse refused it' }).waitFor()
    expect(await page.getByRole('alert').textContent()).toMatch(/statuz/)
    await a11y('dashboard SQL metric (refused)')
    await shootBoth(page, 'dashboard-sql-error')
    await docsImage(page, 'dashboard-sql-metric', { ...STUDIO_DOCS, height: 900 })
    await page
      .getByLabel('SQL', { exact: true })
      .fill(`select status, count(*) as orders from ${wh.schema}.orders group by status`)
    await page.getByRole('button', { name: 'Run on the warehouse' }).click()
    await page.getByText('The statement ran on the warehouse').waitFor()
    expect((await exported('sales-overview')).metrics).toHaveLength(4) // checked, not added
    await page.getByLabel('SQL', { exact: true }).fill(SQL_METRIC(wh.schema))
    await page.getByRole('button', { name: 'Add to the dashboard' }).click()
    await page.getByText('“Orders per status” was added to the dashboard').waitFor()
    expect((await exported('sales-overview')).metrics.at(-1)).toEqual({
      metricId: 'orders-per-status',
      name: 'Orders per status',
      chart: { type: 'table' },
      sql: SQL_METRIC(wh.schema),
    })
  }, 60_000)

  it('previews the dashboard as two tenants, each with the warehouse’s numbers for it', async () => {
    await page.getByRole('button', { name: 'Preview as a tenant' }).click()
    const seen: Record<string, number> = {}
    for (const tenant of ['acme', 'globex']) {
      await page.locator('#pv-tenant').fill(tenant)
      const revenue = page.waitForResponse(
        (r) => r.url().includes('/query') && r.request().postDataJSON()?.metricId === 'revenue',
      )
      await page.getByRole('button', { name: 'Preview', exact: true }).click()
      const body = await (await revenue).json()
      if (process.env.DEBUG_STUDIO) console.log('QUERY', JSON.stringify(body))
      seen[tenant] = Number(body.data[0].amount ?? Object.values(body.data[0])[0])
      await page
        .locator(`strata-dashboard[aria-label="Preview as ${tenant}"] [part~="card-title"]:text-is("Revenue")`)
        .waitFor()
      // read-only as the tenant sees it: no builder
      expect(await page.locator('strata-dashboard [part~="new-metric-button"]').count()).toBe(0)
    }
    expect(seen.acme).toBeCloseTo(await revenueOf('acme'), 2)
    expect(seen.globex).toBeCloseTo(await revenueOf('globex'), 2)
    expect(seen.acme).not.toBeCloseTo(seen.globex ?? 0, 2)
    await a11y('dashboard preview')
    await shootBoth(page, 'dashboard-preview')
    await docsImage(page, 'dashboard-preview', STUDIO_DOCS)
  }, 60_000)

  it('exports the document the studio saved, equal to the same dashboard written by hand', async () => {
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export JSON' }).click()
    const file = await (await download).path()
    const studio = JSON.parse(readFileSync(file, 'utf8'))
    expect(studio).toEqual(await exported('sales-overview'))
    const s = wh.schema
    const byHand = {
      name: 'Sales overview',
      filters: [
        {
          name: 'status',
          label: 'Order status',
          type: 'multi-select',
          table: `${s}.orders`,
          column: 'status',
          default: ['paid', 'shipped'],
        },
      ],
      layout: [
        { metricId: 'revenue', x: 0, y: 0, w: 6, h: 4 },
        { metricId: 'revenue-by-status', x: 6, y: 0, w: 6, h: 4 },
        { metricId: 'revenue-by-customer', x: 0, y: 4, w: 6, h: 4 },
        { metricId: 'customer-ids-by-country', x: 6, y: 4, w: 6, h: 5 },
        { metricId: 'orders-per-status', x: 0, y: 9, w: 6, h: 4 },
      ],
      metrics: [
        ...HAND_METRICS(s),
        { metricId: 'orders-per-status', name: 'Orders per status', chart: { type: 'table' }, sql: SQL_METRIC(s) },
      ],
    }
    await api('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'main',
      dashboardId: 'by-hand',
      importDashboardData: byHand,
    })
    const hand = await exported('by-hand')
    if (JSON.stringify(studio) !== JSON.stringify(hand))
      console.log('STUDIO', JSON.stringify(studio), '\nHAND', JSON.stringify(hand))
    expect(studio).toEqual(hand)
  })

  it('imports an exported file as a new dashboard', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Dashboards' }).click()
    await page.getByRole('link', { name: 'Sales overview' }).first().waitFor()
    await checkAccessibility(page, 'dashboards (list)')
    await shootBoth(page, 'dashboards')
    const doc = await exported('sales-overview')
    await page.getByLabel('Dashboard file (JSON)').setInputFiles({
      name: 'dashboard-sales-overview.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ _meta: { dashboardId: 'sales-overview' }, data: doc })),
    })
    await page.getByLabel('Dashboard id').fill('sales-copy')
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Sales overview' }).waitFor()
    expect(page.url()).toContain('#/dashboards/main/sales-copy')
    expect(await exported('sales-copy')).toEqual(doc)
  })

  it('says when a dashboard does not exist, and the way back', async () => {
    await page.goto(`${server.url}/studio#/dashboards/main/nope`)
    await page.getByRole('alert').filter({ hasText: 'There is no dashboard nope in workspace main' }).waitFor()
    await page.getByRole('link', { name: 'Back to the dashboards' }).waitFor()
    await a11y('dashboard (missing)')
    await shootBoth(page, 'dashboard-missing')
  })
})

/** A SQL metric of each tenant's orders per status. */
const SQL_METRIC = (s: string) =>
  `select status, count(*) as orders from ${s}.orders where tenant = {{clientId}} group by status`

/**
 * The four metrics as a person writes them from docs/dashboard-document.md, with the names and
 * order the builder gives (a measure is named `<aggregate>_<column>`, bars sorted by it, largest first).
 */
function HAND_METRICS(s: string) {
  const bars = (metricId: string, name: string, table: string, measure: string, dimension: string) => ({
    metricId,
    name,
    chart: { type: 'bar', x: dimension, y: [`sum_${measure}`] },
    query: {
      from: `${s}.${table}`,
      measures: [{ name: `sum_${measure}`, aggregate: 'sum', column: measure }],
      dimensions: [{ name: dimension, column: dimension }],
      orderBy: [{ name: `sum_${measure}`, direction: 'desc' }],
    },
  })
  return [
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value', y: ['sum_amount'] },
      query: { from: `${s}.orders`, measures: [{ name: 'sum_amount', aggregate: 'sum', column: 'amount' }] },
    },
    bars('revenue-by-status', 'Revenue by status', 'orders', 'amount', 'status'),
    bars('revenue-by-customer', 'Revenue by customer', 'orders', 'amount', 'customer_id'),
    bars('customer-ids-by-country', 'Customer ids by country', 'customers', 'id', 'country'),
  ]
}
