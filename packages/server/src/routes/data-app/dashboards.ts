import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import {
  DashboardList,
  DashboardListBody,
  DashboardListQuery,
  MetricList,
  MetricListQuery,
} from '../../schemas/dashboards.js'
import { pageOf } from '../pagination.js'
import { docs } from './dashboards.docs.js'

/** Dashboards and metrics lists; data app key. */
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
  app.post(
    '/api/v2/data-app/dashboards',
    {
      schema: { ...docs.listDashboardsLegacy, body: DashboardListBody, response: { 200: DashboardList } },
    },
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
  app.get(
    '/api/v2/data-app/metrics',
    {
      config: { authFailure: { code: 'INVALID_DATA_APP_API_KEY', status: 400 } },
      schema: { ...docs.listMetrics, querystring: MetricListQuery, response: { 200: MetricList } },
    },
    async (request) => {
      const { embedId, clientId, isPagination, pageNumber, userIdentifier } = request.query
      const page = pageOf(isPagination, pageNumber)
      return {
        data: await service.listMetrics(dataApp(request), embedId, clientId, {
          ...(page !== undefined ? { page } : {}),
          ...(userIdentifier !== undefined ? { userIdentifier } : {}),
        }),
      }
    },
  )
}

export default dashboardLists
