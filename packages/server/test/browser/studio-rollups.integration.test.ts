/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { salesDocument } from '../helpers/analytics.js'
import { hasChromium } from '../helpers/chromium.js'
import { docsImage } from '../helpers/docs-images.js'
import type { ServerProcess } from '../helpers/process.js'
import { requireService } from '../helpers/services.js'
import { checkAccessibility, STUDIO_DOCS, shootBoth } from '../helpers/studio.js'
import { type AdminApi, STUDIO_ADMIN } from '../helpers/studio-company.js'
import { type StudioRun, startStudioRun } from '../helpers/studio-run.js'
import { signIn } from '../helpers/studio-steps.js'
import type { PgWarehouse } from '../helpers/warehouse.js'

/**
 * Rollups in the studio, in Chromium, on a server whose scheduler looks for due builds every
 * half second: a rollup declared in the dashboard's Rollups tab (a table, its time column and
 * grain, a dimension of its own and one of a joined table, measures) is refused at the field the
 * server names, then saved into the document exactly as written by hand; its state comes to
 * Ready with the warehouse's number of groups, and Refresh now builds it again; Automatic saves
 * "auto". Every step passes the accessibility checks and is photographed at 1440 and 390 px.
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasChromium || !hasPostgres)('the studio: rollups of a dashboard', () => {
  let run: StudioRun
  let server: ServerProcess
  let page: Page
  let wh: PgWarehouse
  let api: AdminApi
  const ref = { workspaceName: 'main', dashboardId: 'sales-overview' }
  const exported = async () => (await api('POST', '/api/v2/data-app/export-dashboard', ref)).data
  const states = async () =>
    (
      (await api('GET', '/api/v2/data-app/rollups')).data as {
        dashboardId: string
        name: string
        state: string
        rows: number
        lastRefreshAt: string | null
      }[]
    ).filter((r) => r.dashboardId === ref.dashboardId)
  const a11y = async (screen: string) => {
    await page.locator('h1').focus()
    await checkAccessibility(page, screen)
  }
  /** The state badge of rollup `name` in the table. */
  const badge = (name: string) => page.locator(`tr[data-rollup="${name}"] .badge`)

  beforeAll(async () => {
    run = await startStudioRun({ env: { ROLLUP_POLL_INTERVAL_MS: '500' } })
    ;({ wh, server, api, page } = run)
    await api('POST', '/api/v2/data-app/import-dashboard', { ...ref, importDashboardData: salesDocument(wh.schema) })
  }, 120_000)
  afterAll(async () => {
    await run?.stop()
  })

  it('says what rollups are for when the dashboard has none', async () => {
    await signIn(page, server.url, STUDIO_ADMIN)
    await page.goto(`${server.url}/studio#/dashboards/main/sales-overview`)
    await page.getByRole('button', { name: 'Rollups' }).click()
    await page.getByText('No rollup yet').waitFor()
    expect(await page.getByRole('radio', { name: 'None', exact: true }).isChecked()).toBe(true)
    await a11y('rollups (none)')
    await shootBoth(page, 'rollups-empty')
  })

  it('shows the server’s refusal at the field it names, then saves the rollup as written by hand', async () => {
    const s = wh.schema
    await page.getByRole('radio', { name: 'Declared', exact: true }).check()
    await page.getByText('Each tenant’s column is always kept; you do not need to add it.').waitFor()
    await page.getByLabel('Name', { exact: true }).fill('orders_daily')
    await page.getByLabel('Table', { exact: true }).selectOption(`${s}.orders`)
    await page.getByLabel('Time column', { exact: true }).selectOption('created_at')
    await page.getByLabel('Time grain', { exact: true }).selectOption('day')
    const dims = page.getByRole('group', { name: 'Dimensions' })
    await dims.getByRole('checkbox', { name: 'status', exact: true }).check()
    await dims
      .getByRole('group', { name: `Joined: ${s}.customers` })
      .getByRole('checkbox', { name: 'country' })
      .check()
    await page.getByRole('button', { name: 'Add a measure' }).click()
    await page.locator('#ru-m-0-1-name').fill('revenue')
    await page.locator('#ru-m-0-1-aggregate').selectOption('sum')
    // a sum of a text column: only the server knows the column's type
    await page.locator('#ru-m-0-1-column').selectOption('status')
    await page.getByLabel('Refresh every', { exact: true }).fill('1h')
    await page.getByLabel('Incremental window', { exact: true }).fill('30 days')
    const refused = page.waitForResponse(
      (r) => r.url().endsWith('/api/v2/data-app/dashboard') && r.request().method() === 'PUT',
    )
    await page.getByRole('button', { name: 'Save rollups' }).click()
    const answer = await refused
    expect(answer.status()).toBe(400)
    expect((await answer.json()).error.message).toMatch(/rollups\[0\]\.measures\[1\]\.column: sum needs a number/)
    const column = page.locator('#ru-m-0-1-column')
    await expect.poll(() => column.getAttribute('aria-invalid')).toBe('true')
    const error = page.locator('#ru-err-0')
    expect(await error.textContent()).toMatch(/^sum needs a number, and "status" of .*orders is string/)
    // next to the field: in the same field box, and the focus on the field
    expect(await error.evaluate((e) => e.parentElement?.querySelector('select')?.id)).toBe('ru-m-0-1-column')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('ru-m-0-1-column')
    expect((await exported()).rollups).toBeUndefined()
    await a11y('rollups (refused)')
    await shootBoth(page, 'rollups-refused')
    await docsImage(page, 'rollups-error-390', {
      ...STUDIO_DOCS,
      widths: [390],
      target: page.locator('fieldset.measures'),
    })

    await column.selectOption('amount')
    expect(await column.getAttribute('aria-invalid')).toBe('false')
    await page.getByRole('button', { name: 'Save rollups' }).click()
    await page.getByText('Saved: 1 rollup.').waitFor()
    const byHand = [
      {
        name: 'orders_daily',
        from: `${s}.orders`,
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status', `${s}.customers.country`],
        measures: [
          { name: 'rows', aggregate: 'count' },
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
        ],
        refresh: { every: '1h', incremental: '30 days' },
      },
    ]
    expect((await exported()).rollups).toEqual(byHand)
    await a11y('rollups (declared)')
    await shootBoth(page, 'rollups-declared')
    await docsImage(page, 'rollups-form', { ...STUDIO_DOCS, target: page.locator('studio-dashboard-rollups form') })
  }, 60_000)

  it('shows the build come to Ready with the warehouse’s groups, and builds again on Refresh now', async () => {
    const [row] = await wh.query<{ n: number }>(
      `select count(*)::int as n from (select 1 from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
         group by date_trunc('day', o.created_at at time zone 'UTC'), o.status, c.country, o.tenant, c.tenant) g`,
    )
    await expect.poll(() => badge('orders_daily').textContent(), { timeout: 60_000 }).toBe('Ready')
    const cells = page.locator('tr[data-rollup="orders_daily"] td')
    expect(await cells.nth(2).textContent()).toContain((row?.n ?? 0).toLocaleString('en-US'))
    expect(await cells.nth(4).textContent()).not.toContain('Never')
    const [before] = await states()
    expect(before?.rows).toBe(row?.n)
    await a11y('rollups (ready)')
    await shootBoth(page, 'rollups-ready')

    const accepted = page.waitForResponse((r) => r.url().endsWith('/api/v2/data-app/rollups/refresh'))
    await page.getByRole('button', { name: 'Refresh orders_daily now' }).click()
    expect((await accepted).status()).toBe(202)
    await page.getByText('Refresh of orders_daily requested').waitFor()
    // built again: a later refresh, shown Ready without reloading the page (the panel polls)
    await expect
      .poll(async () => (await states())[0]?.lastRefreshAt, { timeout: 60_000 })
      .not.toBe(before?.lastRefreshAt)
    await expect.poll(() => badge('orders_daily').textContent(), { timeout: 30_000 }).toBe('Ready')
    await docsImage(page, 'rollups-state', { ...STUDIO_DOCS, target: page.locator('studio-rollup-state') })
    await docsImage(page, 'rollups-state-390', {
      ...STUDIO_DOCS,
      widths: [390],
      target: page.locator('studio-rollup-state'),
    })
  }, 120_000)

  it('saves Automatic as "auto", and None as no rollups', async () => {
    await page.getByRole('radio', { name: 'Automatic', exact: true }).check()
    await page.getByRole('button', { name: 'Save rollups' }).click()
    await page.getByText('Saved: Strata derives this dashboard’s rollups from its metrics.').waitFor()
    expect((await exported()).rollups).toBe('auto')
    await expect.poll(async () => (await states()).map((r) => r.name).some((n) => n.startsWith('auto_'))).toBe(true)
    await a11y('rollups (automatic)')
    await shootBoth(page, 'rollups-auto')
    await page.getByRole('radio', { name: 'None', exact: true }).check()
    await page.getByRole('button', { name: 'Save rollups' }).click()
    await page.getByText('Saved: this dashboard has no rollup.').waitFor()
    expect('rollups' in (await exported())).toBe(false)
  }, 60_000)
})
