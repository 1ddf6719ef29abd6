/**
 * Rollup builds run once across instances: two schedulers (two instance ids) on one metadata
 * store, SQLite and PostgreSQL, pass at the same moment; each due rollup is built by exactly one
 * of them, and a second pass at the same time builds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

describe.each(storeKinds)('rollup refresh lease (%s store)', (store) => {
  let ctx: TestContext
  let wh: PgWarehouse
  let a: Analytics
  beforeAll(async () => {
    wh = await createPgWarehouse()
    ctx = await createTestApp(store, { ROLLUP_POLL_INTERVAL_MS: '0' })
    a = await setupAnalytics(ctx.app, wh)
    const rollups = ['a', 'b', 'c'].map((name) => ({
      name,
      from: `${wh.schema}.orders`,
      dimensions: ['status'],
      measures: [{ name: 'orders', aggregate: 'count' }],
    }))
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'leased',
      importDashboardData: { ...salesDocument(wh.schema), rollups },
    })
  }, 120_000)
  afterAll(async () => {
    await ctx?.close()
    await wh?.drop()
  })

  it('each due rollup is built by one instance only', async () => {
    const { store: db, rollups } = ctx.app.services
    const one = new RollupScheduler(db, rollups, { pollMs: 1000, leaseMs: 60_000 })
    const two = new RollupScheduler(db, rollups, { pollMs: 1000, leaseMs: 60_000 })
    expect(one.instanceId).not.toBe(two.instanceId)
    const at = new Date(Date.now() + 1000)
    const [first, second] = await Promise.all([one.tick(at), two.tick(at)])
    expect([...first, ...second].sort()).toEqual(['a', 'b', 'c'])
    expect(await Promise.all([one.tick(at), two.tick(at)])).toEqual([[], []])
    const states = (await a.ok('GET', '/api/v2/data-app/rollups', a.serviceToken)).data as { state: string }[]
    expect(states.map((s) => s.state)).toEqual(['ready', 'ready', 'ready'])
  }, 120_000)
})
