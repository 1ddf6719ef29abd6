import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import {
  DashboardList,
  DashboardListBody,
  DashboardListQuery,
  MetricList,
  MetricListBody,
  MetricListQuery,
  PublishMetricBody,
  PublishMetricResponse,
} from '../../schemas/dashboards.js'
import { pageOf } from '../pagination.js'
import { docs } from './dashboards.docs.js'

/** Dashboards and metrics lists, and publishing end users' metrics; data app key. */
const dashboardLists: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.embeds
  requireDataAppKey(app)
  const dataApp = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'dataApp')

  app.get(
    '/api/v2/data-app/dashboards',
    {
      schema: { ...docs.listDashboards, querystring: DashboardListQuery, response: { 200: DashboardList } },
    },
    async (request) => {
      const { isPagination, pageNumber, dashboardNames } = request.query
      const names = dashboardNames
        ?.split(',')
        .map((n) => n.trim())
        .filter(Boolean)
      return {
        data: await service.listDashboards(dataApp(request), {
          page: pageOf(isPagination, pageNumber),
          ...(names ? { names } : {}),
        }),
      }
    },
  )
  for (const [url, doc] of [
    ['/api/v2/data-app/dashboards', docs.listDashboardsLegacy],
    ['/api/v2/dataApp/dashboards', docs.listDashboardsOlderLegacy],
  ] as const) {
    app.post(
      url,
      { schema: { ...doc, body: DashboardListBody, response: { 200: DashboardList } } },
      async (request) => {
        const { isPagination, pageNumber, filters } = request.body ?? {}
        const names = filters?.dashboardNames
        return {
          data: await service.listDashboards(dataApp(request), {
            page: pageOf(isPagination, pageNumber),
            ...(names ? { names } : {}),
          }),
        }
      },
    )
  }

  const metricsConfig = { authFailure: { code: 'INVALID_DATA_APP_API_KEY', status: 400 } } as const
  const listMetrics = async (
    request: Parameters<typeof principalOf>[0],
    query: { embedId: string; clientId: string; page: number | undefined; userIdentifier: string | undefined },
  ) => ({
    data: await service.listMetrics(dataApp(request), query.embedId, query.clientId, {
      ...(query.page !== undefined ? { page: query.page } : {}),
      ...(query.userIdentifier !== undefined ? { userIdentifier: query.userIdentifier } : {}),
    }),
  })
  app.get(
    '/api/v2/data-app/metrics',
    {
      config: metricsConfig,
      schema: { ...docs.listMetrics, querystring: MetricListQuery, response: { 200: MetricList } },
    },
    async (request) => {
      const { embedId, clientId, isPagination, pageNumber, userIdentifier } = request.query
      return listMetrics(request, { embedId, clientId, page: pageOf(isPagination, pageNumber), userIdentifier })
    },
  )
  app.post(
    '/api/v2/dataApp/metrics',
    {
      config: metricsConfig,
      schema: { ...docs.listMetricsLegacy, body: MetricListBody, response: { 200: MetricList } },
    },
    async (request) => {
      const { embedId, clientId, isPagination, pageNumber, userIdentifier } = request.body
      return listMetrics(request, { embedId, clientId, page: pageOf(isPagination, pageNumber), userIdentifier })
    },
  )
  app.put(
    '/api/v2/data-app/metrics/publish',
    { schema: { ...docs.setMetricPublished, body: PublishMetricBody, response: { 200: PublishMetricResponse } } },
    async (request) => {
      const { embedId, metricId, isPublished } = request.body
      return app.services.metricPublishing.setPublished(dataApp(request), embedId, metricId, isPublished)
    },
  )
}

export default dashboardLists
