import { beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from '../../server/test/helpers/app.js'
import { credentials } from '../src/generated/credentials.js'
import { Strata, StrataError } from '../src/index.js'
import { ACCESS, createSales, REVENUE, SALES_DOCUMENT, type Sales } from './helpers/sales.js'
import { call, useLiveServer } from './helpers/server.js'

/**
 * Every method of the client against a real server (the server's test app on each metadata
 * store, listening on a port): the backend's whole path from a CSV file to a guest token and a
 * tenant's rows, the lists, updates, export and import, keys and deletes. Each request the
 * client sends is recorded, and the last test checks that every backend operation of the
 * OpenAPI document (src/generated/credentials.ts) was called at least once.
 */
const OPERATIONS = Object.keys(credentials).map((operation) => {
  const [method, template] = operation.split(' ') as [string, string]
  return { operation, method, path: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }
})

describe.each(storeKinds)('the client against a live server (%s store)', (store) => {
  // email configured, so that an end user may schedule a report (none is sent during these tests)
  const server = useLiveServer(store, { SMTP_URL: 'smtp://127.0.0.1:1', EMAIL_FROM: 'reports@example.com' })
  const called = new Set<string>()
  let strata: Strata
  let sales: Sales
  beforeAll(async () => {
    strata = new Strata({
      baseUrl: server.url,
      apiKey: server.apiKey,
      serviceToken: server.serviceToken,
      fetch: (request) => {
        const { pathname } = new URL(request.url)
        const match = OPERATIONS.find((o) => o.method === request.method && o.path.test(pathname))
        if (match) called.add(match.operation)
        return fetch(request)
      },
    })
    sales = await createSales(strata)
  })

  it('sets up a datasource, datamart, workspace, dashboard and embed, each listed after', async () => {
    expect(sales.embedId).toMatch(/^emb_/)
    const datasources = await strata.datasources.list()
    expect(datasources.data.map((d) => d.name)).toEqual(['files'])
    const types = await strata.datasources.types()
    expect(types.data.find((t) => t.datasourceType === 'csv')?.supported).toBe(true)
    const tables = await strata.datasources.tables({ name: 'files' })
    expect(tables.data.tables.length).toBeGreaterThan(0)
    const stored = await strata.datasources.credentials({ name: 'files' })
    expect(stored.data.storedSecrets).toEqual([])
    expect(JSON.stringify(datasources)).not.toContain('credentials')
    expect((await strata.datamarts.list()).data.map((d) => d.name)).toEqual(['sales'])
    expect((await strata.workspaces.list()).data.map((w) => w.name)).toEqual(['main'])
    const inMain = await strata.workspaces.listDashboards({ workspaceName: 'main' })
    expect(inMain.data).toEqual([{ name: 'Sales', externalDashboardId: sales.dashboardId }])
    const embeds = await strata.embeds.list()
    expect(embeds.data.map((e) => [e.embedId, e.embedType, e.name])).toEqual([[sales.embedId, 'dashboard', 'Sales']])
    const dashboards = await strata.dashboards.list({ isPagination: 'false', pageNumber: '1' })
    expect(dashboards.data).toEqual([{ name: 'Sales', externalDashboardId: sales.dashboardId, embedId: sales.embedId }])
    const apps = await strata.dataApps.list()
    expect(apps.data.map((a) => a.name)).toEqual([server.dataAppName])
  })

  it('mints a guest token per tenant that the runtime accepts, each seeing only its rows', async () => {
    for (const clientId of ['acme', 'globex'] as const) {
      const { token } = await strata.guestTokens.create({
        dataAppName: server.dataAppName,
        clientId,
        params: { allowedEmbeds: [sales.embedId] },
      })
      const res = await call(server.url, 'POST', `/api/v2/embed/runtime/${sales.embedId}/query`, token, {
        metricId: 'revenue',
      })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([{ revenue: REVENUE[clientId] }])
    }
  })

  it('mints a v1 guest token for a workspace, refused for a workspace that does not exist', async () => {
    const { token } = await strata.guestTokens.createV1({
      workspaceName: 'main',
      clientId: 'globex',
      params: { dashboard: { id: sales.dashboardId } },
    })
    const res = await call(server.url, 'POST', `/api/v2/embed/runtime/${sales.embedId}/query`, token, {
      metricId: 'revenue',
    })
    expect(res.body.data).toEqual([{ revenue: REVENUE.globex }])
    const refused = await strata.guestTokens
      .createV1({ workspaceName: 'nowhere', clientId: 'globex' })
      .catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(StrataError)
    expect(refused).toMatchObject({ status: 400, code: 'WORKSPACE_ID_ERROR' })
  })

  it('queries a metric and lists the metrics for a tenant', async () => {
    const result = await strata.metrics.query({ embedId: sales.embedId, metricId: 'revenue', clientId: 'acme' })
    expect(result.data).toEqual([{ revenue: REVENUE.acme }])
    expect(result.metaData.columns.map((c) => c.name)).toEqual(['revenue'])
    const filtered = await strata.metrics.query({
      embedId: sales.embedId,
      metricId: 'revenue',
      clientId: 'acme',
      dashboardFilter: { country: ['FR'] },
    })
    expect(filtered.data).toEqual([{ revenue: 50 }])
    const metrics = await strata.metrics.list({ embedId: sales.embedId, clientId: 'acme' })
    expect(metrics.data.map((m) => m.metricId)).toEqual(['revenue'])
  })

  it('updates, renames and exports the embed', async () => {
    await strata.embeds.update({ embedId: sales.embedId, accessSettings: { isAllowUnderlyingData: false } })
    const renamed = await strata.embeds.rename({ embedId: sales.embedId, name: 'Revenue board' })
    expect(renamed).toMatchObject({ id: sales.embedId, name: 'Revenue board' })
    const exported = await strata.embeds.export({ embedId: sales.embedId })
    expect(JSON.stringify(exported)).toContain('"isAllowUnderlyingData":false')
    expect(exported.data.metrics.map((m) => m.metricId)).toEqual(['revenue'])
  })

  it('exports, validates and updates the dashboard document', async () => {
    const exported = await strata.dashboards.export({ workspaceName: 'main', dashboardId: sales.dashboardId })
    expect(exported._meta).toMatchObject({ workspaceName: 'main', dashboardId: sales.dashboardId })
    expect(exported.data.metrics.map((m) => m.metricId)).toEqual(['revenue'])
    const renamed = { ...exported.data, name: 'Sales 2026' }
    const checked = await strata.dashboards.validate({ workspaceName: 'main', importDashboardData: renamed })
    expect(checked.data.valid).toBe(true)
    const updated = await strata.dashboards.update({
      workspaceName: 'main',
      dashboardId: sales.dashboardId,
      importDashboardData: renamed,
    })
    expect(updated.data.response.dashboardName).toBe('Sales 2026')
  })

  it("publishes a metric an end user made to the user's tenant, and unpublishes it", async () => {
    await strata.embeds.update({ embedId: sales.embedId, accessSettings: { isAllowMetricCreation: true } })
    const { token } = await strata.guestTokens.create({
      dataAppName: server.dataAppName,
      clientId: 'acme',
      params: { allowedEmbeds: [sales.embedId], userIdentifier: 'ann' },
    })
    const made = await call(server.url, 'POST', `/api/v2/embed/runtime/${sales.embedId}/metrics`, token, {
      metric: {
        name: 'My revenue',
        chart: { type: 'single-value', y: ['revenue'] },
        query: { from: 'main.orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      },
      visibility: 'private',
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const { metricId } = made.body.data as { metricId: string }
    // ann's metrics, as the list answers them for her
    const published = async () =>
      (await strata.metrics.list({ embedId: sales.embedId, clientId: 'acme', userIdentifier: 'ann' })).data.find(
        (m) => m.metricId === metricId,
      )?.isPublished
    expect(await published()).toBe(false)
    expect(await strata.metrics.publish({ embedId: sales.embedId, metricId, isPublished: true })).toEqual({
      id: metricId,
    })
    expect(await published()).toBe(true)
    await strata.metrics.publish({ embedId: sales.embedId, metricId, isPublished: false })
    expect(await published()).toBe(false)
  })

  it('creates a dashboard embed in one call, for an end user', async () => {
    const made = await strata.dashboardEmbeds.create({
      dashboardId: 'acme-own',
      workspaceName: 'main',
      clientId: 'acme',
      name: 'Acme board',
      importDashboardData: SALES_DOCUMENT,
      accessSettings: ACCESS,
    })
    // the answer's id is the new dashboard's; the embed's is embedId
    expect(made).toMatchObject({ id: 'acme-own', name: 'Acme board', embedId: expect.stringMatching(/^emb_/) })
    const mine = await strata.embeds.list({ clientId: 'acme' })
    expect(mine.data.map((e) => e.embedId)).toEqual([made.embedId])
    const dashboardIds = async () =>
      (await strata.workspaces.listDashboards({ workspaceName: 'main' })).data.map((d) => d.externalDashboardId).sort()
    expect(await dashboardIds()).toEqual(['acme-own', sales.dashboardId])
    await strata.embeds.delete({ embedId: made.embedId, isDeleteDashboard: 'true' })
    expect((await strata.embeds.list()).data.map((e) => e.embedId)).toEqual([sales.embedId])
    expect(await dashboardIds()).toEqual([sales.dashboardId])
  })

  it('syncs and updates the datasource, updates the datamart and the workspace', async () => {
    const synced = await strata.datasources.sync({ input: { datasourceId: sales.datasourceId } })
    expect(synced.data.message).toMatch(/\S/)
    const updated = await strata.datasources.update({
      datasourceType: 'csv',
      credentials: { name: 'files', path: 'files' },
    })
    expect(updated.data).toMatchObject({ id: sales.datasourceId, name: 'files' })
    const datamart = await strata.datamarts.update({
      datamartName: 'sales',
      tableList: [{ schemaName: 'main', name: 'orders', label: 'All orders', clientColumn: 'tenant' }],
    })
    expect(datamart.id).toMatch(/\S/)
    const workspace = await strata.workspaces.update({
      name: 'main',
      connectionType: 'DATAMART',
      datamartName: 'sales',
    })
    expect(workspace.data.name).toBe('main')
  })

  it('sets and lists the whitelist domains', async () => {
    const set = await strata.whitelistDomains.set({ domains: ['app.example.com', 'localhost:3000'] })
    expect(set.data).toEqual(['app.example.com', 'localhost:3000'])
    expect((await strata.whitelistDomains.list()).data).toEqual(['app.example.com', 'localhost:3000'])
  })

  it("manages a data app's embeds and allowed origins by its name with the service token", async () => {
    const app = server.dataAppName
    const listed = await strata.dataAppEmbeds.list(app)
    const embedId = listed.data[0]!.embedId
    const { accessSettings } = (await strata.dataAppEmbeds.accessSettings(app, embedId)).data
    const created = await strata.dataAppEmbeds.create(app, {
      dashboardId: listed.data[0]!.embedMetadata.dashboardId!,
      embedType: 'dashboard',
      workspaceName: 'main',
      name: 'by name',
      accessSettings: {
        datamartName: accessSettings.datamartName ?? '',
        isAllowEmailReports: false,
        isAllowManageMetrics: false,
        isAllowCreateDashboardView: false,
        isAllowMetricCreation: false,
        isAllowMetricDeletion: false,
        isAllowMetricLayoutChange: false,
        isAllowMetricUpdate: false,
        isAllowUnderlyingData: false,
        metricCreationMode: 'DRAG_DROP',
      },
    })
    await strata.dataAppEmbeds.update(app, { embedId: created.id, accessSettings: { isAllowUnderlyingData: true } })
    expect((await strata.dataAppEmbeds.accessSettings(app, created.id)).data.accessSettings.isAllowUnderlyingData).toBe(
      true,
    )
    expect(await strata.dataAppEmbeds.delete(app, { embedId: created.id })).toEqual({ id: created.id })
    const before = (await strata.dataAppEmbeds.whitelist(app)).data
    expect((await strata.dataAppEmbeds.setWhitelist(app, { domains: ['studio.example.com'] })).data).toEqual([
      'studio.example.com',
    ])
    await strata.dataAppEmbeds.setWhitelist(app, { domains: before })
  })

  it('lists and deletes an email report an end user scheduled', async () => {
    const { token } = await strata.guestTokens.create({
      dataAppName: server.dataAppName,
      clientId: 'acme',
      params: { allowedEmbeds: [sales.embedId], reportRecipients: ['@example.com'] },
    })
    const created = await call(server.url, 'POST', `/api/v2/embed/runtime/${sales.embedId}/reports`, token, {
      name: 'Weekly revenue',
      metricIds: ['revenue'],
      format: 'csv',
      schedule: { frequency: 'weekly', time: '08:00', dayOfWeek: 1 },
      recipients: ['ops@example.com'],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const reports = await strata.reports.list({ embedId: sales.embedId })
    expect(reports.data.map((r) => [r.name, r.clientId])).toEqual([['Weekly revenue', 'acme']])
    const reportId = reports.data[0]!.reportId
    await strata.reports.delete({ reportId })
    expect((await strata.reports.list()).data).toEqual([])
  })

  it('creates, lists and revokes an API key; the revoked key is refused with a StrataError', async () => {
    const { key } = await strata.apiKeys.create({ dataAppName: server.dataAppName, name: 'ci' })
    const withKey = new Strata({ baseUrl: server.url, apiKey: key })
    expect((await withKey.embeds.list()).data.length).toBe(1)
    const keys = await strata.apiKeys.list({ dataAppName: server.dataAppName })
    expect(JSON.stringify(keys)).not.toContain(key)
    const listed = keys.data.find((k) => k.name === 'ci')
    expect(keys.data.length).toBe(2)
    // revoked by the key as the list names it (not the secret, which is never listed)
    await strata.apiKeys.revoke({ dataAppName: server.dataAppName, key: listed!.key })
    const refused = await withKey.embeds.list().catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(StrataError)
    // the embed routes answer a bad key as the hosted API does: 400 INVALID_DATA_APP_API_KEY
    expect(refused).toMatchObject({ status: 400, code: 'INVALID_DATA_APP_API_KEY' })
  })

  it('creates another data app and renames it; its key keeps working', async () => {
    const app = await strata.dataApps.create({ name: 'otherapp' })
    expect(app).toMatchObject({ name: 'otherapp', key: expect.stringMatching(/^sk_/) })
    expect((await strata.dataApps.list()).data.map((a) => a.name).sort()).toEqual(['otherapp', server.dataAppName])
    expect(await strata.dataApps.rename({ name: 'otherapp', updateName: 'partnerapp' })).toEqual({ name: 'partnerapp' })
    expect((await strata.dataApps.list()).data.map((a) => a.name).sort()).toEqual(['partnerapp', server.dataAppName])
    const withKey = new Strata({ baseUrl: server.url, apiKey: app.key })
    const { token } = await withKey.guestTokens.create({ dataAppName: 'partnerapp', clientId: 'acme' })
    expect(token).toMatch(/\S/)
  })

  it("lists the dashboard's rollups and makes them due now", async () => {
    const rollup = {
      name: 'by_country',
      from: 'main.orders',
      dimensions: ['country'],
      measures: [{ name: 'revenue', aggregate: 'sum' as const, column: 'amount' }],
    }
    await strata.dashboards.update({
      workspaceName: 'main',
      dashboardId: sales.dashboardId,
      importDashboardData: { ...SALES_DOCUMENT, rollups: [rollup] },
    })
    const listed = await strata.rollups.list()
    expect(listed.data.map((r) => [r.workspaceName, r.dashboardId, r.name])).toEqual([
      ['main', sales.dashboardId, 'by_country'],
    ])
    const mine = await strata.rollups.list({ workspaceName: 'main', dashboardId: sales.dashboardId })
    expect(mine.data.map((r) => r.name)).toEqual(['by_country'])
    expect((await strata.rollups.list({ workspaceName: 'main', dashboardId: 'no-such-dashboard' })).data).toEqual([])
    const half = await strata.rollups.list({ workspaceName: 'main' }).catch((err: unknown) => err)
    expect(half).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY' })
    const refreshed = await strata.rollups.refresh({ workspaceName: 'main', dashboardId: sales.dashboardId })
    expect(refreshed.data.map((r) => r.name)).toEqual(['by_country'])
    const unknown = await strata.rollups
      .refresh({ workspaceName: 'main', dashboardId: sales.dashboardId, rollup: 'nope' })
      .catch((err: unknown) => err)
    expect(unknown).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY' })
  })

  it('deletes the embed, the dashboard, the workspace, the datamart and the datasource', async () => {
    await strata.embeds.delete({ embedId: sales.embedId })
    expect((await strata.embeds.list()).data).toEqual([])
    await strata.dashboards.delete({ workspaceName: 'main', dashboardId: sales.dashboardId })
    const gone = await strata.dashboards
      .export({ workspaceName: 'main', dashboardId: sales.dashboardId })
      .catch((err: unknown) => err)
    expect(gone).toBeInstanceOf(StrataError)
    expect(gone).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY' })
    expect((gone as StrataError).message).toContain(sales.dashboardId)
    await strata.workspaces.delete({ name: 'main' })
    await strata.datamarts.delete({ datamartName: 'sales' })
    await strata.datasources.delete({ name: 'files' })
    expect((await strata.workspaces.list()).data).toEqual([])
    expect((await strata.datamarts.list()).data).toEqual([])
    expect((await strata.datasources.list()).data).toEqual([])
  })

  it('called every backend operation of the OpenAPI document', () => {
    expect(OPERATIONS.map((o) => o.operation).filter((o) => !called.has(o))).toEqual([])
  })
})
