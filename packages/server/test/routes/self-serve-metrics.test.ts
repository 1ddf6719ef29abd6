/**
 * End users' metrics through the runtime API (docs/guest-tokens.md#permissions, docs/runtime-api.md#self-serve-metrics): each route allowed, and
 * refused by the embed's setting and by the token's flag separately; another tenant and another
 * user of the same tenant can neither see nor touch what one made; hostile definitions are 400;
 * a tenant's version of a company metric leaves every other tenant (and the caches) alone.
 */
import { describe, expect, it } from 'vitest'
import { ACCESS, salesRelationships, salesTables } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { type Method, runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const FULL = {
  ...ACCESS,
  isAllowMetricCreation: true,
  isAllowMetricUpdate: true,
  isAllowMetricDeletion: true,
  isAllowManageMetrics: true,
}

describe.skipIf(!hasPg).each(storeKinds)('self-serve metrics on %s', (store) => {
  const { wh, t, a } = useAnalytics(store)

  const embedWith = async (accessSettings: object): Promise<string> =>
    (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'Self-serve',
        accessSettings,
      })
    ).id
  const { tokenFor, rt, ok } = runtimeCalls(a)
  const byStatus = (name = 'Orders by status') => ({
    name,
    chart: { type: 'bar', x: 'status', y: ['orders'] },
    query: {
      from: `${wh.schema}.orders`,
      measures: [{ name: 'orders', aggregate: 'count' }],
      dimensions: [{ name: 'status', column: 'status' }],
      orderBy: [{ name: 'status', direction: 'asc' }],
    },
  })
  const create = async (embedId: string, token: string, body: object = { metric: byStatus() }) =>
    (await ok('POST', embedId, '/metrics', token, body)).data.metricId as string
  const expected = async (tenant: string) =>
    (
      await wh.query<{ status: string; orders: string }>(
        `select status, count(*) orders from ${wh.schema}.orders where tenant = $1 group by status order by status`,
        [tenant],
      )
    ).map((r) => ({ status: r.status, orders: Number(r.orders) }))
  const rows = (body: { data: Record<string, unknown>[] }) =>
    body.data.map((r) => ({ status: r.status, orders: Number(r.orders) }))

  it('saves a metric, answers it in the load and the query, scoped to the tenant', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const metricId = await create(embed, acme)
    expect(metricId).toMatch(/^u_[A-Za-z0-9_-]{12}$/)
    const load = await ok('GET', embed, '', acme)
    const metric = load.metrics.find((m: { metricId: string }) => m.metricId === metricId)
    expect(metric).toMatchObject({
      name: 'Orders by status',
      origin: 'tenant',
      isPublished: true,
      visibility: 'shared',
      createdByUser: null,
      definition: byStatus(),
    })
    expect(load.metrics.find((m: { metricId: string }) => m.metricId === 'revenue')).toMatchObject({
      origin: 'company',
      isPublished: true,
      visibility: 'shared',
      createdByUser: null,
    })
    expect(load.archivedMetrics).toEqual([])
    // appended to the layout, below the company's cards
    expect(load.dashboard.layout).toContainEqual({ metricId, x: 0, y: 8, w: 6, h: 4 })
    const result = await ok('POST', embed, '/query', acme, { metricId })
    expect(rows(result)).toEqual(await expected('acme'))
    // the same through the preview, nothing saved
    const preview = await ok('POST', embed, '/preview', acme, { metric: byStatus('Preview') })
    expect(rows(preview)).toEqual(await expected('acme'))
    expect((await ok('GET', embed, '', acme)).metrics).toHaveLength(4)
  })

  it('previews with a comparison (the studio’s builder) without saving one, and refuses an unknown period', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const orders = {
      name: 'Orders',
      chart: { type: 'single-value', y: ['orders'] },
      query: { from: `${wh.schema}.orders`, measures: [{ name: 'orders', aggregate: 'count' }] },
    }
    const plain = await ok('POST', embed, '/preview', acme, { metric: orders })
    expect(plain).not.toHaveProperty('comparisonValue')
    const compared = await ok('POST', embed, '/preview', acme, {
      metric: orders,
      comparison: { period: 'previous-year' },
    })
    expect(compared.data).toEqual(plain.data)
    expect(typeof compared.comparisonValue).toBe('number')
    // the metric itself still refuses a comparison: an end user's definition has none
    expectError(
      await rt('POST', embed, '/preview', acme, { metric: { ...orders, comparison: { period: 'previous-year' } } }),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(
      await rt('POST', embed, '/preview', acme, { metric: orders, comparison: { period: 'last-week' } }),
      400,
      'INVALID_REQUEST_BODY',
    )
  })

  it('answers the visible model: no tenant column, no hidden table or column', async () => {
    await a.ok('PUT', '/api/v2/data-app/datamarts', a.serviceToken, {
      datamartName: 'sales',
      tableList: [
        { ...salesTables(wh.schema)[0], columns: [{ name: 'status', isHide: true }] },
        { ...salesTables(wh.schema)[1], label: 'Customers' },
      ],
      relationships: salesRelationships(wh.schema),
    })
    const embed = await embedWith(FULL)
    const model = (await ok('GET', embed, '/model', await tokenFor('acme'))).data
    const orders = model.tables.find((t: { name: string }) => t.name === `${wh.schema}.orders`)
    const customers = model.tables.find((t: { name: string }) => t.name === `${wh.schema}.customers`)
    expect(orders.columns.map((c: { name: string }) => c.name).sort()).toEqual([
      'amount',
      'created_at',
      'customer_id',
      'id',
    ])
    expect(customers.label).toBe('Customers')
    expect(customers.columns.map((c: { name: string }) => c.name).sort()).toEqual(['country', 'id', 'name'])
    expect(model.relationships).toEqual([
      {
        parentTable: `${wh.schema}.customers`,
        parentColumn: 'id',
        childTable: `${wh.schema}.orders`,
        childColumn: 'customer_id',
      },
    ])
    // the hidden column is refused in a definition as any unknown one
    expectError(
      await rt('POST', embed, '/metrics', await tokenFor('acme'), { metric: byStatus() }),
      400,
      'INVALID_REQUEST_BODY',
      /^metric\.query\.dimensions\[0\]\.column: no column "status"/,
    )
  })

  it('refuses hostile definitions with 400 naming the field', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const q = byStatus().query
    const hostile: [string, object, RegExp][] = [
      [
        'unknown table',
        { ...byStatus(), query: { ...q, from: 'pg_catalog.pg_user' } },
        /^metric\.query\.from: no table/,
      ],
      [
        'tenant column',
        { ...byStatus(), query: { ...q, dimensions: [{ name: 'who', column: 'tenant' }] } },
        /^metric\.query\.dimensions\[0\]\.column: no column "tenant"/,
      ],
      [
        'tenant column in a condition',
        { ...byStatus(), query: { ...q, where: [{ column: 'tenant', operator: 'eq', values: ['globex'] }] } },
        /^metric\.query\.where\[0\]\.column: no column "tenant"/,
      ],
      [
        'tenant column of a joined table',
        {
          ...byStatus(),
          query: { ...q, dimensions: [{ name: 'who', table: `${wh.schema}.customers`, column: 'tenant' }] },
        },
        /no column "tenant"/,
      ],
      ['a sql field', { ...byStatus(), sql: 'select * from orders' }, /sql/],
      ['sql in the query', { ...byStatus(), query: { ...q, sql: 'select 1' } }, /sql/],
      ['rls', { ...byStatus(), rls: [{ variable: 'x', column: 'tenant' }] }, /rls/],
      [
        'SQL text as a column',
        { ...byStatus(), query: { ...q, dimensions: [{ name: 's', column: 'status) or 1=1 --' }] } },
        /no column/,
      ],
      [
        'SQL text as an aggregate',
        { ...byStatus(), query: { ...q, measures: [{ name: 'n', aggregate: 'count(*)); drop table x; --' }] } },
        /aggregate/,
      ],
      [
        'oversized',
        {
          ...byStatus(),
          query: {
            ...q,
            where: [
              {
                column: 'status',
                operator: 'in',
                values: Array.from({ length: 900 }, (_, i) => `${i}`.padEnd(30, 'x')),
              },
            ],
          },
        },
        /^metric: the definition is \d+ bytes as JSON; at most 16384$/,
      ],
    ]
    for (const [what, metric, message] of hostile) {
      for (const [method, path] of [
        ['POST', '/metrics'],
        ['POST', '/preview'],
        ['PUT', '/metrics/revenue'],
      ] as const) {
        const res = await rt(method, embed, path, acme, { metric })
        expectError(res, 400, 'INVALID_REQUEST_BODY', message)
        void what
      }
    }
    expect((await ok('GET', embed, '', acme)).metrics).toHaveLength(3)
  })

  it('a second tenant and a second user of the same tenant can neither see nor touch what one made', async () => {
    const embed = await embedWith(FULL)
    // every data path open to them, so only the metric's visibility can refuse
    const permissions = { isEnableDownloadMetrics: true, isEnableUnderlyingData: true }
    const alice = await tokenFor('acme', { params: { userIdentifier: 'alice' }, permissions })
    const bob = await tokenFor('acme', { params: { userIdentifier: 'bob' }, permissions })
    const globex = await tokenFor('globex', { params: { userIdentifier: 'alice' }, permissions })
    const mine = await create(embed, alice, { metric: byStatus('Private'), visibility: 'private' })
    const ours = await create(embed, alice, { metric: byStatus('Shared'), visibility: 'shared' })
    const ids = async (token: string) =>
      (await ok('GET', embed, '', token)).metrics.map((m: { metricId: string }) => m.metricId)
    expect(await ids(alice)).toEqual(['revenue', 'revenue_by_country', 'orders_by_month', mine, ours])
    expect(await ids(bob)).toEqual(['revenue', 'revenue_by_country', 'orders_by_month', ours])
    expect(await ids(globex)).toEqual(['revenue', 'revenue_by_country', 'orders_by_month'])
    const alicesView = (await ok('GET', embed, '', alice)).metrics.find(
      (m: { metricId: string }) => m.metricId === mine,
    )
    expect(alicesView).toMatchObject({
      origin: 'tenant',
      visibility: 'private',
      isPublished: false,
      createdByUser: 'alice',
    })

    const refusals: [string, string][] = [
      [globex, mine],
      [globex, ours],
      [bob, mine],
    ]
    for (const [token, metricId] of refusals) {
      const notIn = new RegExp(`^Metric ${metricId} is not in embed ${embed}$`)
      const calls: [Method, string, object?][] = [
        ['POST', '/query', { metricId }],
        ['POST', '/underlying', { metricId }],
        ['GET', `/metrics/${metricId}/download`],
        ['PUT', `/metrics/${metricId}`, { metric: byStatus('Taken') }],
        ['DELETE', `/metrics/${metricId}`],
        ['POST', `/metrics/${metricId}/archive`],
        ['POST', `/metrics/${metricId}/unarchive`],
        ['POST', `/metrics/${metricId}/publish`],
      ]
      for (const [method, path, body] of calls) {
        const res = await rt(method, embed, path, token, body)
        // the same answer as for a metric that does not exist at all
        const none = await rt(
          method,
          embed,
          path.replace(metricId, 'u_000000000000'),
          token,
          body && JSON.parse(JSON.stringify(body).replace(metricId, 'u_000000000000')),
        )
        expectError(res, 400, 'EMBED_PARAM_ERROR', notIn)
        expectError(none, 400, 'EMBED_PARAM_ERROR')
      }
    }
    // nothing changed for alice
    expect(await ids(alice)).toEqual(['revenue', 'revenue_by_country', 'orders_by_month', mine, ours])
    expect(rows(await ok('POST', embed, '/query', alice, { metricId: mine }))).toEqual(await expected('acme'))
  })

  it('lists end-user metrics in GET /api/v2/data-app/metrics under the three visibility rules', async () => {
    const embed = await embedWith(FULL)
    const alice = await tokenFor('acme', { params: { userIdentifier: 'alice' } })
    const anonymous = await tokenFor('acme')
    const mine = await create(embed, alice, { metric: byStatus('Private'), visibility: 'private' })
    const ours = await create(embed, alice, { metric: byStatus('Shared') })
    const tenantWide = await create(embed, anonymous, { metric: byStatus('Tenant-wide') })
    const list = async (clientId: string, userIdentifier?: string) =>
      (
        await a.ok(
          'GET',
          `/api/v2/data-app/metrics?embedId=${embed}&clientId=${clientId}${userIdentifier ? `&userIdentifier=${userIdentifier}` : ''}`,
          a.dataAppKey,
        )
      ).data
    const company = ['revenue', 'revenue_by_country', 'orders_by_month'].map((metricId) =>
      expect.objectContaining({ metricId, isPublished: true, createdByUser: null }),
    )
    expect(await list('acme')).toEqual([
      ...company,
      { name: 'Shared', metricId: ours, isPublished: true, createdByUser: 'alice' },
      { name: 'Tenant-wide', metricId: tenantWide, isPublished: true, createdByUser: null },
    ])
    expect(await list('acme', 'alice')).toEqual([
      { name: 'Private', metricId: mine, isPublished: false, createdByUser: 'alice' },
      { name: 'Shared', metricId: ours, isPublished: true, createdByUser: 'alice' },
    ])
    expect(await list('acme', 'bob')).toEqual([])
    expect(await list('globex')).toEqual(company)
    expect(await list('globex', 'alice')).toEqual([])
    // the export is the company's document, without them
    const exported = await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
      dashboardId: 'sales-overview',
      workspaceName: 'main',
    })
    expect(exported.data.metrics.map((m: { metricId: string }) => m.metricId)).toEqual([
      'revenue',
      'revenue_by_country',
      'orders_by_month',
    ])
  })

  it('copy on write: a tenant’s version of a company metric leaves it for other tenants, and no cache mixes them', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const globex = await tokenFor('globex')
    const revenue = async (token: string) => (await ok('POST', embed, '/query', token, { metricId: 'revenue' })).data
    const [sum] = await wh.query<{ s: string }>(`select sum(amount) s from ${wh.schema}.orders where tenant = 'acme'`)
    const [count] = await wh.query<{ n: string }>(`select count(*) n from ${wh.schema}.orders where tenant = 'acme'`)
    // the company's, cached (statement and result) for acme first
    expect(Number((await revenue(acme))[0].revenue)).toBeCloseTo(Number(sum?.s))
    const globexBefore = await revenue(globex)
    const version = {
      name: 'Revenue (count)',
      chart: { type: 'single-value', y: ['revenue'] },
      query: { from: `${wh.schema}.orders`, measures: [{ name: 'revenue', aggregate: 'count' }] },
    }
    expect(await ok('PUT', embed, '/metrics/revenue', acme, { metric: version })).toEqual({
      data: { metricId: 'revenue' },
      error: null,
    })
    expect(Number((await revenue(acme))[0].revenue)).toBe(Number(count?.n))
    expect(await revenue(globex)).toEqual(globexBefore)
    const loaded = async (token: string) =>
      (await ok('GET', embed, '', token)).metrics.find((m: { metricId: string }) => m.metricId === 'revenue')
    expect(await loaded(acme)).toMatchObject({ name: 'Revenue (count)', origin: 'company', definition: version })
    expect(await loaded(globex)).toMatchObject({ name: 'Revenue', origin: 'company' })
    // edited again: the newest version answers
    await ok('PUT', embed, '/metrics/revenue', acme, {
      metric: {
        ...version,
        name: 'Revenue (sum again)',
        query: { ...version.query, measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      },
    })
    expect(Number((await revenue(acme))[0].revenue)).toBeCloseTo(Number(sum?.s))
    // deleted: hidden for acme only
    await ok('DELETE', embed, '/metrics/revenue', acme)
    expectError(await rt('POST', embed, '/query', acme, { metricId: 'revenue' }), 400, 'EMBED_PARAM_ERROR')
    expect(await revenue(globex)).toEqual(globexBefore)
    expect((await ok('GET', embed, '', acme)).metrics.map((m: { metricId: string }) => m.metricId)).toEqual([
      'revenue_by_country',
      'orders_by_month',
    ])
    // the company's document is untouched
    const exported = await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
      dashboardId: 'sales-overview',
      workspaceName: 'main',
    })
    expect(exported.data.metrics[0]).toMatchObject({ metricId: 'revenue', name: 'Revenue' })
  })

  // Regression (issue 24, item 7): one token created 1,000 shared metrics, and every other user's
  // page load of the tenant went from 1.2 KB / 12 ms to 14.4 MB / 417 ms. At most 200 per tenant
  // on a dashboard, 50 private per user; copies of company metrics are not counted.
  it('at most 200 metrics per tenant on a dashboard and 50 private ones per user: at the limit, then 400', async () => {
    const embed = await embedWith(FULL)
    const alice = await tokenFor('bounded', { params: { userIdentifier: 'alice' } })
    const bob = await tokenFor('bounded', { params: { userIdentifier: 'bob' } })
    const db = t.app.services.store.db
    /** Stores `n` more metrics like `metricId` (saving each through the API takes too long). */
    const copies = async (metricId: string, n: number) => {
      const row = await db
        .selectFrom('end_user_metrics')
        .selectAll()
        .where('metric_id', '=', metricId)
        .executeTakeFirstOrThrow()
      const rows = Array.from({ length: n }, (_, i) => ({
        ...row,
        id: `${row.id}-${i}`,
        metric_id: `${metricId}-${i}`,
      }))
      for (let i = 0; i < rows.length; i += 50)
        await db
          .insertInto('end_user_metrics')
          .values(rows.slice(i, i + 50))
          .execute()
    }
    const privately = { metric: byStatus(), visibility: 'private' }
    // alice: 49 private metrics, then her 50th; the 51st is refused, naming the limit
    await copies(await create(embed, alice, privately), 48)
    await create(embed, alice, privately)
    expectError(
      await rt('POST', embed, '/metrics', alice, privately),
      400,
      'INVALID_REQUEST_BODY',
      /^visibility: at most 50 private metrics per user on a dashboard/,
    )
    // bob's private ones are his own count; shared ones count for the tenant only
    await create(embed, bob, privately)
    await copies(await create(embed, bob, { metric: byStatus(), visibility: 'shared' }), 146)
    // 50 + 1 + 1 + 146 = 198: two more, then the tenant is full
    await create(embed, bob, { metric: byStatus(), visibility: 'shared' })
    await create(embed, bob, { metric: byStatus(), visibility: 'shared' })
    for (const token of [alice, bob]) {
      expectError(
        await rt('POST', embed, '/metrics', token, { metric: byStatus(), visibility: 'shared' }),
        400,
        'INVALID_REQUEST_BODY',
        /^metric: at most 200 metrics per tenant on a dashboard; this tenant has 200: delete one first$/,
      )
    }
    // the tenant's own version of a company metric is still saved; another tenant is not affected
    await ok('PUT', embed, '/metrics/revenue', bob, {
      metric: {
        name: 'Revenue v2',
        chart: { type: 'single-value', y: ['revenue'] },
        query: { from: `${wh.schema}.orders`, measures: [{ name: 'revenue', aggregate: 'count' }] },
      },
    })
    await create(embed, await tokenFor('unbounded'))
    // deleting one makes room again
    const [first] = (await ok('GET', embed, '', bob)).metrics.filter((m: { origin: string }) => m.origin === 'tenant')
    await ok('DELETE', embed, `/metrics/${first.metricId}`, bob)
    await create(embed, bob, { metric: byStatus(), visibility: 'shared' })
  })

  it('archives and restores, publishes a private metric, and makes metrics private by default when the dashboard says so', async () => {
    const embed = await embedWith({ ...FULL })
    const alice = await tokenFor('acme', { params: { userIdentifier: 'alice' } })
    const bob = await tokenFor('acme', { params: { userIdentifier: 'bob' } })
    const mine = await create(embed, alice)
    await ok('POST', embed, '/metrics/revenue/archive', alice)
    await ok('POST', embed, `/metrics/${mine}/archive`, alice)
    const archived = await ok('GET', embed, '', alice)
    expect(archived.archivedMetrics).toEqual([
      { metricId: 'revenue', name: 'Revenue' },
      { metricId: mine, name: 'Orders by status' },
    ])
    expect(archived.metrics.map((m: { metricId: string }) => m.metricId)).toEqual([
      'revenue_by_country',
      'orders_by_month',
    ])
    expect(archived.dashboard.layout.map((l: { metricId: string }) => l.metricId)).toEqual([
      'revenue_by_country',
      'orders_by_month',
    ])
    expectError(await rt('POST', embed, '/query', alice, { metricId: mine }), 400, 'EMBED_PARAM_ERROR')
    // archived for the tenant: bob too
    expect((await ok('GET', embed, '', bob)).archivedMetrics).toHaveLength(2)
    await ok('POST', embed, '/metrics/revenue/unarchive', bob)
    await ok('POST', embed, `/metrics/${mine}/unarchive`, alice)
    expect((await ok('GET', embed, '', alice)).archivedMetrics).toEqual([])

    // private by default: needs the dashboard's flag AND a userIdentifier
    await a.ok('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: {
        ...(
          await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
            dashboardId: 'sales-overview',
            workspaceName: 'main',
          })
        ).data,
        isAllowPrivateMetricsByDefault: true,
      },
    })
    const secret = await create(embed, alice)
    const loadedBy = async (token: string) =>
      (await ok('GET', embed, '', token)).metrics.find((m: { metricId: string }) => m.metricId === secret)
    expect(await loadedBy(alice)).toMatchObject({ visibility: 'private', isPublished: false })
    expect(await loadedBy(bob)).toBeUndefined()
    const anonymous = await tokenFor('acme')
    const open = await create(embed, anonymous)
    expect((await ok('GET', embed, '', bob)).metrics.some((m: { metricId: string }) => m.metricId === open)).toBe(true)
    expectError(
      await rt('POST', embed, '/metrics', anonymous, { metric: byStatus(), visibility: 'private' }),
      400,
      'INVALID_REQUEST_BODY',
      /userIdentifier/,
    )
    // published: the whole tenant sees it
    await ok('POST', embed, `/metrics/${secret}/publish`, alice)
    expect(await loadedBy(bob)).toMatchObject({ visibility: 'shared', isPublished: true, createdByUser: 'alice' })
    expectError(await rt('POST', embed, '/metrics/revenue/publish', alice), 400, 'INVALID_REQUEST_BODY', /company/)
  })

  it('a new version of the company dashboard keeps valid end-user metrics, drops the others and reports them', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const globex = await tokenFor('globex')
    const byCountry = await create(embed, acme, {
      metric: {
        name: 'Orders by country',
        chart: { type: 'bar', x: 'country', y: ['orders'] },
        query: {
          from: `${wh.schema}.orders`,
          measures: [{ name: 'orders', aggregate: 'count' }],
          dimensions: [{ name: 'country', table: `${wh.schema}.customers`, column: 'country' }],
        },
      },
    })
    const statusOf = await create(embed, globex)
    await ok('PUT', embed, '/metrics/revenue', acme, {
      metric: {
        name: 'Revenue',
        chart: { type: 'single-value' },
        query: { from: `${wh.schema}.orders`, measures: [{ name: 'n', aggregate: 'count' }] },
      },
    })
    await ok('PUT', embed, '/metrics/orders_by_month', globex, { metric: byStatus('By status') })
    // status is hidden from now on; revenue leaves the company's document
    await a.ok('PUT', '/api/v2/data-app/datamarts', a.serviceToken, {
      datamartName: 'sales',
      tableList: [
        { ...salesTables(wh.schema)[0], columns: [{ name: 'status', isHide: true }] },
        salesTables(wh.schema)[1],
      ],
      relationships: salesRelationships(wh.schema),
    })
    const current = (
      await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
        dashboardId: 'sales-overview',
        workspaceName: 'main',
      })
    ).data
    const updated = await a.ok('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: {
        ...current,
        layout: current.layout.filter((l: { metricId: string }) => l.metricId !== 'revenue'),
        metrics: current.metrics.filter((m: { metricId: string }) => m.metricId !== 'revenue'),
      },
    })
    expect(updated.data.response.message).toBe('Updated dashboard Sales overview with 2 metrics')
    const dropped = [...updated.data.droppedEndUserMetrics].sort((x: { metricId: string }, y: { metricId: string }) =>
      x.metricId.localeCompare(y.metricId),
    )
    expect(dropped).toEqual(
      [
        {
          metricId: 'orders_by_month',
          clientId: 'globex',
          reason: expect.stringMatching(/^metric\.query\.dimensions\[0\]\.column: no column "status"/),
        },
        { metricId: 'revenue', clientId: 'acme', reason: 'the company metric revenue it is a version of is gone' },
        { metricId: statusOf, clientId: 'globex', reason: expect.stringMatching(/no column "status"/) },
      ].sort((x, y) => x.metricId.localeCompare(y.metricId)),
    )
    const ids = async (token: string) =>
      (await ok('GET', embed, '', token)).metrics.map((m: { metricId: string }) => m.metricId)
    expect(await ids(acme)).toEqual(['revenue_by_country', 'orders_by_month', byCountry])
    expect(await ids(globex)).toEqual(['revenue_by_country', 'orders_by_month'])
    // globex's version is gone: the company's metric answers again
    expect((await ok('GET', embed, '', globex)).metrics[1].name).toBe('Orders by month')
    const again = await a.ok('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: current,
    })
    expect(again.data.droppedEndUserMetrics).toEqual([])
  })

  it('deleting the last embed of the data app on the dashboard deletes what its end users made there', async () => {
    const first = await embedWith(FULL)
    const second = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const mine = await create(first, acme)
    await ok('POST', first, '/metrics/revenue/archive', acme)
    const count = async () => {
      const db = t.app.services.store.db
      const metrics = await db.selectFrom('end_user_metrics').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()
      const states = await db
        .selectFrom('company_metric_states')
        .select(db.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      return [Number(metrics.n), Number(states.n)]
    }
    expect(await count()).toEqual([1, 1])
    // the same dashboard through another embed of the data app: the same tenant's metrics
    expect((await ok('GET', second, '', acme)).metrics.map((m: { metricId: string }) => m.metricId)).toContain(mine)
    for (const embedId of [first, second]) {
      await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${embedId}`, a.dataAppKey)
      expect(await count()).toEqual([1, 1])
    }
    await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${a.embedId}`, a.dataAppKey)
    expect(await count()).toEqual([0, 0])
    const fresh = await embedWith(FULL)
    const load = await ok('GET', fresh, '', await tokenFor('acme'))
    expect(load.metrics.map((m: { metricId: string }) => m.metricId)).toEqual([
      'revenue',
      'revenue_by_country',
      'orders_by_month',
    ])
    expect(load.archivedMetrics).toEqual([])
  })

  describe('each route is allowed by the embed setting AND the token flag, and refused by either alone', () => {
    interface Case {
      readonly route: string
      /** The embed setting that must be on. */
      readonly setting: (keyof typeof FULL)[]
      /** The token permissions that turn it off. */
      readonly flag: Record<string, boolean>
      readonly call: (embed: string, token: string, target: string) => ReturnType<typeof rt>
      /** What must exist first (made with a full token). */
      readonly target?: 'shared' | 'private' | 'archived'
    }
    const cases: Case[] = [
      {
        route: 'GET /model',
        setting: ['isAllowMetricCreation'],
        flag: { isDisableMetricCreation: true },
        call: (e, t) => rt('GET', e, '/model', t),
      },
      {
        route: 'POST /preview',
        setting: ['isAllowMetricCreation', 'isAllowMetricUpdate'],
        flag: { isDisableMetricCreation: true, isEnableMetricUpdation: false },
        call: (e, t) => rt('POST', e, '/preview', t, { metric: byStatus() }),
      },
      {
        route: 'POST /metrics',
        setting: ['isAllowMetricCreation'],
        flag: { isDisableMetricCreation: true },
        call: (e, t) => rt('POST', e, '/metrics', t, { metric: byStatus() }),
      },
      {
        route: 'PUT /metrics/:metricId',
        setting: ['isAllowMetricUpdate'],
        flag: { isEnableMetricUpdation: false },
        target: 'shared',
        call: (e, t, m) => rt('PUT', e, `/metrics/${m}`, t, { metric: byStatus('Changed') }),
      },
      {
        route: 'DELETE /metrics/:metricId',
        setting: ['isAllowMetricDeletion'],
        flag: { isEnableManageMetrics: false },
        target: 'shared',
        call: (e, t, m) => rt('DELETE', e, `/metrics/${m}`, t),
      },
      {
        route: 'POST /metrics/:metricId/archive',
        setting: ['isAllowManageMetrics'],
        flag: { isEnableArchiveMetrics: false },
        target: 'shared',
        call: (e, t, m) => rt('POST', e, `/metrics/${m}/archive`, t),
      },
      {
        route: 'POST /metrics/:metricId/unarchive',
        setting: ['isAllowManageMetrics'],
        flag: { isEnableArchiveMetrics: false },
        target: 'archived',
        call: (e, t, m) => rt('POST', e, `/metrics/${m}/unarchive`, t),
      },
      {
        route: 'POST /metrics/:metricId/publish',
        setting: ['isAllowManageMetrics'],
        flag: { isEnableManageMetrics: false },
        target: 'private',
        call: (e, t, m) => rt('POST', e, `/metrics/${m}/publish`, t),
      },
    ]
    it.each(cases.map((c) => [c.route, c] as const))('%s', async (_route, c) => {
      const full = await embedWith(FULL)
      const off = await embedWith({ ...FULL, ...Object.fromEntries(c.setting.map((s) => [s, false])) })
      const user = { params: { userIdentifier: 'alice' } }
      const allowed = await tokenFor('acme', user)
      const flagged = await tokenFor('acme', { ...user, permissions: c.flag })
      const target = async () => {
        if (c.target === undefined) return 'revenue'
        const metricId = await create(full, allowed, {
          metric: byStatus(),
          visibility: c.target === 'private' ? 'private' : 'shared',
        })
        if (c.target === 'archived') await ok('POST', full, `/metrics/${metricId}/archive`, allowed)
        return metricId
      }
      const refusedByEmbed = await c.call(off, allowed, await target())
      expectError(refusedByEmbed, 403, 'INSUFFICIENT_PERMISSIONS', /is not allowed for this embed and token$/)
      const refusedByToken = await c.call(full, flagged, await target())
      expectError(refusedByToken, 403, 'INSUFFICIENT_PERMISSIONS', /is not allowed for this embed and token$/)
      const granted = await c.call(full, allowed, await target())
      expect(granted.statusCode, granted.body).toBe(200)
    })
  })
})
