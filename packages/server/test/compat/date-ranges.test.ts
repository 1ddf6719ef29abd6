import { beforeEach, describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

/**
 * A date range written as the hosted service's examples write it, `{ start, end }`, means what
 * `{ startDate, endDate }` means: in the metric query (preferred and legacy path), in a guest
 * token's dashboardAppFilters, and in the runtime query's dashboardFilter and metricFilter. Both
 * spellings of a bound with different values is a 400 naming both. Bodies written for these
 * tests after the service's public API reference, over helpers/analytics.ts.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const QUERY_PATHS = ['/api/v2/data-app/query', '/api/v2/dataApp/query'] as const
const JANUARY = { start: '2026-01-01', end: '2026-01-31' }
const FIRST_HALF = { start: '2026-01-01', end: '2026-01-15' }

describe.skipIf(!hasPg).each(storeKinds)('date ranges as { start, end } on %s', (store) => {
  const { wh, a } = useAnalytics(store)
  let embedId: string

  // the sales dashboard, its revenue metric with a date metric filter of its own
  beforeEach(async () => {
    const document = salesDocument(wh.schema)
    const metrics = document.metrics.map((m) =>
      m.metricId === 'revenue'
        ? { ...m, filters: [{ name: 'placed', label: 'Placed', type: 'date-range', column: 'created_at' }] }
        : m,
    )
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'dated',
      importDashboardData: { ...document, metrics },
    })
    embedId = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'dated',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'Dated',
        accessSettings: ACCESS,
      })
    ).id
  })

  /** acme's revenue from `start` to `end` inclusive (UTC days), from the warehouse itself. */
  const expected = async (range: { start: string; end: string }) => {
    const [row] = await wh.query<{ s: string | null }>(
      `select sum(amount) s from ${wh.schema}.orders
       where tenant = 'acme' and created_at >= $1::date and created_at < $2::date + 1`,
      [range.start, range.end],
    )
    return Number(row?.s ?? 0)
  }
  const revenue = (res: { statusCode: number; body: string; json(): unknown }) => {
    expect(res.statusCode, res.body).toBe(200)
    return Number((res.json() as { data: { revenue: unknown }[] }).data[0]?.revenue ?? 0)
  }

  it.each(QUERY_PATHS)(
    'the metric query on %s reads { start, end } in dashboardFilter and metricFilter',
    async (path) => {
      const query = (filters: object) =>
        a.call('POST', path, a.dataAppKey, { embedId, metricId: 'revenue', clientId: 'acme', ...filters })
      // the service's example body: a dashboard date filter as { start, end }
      const january = revenue(await query({ dashboardFilter: { period: JANUARY } }))
      expect(january).toBe(await expected(JANUARY))
      expect(january).toBeLessThan(revenue(await query({})))
      expect(
        revenue(await query({ dashboardFilter: { 'Order date': { startDate: '2026-01-01', endDate: '2026-01-31' } } })),
      ).toBe(january)
      expect(revenue(await query({ metricFilter: { placed: FIRST_HALF } }))).toBe(await expected(FIRST_HALF))
      // both spellings of one bound: the same value is one bound, different values a 400 naming both
      expect(revenue(await query({ dashboardFilter: { period: { ...JANUARY, startDate: '2026-01-01' } } }))).toBe(
        january,
      )
      expectError(
        await query({ dashboardFilter: { period: { ...JANUARY, startDate: '2026-01-02' } } }),
        400,
        'INVALID_REQUEST_BODY',
        /^dashboardFilter\.period: startDate and start are the same bound with different values/,
      )
      expectError(
        await query({ metricFilter: { placed: { end: '2026-01-15', endDate: '2026-01-16' } } }),
        400,
        'INVALID_REQUEST_BODY',
        /^metricFilter\.placed: endDate and end are the same bound with different values/,
      )
    },
  )

  describe('in the browser', () => {
    const mint = (params: object) =>
      a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme', params })
    const token = async (params: object = {}) => {
      const res = await mint(params)
      expect(res.statusCode, res.body).toBe(200)
      return (res.json() as { token: string }).token
    }
    const run = async (tok: string, body: object) =>
      a.call('POST', `/api/v2/embed/runtime/${embedId}/query`, tok, { metricId: 'revenue', ...body })

    it('a token’s dashboardAppFilters take { start, end }; a conflict or a missing bound is refused at mint', async () => {
      const tok = await token({ dashboardAppFilters: [{ dashboardId: 'dated', values: { 'Order date': JANUARY } }] })
      expect(revenue(await run(tok, {}))).toBe(await expected(JANUARY))
      expectError(
        await mint({
          dashboardAppFilters: [{ dashboardId: 'dated', values: { period: { ...JANUARY, endDate: '2026-02-28' } } }],
        }),
        400,
        'INVALID_REQUEST_BODY',
        /^params\.dashboardAppFilters\[0\]\.values\.period: endDate and end are the same bound with different values/,
      )
      expectError(
        await mint({ dashboardAppFilters: [{ dashboardId: 'dated', values: { period: { start: '2026-01-01' } } }] }),
        400,
        'INVALID_REQUEST_BODY',
        /^params\.dashboardAppFilters\[0\]\.values\.period: a date range needs both startDate and endDate/,
      )
    })

    it('the runtime query reads { start, end } in dashboardFilter and metricFilter', async () => {
      const tok = await token()
      expect(revenue(await run(tok, { dashboardFilter: { period: JANUARY } }))).toBe(await expected(JANUARY))
      expect(revenue(await run(tok, { metricFilter: { Placed: FIRST_HALF } }))).toBe(await expected(FIRST_HALF))
      expectError(
        await run(tok, { dashboardFilter: { period: { start: '2026-01-01', startDate: '2025-12-01' } } }),
        400,
        'INVALID_REQUEST_BODY',
        /^dashboardFilter\.period: startDate and start are the same bound with different values/,
      )
    })
  })
})
