import { describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg).each(storeKinds)('embeds, dashboards and metrics lists on %s', (store) => {
  const { wh, t, a } = useAnalytics(store)

  it('creates embeds for a dashboard and a metric, on the preferred and the legacy path', async () => {
    const metric = await a.call('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'metric',
      metricId: 'revenue',
      workspaceName: 'main',
    })
    expect(metric.json()).toEqual({ id: expect.stringMatching(/^emb_/), error: null })
    const legacy = await a.call('POST', '/api/v2/dataApp/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'dashboard',
      workspaceName: 'main',
      accessSettings: { ...ACCESS, isIncrementalJoin: true },
    })
    expect(legacy.json()).toEqual({ id: expect.stringMatching(/^emb_/), error: null })
    const list = (await a.call('GET', '/api/v2/data-app/embeds', a.dataAppKey)).json()
    expect(list.error).toBeNull()
    expect(list.data).toHaveLength(3)
    const [dash, met, leg] = list.data
    expect(dash).toEqual({
      embedId: a.embedId,
      embedType: 'dashboard',
      name: 'Sales',
      externalDashboard: {
        externalDashboardId: 'sales-overview',
        metadata: {
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        name: 'Sales overview',
      },
      externalMetric: null,
      embedMetadata: {
        embedId: a.embedId,
        name: 'Sales',
        embedType: 'dashboard',
        dataAppName: 'salesapp',
        metricId: null,
        dashboardId: 'sales-overview',
        embedDescription: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    })
    expect(met.externalMetric).toEqual({ metricId: 'revenue', name: 'Revenue' })
    expect(met.externalDashboard).toBeNull()
    expect(met.embedMetadata).toMatchObject({ metricId: 'revenue', dashboardId: null })
    expect(met.name).toBe(met.embedId) // name defaults to the embed id
    expect(leg.embedType).toBe('dashboard')
    const apps = (await a.call('GET', '/api/v2/data-app', a.serviceToken)).json().data
    expect(apps[0]).toMatchObject({ name: 'salesapp', embedCount: 3 })
    expect(apps[0].embeds.map((e: { embedId: string }) => e.embedId)).toEqual([a.embedId, met.embedId, leg.embedId])
    const exported = (await a.call('GET', `/api/v2/data-app/embeds/export?embedId=${leg.embedId}`, a.dataAppKey)).json()
    expect(exported._meta.embedDataAppAccessSetting.joinModel).toBe('multi')
  })

  it('answers the create-embed error codes', async () => {
    const create = (body: object) =>
      a.call('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        accessSettings: ACCESS,
        ...body,
      })
    expectError(await create({ workspaceName: 'nope' }), 404, 'INVALID_WORKSPACE_NAME')
    expectError(await create({ dashboardId: 'nope' }), 404, 'INVALID_DASHBOARD_ID')
    expectError(await create({ embedType: 'metric', metricId: 'nope' }), 404, 'INVALID_METRIC_ID')
    expectError(await create({ accessSettings: undefined }), 400, 'INVALID_REQUEST_BODY', /accessSettings/)
    const { isAllowMetricUpdate: _, ...missing } = ACCESS
    expectError(await create({ accessSettings: missing }), 400, 'INVALID_REQUEST_BODY', /isAllowMetricUpdate/)
    const { datamartName: __, ...noDatamart } = ACCESS
    expectError(await create({ accessSettings: noDatamart }), 400, 'INVALID_REQUEST_BODY', /datamartName/)
    expectError(await create({ accessSettings: { ...ACCESS, datamartName: 'nope' } }), 404, 'INVALID_DATAMART')
    expectError(await create({ bogus: true }), 400, 'INVALID_REQUEST_BODY')
    for (const url of ['/api/v2/data-app/embeds', '/api/v2/dataApp/embeds']) {
      expectError(await a.call('POST', url, 'sk_bad', {}), 401, 'INVALID_DATA_APP_API_KEY')
      expectError(await a.call('POST', url, a.serviceToken, {}), 401, 'INVALID_DATA_APP_API_KEY')
    }
  })

  it('lists with pagination (10 a page; page 0 reads as 1; past the end is empty) and the clientId filter', async () => {
    for (let i = 0; i < 11; i++) {
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'metric',
        metricId: 'revenue',
        workspaceName: 'main',
      })
    }
    const page = async (q: string) => (await a.call('GET', `/api/v2/data-app/embeds?${q}`, a.dataAppKey)).json()
    expect((await page('isPagination=true&pageNumber=1')).data).toHaveLength(10)
    expect((await page('isPagination=true&pageNumber=2')).data).toHaveLength(2)
    expect((await page('isPagination=true&pageNumber=0')).data).toHaveLength(10)
    expect((await page('isPagination=true&pageNumber=9')).data).toEqual([])
    expect((await page('isPagination=false&pageNumber=2')).data).toHaveLength(12)
    expectError(
      await a.call('GET', '/api/v2/data-app/embeds?isPagination=true&pageNumber=abc', a.dataAppKey),
      400,
      'INVALID_REQUEST_BODY',
    )
    const legacy = await a.call('POST', '/api/v2/dataApp/embed/list', a.dataAppKey, {
      isPagination: true,
      pageNumber: 2,
    })
    expect(legacy.json().data).toHaveLength(2)
    expectError(
      await a.call('POST', '/api/v2/dataApp/embed/list', a.dataAppKey, { isPagination: 'true' }),
      400,
      'INVALID_REQUEST_BODY',
    )

    const empty = await a.ok('POST', '/api/v2/data-app/dashboard-embeds', a.dataAppKey, {
      dashboardId: 'client-dash',
      workspaceName: 'main',
      clientId: 'acme',
      name: 'Acme board',
      accessSettings: ACCESS,
    })
    // the answer's id is the new dashboard's (as the hosted service documents it), embedId the embed's
    expect(empty).toEqual({
      id: 'client-dash',
      name: 'Acme board',
      embedId: expect.stringMatching(/^emb_/),
      error: null,
    })
    const byClient = (await page('clientId=acme')).data
    expect(byClient.map((e: { embedId: string }) => e.embedId)).toEqual([empty.embedId])
    expect((await page('clientId=globex')).data).toEqual([])
    for (const url of ['/api/v2/data-app/embeds']) {
      expectError(await a.call('GET', url, 'sk_bad'), 400, 'INVALID_DATA_APP_API_KEY')
    }
    expectError(await a.call('POST', '/api/v2/dataApp/embed/list', 'sk_bad', {}), 400, 'INVALID_DATA_APP_API_KEY')
  })

  it('updates access settings partially; the update error codes', async () => {
    for (const [method, url] of [
      ['PUT', '/api/v2/data-app/embeds'],
      ['POST', '/api/v2/dataApp/embed/update'],
    ] as const) {
      const res = await a.call(method, url, a.dataAppKey, {
        embedId: a.embedId,
        accessSettings: { isAllowEmailReports: true },
      })
      expect(res.json()).toEqual({ id: a.embedId, error: null })
      expectError(
        await a.call(method, url, a.dataAppKey, { embedId: 'nope', accessSettings: {} }),
        404,
        'EMBED_NOT_FOUND',
      )
      expectError(
        await a.call(method, url, a.dataAppKey, { embedId: a.embedId, accessSettings: { isAllowEmailReports: 'yes' } }),
        400,
        'INVALID_ACCESS_SETTINGS',
        /isAllowEmailReports/,
      )
      expectError(
        await a.call(method, url, a.dataAppKey, { embedId: a.embedId, accessSettings: { nope: 1 } }),
        400,
        'INVALID_ACCESS_SETTINGS',
        /nope/,
      )
      expectError(
        await a.call(method, url, a.dataAppKey, { embedId: a.embedId, accessSettings: { datamartName: 'nope' } }),
        404,
        'INVALID_DATAMART',
      )
      expectError(
        await a.call(method, url, a.dataAppKey, { embedId: a.embedId, accessSettings: {}, workspaceName: 'nope' }),
        404,
        'INVALID_WORKSPACE_NAME',
      )
      expectError(
        await a.call(method, url, a.dataAppKey, {
          embedId: a.embedId,
          accessSettings: { joinModel: 'single', isIncrementalJoin: true },
        }),
        409,
        'CONFLICTING_UPDATE',
      )
      expectError(await a.call(method, url, a.dataAppKey, { accessSettings: {} }), 400, 'INVALID_REQUEST_BODY')
      expectError(await a.call(method, url, 'sk_bad', {}), 401, 'AUTHENTICATION_ERR')
    }
    const exported = (await a.call('GET', `/api/v2/data-app/embeds/export?embedId=${a.embedId}`, a.dataAppKey)).json()
    expect(exported._meta.embedDataAppAccessSetting).toMatchObject({ ...ACCESS, isAllowEmailReports: true })
  })

  it('renames an embed (and its dashboard when asked)', async () => {
    const res = await a.call('PUT', '/api/v2/data-app/embeds/rename', a.dataAppKey, {
      embedId: a.embedId,
      name: 'Revenue board',
      isRenameDashboard: true,
    })
    expect(res.json()).toEqual({ id: a.embedId, name: 'Revenue board', error: null })
    const dashboards = (
      await a.call('GET', '/api/v2/data-app/dashboards?isPagination=false&pageNumber=1', a.dataAppKey)
    ).json()
    expect(dashboards).toEqual({
      data: [{ name: 'Revenue board', externalDashboardId: 'sales-overview', embedId: a.embedId }],
    })
    await a.ok('PUT', '/api/v2/data-app/embeds/rename', a.dataAppKey, { embedId: a.embedId, name: 'Only the embed' })
    const list = (await a.call('GET', '/api/v2/data-app/embeds', a.dataAppKey)).json().data[0]
    expect([list.name, list.externalDashboard.name]).toEqual(['Only the embed', 'Revenue board'])
    expectError(
      await a.call('PUT', '/api/v2/data-app/embeds/rename', a.dataAppKey, { embedId: 'nope', name: 'x' }),
      400,
      'INVALID_EMBED_ID',
    )
    expectError(
      await a.call('PUT', '/api/v2/data-app/embeds/rename', a.dataAppKey, { embedId: a.embedId, name: '' }),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(
      await a.call('PUT', '/api/v2/data-app/embeds/rename', a.dataAppKey, { embedId: a.embedId, name: '   ' }),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(
      await a.call('PUT', '/api/v2/data-app/embeds/rename', 'sk_bad', { embedId: a.embedId, name: 'x' }),
      400,
      'INVALID_DATA_APP_API_KEY',
    )
  })

  it('exports an embed as an attachment usable as importDashboardData; legacy paths too', async () => {
    for (const [method, url, body] of [
      ['GET', `/api/v2/data-app/embeds/export?embedId=${a.embedId}`, undefined],
      ['GET', `/api/v2/dataApp/embeds/export?embedId=${a.embedId}`, undefined],
      ['POST', '/api/v2/dataApp/embeds/export', { embedId: a.embedId }],
    ] as const) {
      const res = await a.call(method, url, a.dataAppKey, body)
      expect(res.statusCode, res.body).toBe(200)
      expect(res.headers['content-disposition']).toBe(`attachment; filename="dashboard-${a.embedId}.json"`)
      const doc = res.json()
      expect(doc._meta).toEqual({
        exportedAt: expect.any(String),
        embedId: a.embedId,
        name: 'Sales',
        embedType: 'dashboard',
        dashboardId: 'sales-overview',
        embedDataAppAccessSetting: expect.objectContaining({ datamartName: 'sales' }),
      })
      expect(Object.keys(doc.data)).toEqual(expect.arrayContaining(['layout', 'filters', 'metrics']))
    }
    const doc = (await a.call('GET', `/api/v2/data-app/embeds/export?embedId=${a.embedId}`, a.dataAppKey)).json()
    const reimported = await a.call('POST', '/api/v2/data-app/dashboard-embeds', a.dataAppKey, {
      dashboardId: 'copy',
      workspaceName: 'main',
      clientId: 'acme',
      importDashboardData: doc.data,
      accessSettings: ACCESS,
    })
    expect(reimported.statusCode, reimported.body).toBe(200)
    const copy = (
      await a.call('GET', `/api/v2/data-app/embeds/export?embedId=${reimported.json().embedId}`, a.dataAppKey)
    ).json()
    expect(copy.data).toEqual(doc.data)
    // the error codes, on the preferred and both legacy forms
    const exportOf = (form: number, embedId: string | undefined, key = a.dataAppKey) => {
      const qs = embedId === undefined ? '' : `?embedId=${embedId}`
      if (form === 0) return a.call('GET', `/api/v2/data-app/embeds/export${qs}`, key)
      if (form === 1) return a.call('GET', `/api/v2/dataApp/embeds/export${qs}`, key)
      return a.call('POST', '/api/v2/dataApp/embeds/export', key, embedId === undefined ? {} : { embedId })
    }
    for (const form of [0, 1, 2]) {
      expectError(await exportOf(form, 'nope'), 400, 'INVALID_EMBED_ID')
      expectError(await exportOf(form, undefined), 400, 'INVALID_REQUEST_BODY')
      expectError(await exportOf(form, a.embedId, 'sk_bad'), 401, 'INVALID_DATA_APP_API_KEY')
    }
  })

  it('deletes an embed, and its dashboard only under the three conditions; legacy path too', async () => {
    const second = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'metric',
      metricId: 'revenue',
      workspaceName: 'main',
    })
    const shared = await a.call(
      'DELETE',
      `/api/v2/data-app/embeds?embedId=${a.embedId}&isDeleteDashboard=true`,
      a.dataAppKey,
    )
    expectError(shared, 400, 'INVALID_REQUEST_BODY', /referenced by multiple embeds/)
    expect((await a.call('DELETE', `/api/v2/data-app/embeds?embedId=${second.id}`, a.dataAppKey)).json()).toEqual({
      id: second.id,
    })
    expectError(
      await a.call('DELETE', `/api/v2/data-app/embeds?embedId=${second.id}`, a.dataAppKey),
      400,
      'INVALID_REQUEST_BODY',
      /not found/,
    )
    const legacy = await a.call('POST', `/api/v2/data-app/embeds?embedId=${a.embedId}`, a.dataAppKey, {
      embedId: a.embedId,
      isDeleteDashboard: true,
    })
    expect(legacy.json()).toEqual({ id: a.embedId, error: null })
    const dashboards = (
      await a.call('GET', '/api/v2/data-app/dashboards?isPagination=false&pageNumber=1', a.dataAppKey)
    ).json()
    expect(dashboards).toEqual({ data: [] })
    const gone = await a.call('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
      dashboardId: 'sales-overview',
      workspaceName: 'main',
    })
    expectError(gone, 400, 'INVALID_REQUEST_BODY')
    expectError(await a.call('DELETE', '/api/v2/data-app/embeds?embedId=x', 'sk_bad'), 401, 'INVALID_DATA_APP_API_KEY')
    expectError(await a.call('DELETE', '/api/v2/data-app/embeds', a.dataAppKey), 400, 'INVALID_REQUEST_BODY')
    // and on the legacy form (POST with the embed in the body)
    const legacyDelete = (body: object, key = a.dataAppKey) =>
      a.call('POST', `/api/v2/data-app/embeds?embedId=${a.embedId}`, key, body)
    expectError(await legacyDelete({ embedId: a.embedId }), 400, 'INVALID_REQUEST_BODY', /not found/)
    expectError(await legacyDelete({ embedId: 'x' }, 'sk_bad'), 401, 'INVALID_DATA_APP_API_KEY')
  })

  it('refuses to delete an internal dashboard', async () => {
    const { store, bus } = t.app.services
    await store.db.updateTable('dashboards').set({ origin: 'internal' }).execute()
    for (const { id } of await store.db.selectFrom('dashboards').select('id').execute()) {
      await bus.publish({ kind: 'dashboard', dashboardRowId: id })
    }
    const res = await a.call(
      'DELETE',
      `/api/v2/data-app/embeds?embedId=${a.embedId}&isDeleteDashboard=true`,
      a.dataAppKey,
    )
    expectError(res, 400, 'INVALID_REQUEST_BODY', /internal/)
  })

  it('lists dashboards and metrics with the documented rules; legacy dashboards list', async () => {
    const res = await a.call(
      'GET',
      '/api/v2/data-app/dashboards?isPagination=true&pageNumber=1&dashboardNames=Sales%20overview,Other',
      a.dataAppKey,
    )
    expect(res.json()).toEqual({
      data: [{ name: 'Sales overview', externalDashboardId: 'sales-overview', embedId: a.embedId }],
    })
    expect(
      (
        await a.call(
          'GET',
          '/api/v2/data-app/dashboards?isPagination=true&pageNumber=1&dashboardNames=Other',
          a.dataAppKey,
        )
      ).json(),
    ).toEqual({ data: [] })
    expectError(await a.call('GET', '/api/v2/data-app/dashboards', a.dataAppKey), 400, 'INVALID_REQUEST_BODY')
    const legacy = await a.call('POST', '/api/v2/data-app/dashboards', a.dataAppKey, {
      filters: { dashboardNames: ['Sales overview'] },
    })
    expect(legacy.json().data).toHaveLength(1)
    expectError(
      await a.call('POST', '/api/v2/data-app/dashboards', a.dataAppKey, { pageNumber: '1' }),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(
      await a.call('GET', '/api/v2/data-app/dashboards?isPagination=true&pageNumber=1', 'sk_bad'),
      401,
      'INVALID_DATA_APP_API_KEY',
    )

    const metrics = await a.call('GET', `/api/v2/data-app/metrics?embedId=${a.embedId}&clientId=acme`, a.dataAppKey)
    expect(metrics.json()).toEqual({
      data: [
        { name: 'Revenue', metricId: 'revenue', isPublished: true, createdByUser: null },
        { name: 'Revenue by country', metricId: 'revenue_by_country', isPublished: true, createdByUser: null },
        { name: 'Orders by month', metricId: 'orders_by_month', isPublished: true, createdByUser: null },
      ],
    })
    const paged = await a.call(
      'GET',
      `/api/v2/data-app/metrics?embedId=${a.embedId}&clientId=acme&isPagination=true&pageNumber=2`,
      a.dataAppKey,
    )
    expect(paged.json()).toEqual({ data: [] })
    const byUser = await a.call(
      'GET',
      `/api/v2/data-app/metrics?embedId=${a.embedId}&clientId=acme&userIdentifier=u1&isMetric=true`,
      a.dataAppKey,
    )
    expect(byUser.json()).toEqual({ data: [] })
    expectError(
      await a.call('GET', `/api/v2/data-app/metrics?embedId=nope&clientId=acme`, a.dataAppKey),
      400,
      'EMBED_PARAM_ERROR',
    )
    expectError(
      await a.call('GET', `/api/v2/data-app/metrics?embedId=${a.embedId}`, a.dataAppKey),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(
      await a.call('GET', `/api/v2/data-app/metrics?embedId=${a.embedId}&clientId=acme`, 'sk_bad'),
      400,
      'INVALID_DATA_APP_API_KEY',
    )
  })

  it('applies the three metric visibility rules, isPublished and createdByUser', async () => {
    const doc = salesDocument(wh.schema)
    const base = doc.metrics[0]!
    doc.metrics.push(
      { ...base, metricId: 'acme_private', name: 'Acme only', createdByClient: 'acme' } as never,
      {
        ...base,
        metricId: 'u1_draft',
        name: 'U1 draft',
        createdByClient: 'acme',
        createdByUser: 'u1',
        isPublished: false,
      } as never,
      { ...base, metricId: 'u2_metric', name: 'U2', createdByClient: 'acme', createdByUser: 'u2' } as never,
    )
    const created = await a.ok('POST', '/api/v2/data-app/dashboard-embeds', a.dataAppKey, {
      dashboardId: 'with-user-metrics',
      workspaceName: 'main',
      clientId: 'acme',
      importDashboardData: doc,
      accessSettings: ACCESS,
    })
    const list = async (q: string) =>
      (
        (await a.call('GET', `/api/v2/data-app/metrics?embedId=${created.embedId}&${q}`, a.dataAppKey)).json() as {
          data: { metricId: string; isPublished: boolean; createdByUser: string | null }[]
        }
      ).data
    // 1. shared metrics for every client; 2. client-created ones only for their client
    expect((await list('clientId=globex')).map((m) => m.metricId)).toEqual([
      'revenue',
      'revenue_by_country',
      'orders_by_month',
    ])
    expect((await list('clientId=acme')).map((m) => m.metricId)).toEqual([
      'revenue',
      'revenue_by_country',
      'orders_by_month',
      'acme_private',
      'u1_draft',
      'u2_metric',
    ])
    // 3. userIdentifier: only that user's metrics, system metrics excluded
    expect(await list('clientId=acme&userIdentifier=u1&isMetric=true')).toEqual([
      { name: 'U1 draft', metricId: 'u1_draft', isPublished: false, createdByUser: 'u1' },
    ])
    expect(await list('clientId=globex&userIdentifier=u1')).toEqual([])
    // the browser sees the same: another client's metric is neither listed nor queryable
    const runtimeIds = async (clientId: string, userIdentifier?: string) => {
      const minted = await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        params: userIdentifier ? { userIdentifier } : {},
      })
      const loaded = (await a.call('GET', `/api/v2/embed/runtime/${created.id}`, minted.token)).json() as {
        metrics: { metricId: string; timeGrains?: Record<string, string>; formats?: Record<string, unknown> }[]
      }
      // each metric carries its dimensions' time grains (axis labels by grain), none when it has none
      expect(loaded.metrics.find((m) => m.metricId === 'orders_by_month')?.timeGrains).toEqual({ month: 'month' })
      expect(loaded.metrics.find((m) => m.metricId === 'revenue')).not.toHaveProperty('timeGrains')
      // and every column's format: as the document gives it, else inferred (a count is a number)
      expect(loaded.metrics.find((m) => m.metricId === 'revenue_by_country')?.formats).toEqual({
        revenue: { style: 'currency', currency: 'USD' },
        orders: { style: 'number' },
      })
      // a sum of amount with no currency in the model: a number
      expect(loaded.metrics.find((m) => m.metricId === 'revenue')?.formats).toEqual({ revenue: { style: 'number' } })
      const foreign = await a.call('POST', `/api/v2/embed/runtime/${created.id}/query`, minted.token, {
        metricId: 'acme_private',
      })
      return { ids: loaded.metrics.map((m) => m.metricId), foreign: foreign.statusCode }
    }
    expect(await runtimeIds('globex')).toEqual({
      ids: ['revenue', 'revenue_by_country', 'orders_by_month'],
      foreign: 400,
    })
    expect(await runtimeIds('acme', 'u1')).toEqual({
      ids: ['revenue', 'revenue_by_country', 'orders_by_month', 'acme_private', 'u1_draft', 'u2_metric'],
      foreign: 200,
    })
    expect((await runtimeIds('acme', 'u2')).ids).not.toContain('u1_draft')
    // system metrics are always published
    expect((await list('clientId=acme')).find((m) => m.metricId === 'revenue')).toMatchObject({
      isPublished: true,
      createdByUser: null,
    })
  })

  it('keeps two data apps apart: one key never sees or changes the other’s embeds', async () => {
    const other = await a.ok('POST', '/api/v2/data-app', a.serviceToken, { name: 'otherapp' })
    const key = other.key as string
    expect((await a.call('GET', '/api/v2/data-app/embeds', key)).json().data).toEqual([])
    expect((await a.call('GET', '/api/v2/data-app/dashboards?isPagination=false&pageNumber=1', key)).json()).toEqual({
      data: [],
    })
    expectError(
      await a.call('PUT', '/api/v2/data-app/embeds', key, { embedId: a.embedId, accessSettings: {} }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expectError(
      await a.call('POST', '/api/v2/dataApp/embed/update', key, { embedId: a.embedId, accessSettings: {} }),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    expectError(
      await a.call('PUT', '/api/v2/data-app/embeds/rename', key, { embedId: a.embedId, name: 'x' }),
      400,
      'INVALID_EMBED_ID',
    )
    expectError(
      await a.call('DELETE', `/api/v2/data-app/embeds?embedId=${a.embedId}`, key),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(
      await a.call('GET', `/api/v2/data-app/embeds/export?embedId=${a.embedId}`, key),
      400,
      'EMBED_PARAM_ERROR',
    )
    expectError(
      await a.call('GET', `/api/v2/data-app/metrics?embedId=${a.embedId}&clientId=acme`, key),
      400,
      'EMBED_PARAM_ERROR',
    )
    expectError(
      await a.call('POST', '/api/v2/data-app/query', key, {
        embedId: a.embedId,
        metricId: 'revenue',
        clientId: 'acme',
      }),
      400,
      'EMBED_PARAM_ERROR',
    )
    const minted = await a.call('POST', '/api/v2/guest-token/create', key, {
      dataAppName: 'salesapp',
      clientId: 'acme',
    })
    expectError(minted, 400, 'INVALID_REQUEST_BODY', /dataAppName/)
    // and the embed is untouched
    expect((await a.call('GET', '/api/v2/data-app/embeds', a.dataAppKey)).json().data).toHaveLength(1)
  })
})
