import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { responses } from '../../schemas/common.js'
import {
  DashboardExport,
  ExportDashboardBody,
  ImportDashboardBody,
  ImportDashboardResponse,
} from '../../schemas/dashboards.js'

const security = [{ serviceToken: [] }]
const tags = ['dashboards']

/** Dashboard import and export (dashboards as code); service token. */
const dashboards: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.dashboards
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/data-app/export-dashboard',
    {
      config: { authFailure: { code: 'AUTH_ERROR', status: 400 } },
      schema: {
        tags,
        summary: 'Export a dashboard document (attachment dashboard-{dashboardId}.json)',
        security,
        body: ExportDashboardBody,
        response: responses(DashboardExport),
      },
    },
    async (request, reply) => {
      const { dashboardId, workspaceName } = request.body
      const document = await service.export(org(request), workspaceName, dashboardId)
      const file = `dashboard-${dashboardId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`
      reply.header('content-disposition', `attachment; filename="${file}"`)
      return document
    },
  )
  app.post(
    '/api/v2/data-app/import-dashboard',
    {
      config: { authFailure: { code: 'AUTHENTICATION_ERROR', status: 400 } },
      schema: {
        tags,
        summary: 'Import a dashboard document into a workspace',
        security,
        body: ImportDashboardBody,
        response: responses(ImportDashboardResponse),
      },
    },
    async (request) => {
      const dashboard = await service.import(org(request), request.body)
      const count = dashboard.document.metrics.length
      return {
        data: {
          response: {
            message: `Imported dashboard ${dashboard.name} with ${count} metric${count === 1 ? '' : 's'}`,
            dashboardId: dashboard.dashboardId,
            dashboardName: dashboard.name,
            workspaceName: request.body.workspaceName,
          },
        },
      }
    },
  )
}

export default dashboards
