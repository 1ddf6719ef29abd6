import { describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { bearer } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const num = (v: unknown) => Math.round(Number(v) * 100) / 100

describe.skipIf(!hasPg).each(storeKinds)('metric queries on %s', (store) => {
  const { wh, t, a } = useAnalytics(store)

  const revenueOf = async (tenant?: string) => {
    const [row] = await wh.query<{ s: string }>(
      `select sum(amount) s from ${wh.schema}.orders ${tenant ? 'where tenant = $1' : ''}`,
      tenant ? [tenant] : [],
    )
    return num(row?.s)
  }
  const query = (body: object, path = '/api/v2/data-app/query') =>
    a.call('POST', path, a.dataAppKey, { embedId: a.embedId, ...body })

  it('answers the documented result for one tenant, on the preferred and the legacy path', async () => {
    for (const path of ['/api/v2/data-app/query', '/api/v2/dataApp/query']) {
      const res = await query({ metricId: 'revenue_by_country', clientId: 'globex' }, path)
      expect(res.statusCode, res.body).toBe(200)
      const body = res.json()
      expect(Object.keys(body).sort()).toEqual([
        'data',
        'error',
        'metaData',
        'metricid',
        'servedFrom',
        'timeTaken',
        'totalRecords',
      ])
      expect(body.error).toBeNull()
      // the dashboard declares no rollups: the warehouse, then the result cache for the same request
      expect(body.servedFrom).toBe(path === '/api/v2/data-app/query' ? 'warehouse' : 'cache')
      expect(body.metricid).toBe('revenue_by_country')
      expect(typeof body.timeTaken).toBe('number')
      expect(body.metaData).toEqual({
        columns: [
          { name: 'country', dataType: 'string' },
          { name: 'revenue', dataType: 'number' },
          { name: 'orders', dataType: 'integer' },
        ],
        groupbyColumnList: ['country'],
      })
      const expected = await wh.query<{ country: string; revenue: string; orders: string }>(
        `select c.country, sum(o.amount) revenue, count(*) orders from ${wh.schema}.orders o
         join ${wh.schema}.customers c on c.id = o.customer_id
         where o.tenant = 'globex' and c.tenant = 'globex' group by c.country order by c.country`,
      )
      const rows = body.data as { country: string; revenue: unknown; orders: unknown }[]
      expect(rows.map((r) => [r.country, num(r.revenue), Number(r.orders)])).toEqual(
        expected.map((r) => [r.country, num(r.revenue), Number(r.orders)]),
      )
      expect(body.totalRecords).toBe(expected.length)
    }
  })

  it('scopes every tenant to its own rows; None is refused under tenancy (fail-closed.test.ts)', async () => {
    for (const tenant of ['acme', 'globex', 'initech']) {
      const res = await query({ metricId: 'revenue', clientId: tenant })
      expect(num((res.json().data as { revenue: unknown }[])[0]?.revenue), tenant).toBe(await revenueOf(tenant))
    }
    expectError(await query({ metricId: 'revenue', clientId: 'None' }), 400, 'CLIENT_ID_ERROR', /clientId/)
    const nobody = await query({ metricId: 'revenue', clientId: "acme' or '1'='1" })
    expect((nobody.json().data as { revenue: unknown }[])[0]?.revenue ?? null).toBeNull()
  })

  it('applies dashboard and metric filters (names or labels, case-insensitive); unknown keys are 400', async () => {
    const res = await query({
      metricId: 'revenue',
      clientId: 'acme',
      dashboardFilter: { 'ORDER STATUS': ['paid'], amount: { min: 50 } },
    })
    const [row] = await wh.query<{ s: string }>(
      `select sum(amount) s from ${wh.schema}.orders where tenant = 'acme' and status = 'paid' and amount >= 50`,
    )
    expect(num((res.json().data as { revenue: unknown }[])[0]?.revenue)).toBe(num(row?.s))
    const byCountry = await query({
      metricId: 'revenue_by_country',
      clientId: 'acme',
      metricFilter: { 'Paid only': ['paid', 'shipped'] },
    })
    expect(byCountry.statusCode, byCountry.body).toBe(200)
    expectError(
      await query({ metricId: 'revenue', clientId: 'acme', dashboardFilter: { nope: 1 } }),
      400,
      'INVALID_REQUEST_BODY',
      /nope/,
    )
  })

  it.each(['/api/v2/data-app/query', '/api/v2/dataApp/query'])(
    'answers DATASOURCE_NAME_ERROR, DATAMART_NAME_ERROR, EMBED_PARAM_ERROR, validation and key errors on %s',
    async (path) => {
      const q = (body: object) => query(body, path)
      expectError(
        await q({ metricId: 'revenue', clientId: 'acme', datasourceName: 'nope' }),
        400,
        'DATASOURCE_NAME_ERROR',
      )
      expectError(await q({ metricId: 'revenue', clientId: 'acme', dataMartName: 'nope' }), 400, 'DATAMART_NAME_ERROR')
      expectError(await q({ metricId: 'nope', clientId: 'acme' }), 400, 'EMBED_PARAM_ERROR')
      expectError(await q({ embedId: 'nope', metricId: 'revenue', clientId: 'acme' }), 400, 'EMBED_PARAM_ERROR')
      expectError(await q({ metricId: 'revenue' }), 400, 'INVALID_REQUEST_BODY', /clientId/)
      expectError(
        await q({ metricId: 'revenue', clientId: 'acme', dashboardFilter: { nope: 1 } }),
        400,
        'INVALID_REQUEST_BODY',
        /nope/,
      )
      const metricEmbed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'metric',
        metricId: 'revenue',
        workspaceName: 'main',
      })
      expectError(
        await q({ embedId: metricEmbed.id, metricId: 'orders_by_month', clientId: 'acme' }),
        400,
        'EMBED_PARAM_ERROR',
      )
      expectError(await a.call('POST', path, 'sk_bad', {}), 401, 'INVALID_DATA_APP_API_KEY')
    },
  )

  it('refuses filter values no form allows, too deep or too large, with a 400 before any other work (preferred, legacy, runtime)', async () => {
    // 20,000 levels: too deep for JSON.stringify, so sent as text
    const deep = (body: object) =>
      JSON.stringify(body).replace('"DEEP"', `${'['.repeat(20_000)}"DE"${']'.repeat(20_000)}`)
    let deepObject: unknown = 'DE'
    for (let i = 0; i < 20; i++) deepObject = { a: deepObject }
    // the memory attack: 1,000 strings of 900 characters (~900 KB), different on every request
    const big = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(900, 'x'))
    const guest = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId: 'acme',
        params: { accessPermissions: { isAllowEndUserDashboardFilter: true } },
      })
    ).token as string
    const raw = (url: string, token: string, payload: string) =>
      t.app.inject({ method: 'POST', url, payload, headers: { ...bearer(token), 'content-type': 'application/json' } })
    const paths = [
      ['/api/v2/data-app/query', a.dataAppKey, { clientId: 'acme', embedId: a.embedId }],
      ['/api/v2/dataApp/query', a.dataAppKey, { clientId: 'acme', embedId: a.embedId }],
      [`/api/v2/embed/runtime/${a.embedId}/query`, guest, {}],
    ] as const
    for (const [url, token, extra] of paths) {
      const send = (body: object) => raw(url, token, JSON.stringify({ ...extra, ...body }))
      const m = { metricId: 'revenue_by_country' }
      // nested past the body parser's bound: refused before validation, serialisation or cache keys
      for (const body of [
        { ...extra, ...m, dashboardFilter: { country: 'DEEP' } },
        { ...extra, ...m, metricFilter: { paid: 'DEEP' } },
      ]) {
        expectError(await raw(url, token, deep(body)), 400, 'INVALID_REQUEST_BODY', /nests deeper/)
      }
      // within the bound but not a filter value form
      expectError(
        await send({ ...m, dashboardFilter: { country: deepObject } }),
        400,
        'INVALID_REQUEST_BODY',
        /not a filter value/,
      )
      expectError(
        await send({ ...m, dashboardFilter: { country: [['DE']] } }),
        400,
        'INVALID_REQUEST_BODY',
        /a list holds/,
      )
      expectError(await send({ ...m, dashboardFilter: { country: big } }), 400, 'INVALID_REQUEST_BODY', /in all/)
      expectError(await send({ ...m, metricFilter: { paid: big } }), 400, 'INVALID_REQUEST_BODY', /in all/)
      expectError(
        await send({ ...m, dashboardFilter: { country: 'x'.repeat(1001) } }),
        400,
        'INVALID_REQUEST_BODY',
        /longer/,
      )
      const fine = await send({ ...m, dashboardFilter: { country: ['DE', 'FR'] } })
      expect(fine.statusCode, fine.body).toBe(200)
    }
  })

  it('always answers comparisonValue as a number: the previous range, or as it stood a month ago without one', async () => {
    const document = {
      name: 'Comparison',
      filters: [{ name: 'period', type: 'date-range', table: `${wh.schema}.orders`, column: 'created_at' }],
      metrics: [
        {
          metricId: 'orders_cmp',
          name: 'Orders',
          chart: { type: 'single-value', y: ['orders'] },
          query: { from: `${wh.schema}.orders`, measures: [{ name: 'orders', aggregate: 'count' }] },
          comparison: { period: 'previous-period' },
        },
      ],
    }
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'cmp',
      importDashboardData: document,
    })
    const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'cmp',
      embedType: 'dashboard',
      workspaceName: 'main',
      name: 'Cmp',
      accessSettings: ACCESS,
    })
    const count = async (where: string, params: unknown[]) =>
      Number(
        (
          await wh.query<{ n: string }>(
            `select count(*) n from ${wh.schema}.orders where tenant = 'acme' and ${where}`,
            params,
          )
        )[0]?.n,
      )
    for (const path of ['/api/v2/data-app/query', '/api/v2/dataApp/query']) {
      const send = (dashboardFilter?: object) =>
        a.call('POST', path, a.dataAppKey, {
          embedId: embed.id,
          metricId: 'orders_cmp',
          clientId: 'acme',
          ...(dashboardFilter ? { dashboardFilter } : {}),
        })
      // no date range: every row up to the end of the same day a month ago (UTC here)
      const now = new Date()
      const back = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
      const last = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth() + 1, 0)).getUTCDate()
      const end = new Date(Date.UTC(back.getUTCFullYear(), back.getUTCMonth(), Math.min(now.getUTCDate(), last) + 1))
      const plain = (await send()).json()
      expect(plain.data[0].orders).toBe(await count('true', []))
      expect(plain.comparisonValue).toBe(await count('created_at < $1', [end]))
      // a range: the same span just before it
      const ranged = (await send({ period: { startDate: '2026-03-01', endDate: '2026-03-31' } })).json()
      expect(ranged.data[0].orders).toBe(await count("created_at >= '2026-03-01' and created_at < '2026-04-01'", []))
      expect(ranged.comparisonValue).toBe(await count("created_at >= '2026-02-01' and created_at < '2026-03-01'", []))
      // a window without rows is 0, not null
      const empty = (await send({ period: { startDate: '2030-01-01', endDate: '2030-01-31' } })).json()
      expect(empty.comparisonValue).toBe(0)
    }
  })

  describe('from the browser (guest token)', () => {
    const token = async (clientId: string, params: object = {}, permissions: object = {}) => {
      const res = await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        params,
        permissions,
      })
      expect(res.statusCode, res.body).toBe(200)
      return res.json().token as unknown as string
    }
    const run = (tok: string, body: object) => a.call('POST', `/api/v2/embed/runtime/${a.embedId}/query`, tok, body)

    it('takes the tenant and the pinned filters from the token; the browser can only narrow', async () => {
      const tok = await token('acme', {
        dashboardAppFilters: [{ dashboardId: 'sales-overview', values: { Country: ['DE'] } }],
      })
      const res = await run(tok, { metricId: 'revenue' })
      expect(res.statusCode, res.body).toBe(200)
      const [expected] = await wh.query<{ s: string }>(
        `select sum(o.amount) s from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
         where o.tenant = 'acme' and c.tenant = 'acme' and c.country = 'DE'`,
      )
      expect(num((res.json().data as { revenue: unknown }[])[0]?.revenue)).toBe(num(expected?.s))
      // trying to widen the pinned country from the browser only narrows further (AND)
      const widened = await run(tok, { metricId: 'revenue', dashboardFilter: { country: ['DE', 'FR', 'US', 'JP'] } })
      expect(num((widened.json().data as { revenue: unknown }[])[0]?.revenue)).toBe(num(expected?.s))
      // the browser cannot name another tenant: the body has no clientId field
      expectError(await run(tok, { metricId: 'revenue', clientId: 'globex' }), 400, 'INVALID_REQUEST_BODY')
    })

    it('binds the token’s appFilters to their metric', async () => {
      const tok = await token('initech', {
        appFilters: [{ metricId: 'revenue_by_country', values: { paid: ['refunded'] } }],
      })
      const res = await run(tok, { metricId: 'revenue_by_country' })
      const expected = await wh.query<{ country: string; revenue: string }>(
        `select c.country, sum(o.amount) revenue from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
         where o.tenant = 'initech' and c.tenant = 'initech' and o.status = 'refunded' group by c.country order by c.country`,
      )
      const rows = res.json().data as { country: string; revenue: unknown }[]
      expect(rows.map((r) => [r.country, num(r.revenue)])).toEqual(expected.map((r) => [r.country, num(r.revenue)]))
    })

    it('allows end-user dashboard filters only as the token and the embed permit', async () => {
      const closed = await token('acme', { accessPermissions: { isAllowEndUserDashboardFilter: false } })
      expectError(
        await run(closed, { metricId: 'revenue', dashboardFilter: { status: ['paid'] } }),
        403,
        'UNAUTHORIZED',
      )
      expect((await run(closed, { metricId: 'revenue' })).statusCode).toBe(200)
      const columns = await token('acme', {
        accessPermissions: {
          isAllowEndUserDashboardFilter: true,
          dashboardFilterColumns: [{ tableName: 'orders', columns: ['status'] }],
        },
      })
      expect((await run(columns, { metricId: 'revenue', dashboardFilter: { status: ['paid'] } })).statusCode).toBe(200)
      expectError(
        await run(columns, { metricId: 'revenue', dashboardFilter: { country: ['DE'] } }),
        403,
        'UNAUTHORIZED',
      )
      const hidden = await token('acme', { hideDashboardFilters: ['Order status'] })
      expectError(
        await run(hidden, { metricId: 'revenue', dashboardFilter: { status: ['paid'] } }),
        403,
        'UNAUTHORIZED',
      )
      // keys are named the same way everywhere (trimmed, any case): by the browser, in the
      // token's hidden and allowed lists, and on the backend path
      for (const key of [' status ', 'STATUS', ' Order Status']) {
        expectError(
          await run(hidden, { metricId: 'revenue', dashboardFilter: { [key]: ['paid'] } }),
          403,
          'UNAUTHORIZED',
        )
        const allowed = await run(columns, { metricId: 'revenue', dashboardFilter: { [key]: ['paid'] } })
        const backend = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
          embedId: a.embedId,
          metricId: 'revenue',
          clientId: 'acme',
          dashboardFilter: { [key]: ['paid'] },
        })
        expect([allowed.statusCode, backend.statusCode], allowed.body).toEqual([200, 200])
        expect(allowed.json().data).toEqual(backend.json().data)
      }
      const paddedHidden = await token('acme', { hideDashboardFilters: ['  order status '] })
      expectError(
        await run(paddedHidden, { metricId: 'revenue', dashboardFilter: { status: ['paid'] } }),
        403,
        'UNAUTHORIZED',
      )
      // the end user cannot send the trusted SQL-driven form
      const open = await token('acme')
      expectError(
        await run(open, {
          metricId: 'revenue',
          dashboardFilter: { status: { sql: 'select status from x', columnName: 'status' } },
        }),
        400,
        'INVALID_REQUEST_BODY',
      )
    })

    it('downloads CSV only with the permission, with the same tenancy as the query', async () => {
      const denied = await token('globex')
      expectError(
        await a.call('GET', `/api/v2/embed/runtime/${a.embedId}/metrics/revenue_by_country/download`, denied),
        403,
        'UNAUTHORIZED',
      )
      const allowed = await token('globex', {}, { isEnableDownloadMetrics: true })
      const res = await a.call('GET', `/api/v2/embed/runtime/${a.embedId}/metrics/revenue_by_country/download`, allowed)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.headers['content-type']).toMatch(/^text\/csv/)
      expect(res.headers['content-disposition']).toBe('attachment; filename="revenue_by_country.csv"')
      expect(res.headers['strata-truncated']).toBeUndefined() // whole (a capped one says so: abuse test)
      const lines = res.body.trim().split('\r\n')
      // the metric formats revenue: labels as the element shows them, the unit where a column has one
      expect(lines[0]).toBe('Country,Revenue (USD),Orders')
      const expected = await wh.query<{ n: string }>(
        `select count(distinct c.country) n from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id where o.tenant = 'globex' and c.tenant = 'globex'`,
      )
      expect(lines).toHaveLength(1 + Number(expected[0]?.n))
    })

    it('shows underlying rows only with the permission, only the token’s tenant, paged by 100', async () => {
      // the embed allows underlying data: a token turns it off with false, and one that leaves the
      // flag out inherits the embed's setting (as every self-serve capability does)
      const denied = await token('initech', {}, { isEnableUnderlyingData: false })
      const url = `/api/v2/embed/runtime/${a.embedId}/underlying`
      expectError(await a.call('POST', url, denied, { metricId: 'revenue' }), 403, 'UNAUTHORIZED')
      const inherited = await token('initech')
      expect((await a.call('POST', url, inherited, { metricId: 'revenue' })).statusCode).toBe(200)
      const allowed = await token('initech', {}, { isEnableUnderlyingData: true })
      const [{ status } = { status: '' }] = await wh.query<{ status: string }>(
        `select status from ${wh.schema}.orders where tenant = 'initech' group by status order by count(*) desc limit 1`,
      )
      const res = await a.call('POST', url, allowed, { metricId: 'revenue', dashboardFilter: { status: [status] } })
      expect(res.statusCode, res.body).toBe(200)
      const body = res.json() as unknown as { data: { id: number; status: string }[]; totalRecords: number }
      const expected = await wh.query<{ id: number }>(
        `select id from ${wh.schema}.orders where tenant = 'initech' and status = $1`,
        [status],
      )
      expect(expected.length).toBeGreaterThan(0)
      expect(body.totalRecords).toBe(expected.length)
      expect(body.data.length).toBe(Math.min(100, expected.length))
      // never the tenant column (underlying-columns.test.ts): the rows are the tenant's by their ids
      const ids = new Set(expected.map((r) => Number(r.id)))
      expect(body.data.every((r) => ids.has(Number(r.id)) && !('tenant' in r))).toBe(true)
      expect(new Set(body.data.map((r) => r.status))).toEqual(new Set([status]))
    })

    it('serves CORS only to whitelisted origins of the token’s data app', async () => {
      const tok = await token('acme')
      await a.ok('PUT', '/api/v2/data-app/whitelist-domains', a.dataAppKey, {
        domains: ['app.example.com', '*.customer.com'],
      })
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: `/api/v2/embed/runtime/${a.embedId}/query`,
        headers: { origin: 'https://x.customer.com', 'access-control-request-method': 'POST' },
      })
      expect(preflight.statusCode).toBe(204)
      expect(preflight.headers['access-control-allow-origin']).toBe('https://x.customer.com')
      const refusedPreflight = await t.app.inject({
        method: 'OPTIONS',
        url: `/api/v2/embed/runtime/${a.embedId}/query`,
        headers: { origin: 'https://evil.example.org', 'access-control-request-method': 'POST' },
      })
      expect(refusedPreflight.headers['access-control-allow-origin']).toBeUndefined()
      const allowed = await t.app.inject({
        method: 'GET',
        url: `/api/v2/embed/runtime/${a.embedId}`,
        headers: { authorization: `Bearer ${tok}`, origin: 'https://app.example.com' },
      })
      expect(allowed.statusCode).toBe(200)
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com')
      // the browser may read the header that marks a result cut at the row cap
      expect(allowed.headers['access-control-expose-headers']).toBe('strata-truncated, retry-after, x-request-id')
      const refused = await t.app.inject({
        method: 'GET',
        url: `/api/v2/embed/runtime/${a.embedId}`,
        headers: { authorization: `Bearer ${tok}`, origin: 'https://evil.example.org' },
      })
      expectError(refused, 403, 'UNAUTHORIZED', /whitelist/)
    })
  })
})
