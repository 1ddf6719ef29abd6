/**
 * Query plans (services/query/metric-queries.ts `plan`): a request's prepared statements are
 * remembered per embed, dashboard version and request values. What must never happen is a
 * remembered plan answering for another tenant or value, or outliving a change that alters it:
 * each case below fails when its part of the plan's key or invalidation is removed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { salesRelationships, salesTables } from '../helpers/analytics.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const num = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 100) / 100)

describe.skipIf(!hasPg)('remembered query plans', () => {
  const { wh, a } = useAnalytics('sqlite')

  const revenue = async (body: object, path = '/api/v2/data-app/query') => {
    const res = await a.call('POST', path, a.dataAppKey, {
      embedId: a.embedId,
      metricId: 'revenue',
      ...body,
    })
    expect(res.statusCode, res.body).toBe(200)
    return num((res.json().data as { revenue: unknown }[])[0]?.revenue)
  }
  const truth = async (where: string, params: unknown[]) => {
    const [row] = await wh.query<{ s: string | null }>(
      `select sum(amount) s from ${wh.schema}.orders o ${where}`,
      params,
    )
    return num(row?.s)
  }

  afterEach(() => {
    vi.useRealTimers()
  })

  it('answers each tenant and each filter value its own rows, however the requests interleave (preferred and legacy path)', async () => {
    const requests = [
      ['acme', ['paid']],
      ['globex', ['paid']],
      ['acme', ['refunded']],
      ['acme', ['paid']],
      ['initech', ['paid', 'shipped']],
      ['globex', ['paid']],
      ['acme', ['refunded']],
    ] as const
    // the two paths share a route, so a plan made on one serves the other
    for (const [i, [tenant, status]] of requests.entries()) {
      const path = i % 2 === 0 ? '/api/v2/data-app/query' : '/api/v2/dataApp/query'
      expect(
        await revenue({ clientId: tenant, dashboardFilter: { status } }, path),
        `${path} ${tenant} ${status}`,
      ).toBe(await truth('where tenant = $1 and status = any($2)', [tenant, status]))
    }
  })

  it('a date preset follows the calendar day: the same request the next day answers that day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const today = { clientId: 'acme', dashboardFilter: { period: 'Today' } }
    const dayTotal = (day: string) =>
      truth(
        `where tenant = 'acme' and created_at >= $1::timestamptz and created_at < $1::timestamptz + interval '1 day'`,
        [`${day}T00:00:00Z`],
      )
    // acme has orders on both days, with different totals (else the case could not fail)
    expect(await dayTotal('2026-01-02')).not.toBe(await dayTotal('2026-01-03'))
    vi.setSystemTime(new Date('2026-01-02T12:00:00Z'))
    expect(await revenue(today)).toBe(await dayTotal('2026-01-02'))
    vi.setSystemTime(new Date('2026-01-03T12:00:00Z'))
    expect(await revenue(today)).toBe(await dayTotal('2026-01-03'))
  })

  it("a datamart's new client column applies to the next request (the plan is dropped)", async () => {
    expect(await revenue({ clientId: 'paid' })).toBeNull() // no tenant is called "paid"
    expect(await revenue({ clientId: 'acme' })).toBe(await truth('where tenant = $1', ['acme']))
    const tables = salesTables(wh.schema).map((t) => (t.name === 'orders' ? { ...t, clientColumn: 'status' } : t))
    await a.ok('PUT', '/api/v2/data-app/datamarts', a.serviceToken, {
      datamartName: 'sales',
      tableList: tables,
      relationships: salesRelationships(wh.schema),
    })
    expect(await revenue({ clientId: 'paid' })).toBe(await truth('where status = $1', ['paid']))
    expect(await revenue({ clientId: 'acme' })).toBeNull()
  })
})
