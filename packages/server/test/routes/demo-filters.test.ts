import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO, seedDemo } from '../../src/services/demo/seed.js'
import { createTestApp, type TestContext } from '../helpers/app.js'

/**
 * The demo's filters reach every card that claims them: "Orders by status" and the SQL metric
 * "Orders by channel and quarter" take Category and the order date, the load names the filters
 * a card does not take (`unfiltered`), and the Category picker lists the tenant's categories.
 */
describe('demo: which filters apply', () => {
  let t: TestContext
  let token: string
  beforeAll(async () => {
    t = await createTestApp('sqlite', { DEMO: 'true' })
    await seedDemo(t.app.services, t.app.log)
    token = ((await t.app.inject({ method: 'GET', url: '/demo/token?tenant=acme' })).json() as { token: string }).token
  })
  afterAll(() => t.close())

  const call = async (method: 'GET' | 'POST', path: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v2/embed/runtime/${DEMO.dashboardId}${path}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json()
  }
  const total = (rows: Record<string, unknown>[], keys: string[]) =>
    rows.reduce((sum, r) => sum + keys.reduce((s, k) => s + Number(r[k] ?? 0), 0), 0)
  const CHANNELS = ['web', 'mobile', 'partner', 'retail']

  it('marks only what a card does not take', async () => {
    const load = await call('GET', '')
    const unfiltered = Object.fromEntries(
      (load.metrics as { metricId: string; unfiltered?: string[] }[]).map((m) => [m.metricId, m.unfiltered ?? []]),
    )
    expect(unfiltered.orders_by_channel).toEqual(['country'])
    expect(unfiltered.status_share).toEqual([])
    expect(unfiltered.revenue).toEqual([])
  })

  it('narrows the SQL metric by Category and the order date, as "Orders by status"', async () => {
    const { data } = await call('GET', '/filters/category/values')
    expect(data.values.length).toBeGreaterThan(1)
    const category = data.values[0] as string
    const run = async (metricId: string, dashboardFilter: object) =>
      (await call('POST', '/query', { metricId, dashboardFilter })).data as Record<string, unknown>[]
    const allTime = { period: 'All time' }
    const sqlAll = total(await run('orders_by_channel', allTime), CHANNELS)
    const sqlOne = total(await run('orders_by_channel', { ...allTime, category: [category] }), CHANNELS)
    const byStatus = total(await run('status_share', { ...allTime, category: [category] }), ['orders'])
    expect(sqlOne).toBeLessThan(sqlAll)
    expect(sqlOne).toBe(byStatus)
    // the date filter's default (Last 12 months) applies to the SQL metric too
    const quarters = (await run('orders_by_channel', {})).length
    expect(quarters).toBeLessThanOrEqual(5)
    expect((await run('orders_by_channel', allTime)).length).toBeGreaterThan(quarters)
  })
})
