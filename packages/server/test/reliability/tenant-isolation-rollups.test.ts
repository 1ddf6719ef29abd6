/**
 * Tenant isolation on rollup-served queries (docs/rollups.md#when-a-query-is-served-from-a-rollup):
 * a sibling of tenant-isolation.test.ts over a dashboard whose metrics fit its rollups, on every
 * live SQL engine here (PostgreSQL, MariaDB, ClickHouse through chdb, DuckDB over CSV files; the
 * same rows on each). Generated tenants (real ones, unknown ones, case and space variants,
 * injection payloads) and filters (hostile list values, date ranges on and off the buckets,
 * presets) run through the backend's metric query; every answer must equal that engine's own
 * with serving switched off, and a metric that shows the tenant column must never show another
 * tenant's value. SQLite store, the rollups built once per engine, their Parquet files read by
 * DuckDB in the engine process.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Analytics, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { propertyRuns } from '../helpers/property-runs.js'
import {
  buildDueRollups,
  type EngineSources,
  engineSources,
  importAndEmbed,
  type RollupEngine,
  rollupEngines,
} from '../helpers/rollup-engines.js'
import { comparableResult } from '../helpers/rollups.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const ENGINES = hasPg ? await rollupEngines('the isolation property on rollups served from ClickHouse (chdb)') : []

let ctx: TestContext
let wh: PgWarehouse
let a: Analytics
let sources: EngineSources
const embeds = new Map<RollupEngine, string>()

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
// half the cases without text filters: on a warehouse comparing text by a case-folding collation
// (MariaDB) the warehouse answers every text filter, and the rest must still be served often
const filters = fc.oneof(
  fc.record({ status: statuses, country: countries, period }, { requiredKeys: [] }),
  fc.record({ period }, { requiredKeys: [] }),
)

const query = async (engine: RollupEngine, body: object): Promise<Result | { status: number; code: string }> => {
  const res = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, { embedId: embeds.get(engine), ...body })
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
    // every engine's cases through one data app key: above the default global rate limit
    ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0', RATE_LIMIT: '100000' })
    a = await setupAnalytics(ctx.app, wh)
    sources = await engineSources(ctx, a, wh, ENGINES)
    for (const engine of ENGINES) {
      const source = sources.source(engine)
      embeds.set(engine, await importAndEmbed(a, source, 'rolled', document(source.schema)))
    }
    expect(await buildDueRollups(ctx)).toEqual(ENGINES.flatMap(() => ['daily', 'daily_orders_only']).sort())
  }, 180_000)

  afterAll(async () => {
    await ctx?.close()
    await sources?.close()
    await wh?.drop()
  })

  it.each(ENGINES)(
    '%s: never shows another tenant, and answers what the warehouse answers',
    async (engine) => {
      let served = 0
      await fc.assert(
        fc.asyncProperty(
          tenant,
          fc.constantFrom('by_tenant', 'by_country', 'kpi', 'weekly'),
          filters,
          async (clientId, metricId, dashboardFilter) => {
            const body = { metricId, clientId, dashboardFilter }
            const fromRollups = await query(engine, body)
            const service = ctx.app.services.metricQueries
            if (!('data' in fromRollups)) {
              expect(fromRollups.status, fromRollups.code).not.toBe(429)
              // refused before any planning: the same refusal with serving off
              service.serveRollups = false
              try {
                expect(await query(engine, body)).toEqual(fromRollups)
              } finally {
                service.serveRollups = true
              }
              return
            }
            if (fromRollups.servedFrom === 'rollup' && fromRollups.data.length > 0) served++
            for (const row of fromRollups.data) if ('tenant' in row) expect(row.tenant).toBe(clientId)
            service.serveRollups = false
            try {
              const fromWarehouse = (await query(engine, body)) as Result
              expect(fromWarehouse.servedFrom).not.toBe('rollup')
              expect(comparable(fromRollups)).toEqual(comparable(fromWarehouse))
            } finally {
              service.serveRollups = true
            }
          },
        ),
        propertyRuns(60),
      )
      // the property is about rollup-served answers with rows: many generated cases must be such.
      // On MariaDB every text filter goes to the warehouse (a case-folding collation), so about a
      // quarter to a third of the 60 are served there (14 to 23 in 11 runs with random seeds; the
      // other engines 20 to 39), so a threshold of 15 failed there about one run in six
      expect(served).toBeGreaterThan(engine === 'mariadb' ? 8 : 15)
    },
    300_000,
  )
})
