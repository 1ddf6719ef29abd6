import { describe, expect, it } from 'vitest'
import { salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

type Doc = ReturnType<typeof salesDocument>

/** docs/api.md#dashboards-as-code: a dashboard replaced, deleted, or checked before anyone sees it. */
describe.skipIf(!hasPg).each(storeKinds)('changing dashboards on %s', (store) => {
  const { wh, t, a } = useAnalytics(store)

  const put = (body: object, token = a.serviceToken) =>
    a.call('PUT', '/api/v2/data-app/dashboard', token, { workspaceName: 'main', ...body })
  const validate = (body: object) =>
    a.call('POST', '/api/v2/data-app/validate-dashboard', a.serviceToken, { workspaceName: 'main', ...body })
  const importDashboard = (body: object) =>
    a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, { workspaceName: 'main', ...body })
  const remove = (dashboardId: string, token = a.serviceToken) =>
    a.call(
      'DELETE',
      `/api/v2/data-app/dashboard?workspaceName=main&dashboardId=${encodeURIComponent(dashboardId)}`,
      token,
    )
  const exported = async (dashboardId: string) =>
    (
      (
        await a.call('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
          workspaceName: 'main',
          dashboardId,
        })
      ).json() as unknown as { data: Doc }
    ).data
  const withSql = (doc: Doc, sql: string) => ({
    ...doc,
    metrics: [...doc.metrics, { metricId: 'by_status', name: 'By status', chart: { type: 'table' }, sql }],
  })
  const misspelt = () =>
    `select status, sum(amont) as total from ${wh.schema}.orders where tenant = {{clientId}} group by status`

  it('PUT replaces the document in place: the embed and a guest token keep working and serve the new metrics', async () => {
    const guest = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' })
    ).token as string
    const run = async (metricId: string) => {
      const res = await a.call('POST', `/api/v2/embed/runtime/${a.embedId}/query`, guest, { metricId })
      expect(res.statusCode, res.body).toBe(200)
      return (res.json() as unknown as { data: Record<string, unknown>[] }).data
    }
    const [sum] = await run('revenue')
    const [count] = await wh.query<{ n: string }>(`select count(*) n from ${wh.schema}.orders where tenant = 'acme'`)
    const doc = salesDocument(wh.schema)
    doc.metrics[0]!.query.measures[0] = { name: 'revenue', aggregate: 'count' } as never
    const next = withSql({ ...doc, name: 'Sales v2' }, `select count(*) as n from ${wh.schema}.orders`)
    next.layout.push({ metricId: 'by_status', x: 0, y: 8, w: 12, h: 4 })
    const res = await put({ dashboardId: 'sales-overview', importDashboardData: next })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      data: {
        response: {
          message: expect.stringContaining('4 metrics'),
          dashboardId: 'sales-overview',
          dashboardName: 'Sales v2',
          workspaceName: 'main',
        },
        droppedEndUserMetrics: [],
      },
    })
    // the same embed and token: the new definition, not the cached result of the old one
    const [after] = await run('revenue')
    expect(Number(after?.revenue)).toBe(Number(count?.n))
    expect(Number(after?.revenue)).not.toBe(Number(sum?.revenue))
    expect(Number((await run('by_status'))[0]?.n)).toBe(Number(count?.n))
    expect((await exported('sales-overview')).name).toBe('Sales v2')
    const rows = await t.app.services.store.db.selectFrom('dashboards').select('dashboard_id').execute()
    expect(rows.filter((r) => r.dashboard_id === 'sales-overview')).toHaveLength(1)
  })

  it('PUT refuses an unknown dashboard, a broken metric, and a data-app key; the document stays', async () => {
    const doc = salesDocument(wh.schema)
    expectError(
      await put({ dashboardId: 'nope', importDashboardData: doc }),
      400,
      'INVALID_REQUEST_BODY',
      /dashboardId: no dashboard nope in workspace main/,
    )
    const broken = await put({ dashboardId: 'sales-overview', importDashboardData: withSql(doc, misspelt()) })
    expectError(broken, 400, 'INVALID_REQUEST_BODY', /importDashboardData\.metrics\[3\] \(metric by_status\)/)
    expectError(broken, 400, 'INVALID_REQUEST_BODY', /column "amont" does not exist/)
    expect((await exported('sales-overview')).metrics).toHaveLength(3)
    expectError(
      await put({ workspaceName: 'nope', dashboardId: 'sales-overview', importDashboardData: doc }),
      400,
      'WORKSPACE_ID_ERROR',
    )
    expectError(await put({ importDashboardData: doc }), 400, 'INVALID_REQUEST_BODY', /dashboardId/)
    expectError(
      await put({ dashboardId: 'sales-overview', importDashboardData: doc }, a.dataAppKey),
      401,
      'AUTHENTICATION_ERROR',
    )
  })

  it('import refuses a SQL metric the warehouse rejects, naming the metric and the reason, and saves nothing', async () => {
    const res = await importDashboard({
      dashboardId: 'typo',
      importDashboardData: withSql(salesDocument(wh.schema), misspelt()),
    })
    expectError(res, 400, 'INVALID_REQUEST_BODY', /metric by_status\).*column "amont" does not exist/)
    expect(
      (
        await a.call('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
          workspaceName: 'main',
          dashboardId: 'typo',
        })
      ).statusCode,
    ).toBe(400)
  })

  it('validate runs every metric with no rows: finds the misspelt SQL column and a column the warehouse dropped', async () => {
    await wh.query(`alter table ${wh.schema}.orders add column discount numeric`)
    try {
      const ds = await t.app.services.store.db
        .selectFrom('datasources')
        .select(['id', 'organization_id'])
        .where('name', '=', 'warehouse')
        .executeTakeFirstOrThrow()
      await t.app.services.datasources.sync(ds.organization_id, ds.id)
      await wh.query(`alter table ${wh.schema}.orders drop column discount`)
      const doc = withSql(salesDocument(wh.schema), misspelt())
      doc.metrics.push({
        metricId: 'discounts',
        name: 'Discounts',
        chart: { type: 'single-value' },
        query: { from: `${wh.schema}.orders`, measures: [{ name: 'discount', aggregate: 'sum', column: 'discount' }] },
      } as never)
      const before = await t.app.services.store.db.selectFrom('dashboards').select('id').execute()
      const res = await validate({ importDashboardData: doc })
      expect(res.statusCode, res.body).toBe(200)
      const { data } = res.json() as unknown as {
        data: { valid: boolean; metrics: { metricId: string; valid: boolean; error?: string }[] }
      }
      expect(data.valid).toBe(false)
      expect(data.metrics.map((m) => [m.metricId, m.valid])).toEqual([
        ['revenue', true],
        ['revenue_by_country', true],
        ['orders_by_month', true],
        ['by_status', false],
        ['discounts', false],
      ])
      expect(data.metrics[3]?.error).toMatch(/column "amont" does not exist/)
      expect(data.metrics[4]?.error).toMatch(/discount/)
      expect(data.metrics[0]).not.toHaveProperty('error')
      expect(await t.app.services.store.db.selectFrom('dashboards').select('id').execute()).toHaveLength(before.length)

      const good = await validate({ importDashboardData: salesDocument(wh.schema) })
      expect(good.json()).toEqual({
        data: {
          valid: true,
          metrics: ['revenue', 'revenue_by_country', 'orders_by_month'].map((metricId) => ({ metricId, valid: true })),
        },
      })
      // a document that does not fit the model is the import's 400
      const off = salesDocument(wh.schema)
      off.metrics[0]!.query.from = `${wh.schema}.nope`
      expectError(
        await validate({ importDashboardData: off }),
        400,
        'INVALID_REQUEST_BODY',
        /metrics\[0\]\.query\.from/,
      )
    } finally {
      await wh.query(`alter table ${wh.schema}.orders drop column if exists discount`)
    }
  })

  it('DELETE removes a dashboard no embed uses and is refused, naming them, while embeds use it', async () => {
    const refused = await remove('sales-overview')
    expectError(refused, 400, 'INVALID_REQUEST_BODY', new RegExp(`used by embed ${a.embedId}`))
    expect((await exported('sales-overview')).name).toBe('Sales overview')
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'spare',
      importDashboardData: salesDocument(wh.schema),
    })
    const res = await remove('spare')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ id: 'spare', error: null })
    expectError(await remove('spare'), 400, 'INVALID_REQUEST_BODY', /no dashboard spare/)
    expectError(await remove('sales-overview', a.dataAppKey), 401, 'AUTHENTICATION_ERROR')
  })
})
