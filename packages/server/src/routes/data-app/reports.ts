import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  DataAppDeleteReportQuery,
  DataAppReportsQuery,
  DeletedReportResponse,
  ReportsResponse,
} from '@strata/contract/reports'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import { docs } from './reports.docs.js'

/** The data app's email reports (docs/runtime-api.md#email-reports): list and delete, data app key. */
const dataAppReports: FastifyPluginAsyncTypebox = async (app) => {
  const { reports } = app.services
  requireDataAppKey(app)

  app.get(
    '/api/v2/data-app/reports',
    { schema: { ...docs.listDataAppReports, querystring: DataAppReportsQuery, response: { 200: ReportsResponse } } },
    async (request) => ({
      data: await reports.listForDataApp(principalOf(request, 'dataApp').dataAppId, request.query),
    }),
  )
  app.delete(
    '/api/v2/data-app/reports',
    {
      schema: {
        ...docs.deleteDataAppReport,
        querystring: DataAppDeleteReportQuery,
        response: { 200: DeletedReportResponse },
      },
    },
    async (request) => ({
      data: await reports.removeForDataApp(principalOf(request, 'dataApp').dataAppId, request.query.reportId),
      error: null,
    }),
  )
}

export default dataAppReports
