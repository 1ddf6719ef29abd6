/**
 * Rollup serving with the PostgreSQL metadata store (the ready-rollups view reads its state rows
 * there): a query the rollup fits is served from it and equals the warehouse's answer.
 * The full set of cases runs on the SQLite store in rollups-serving.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, embedDashboard, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

let ctx: TestContext
let wh: PgWarehouse
let a: Analytics
let embedId: string

beforeAll(async () => {
  wh = await createPgWarehouse()
  ctx = await createTestApp('postgres', { ROLLUP_POLL_INTERVAL_MS: '0' })
  a = await setupAnalytics(ctx.app, wh)
  const document = {
    ...salesDocument(wh.schema),
    rollups: [
      {
        name: 'orders_daily',
        from: `${wh.schema}.orders`,
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status'],
        measures: [{ name: 'orders', aggregate: 'count' }],
      },
    ],
  }
  const res = await a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId: 'rolled',
    importDashboardData: document,
  })
  expect(res.statusCode, res.body).toBe(200)
  embedId = await embedDashboard(a, 'rolled')
}, 120_000)

afterAll(async () => {
  await ctx?.close()
  await wh?.drop()
})

describe('rollup serving on the PostgreSQL store', () => {
  it('serves a fitting query from the rollup once built, equal to the warehouse', async () => {
    const query = async () => {
      const res = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
        embedId,
        metricId: 'orders_by_month',
        clientId: 'globex',
      })
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as { data: unknown[]; servedFrom: string }
    }
    const before = await query()
    expect(before.servedFrom).toBe('warehouse')
    const scheduler = new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, {
      pollMs: 1000,
      leaseMs: 60_000,
    })
    expect(await scheduler.tick(new Date(Date.now() + 5_000))).toEqual(['orders_daily'])
    const after = await query()
    expect(after.servedFrom).toBe('rollup')
    expect(after.data).toEqual(before.data)
  }, 60_000)
})
