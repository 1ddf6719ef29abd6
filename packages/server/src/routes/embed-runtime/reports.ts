import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  CreatedReportResponse,
  CreateReportBody,
  DeletedReportResponse,
  ReportParams,
  ReportsResponse,
  SentReportResponse,
} from '@strata/contract/reports'
import { principalOf, requireGuestToken } from '../../auth/hooks.js'
import { EmbedParams } from './params.js'
import { docs } from './reports.docs.js'
import { refuseStudioWrites } from './studio-writes.js'

/** Scheduled email reports (docs/runtime-api.md#email-reports), guest token only; the prefix is the runtime's. */
const reports: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.reports
  requireGuestToken(app)
  refuseStudioWrites(app)
  const claims = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'guest').claims

  app.post(
    '/:embedId/reports',
    {
      schema: {
        ...docs.createReport,
        params: EmbedParams,
        body: CreateReportBody,
        response: { 200: CreatedReportResponse },
      },
    },
    async (request) => ({ data: await service.create(claims(request), request.params.embedId, request.body) }),
  )
  app.get(
    '/:embedId/reports',
    { schema: { ...docs.listReports, params: EmbedParams, response: { 200: ReportsResponse } } },
    async (request) => ({ data: await service.list(claims(request), request.params.embedId) }),
  )
  app.delete(
    '/:embedId/reports/:reportId',
    { schema: { ...docs.deleteReport, params: ReportParams, response: { 200: DeletedReportResponse } } },
    async (request) => ({
      data: await service.remove(claims(request), request.params.embedId, request.params.reportId),
      error: null,
    }),
  )
  app.post(
    '/:embedId/reports/:reportId/send',
    { schema: { ...docs.sendReport, params: ReportParams, response: { 200: SentReportResponse } } },
    async (request) => ({
      data: await service.sendNow(claims(request), request.params.embedId, request.params.reportId),
      error: null,
    }),
  )
}

export default reports
