import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO, seedDemo } from '../../src/services/demo/seed.js'
import { createTestApp, type TestContext } from '../helpers/app.js'

type Row = Record<string, unknown>

/**
 * Drill-down through the runtime query (docs/runtime-api.md#drill-down): the load names the
 * column behind each dimension, a drill filter narrows every card that can take it to the SQL
 * truth, a time-grained dimension changes grain, and every drill input is checked: visible
 * columns only, the end-user filter permission and the filterable columns.
 */
describe('drill-down on the demo', () => {
  let t: TestContext
  let key: string
  beforeAll(async () => {
    t = await createTestApp('sqlite', { DEMO: 'true' })
    key = (await seedDemo(t.app.services, t.app.log)).key ?? ''
    expect(key).toMatch(/^sk_/)
  })
  afterAll(() => t.close())

  const mint = async (permissions: object = {}, params: object = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/guest-token/create',
      headers: { authorization: `Bearer ${key}` },
      payload: { dataAppName: DEMO.dataApp, clientId: 'acme', params: { timezone: 'UTC', ...params }, permissions },
    })
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { token: string }).token
  }
  const call = (token: string, method: 'GET' | 'POST', path: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v2/embed/runtime/${DEMO.dashboardId}${path}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    })
  const query = async (token: string, body: object) => {
    const res = await call(token, 'POST', '/query', body)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { data: Row[] }).data
  }
  const ALL_TIME = { period: 'All time' }

  it('the load names the visible column behind each dimension, never a SQL metric or a tenant column', async () => {
    const token = await mint()
    const load = (await call(token, 'GET', '')).json() as {
      metrics: { metricId: string; drillColumns?: Record<string, { table: string; column: string }> }[]
    }
    const by = Object.fromEntries(load.metrics.map((m) => [m.metricId, m.drillColumns]))
    expect(by.revenue_by_category).toEqual({ category: { table: 'main.orders', column: 'category' } })
    expect(by.revenue_by_month).toEqual({ month: { table: 'main.orders', column: 'created_at' } })
    expect(by.top_customers?.country).toEqual({ table: 'main.customers', column: 'country' })
    expect(by.orders_by_channel).toBeUndefined()
    expect(by.revenue).toBeUndefined()
    expect(JSON.stringify(by)).not.toContain('tenant')
  })

  it('a drill value narrows every card that reaches its table, to the numbers of that segment', async () => {
    const token = await mint()
    const byCategory = await query(token, { metricId: 'revenue_by_category', dashboardFilter: ALL_TIME })
    const [first] = byCategory
    if (!first) throw new Error('no categories')
    const drill = { filters: [{ table: 'main.orders', column: 'category', value: first.category }] }
    const total = await query(token, { metricId: 'revenue', dashboardFilter: ALL_TIME, drill })
    expect(Number(total[0]?.revenue)).toBeCloseTo(Number(first.revenue), 2)
    const all = await query(token, { metricId: 'revenue', dashboardFilter: ALL_TIME })
    expect(Number(all[0]?.revenue)).toBeGreaterThan(Number(total[0]?.revenue))
    // a customers' column reaches orders through the relationship
    const countries = await query(token, { metricId: 'top_customers', dashboardFilter: ALL_TIME, pageNumber: 1 })
    const country = countries[0]?.country
    const onCountry = { filters: [{ table: 'main.customers', column: 'country', value: country }] }
    const rows = await query(token, { metricId: 'top_customers', dashboardFilter: ALL_TIME, drill: onCountry })
    expect(rows.length).toBeGreaterThan(0)
    expect(new Set(rows.map((r) => r.country))).toEqual(new Set([country]))
    // the underlying rows take the same drill
    const res = await call(token, 'POST', '/underlying', {
      metricId: 'revenue_by_category',
      dashboardFilter: ALL_TIME,
      drill,
    })
    expect(res.statusCode, res.body).toBe(200)
    const underlying = res.json() as { data: Row[] }
    expect(new Set(underlying.data.map((r) => r.category))).toEqual(new Set([first.category]))
  })

  it('a time series drills to days within the clicked month', async () => {
    const token = await mint()
    const months = await query(token, { metricId: 'revenue_by_month', dashboardFilter: ALL_TIME })
    const month = String(months.at(-2)?.month).slice(0, 7)
    const [y, m] = month.split('-').map(Number) as [number, number]
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate()
    const drill = {
      filters: [
        {
          table: 'main.orders',
          column: 'created_at',
          value: { startDate: `${month}-01`, endDate: `${month}-${last}` },
        },
      ],
      timeGrain: { dimension: 'month', grain: 'day' },
    }
    const days = await query(token, { metricId: 'revenue_by_month', dashboardFilter: ALL_TIME, drill })
    expect(days.length).toBeGreaterThan(20)
    expect(days.length).toBeLessThanOrEqual(last)
    for (const d of days) expect(String(d.month).slice(0, 7)).toBe(month)
    const sum = days.reduce((s, d) => s + Number(d.revenue), 0)
    expect(sum).toBeCloseTo(Number(months.at(-2)?.revenue), 1)
  })

  it('refuses a tenant column, an unknown column and a hidden table alike, and wrong value forms', async () => {
    const token = await mint()
    const refused = async (drill: object) => {
      const res = await call(token, 'POST', '/query', { metricId: 'revenue', dashboardFilter: ALL_TIME, drill })
      expect(res.statusCode, res.body).toBe(400)
      return (res.json() as { error: { code: string; message: string } }).error
    }
    const tenant = await refused({ filters: [{ table: 'main.orders', column: 'tenant', value: 'globex' }] })
    const unknown = await refused({ filters: [{ table: 'main.orders', column: 'nope', value: 'x' }] })
    expect(tenant.message.replace('tenant', 'X')).toBe(unknown.message.replace('nope', 'X'))
    await refused({ filters: [{ table: 'main.secrets', column: 'id', value: 1 }] })
    await refused({ filters: [{ table: 'main.orders', column: 'created_at', value: '2025-01-01' }] })
    await refused({
      filters: [
        { table: 'main.orders', column: 'category', value: { startDate: '2025-01-01', endDate: '2025-01-31' } },
      ],
    })
    await refused({ timeGrain: { dimension: 'nope', grain: 'day' } })
    const schema = await call(token, 'POST', '/query', {
      metricId: 'revenue',
      drill: { timeGrain: { dimension: 'month', grain: 'hour' } },
    })
    expect(schema.statusCode).toBe(400)
    const extra = await call(token, 'POST', '/query', {
      metricId: 'revenue',
      drill: { filters: [{ table: 'main.orders', column: 'category', value: 'x', sql: '1=1' }] },
    })
    expect(extra.statusCode).toBe(400)
  })

  it('the rows of a segment take the same checks as a query (a drill restored from a page URL is just as untrusted)', async () => {
    // "See these rows" on a card or a single metric, and chips from the URL or the drills property,
    // reach the server as POST …/underlying with a drill: what a query refuses, it refuses too
    const rows = (token: string, drill: object) =>
      call(token, 'POST', '/underlying', { metricId: 'revenue_by_category', dashboardFilter: ALL_TIME, drill })
    const token = await mint({ isEnableUnderlyingData: true })
    const tenant = await rows(token, { filters: [{ table: 'main.orders', column: 'tenant', value: 'globex' }] })
    expect(tenant.statusCode, tenant.body).toBe(400)
    expect(tenant.body).not.toContain('globex')
    const wrongForm = await rows(token, {
      filters: [{ table: 'main.orders', column: 'status', value: { startDate: '2025-01-01', endDate: '2025-01-31' } }],
    })
    expect(wrongForm.statusCode).toBe(400)
    const locked = await mint(
      { isEnableUnderlyingData: true },
      { accessPermissions: { isAllowEndUserDashboardFilter: false } },
    )
    const status = { filters: [{ table: 'main.orders', column: 'status', value: 'paid' }] }
    expect((await rows(locked, status)).statusCode).toBe(403)
    // two values at once (a scatter point: its customer and its series' country), ANDed
    const both = {
      filters: [
        { table: 'main.orders', column: 'status', value: 'paid' },
        { table: 'main.customers', column: 'country', value: 'DE' },
      ],
    }
    const ok = await rows(token, both)
    expect(ok.statusCode, ok.body).toBe(200)
    const data = (ok.json() as { data: Row[] }).data
    expect(data.length).toBeGreaterThan(0)
    expect(new Set(data.map((r) => r.status))).toEqual(new Set(['paid']))
    const paidOnly = (await rows(token, status).then((r) => r.json())) as { totalRecords: number }
    expect((ok.json() as { totalRecords: number }).totalRecords).toBeLessThan(paidOnly.totalRecords)
  })

  it('follows the end-user filter permission and the filterable columns', async () => {
    const locked = await mint({}, { accessPermissions: { isAllowEndUserDashboardFilter: false } })
    const load = (await call(locked, 'GET', '')).json() as { metrics: { drillColumns?: unknown }[] }
    expect(load.metrics.every((m) => m.drillColumns === undefined)).toBe(true)
    const drill = { filters: [{ table: 'main.orders', column: 'category', value: 'Books' }] }
    const res = await call(locked, 'POST', '/query', { metricId: 'revenue', drill })
    expect(res.statusCode).toBe(403)
    const narrow = await mint(
      {},
      { accessPermissions: { dashboardFilterColumns: [{ tableName: 'main.orders', columns: ['channel'] }] } },
    )
    expect((await call(narrow, 'POST', '/query', { metricId: 'revenue', drill })).statusCode).toBe(403)
    // the load offers no drill on a column the token may not filter (it would be refused)
    const narrowLoad = (await call(narrow, 'GET', '')).json() as {
      metrics: { metricId: string; drillColumns?: Record<string, { table: string; column: string }> }[]
    }
    const narrowBy = Object.fromEntries(narrowLoad.metrics.map((m) => [m.metricId, m.drillColumns]))
    expect(narrowBy.revenue_by_category).toBeUndefined()
    expect(narrowBy.top_customers).toBeUndefined()
    const channel = { filters: [{ table: 'main.orders', column: 'channel', value: 'Web' }] }
    expect((await call(narrow, 'POST', '/query', { metricId: 'revenue', drill: channel })).statusCode).toBe(200)
  })
})
