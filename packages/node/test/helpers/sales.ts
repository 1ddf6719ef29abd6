import type { DashboardDocument, RequestBody, Strata } from '../../src/index.js'

/**
 * A small sales setup made through the client itself: a CSV file of orders of two tenants, a
 * `csv` datasource reading it, a datamart with the tenant column, a workspace, a dashboard of one
 * metric (revenue) and a dashboard embed of it.
 */
export const ORDERS_CSV = 'id,tenant,country,amount\n1,acme,DE,100\n2,acme,FR,50\n3,globex,DE,999\n'

/** Revenue per tenant in ORDERS_CSV. */
export const REVENUE = { acme: 150, globex: 999 } as const

export const SALES_DOCUMENT: DashboardDocument = {
  name: 'Sales',
  filters: [{ name: 'country', label: 'Country', type: 'multi-select', table: 'main.orders', column: 'country' }],
  layout: [{ metricId: 'revenue', x: 0, y: 0, w: 4, h: 2 }],
  metrics: [
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value', y: ['revenue'] },
      query: { from: 'main.orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
    },
  ],
}

type DashboardAccess = Extract<RequestBody<'createEmbed'>, { embedType: 'dashboard' }>['accessSettings']

export const ACCESS: DashboardAccess = {
  datamartName: 'sales',
  isAllowEmailReports: true,
  isAllowManageMetrics: false,
  isAllowCreateDashboardView: false,
  isAllowMetricCreation: false,
  isAllowMetricDeletion: false,
  isAllowMetricLayoutChange: false,
  isAllowMetricUpdate: false,
  isAllowUnderlyingData: true,
  metricCreationMode: 'DRAG_DROP',
}

export interface Sales {
  readonly datasourceId: string
  readonly dashboardId: string
  readonly embedId: string
}

/** Creates the setup; `strata` needs both secrets. */
export async function createSales(strata: Strata): Promise<Sales> {
  await strata.datasources.uploadFile({ datasourceName: 'files', fileName: 'orders.csv' }, ORDERS_CSV)
  const datasource = await strata.datasources.create({
    datasourceType: 'csv',
    credentials: { name: 'files', path: 'files' },
  })
  await strata.datamarts.create({
    name: 'sales',
    datasourceName: 'files',
    tableList: [{ schemaName: 'main', name: 'orders', label: 'Orders', clientColumn: 'tenant' }],
  })
  await strata.workspaces.create({ name: 'main', connectionType: 'DATAMART', datamartName: 'sales' })
  const imported = await strata.dashboards.import({
    workspaceName: 'main',
    dashboardId: 'sales',
    importDashboardData: SALES_DOCUMENT,
  })
  const embed = await strata.embeds.create({
    dashboardId: imported.data.response.dashboardId,
    embedType: 'dashboard',
    workspaceName: 'main',
    name: 'Sales',
    accessSettings: ACCESS,
  })
  return { datasourceId: datasource.data.id, dashboardId: imported.data.response.dashboardId, embedId: embed.id }
}
