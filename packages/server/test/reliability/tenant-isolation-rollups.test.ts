/**
 * Tenant isolation on rollup-served queries (docs/rollups.md#when-a-query-is-served-from-a-rollup):
 * a sibling of tenant-isolation.test.ts over a dashboard whose metrics fit its rollups. Generated
 * tenants (real ones, unknown ones, case and space variants, injection payloads) and filters
 * (hostile list values, date ranges on and off the buckets, presets) run through the backend's
 * metric query; every answer must equal the warehouse's with serving switched off, and a metric
 * that shows the tenant column must never show another tenant's value. PostgreSQL warehouse,
 * SQLite store, the rollups' Parquet files read by DuckDB in the engine process.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, embedDashboard, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { propertyRuns } from '../helpers/property-runs.js'
import { comparableResult } from '../helpers/rollups.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

let ctx: TestContext
let wh: PgWarehouse
let a: Analytics
let embedId: string

function document(schema: string) {
  const orders = `${schema}.orders`
  const metric = (metricId: string, query: object, extra: object = {}) => ({
    metricId,
    name: metricId,
    chart: { type: 'table' },
    query: { from: orders, ...query },
    ...extra,
  })
  return {
    name: 'Rolled',
    filters: [
      { name: 'status', label: 'Status', type: 'multi-select', table: orders, column: 'status' },
      { name: 'country', label: 'Country', type: 'multi-select', table: `${schema}.customers`, column: 'country' },
      { name: 'period', label: 'Period', type: 'date-range', table: orders, column: 'created_at' },
    ],
    layout: [],
    metrics: [
      metric('by_tenant', {
        measures: [
          { name: 'orders', aggregate: 'count' },
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
        ],
        dimensions: [{ name: 'tenant', column: 'tenant' }],
      }),
      metric('by_country', {
        measures: [{ name: 'avg', aggregate: 'avg', column: 'amount' }],
        dimensions: [
          { name: 'country', table: `${schema}.customers`, column: 'country' },
          { name: 'tenant', column: 'tenant' },
        ],
        orderBy: [{ name: 'country', direction: 'asc' }],
      }),
      metric(
        'kpi',
        { measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
        { comparison: { period: 'previous-period' } },
      ),
      metric('weekly', {
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'week', column: 'created_at', timeGrain: 'week' }],
        orderBy: [{ name: 'week', direction: 'asc' }],
      }),
    ],
    rollups: [
      {
        name: 'daily',
        from: orders,
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status', `${schema}.customers.country`],
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
          { name: 'avg', aggregate: 'avg', column: 'amount' },
        ],
      },
      {
        name: 'daily_orders_only',
        from: orders,
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status'],
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
        ],
      },
    ],
  }
}

type Result = { data: Record<string, unknown>[]; totalRecords: number; comparisonValue?: number; servedFrom: string }

const TENANTS = ['acme', 'globex', 'initech']
const tenant = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TENANTS) },
  fc.constantFrom('ACME', 'acme ', ' acme', "acme' OR '1'='1", 'acme%', '%', 'globex;--', 'nobody'),
  fc.string({ minLength: 1, maxLength: 12 }),
)
// lists of real values with hostile ones mixed in (an empty list matches no row, so never empty)
const statuses = fc.subarray(['paid', 'shipped', 'refunded', "paid' OR 1=1 --", 'PAID', '%'], { minLength: 1 })
const countries = fc.subarray(['DE', 'FR', 'US', 'JP', 'de', "DE') OR ('1'='1"], { minLength: 1 })
const period = fc.constantFrom(
  { startDate: '2026-02-01', endDate: '2026-04-30' },
  { startDate: '2026-02-02', endDate: '2026-03-01' },
  { startDate: '2026-03-09', endDate: '2026-03-22' },
  { startDate: '2026-07-01' },
  { endDate: '2026-02-15' },
  'Last 7 days',
  'This year',
  'Last month',
)
const filters = fc.record({ status: statuses, country: countries, period }, { requiredKeys: [] })

const query = async (body: object): Promise<Result | { status: number; code: string }> => {
  const res = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, { embedId, ...body })
  if (res.statusCode !== 200) {
    expect(res.statusCode, res.body).toBeLessThan(500)
    return { status: res.statusCode, code: res.json().error.code }
  }
  return res.json()
}

const comparable = (r: Result) => comparableResult(r, false)

describe.skipIf(!hasPg)('tenant isolation on rollup-served queries', () => {
  beforeAll(async () => {
    wh = await createPgWarehouse()
    ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0' })
    a = await setupAnalytics(ctx.app, wh)
    const imported = await a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'rolled',
      importDashboardData: document(wh.schema),
    })
    expect(imported.statusCode, imported.body).toBe(200)
    embedId = await embedDashboard(a, 'rolled')
    const scheduler = new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, {
      pollMs: 1000,
      leaseMs: 60_000,
    })
    expect((await scheduler.tick(new Date(Date.now() + 5_000))).sort()).toEqual(['daily', 'daily_orders_only'])
  }, 120_000)

  afterAll(async () => {
    await ctx?.close()
    await wh?.drop()
  })

  it('never shows another tenant, and answers what the warehouse answers', async () => {
    let served = 0
    await fc.assert(
      fc.asyncProperty(
        tenant,
        fc.constantFrom('by_tenant', 'by_country', 'kpi', 'weekly'),
        filters,
        async (clientId, metricId, dashboardFilter) => {
          const body = { metricId, clientId, dashboardFilter }
          const fromRollups = await query(body)
          if (!('data' in fromRollups)) {
            // refused before any planning: the same refusal with serving off
            ctx.app.services.metricQueries.serveRollups = false
            try {
              expect(await query(body)).toEqual(fromRollups)
            } finally {
              ctx.app.services.metricQueries.serveRollups = true
            }
            return
          }
          if (fromRollups.servedFrom === 'rollup' && fromRollups.data.length > 0) served++
          for (const row of fromRollups.data) if ('tenant' in row) expect(row.tenant).toBe(clientId)
          const service = ctx.app.services.metricQueries
          service.serveRollups = false
          try {
            const fromWarehouse = (await query(body)) as Result
            expect(fromWarehouse.servedFrom).not.toBe('rollup')
            expect(comparable(fromRollups)).toEqual(comparable(fromWarehouse))
          } finally {
            service.serveRollups = true
          }
        },
      ),
      propertyRuns(60),
    )
    // the property is about rollup-served answers with rows: many generated cases must be such
    expect(served).toBeGreaterThan(15)
  }, 300_000)
})
