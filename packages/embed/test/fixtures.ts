import type { ChartConfig, Permissions, QueryResult, Row, RuntimeMetric } from '../src/api/types.js'

/** A query result as the runtime API answers it. */
export function result(
  data: Row[],
  columns: [string, string][] = [],
  extra: Partial<Pick<QueryResult, 'totalRecords' | 'comparisonValue'>> & { groupBy?: string[] } = {},
): QueryResult {
  return {
    data,
    timeTaken: 3,
    totalRecords: extra.totalRecords ?? data.length,
    ...(extra.comparisonValue !== undefined ? { comparisonValue: extra.comparisonValue } : {}),
    metaData: {
      columns: columns.map(([name, dataType]) => ({ name, dataType })),
      groupbyColumnList: extra.groupBy ?? [],
    },
    metricid: 'm',
    error: null,
    servedFrom: 'warehouse',
  }
}

export const metric = (chart: ChartConfig, name = 'Revenue by month'): RuntimeMetric => ({
  metricId: 'revenue_by_month',
  name,
  chart,
  origin: 'company',
  isPublished: true,
  visibility: 'shared',
  createdByUser: null,
})

/** Effective permissions with every capability off (tests turn on what they need). */
export const noPermissions: Permissions = {
  download: false,
  underlyingData: false,
  endUserDashboardFilter: false,
  showSideBar: false,
  showDashboardName: false,
  metricCreation: false,
  metricCreationMode: 'DRAG_DROP',
  metricUpdate: false,
  metricDeletion: false,
  manageMetrics: false,
  archiveMetrics: false,
  customizeLayout: false,
  dashboardViews: false,
  emailReports: false,
  aiPilot: false,
}
