import { api } from './http.mjs'

export const ACCESS = {
  isAllowEmailReports: false,
  isAllowManageMetrics: false,
  isAllowCreateDashboardView: false,
  isAllowMetricCreation: false,
  isAllowMetricDeletion: false,
  isAllowMetricLayoutChange: false,
  isAllowMetricUpdate: false,
  isAllowUnderlyingData: false,
  metricCreationMode: 'DRAG_DROP',
}

/** Revenue and orders by region: the GROUP BY metric every query scenario runs. */
export const byRegion = (metricId, from) => ({
  metricId,
  name: `Revenue by region (${from})`,
  chart: { type: 'bar', x: 'region', y: ['revenue'] },
  query: {
    from,
    measures: [
      { name: 'revenue', aggregate: 'sum', column: 'amount' },
      { name: 'orders', aggregate: 'count' },
    ],
    dimensions: [{ name: 'region', column: 'region' }],
    orderBy: [{ name: 'region', direction: 'asc' }],
  },
  rls: [{ variable: 'region', column: 'region' }],
})

/** A sales dashboard document: the region and date filters, one full-width row per metric. */
export const salesDashboard = (name, table, metrics) => ({
  name,
  filters: [
    { name: 'region', label: 'Region', type: 'multi-select', table, column: 'region' },
    { name: 'period', label: 'Date', type: 'date-range', table, column: 'created_at' },
  ],
  layout: metrics.map((m, i) => ({ metricId: m.metricId, x: 0, y: i * 4, w: 12, h: 4 })),
  metrics,
})

/**
 * Drives the real API as a customer would: admin → service token → data app → datasources →
 * datamarts → workspaces → imported dashboards → embeds. `lake`: also a csv (DuckDB)
 * datasource over the Parquet file (the folder `lake` of the server's FILES_ROOT, wh.filesRoot).
 */
export async function setupAnalytics(base, wh, { lake = false } = {}) {
  const { serviceToken: service, dataAppKey: key } = await createAccount(base)
  const s = wh.schema

  const pgDoc = salesDashboard('Sales (PostgreSQL)', `${s}.sales_small`, [byRegion('by_region', `${s}.sales_small`)])
  await api(base, 'POST', '/api/v2/datasource', {
    token: service,
    body: { datasourceType: 'postgres', credentials: { name: 'warehouse', ...wh.credentials } },
  })
  const marts = [
    {
      name: 'pgmart',
      datasourceName: 'warehouse',
      tableList: [{ schemaName: s, name: 'sales_small', clientColumn: 'tenant' }],
      workspace: 'pg',
      dashboardId: 'pg-sales',
      doc: pgDoc,
    },
    // the 1M-row GROUP BY runs with clientId None, which only a model without tenancy accepts
    {
      name: 'pg1m',
      datasourceName: 'warehouse',
      tableList: [{ schemaName: s, name: 'sales_1m' }],
      workspace: 'pg1m',
      dashboardId: 'pg-1m',
      doc: salesDashboard('Sales 1M (PostgreSQL)', `${s}.sales_1m`, [byRegion('by_region_1m', `${s}.sales_1m`)]),
    },
  ]
  if (lake) {
    await api(base, 'POST', '/api/v2/datasource', {
      token: service,
      body: { datasourceType: 'csv', credentials: { name: 'lake', path: 'lake' } },
    })
    marts.push({
      name: 'duckmart',
      datasourceName: 'lake',
      tableList: [{ schemaName: 'main', name: 'sales_1m' }],
      workspace: 'duck',
      dashboardId: 'duck-sales',
      doc: salesDashboard('Sales (DuckDB)', 'main.sales_1m', [byRegion('by_region_1m', 'main.sales_1m')]),
    })
  }
  const embeds = {}
  for (const m of marts) {
    await createMart(base, { serviceToken: service, dataAppKey: key }, m)
    embeds[m.workspace] = await importDashboard(base, { serviceToken: service, dataAppKey: key }, m)
  }
  return { serviceToken: service, dataAppKey: key, embeds, marts }
}

