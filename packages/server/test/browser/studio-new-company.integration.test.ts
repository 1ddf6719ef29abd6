/// <reference lib="dom" />
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pg from 'pg'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, hasChromium } from '../helpers/chromium.js'
import { removeDir, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { POSTGRES_URL, requireService } from '../helpers/services.js'
import { STUDIO_SHOTS } from '../helpers/studio.js'
import { type SnippetSite, startSnippetSite } from '../helpers/studio-snippets.js'
import {
  addPostgresDatasource,
  allowOrigin,
  type BuiltMetric,
  buildAsTenant,
  buildMetric,
  cardRows,
  copySnippet,
  createAccount,
  createDashboard,
  createDataApp,
  createDatamart,
  createEmbed,
  createWorkspace,
  dismissKey,
  previewAs,
  shownNumber,
  syncTables,
} from '../helpers/studio-steps.js'

/**
 * One walk of a new company through the studio, in Chromium, from an empty server (no admin
 * account) to its dashboard embedded in its own site. Only the studio's screens are used; the
 * test reads the truth from the company's warehouse (a PostgreSQL schema made here: orders of
 * two tenants with different numbers). The steps: create the account; add the PostgreSQL
 * datasource and sync it; a datamart with the tenant column; a workspace; a data app (its key,
 * shown once, kept); a dashboard with four metrics built in the builder (a single value, bars by
 * category, a line by month, a table by region); preview as each tenant, every card's numbers
 * equal to SQL for that tenant; an embed with a flag; its HTML and Node snippets copied and run
 * (the Node one mints the token with the key, the HTML page served from another origin once the
 * whitelist allows it): the embedded dashboard shows the first tenant's numbers.
 * A screenshot at 1440 px ends each step (`STUDIO_SHOTS/new-company/`), and the embedded page at 390 px.
 */
const hasPostgres = await requireService('PostgreSQL', '127.0.0.1', 5432)
const ADMIN = {
  firstName: 'Nadia',
  company: 'Northwind Analytics',
  email: 'nadia@example.com',
  password: 'Str0ng!Pass',
}
const TENANTS = ['northwind', 'contoso'] as const
const SHOTS = join(STUDIO_SHOTS, 'new-company')
const ROOT = resolve(import.meta.dirname, '../../../..')

describe.skipIf(!hasChromium || !hasPostgres)(
  'the studio: a new company, from an empty server to an embedded dashboard',
  () => {
    const schema = `nc_${randomBytes(5).toString('hex')}`
    let warehouse: pg.Client
    let dataDir: string
    let server: ServerProcess
    let browser: Browser
    let page: Page
    let dataAppKey = ''
    const snippets: Record<string, string> = {}

    const shoot = async (name: string, on: Page = page, width = 1440) => {
      mkdirSync(SHOTS, { recursive: true })
      const before = on.viewportSize()
      await on.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await on.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true })
      if (before) await on.setViewportSize(before)
    }
    const sql = async <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
      (await warehouse.query<T>(text, params)).rows

    const METRICS: readonly BuiltMetric[] = [
      { name: 'Revenue', table: `${schema}.orders`, measures: ['amount'] },
      { name: 'Revenue by category', table: `${schema}.orders`, measures: ['amount'], dimensions: ['category'] },
      {
        name: 'Revenue by month',
        table: `${schema}.orders`,
        measures: ['amount'],
        dimensions: ['ordered_at'],
        timeGrain: 'month',
        chart: 'line',
      },
      {
        name: 'Revenue by region',
        table: `${schema}.orders`,
        measures: ['amount'],
        dimensions: ['region'],
        chart: 'table',
      },
    ]
    const TITLES = METRICS.map((m) => m.name)

    /** What the warehouse says each card must show for `tenant`. */
    const truth = async (tenant: string) => {
      const where = `from ${schema}.orders where tenant = $1`
      const [total] = await sql<{ s: string }>(`select sum(amount) s ${where}`, [tenant])
      const byKey = async (key: string) =>
        new Map(
          (await sql<{ k: string; s: string }>(`select ${key} k, sum(amount) s ${where} group by 1`, [tenant])).map(
            (r) => [r.k, Number(r.s)] as const,
          ),
        )
      const months = await sql<{ s: string }>(
        `select sum(amount) s ${where} group by date_trunc('month', ordered_at at time zone 'UTC') order by 1`,
        [tenant],
      )
      return {
        revenue: Number(total?.s),
        byCategory: await byKey('category'),
        byMonth: months.map((r) => Number(r.s)).sort((a, b) => a - b),
        byRegion: await byKey('region'),
      }
    }
    /** Each card's numbers against the warehouse's for `tenant`; returns the single value shown. */
    const expectCards = async (rows: Record<string, string[][]>, tenant: string) => {
      const want = await truth(tenant)
      const shown = (title: string) => rows[title] ?? []
      const revenue = shownNumber(shown('Revenue')[0]?.[0] ?? '')
      expect(revenue, `${tenant}: Revenue`).toBeCloseTo(want.revenue, 2)
      const keyed = (title: string) => new Map(shown(title).map((r) => [r[0] ?? '', shownNumber(r.at(-1) ?? '')]))
      expect(keyed('Revenue by category'), `${tenant}: Revenue by category`).toEqual(want.byCategory)
      expect(keyed('Revenue by region'), `${tenant}: Revenue by region`).toEqual(want.byRegion)
      const months = shown('Revenue by month').map((r) => shownNumber(r.at(-1) ?? ''))
      expect(
        months.sort((a, b) => a - b),
        `${tenant}: Revenue by month`,
      ).toEqual(want.byMonth)
      return revenue
    }

    beforeAll(async () => {
      // the company's own tables: one orders table, two tenants, a few hundred rows with different sums
      warehouse = new pg.Client({ connectionString: POSTGRES_URL })
      await warehouse.connect()
      await warehouse.query(`
      create schema ${schema};
      create table ${schema}.orders (id integer primary key, tenant text not null, category text not null,
        region text not null, amount numeric(10,2) not null, ordered_at timestamptz not null);
      insert into ${schema}.orders
        select i, case when i % 5 < 2 then 'contoso' else 'northwind' end,
          (array['books','games','tools'])[1 + i % 3], (array['north','south','east','west'])[1 + (i / 7) % 4],
          (i % 40) * 2.5 + 5 + (i % 3) * 4, timestamptz '2026-01-01 12:00:00+00' + (i % 170) * interval '1 day'
        from generate_series(1, 320) i;
    `)
      dataDir = tempDataDir()
      server = await startServer({ env: { DATA_DIR: dataDir }, readyTimeoutMs: 60_000 })
      const { chromium } = await import('playwright-core')
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
      page = await context.newPage()
      page.setDefaultTimeout(15_000)
      page.on('pageerror', (e) => console.error('studio page error:', e.message))
    }, 120_000)
    afterAll(async () => {
      await browser?.close()
      await server?.stop()
      await warehouse?.query(`drop schema if exists ${schema} cascade`)
      await warehouse?.end()
      removeDir(dataDir)
    })

    it('walks it all in the studio: account, data, dashboard, preview, embed, snippets', async () => {
      // 1. the account: a fresh server offers to create it
      await createAccount(page, server.url, ADMIN)
      await page.getByText('No datasource yet').waitFor()
      await shoot('01-account')

      // 2. the company's PostgreSQL, its tables found, then synced
      await addPostgresDatasource(page, 'warehouse', { ...(await pgCredentials()), schema }, 'orders')
      expect(await page.getByRole('table', { name: `Columns of ${schema}.orders` }).textContent()).toMatch(/tenant/)
      expect(await syncTables(page, 'warehouse')).toMatch(/: 1 table/)
      expect(await page.locator('.lead').first().textContent()).toMatch(/· 1 table, read/)
      await shoot('02-datasource-synced')

      // 3. the datamart, its tenant column; 4. a workspace on it
      await createDatamart(page, 'sales', [{ table: `${schema}.orders`, tenantColumn: 'tenant' }])
      expect(await page.getByRole('table', { name: 'Datamarts' }).textContent()).toMatch(/orders \(tenant\)/)
      await shoot('03-datamart')
      await createWorkspace(page, 'main')
      await shoot('04-workspace')

      // 5. the data app: its key shown once, kept for the company's backend
      dataAppKey = await createDataApp(page, 'salesapp')
      await shoot('05-data-app-key')
      await dismissKey(page, dataAppKey)

      // 6. a dashboard with four metrics from the builder, saved with each
      await createDashboard(page, 'Sales overview')
      await buildAsTenant(page, TENANTS[0])
      for (const metric of METRICS) await buildMetric(page, metric)
      // saved: a reload shows the four cards from the stored document
      await page.reload()
      await buildAsTenant(page, TENANTS[0])
      await cardRows(page, 'strata-dashboard', TITLES)
      await shoot('06-dashboard-built')

      // 7. preview as each tenant: every card's numbers are the warehouse's for it, and they differ
      const revenue: Record<string, number> = {}
      for (const tenant of TENANTS) {
        const preview = await previewAs(page, tenant)
        // read-only as the tenant sees it: no builder
        expect(await page.locator('strata-dashboard [part~="new-metric-button"]').count()).toBe(0)
        revenue[tenant] = await expectCards(await cardRows(page, preview, TITLES), tenant)
        await shoot(`07-preview-${tenant}`)
      }
      expect(revenue[TENANTS[0]]).not.toBeCloseTo(revenue[TENANTS[1]] ?? 0, 2)

      // 8. the embed, with a flag set
      const embedId = await createEmbed(page, 'Sales for customers', ['See the underlying data and download it'])
      expect(await page.getByLabel('See the underlying data and download it').isChecked()).toBe(true)
      await shoot('08-embed')

      // 9. the snippets, copied as a developer would, run: the Node one on the backend, the HTML one as the page
      snippets.html = await copySnippet(page, 'html', 'HTML')
      snippets.node = await copySnippet(page, 'node', 'Node (your backend)')
      expect(snippets.html).toContain(`embed-id="${embedId}"`)
      expect(`${snippets.html}${snippets.node}`).not.toContain(dataAppKey)
      let site: SnippetSite | undefined
      try {
        site = await startSnippetSite({
          dir: join(ROOT, 'test-results', `studio-new-company-${process.pid}`),
          nodeSnippet: snippets.node,
          htmlSnippet: snippets.html,
          dataAppKey,
          clientId: TENANTS[0],
        })
        const other = await browser.newPage({ viewport: { width: 1440, height: 900 } })
        // another origin, not allowed yet: refused
        await other.goto(site.url)
        await expect
          .poll(() => other.locator('strata-dashboard').getAttribute('data-state'), { timeout: 20_000 })
          .toMatch(/error|unavailable/)
        await allowOrigin(page, 'salesapp', site.origin)
        await shoot('09-whitelist')
        await other.reload()
        await expect
          .poll(() => other.locator('strata-dashboard').getAttribute('data-state'), { timeout: 30_000 })
          .toBe('ready')
        // 10. the embedded dashboard: the first tenant's numbers
        expect(await expectCards(await cardRows(other, 'strata-dashboard', TITLES), TENANTS[0])).toBeCloseTo(
          revenue[TENANTS[0]] ?? Number.NaN,
          2,
        )
        await shoot('10-embedded', other)
        await shoot('10-embedded', other, 390)
        await other.close()
      } finally {
        await site?.close()
      }
    }, 180_000)
  },
)

/** The datasource's connection details, from the test machine's PostgreSQL URL. */
async function pgCredentials() {
  const url = new URL(POSTGRES_URL)
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    username: decodeURIComponent(url.username || 'postgres'),
    password: decodeURIComponent(url.password || 'unused'),
    database: url.pathname.slice(1) || 'test',
  }
}
