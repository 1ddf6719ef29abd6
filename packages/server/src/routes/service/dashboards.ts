import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { responses } from '../../schemas/common.js'
import {
  DashboardExport,
  DeleteDashboardQuery,
  DeletedResponse,
  ExportDashboardBody,
  ImportDashboardBody,
  ImportDashboardResponse,
  UpdateDashboardBody,
  ValidateDashboardResponse,
} from '../../schemas/dashboards.js'
import type { Dashboard } from '../../services/dashboards/dashboards.js'

const security = [{ serviceToken: [] }]
const tags = ['dashboards']

/** The import's answer (also the update's). */
function imported(verb: string, dashboard: Dashboard, workspaceName: string) {
  const count = dashboard.document.metrics.length
  return {
    data: {
      response: {
        message: `${verb} dashboard ${dashboard.name} with ${count} metric${count === 1 ? '' : 's'}`,
        dashboardId: dashboard.dashboardId,
        dashboardName: dashboard.name,
        workspaceName,
      },
    },
  }
}

/** Dashboard import, export, update, delete and validation (dashboards as code); service token. */
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
    async (request) =>
      imported('Imported', await service.import(org(request), request.body), request.body.workspaceName),
  )
  app.put(
    '/api/v2/data-app/dashboard',
    {
      schema: {
        tags,
        summary: 'Replace a dashboard document in place (its embeds and guest tokens keep working)',
        description:
          'The import body with the dashboardId to replace; checked like an import (the model, then every metric run on the warehouse with no rows returned). An unknown dashboardId is 400 INVALID_REQUEST_BODY.',
        security,
        body: UpdateDashboardBody,
        response: responses(ImportDashboardResponse),
      },
    },
    async (request) =>
      imported('Updated', await service.update(org(request), request.body), request.body.workspaceName),
  )
  app.delete(
    '/api/v2/data-app/dashboard',
    {
      schema: {
        tags,
        summary: 'Delete a dashboard no embed uses',
        description: 'Refused (400 INVALID_REQUEST_BODY, naming them) while embeds use the dashboard.',
        security,
        querystring: DeleteDashboardQuery,
        response: responses(DeletedResponse),
      },
    },
    async (request) => ({
      ...(await service.remove(org(request), request.query.workspaceName, request.query.dashboardId)),
      error: null,
    }),
  )
  app.post(
    '/api/v2/data-app/validate-dashboard',
    {
      schema: {
        tags,
        summary: 'Check a dashboard document without saving it',
        description:
          'The import body. The document is checked against the workspace model (400 as on import when it does not fit), then every metric, SQL metrics included, is compiled and run on the warehouse with no rows returned; each metric answers valid or the reason.',
        security,
        body: ImportDashboardBody,
        response: responses(ValidateDashboardResponse),
      },
    },
    async (request) => ({ data: await service.check(org(request), request.body) }),
  )
}

export default dashboards
