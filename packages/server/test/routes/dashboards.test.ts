import { describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg).each(storeKinds)('dashboard import and export on %s', (store) => {
  const { wh, t, a } = useAnalytics(store)

  const exportDashboard = (dashboardId: string, token = a.serviceToken) =>
    a.call('POST', '/api/v2/data-app/export-dashboard', token, { dashboardId, workspaceName: 'main' })
  const importDashboard = (body: object, token = a.serviceToken) =>
    a.call('POST', '/api/v2/data-app/import-dashboard', token, { workspaceName: 'main', ...body })

  it('exports the document as an attachment; export → import → export gives the same data', async () => {
    const first = await exportDashboard('sales-overview')
    expect(first.statusCode, first.body).toBe(200)
    expect(first.headers['content-disposition']).toBe('attachment; filename="dashboard-sales-overview.json"')
    const doc = first.json() as unknown as { _meta: Record<string, unknown>; data: Record<string, unknown> }
    expect(doc._meta).toEqual({ exportedAt: expect.any(String), workspaceName: 'main', dashboardId: 'sales-overview' })
    expect(new Date(doc._meta.exportedAt as string).toISOString()).toBe(doc._meta.exportedAt)
    expect(doc.data).toMatchObject({ name: 'Sales overview' })
    expect(Object.keys(doc.data)).toEqual(expect.arrayContaining(['layout', 'filters', 'metrics']))

    const imported = await importDashboard({ importDashboardData: doc.data, dashboardId: 'copy' })
    expect(imported.json()).toEqual({
      data: {
        response: {
          message: expect.stringContaining('3 metrics'),
          dashboardId: 'copy',
          dashboardName: 'Sales overview',
          workspaceName: 'main',
        },
      },
    })
    const second = (await exportDashboard('copy')).json() as unknown as { data: unknown }
    expect(second.data).toEqual(doc.data)
    // every field comes back, number formats included
    expect((doc.data.metrics as { formats?: unknown }[])[1]?.formats).toEqual({
      revenue: { style: 'currency', currency: 'USD' },
    })
  })

  it('generates an id when none is given, takes dashboardName, rewrites schemaPairs', async () => {
    const renamed = await importDashboard({
      importDashboardData: salesDocument('analytics'),
      dashboardName: 'Renamed',
      schemaPairs: [{ replaceSchema: 'analytics', targetSchema: wh.schema }],
    })
    expect(renamed.statusCode, renamed.body).toBe(200)
    const response = (
      renamed.json() as unknown as { data: { response: { dashboardId: string; dashboardName: string } } }
    ).data.response
    expect(response.dashboardName).toBe('Renamed')
    expect(response.dashboardId).toMatch(/^dash_/)
    const exported = (await exportDashboard(response.dashboardId)).json() as unknown as {
      data: { name: string; metrics: { query: { from: string } }[] }
    }
    expect(exported.data.name).toBe('Renamed')
    expect(exported.data.metrics[0]?.query.from).toBe(`${wh.schema}.orders`)
  })

  it('refuses a collision and creates nothing', async () => {
    const before = await t.app.services.store.db.selectFrom('dashboards').select('id').execute()
    const collision = await importDashboard({
      importDashboardData: salesDocument(wh.schema),
      dashboardId: 'sales-overview',
    })
    expectError(collision, 400, 'INVALID_REQUEST_BODY', /already exists/)
    const after = await t.app.services.store.db.selectFrom('dashboards').select('id').execute()
    expect(after).toHaveLength(before.length)
  })

  it('validates the document fully, naming the path', async () => {
    const doc = salesDocument(wh.schema)
    const broken = (mutate: (d: ReturnType<typeof salesDocument>) => void) => {
      const copy = structuredClone(doc)
      mutate(copy)
      return importDashboard({ importDashboardData: copy })
    }
    expectError(
      await broken((d) => {
        d.metrics[0]!.query.from = `${wh.schema}.nope`
      }),
      400,
      'INVALID_REQUEST_BODY',
      /metrics\[0\]\.query\.from/,
    )
    expectError(
      await broken((d) => {
        ;(d.metrics[1]!.query.measures[0] as { column?: string }).column = 'amout'
      }),
      400,
      'INVALID_REQUEST_BODY',
      /metrics\[1\]\.query\.measures\[0\]\.column.*amout/,
    )
    expectError(
      await broken((d) => {
        ;(d.metrics[0]!.query.measures[0] as { aggregate: string }).aggregate = 'median'
      }),
      400,
      'INVALID_REQUEST_BODY',
      /aggregate/,
    )
    expectError(
      await broken((d) => {
        ;(d.metrics[0]!.chart as { type: string }).type = 'radar'
      }),
      400,
      'INVALID_REQUEST_BODY',
      /chart/,
    )
    expectError(
      await broken((d) => {
        d.layout[0]!.metricId = 'nope'
      }),
      400,
      'INVALID_REQUEST_BODY',
      /layout\[0\]/,
    )
    expectError(await importDashboard({ importDashboardData: null }), 400, 'INVALID_REQUEST_BODY')
    expectError(await importDashboard({}), 400, 'INVALID_REQUEST_BODY', /importDashboardData/)
    expectError(
      await importDashboard({ importDashboardData: doc, schemaPairs: [{ replaceSchema: 'x' }] }),
      400,
      'INVALID_REQUEST_BODY',
    )
  })

  it('refuses a SQL metric that writes or is not one SELECT over the model, on import and on the empty-dashboard embed', async () => {
    const withSql = (sql: string) => {
      const d = salesDocument(wh.schema)
      return { ...d, metrics: [...d.metrics, { metricId: 'evil', name: 'Evil', chart: { type: 'table' }, sql }] }
    }
    const cases: [string, RegExp][] = [
      [`UPDATE ${wh.schema}.orders SET amount = 0 WHERE client_id <> {{clientId}}`, /not UPDATE/],
      [`CREATE TABLE ${wh.schema}.stolen AS SELECT * FROM ${wh.schema}.orders`, /not CREATETABLE/],
      [`select * from ${wh.schema}.orders; delete from ${wh.schema}.orders`, /exactly one statement/],
      ["select set_config('default_transaction_read_only', 'off', false)", /set_config\(\) is not one of them/],
      // issue 24: a comment the parser skips but an engine runs; large objects and the server's files
      [
        `select count(*) from ${wh.schema}.orders /*M!100000 union select count(*) from pg_catalog.pg_user */`,
        /executable comments and optimizer hints/,
      ],
      [`select lo_from_bytea(0, 'x') as o from ${wh.schema}.orders`, /lo_from_bytea\(\) is not one of them/],
      [`select pg_ls_dir('.') as f from ${wh.schema}.orders`, /pg_ls_dir\(\) is not one of them/],
      ['select * from pg_catalog.pg_user', /no table "pg_catalog.pg_user"/],
    ]
    for (const [sql, reason] of cases) {
      const at = /^importDashboardData\.metrics\[3\]\.sql: /
      const imported = await importDashboard({ importDashboardData: withSql(sql), dashboardId: 'evil' })
      expectError(imported, 400, 'INVALID_REQUEST_BODY', at)
      expectError(imported, 400, 'INVALID_REQUEST_BODY', reason)
      for (const path of ['/api/v2/data-app/dashboard-embeds', '/api/v2/dataApp/dashboard-embeds']) {
        const embedded = await a.call('POST', path, a.dataAppKey, {
          dashboardId: 'evil',
          workspaceName: 'main',
          clientId: 'acme',
          importDashboardData: withSql(sql),
          accessSettings: ACCESS,
        })
        expectError(embedded, 400, 'INVALID_REQUEST_BODY', reason)
      }
    }
    expect((await exportDashboard('evil')).statusCode).not.toBe(200)
  })

  it('answers WORKSPACE_ID_ERROR, and each route’s own auth error', async () => {
    expectError(
      await importDashboard({ workspaceName: 'nope', importDashboardData: salesDocument(wh.schema) }),
      400,
      'WORKSPACE_ID_ERROR',
    )
    expectError(
      await a.call('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
        dashboardId: 'sales-overview',
        workspaceName: 'nope',
      }),
      400,
      'WORKSPACE_ID_ERROR',
    )
    expectError(await exportDashboard('nope'), 400, 'INVALID_REQUEST_BODY', /nope/)
    expectError(
      await a.call('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, { dashboardId: 'x' }),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(await exportDashboard('sales-overview', 'bad'), 400, 'AUTH_ERROR')
    expectError(await exportDashboard('sales-overview', a.dataAppKey), 400, 'AUTH_ERROR')
    expectError(await importDashboard({ importDashboardData: {} }, 'bad'), 400, 'AUTHENTICATION_ERROR')
    expectError(await importDashboard({ importDashboardData: {} }, a.dataAppKey), 400, 'AUTHENTICATION_ERROR')
  })

  it('imports only into a workspace with one model (not MULTI_*)', async () => {
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, { name: 'multi', connectionType: 'MULTI_DATASOURCE' })
    const res = await importDashboard({ workspaceName: 'multi', importDashboardData: salesDocument(wh.schema) })
    expectError(res, 400, 'INVALID_REQUEST_BODY', /MULTI_DATASOURCE/)
  })

  it('an import drops cached results of the workspace’s queries', async () => {
    const q = () =>
      a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
        embedId: a.embedId,
        metricId: 'revenue',
        clientId: 'acme',
      })
    const before = (await q()).json() as unknown as { data: { revenue: unknown }[] }
    await wh.query(`insert into ${wh.schema}.orders values (100000, 3, 'acme', 'paid', 1000, now())`)
    const cached = (await q()).json() as unknown as { data: { revenue: unknown }[] }
    expect(cached.data).toEqual(before.data)
    await importDashboard({ importDashboardData: salesDocument(wh.schema), dashboardId: 'another' })
    const fresh = (await q()).json() as unknown as { data: { revenue: unknown }[] }
    expect(Number(fresh.data[0]?.revenue)).toBeCloseTo(Number(before.data[0]?.revenue) + 1000, 2)
    await wh.query(`delete from ${wh.schema}.orders where id = 100000`)
  })
})