/** The first admin, a service token and the data app `benchapp` with its secret key. */
export async function createAccount(base) {
  const admin = await api(base, 'POST', '/api/v2/admin-account', {
    body: { firstName: 'Bench', email: 'bench@example.com', password: 'Str0ng!Pass', companyName: 'Bench' },
  })
  const serviceToken = (await api(base, 'POST', '/api/v2/service-token', { body: {}, token: admin.data.accessToken }))
    .key
  const dataApp = await api(base, 'POST', '/api/v2/data-app', { body: { name: 'benchapp' }, token: serviceToken })
  return { serviceToken, dataAppKey: dataApp.key }
}

/** A datamart `m.name` over `m.tableList` of datasource `m.datasourceName`, and the workspace `m.workspace` on it. */
export async function createMart(base, { serviceToken }, m) {
  await api(base, 'POST', '/api/v2/data-app/datamarts', {
    token: serviceToken,
    body: { name: m.name, datasourceName: m.datasourceName, tableList: m.tableList },
  })
  await api(base, 'POST', '/api/v2/workspace', {
    token: serviceToken,
    body: { name: m.workspace, connectionType: 'DATAMART', datamartName: m.name },
  })
}

/** Imports `m.doc` as dashboard `m.dashboardId` of workspace `m.workspace` and embeds it; the embed's id. */
export async function importDashboard(base, { serviceToken, dataAppKey }, m) {
  await api(base, 'POST', '/api/v2/data-app/import-dashboard', {
    token: serviceToken,
    body: { workspaceName: m.workspace, dashboardId: m.dashboardId, importDashboardData: m.doc },
  })
  const embed = await api(base, 'POST', '/api/v2/data-app/embeds', {
    token: dataAppKey,
    body: {
      dashboardId: m.dashboardId,
      embedType: 'dashboard',
      workspaceName: m.workspace,
      accessSettings: { datamartName: m.name, ...ACCESS },
    },
  })
  return embed.id
}

/** A guest-token request with every `params` field of docs/guest-tokens.md#params, as a customer backend sends it. */
export function fullGuestTokenBody(embedId, clientId = 't1') {
  return {
    dataAppName: 'benchapp',
    clientId,
    params: {
      rlsSettings: [{ metricId: 'by_region', values: { region: ['north', 'south'] } }],
      appFilters: [{ metricId: 'by_region', values: { region: ['north', 'south', 'east'] } }],
      dashboardAppFilters: [{ dashboardId: 'pg-sales', values: { period: 'Last 90 days' }, isShowOnUrl: false }],
      hideDashboardFilters: ['period'],
      allowedEmbeds: [embedId, 'pg-sales'],
      accessPermissions: {
        isAllowEndUserDashboardFilter: true,
        dashboardFilterColumns: [{ tableName: 'sales_small', columns: ['region'] }],
      },
      userIdentifier: 'user-42@example.com',
      timezone: 'Europe/Berlin',
    },
    permissions: {
      isEnableArchiveMetrics: false,
      isEnableManageMetrics: false,
      isEnableCreateDashboardView: false,
      isEnableMetricUpdation: false,
      isEnableCustomizeLayout: false,
      isEnableUnderlyingData: false,
      isEnableDownloadMetrics: true,
      isShowSideBar: false,
      isShowDashboardName: true,
      isDisableMetricCreation: true,
    },
    expiryTime: 3_600_000,
    datamartName: 'pgmart',
  }
}

/** The token the browser holds in the runtime scenario: its embed, its tenant, its zone. */
export function runtimeGuestTokenBody(embedId, clientId = 't1') {
  return {
    dataAppName: 'benchapp',
    clientId,
    params: {
      allowedEmbeds: [embedId],
      // by_region declares the RLS variable region: a token must give it a value (every region here)
      rlsSettings: [{ metricId: 'by_region', values: { region: ['north', 'south', 'east', 'west', 'central'] } }],
      timezone: 'UTC',
      userIdentifier: 'user-42@example.com',
    },
    permissions: { isEnableDownloadMetrics: true, isShowDashboardName: true, isShowSideBar: false },
    expiryTime: 3_600_000,
  }
}
