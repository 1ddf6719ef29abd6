import { describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

/**
 * The hosted service's Create Empty Dashboard Embed, replayed with its documented fields on the
 * preferred and the legacy path: a per-client dashboard copied from a template
 * (`templateDashboardId`: filters, layout, metrics), `metadata`, `embedDescription`,
 * `isAllowPrivateMetricsByDefault`, `isImportMetrics`, `metricImportMode: "GALLERY"`, and the
 * answer's `id` being the dashboard id. Bodies written for these tests after the service's public
 * API reference; the template is the sales dashboard of helpers/analytics.ts.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const PATHS = ['/api/v2/data-app/dashboard-embeds', '/api/v2/dataApp/dashboard-embeds'] as const

describe.skipIf(!hasPg).each(storeKinds)('the empty-dashboard embed, as documented, on %s', (store) => {
  const { wh, a } = useAnalytics(store)

  const exported = async (dashboardId: string) =>
    (
      await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
        dashboardId,
        workspaceName: 'main',
      })
    ).data
  /** The service's full example body, with this workspace's names. */
  const example = (dashboardId: string) => ({
    dashboardId,
    workspaceName: 'main',
    clientId: 'acme-corp-123',
    templateDashboardId: 'sales-overview',
    metadata: { clientName: 'Acme Corporation', region: 'North America' },
    isAllowPrivateMetricsByDefault: false,
    name: 'ACME Analytics Dashboard',
    embedDescription: 'Analytics dashboard for ACME Corp',
    isImportMetrics: true,
    isRenameDashboard: true,
    metricImportMode: 'GALLERY',
    importDashboardData: {
      '...': 'dashboard configuration exported from the Export Dashboard or Export Embed Dashboard API',
    },
    accessSettings: {
      datamartName: 'sales',
      isAllowEmailReports: false,
      isAllowManageMetrics: true,
      isAllowMetricCreation: true,
      isAllowMetricDeletion: false,
      isAllowMetricLayoutChange: true,
      isAllowMetricUpdate: true,
      isAllowUnderlyingData: false,
      isAllowCreateDashboardView: true,
      joinModel: 'multi',
      metricCreationMode: 'DRAG_DROP',
      tableTenancySettings: [{ name: `${wh.schema}.orders`, clientColumn: 'tenant' }],
    },
  })

  it("replays the documented example: the template's filters, layout and metrics, the dashboard id as id", async () => {
    const template = salesDocument(wh.schema)
    for (const [i, path] of PATHS.entries()) {
      const dashboardId = `client-acme-dashboard-${i}`
      const res = await a.call('POST', path, a.dataAppKey, example(dashboardId))
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({
        id: dashboardId,
        name: 'ACME Analytics Dashboard',
        embedId: expect.stringMatching(/^emb_/),
        error: null,
        // the example's placeholder document has no part Strata reads: named, not silently dropped
        warnings: [`importDashboardData["..."]: not part of Strata's dashboard document; not imported`],
      })
      const copy = await exported(dashboardId)
      expect(copy.name).toBe('ACME Analytics Dashboard')
      expect(copy.filters).toEqual(template.filters)
      expect(copy.layout).toEqual(template.layout)
      expect(copy.metrics.map((m: { metricId: string }) => m.metricId)).toEqual(template.metrics.map((m) => m.metricId))
      expect(copy.isAllowPrivateMetricsByDefault).toBe(false)
      // the embed serves the copied metrics (the metrics list of the new embed)
      const metrics = await a.ok(
        'GET',
        `/api/v2/data-app/metrics?embedId=${res.json().embedId}&clientId=acme-corp-123`,
        a.dataAppKey,
      )
      expect(metrics.data.map((m: { metricId: string }) => m.metricId)).toEqual([
        'revenue',
        'revenue_by_country',
        'orders_by_month',
      ])
    }
    // the template is unchanged, and the copies are the client's (the embeds list's clientId filter)
    expect((await exported('sales-overview')).name).toBe('Sales overview')
    const mine = await a.ok('GET', '/api/v2/data-app/embeds?clientId=acme-corp-123', a.dataAppKey)
    expect(
      mine.data.map(
        (e: { externalDashboard: { externalDashboardId: string } }) => e.externalDashboard.externalDashboardId,
      ),
    ).toEqual(['client-acme-dashboard-0', 'client-acme-dashboard-1'])
  })

  it('serves the new dashboard to a guest token by the id the answer gave', async () => {
    const { id } = await a.ok('POST', PATHS[0], a.dataAppKey, { ...example('by-id'), importDashboardData: undefined })
    const { token } = await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
      dataAppName: 'salesapp',
      clientId: 'acme',
    })
    const loaded = await a.call('GET', `/api/v2/embed/runtime/${id}`, token)
    expect(loaded.statusCode, loaded.body).toBe(200)
    expect(loaded.json().metrics.map((m: { metricId: string }) => m.metricId)).toEqual([
      'revenue',
      'revenue_by_country',
      'orders_by_month',
    ])
  })

  it('isImportMetrics false copies the filters only; isAllowPrivateMetricsByDefault sets the flag', async () => {
    const body = {
      ...example('filters-only'),
      importDashboardData: undefined,
      isImportMetrics: false,
      isAllowPrivateMetricsByDefault: true,
    }
    const res = await a.call('POST', PATHS[1], a.dataAppKey, body)
    expect(res.json(), res.body).toEqual({
      id: 'filters-only',
      name: 'ACME Analytics Dashboard',
      embedId: expect.any(String),
      error: null,
    })
    const copy = await exported('filters-only')
    expect(copy).toEqual({
      name: 'ACME Analytics Dashboard',
      filters: salesDocument(wh.schema).filters,
      layout: [],
      metrics: [],
      isAllowPrivateMetricsByDefault: true,
    })
    // without a template or a document: an empty dashboard, with the flag
    await a.ok('POST', PATHS[0], a.dataAppKey, {
      dashboardId: 'blank',
      workspaceName: 'main',
      clientId: 'acme',
      isAllowPrivateMetricsByDefault: true,
      accessSettings: ACCESS,
    })
    expect(await exported('blank')).toEqual({
      name: 'blank',
      filters: [],
      layout: [],
      metrics: [],
      isAllowPrivateMetricsByDefault: true,
    })
  })

  it("a document's own parts win over the template's; the template fills what it lacks", async () => {
    const own = salesDocument(wh.schema)
    const revenueOnly = {
      name: 'Own',
      metrics: own.metrics.filter((m) => m.metricId === 'revenue'),
      layout: [{ metricId: 'revenue', x: 0, y: 0, w: 12, h: 2 }],
    }
    const res = await a.call('POST', PATHS[0], a.dataAppKey, {
      ...example('mixed'),
      isRenameDashboard: false,
      importDashboardData: revenueOnly,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).not.toHaveProperty('warnings')
    const copy = await exported('mixed')
    expect(copy.metrics.map((m: { metricId: string }) => m.metricId)).toEqual(['revenue'])
    expect({ ...copy, metrics: undefined }).toEqual({
      name: 'Own',
      layout: revenueOnly.layout,
      filters: own.filters,
      metrics: undefined,
      isAllowPrivateMetricsByDefault: false,
    })
  })

  it("leaves out a template's metrics made for one client, and says so", async () => {
    const doc = salesDocument(wh.schema)
    const base = doc.metrics[0] as (typeof doc.metrics)[number]
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'with-client-metric',
      importDashboardData: {
        ...doc,
        metrics: [...doc.metrics, { ...base, metricId: 'globex_only', name: 'Globex only', createdByClient: 'globex' }],
        layout: [...doc.layout, { metricId: 'globex_only', x: 0, y: 8, w: 3, h: 2 }],
      },
    })
    const res = await a.call('POST', PATHS[0], a.dataAppKey, {
      ...example('from-client-template'),
      templateDashboardId: 'with-client-metric',
      importDashboardData: undefined,
    })
    expect(res.json().warnings, res.body).toEqual([
      'templateDashboardId: metric globex_only was made for one client; not copied',
    ])
    const copy = await exported('from-client-template')
    expect(copy.metrics.map((m: { metricId: string }) => m.metricId)).not.toContain('globex_only')
    expect(copy.layout).toEqual(doc.layout)
  })

  it('answers TEMPLATE_DASHBOARD_ERROR for an unknown template, and refuses another metricImportMode', async () => {
    for (const path of PATHS) {
      const res = await a.call('POST', path, a.dataAppKey, {
        ...example('nope'),
        templateDashboardId: 'no-such-template',
      })
      expectError(res, 400, 'TEMPLATE_DASHBOARD_ERROR', /no-such-template/)
      const mode = await a.call('POST', path, a.dataAppKey, { ...example('nope'), metricImportMode: 'LAYOUT' })
      expectError(mode, 400, 'INVALID_REQUEST_BODY', /metricImportMode/)
    }
    // nothing was created: the id is still free
    expect((await a.call('POST', PATHS[0], a.dataAppKey, example('nope'))).statusCode).toBe(200)
  })

  it("answers the service's codes for an unknown workspace and a dashboard id already taken", async () => {
    for (const path of PATHS) {
      const unknown = await a.call('POST', path, a.dataAppKey, { ...example('elsewhere'), workspaceName: 'nowhere' })
      expectError(unknown, 400, 'WORKSPACE_ID_ERROR', /nowhere/)
      expectError(await a.call('POST', path, a.dataAppKey, example('sales-overview')), 400, 'INVALID_DASHBOARD_ID')
    }
    // the template is untouched and no embed was made for it
    expect((await exported('sales-overview')).name).toBe(salesDocument(wh.schema).name)
    const embeds = (await a.ok('GET', '/api/v2/data-app/embeds', a.dataAppKey)).data as { name: string }[]
    expect(embeds.map((e) => e.name)).not.toContain('ACME Analytics Dashboard')
  })
})
