import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import {
  DashboardExport,
  DashboardExportDocument,
  DeleteDashboardQuery,
  DeletedResponse,
  ExportDashboardBody,
  ImportDashboardBody,
  ImportDashboardRequest,
  ImportDashboardResponse,
  UpdateDashboardBody,
  UpdateDashboardRequest,
  UpdateDashboardResponse,
  ValidateDashboardResponse,
} from '../../schemas/dashboards.js'
import { documentedAs } from '../../schemas/openapi.js'
import type { Dashboard, Warned } from '../../services/dashboards/dashboards.js'
import { docs } from './dashboards.docs.js'

/** The import's answer (also the update's); `warnings` only when the document left something out. */
function imported(verb: string, dashboard: Dashboard & Warned, workspaceName: string) {
  const count = dashboard.document.metrics.length
  return {
    data: {
      response: {
        message: `${verb} dashboard ${dashboard.name} with ${count} metric${count === 1 ? '' : 's'}`,
        dashboardId: dashboard.dashboardId,
        dashboardName: dashboard.name,
        workspaceName,
      },
      ...withWarnings(dashboard.warnings),
    },
  }
}

const withWarnings = (warnings: readonly string[]) => (warnings.length > 0 ? { warnings } : {})

/** Dashboard import, export, update, delete and validation (dashboards as code); service token. */
const dashboards: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.dashboards
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/data-app/export-dashboard',
    {
      config: { authFailure: { code: 'AUTH_ERROR', status: 400 }, ...documentedAs({ ok: DashboardExportDocument }) },
      schema: { ...docs.exportDashboard, body: ExportDashboardBody, response: { 200: DashboardExport } },
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
      config: {
        authFailure: { code: 'AUTHENTICATION_ERROR', status: 400 },
        ...documentedAs({ body: ImportDashboardRequest }),
      },
      schema: { ...docs.importDashboard, body: ImportDashboardBody, response: { 200: ImportDashboardResponse } },
    },
    async (request) =>
      imported('Imported', await service.import(org(request), request.body), request.body.workspaceName),
  )
  app.put(
    '/api/v2/data-app/dashboard',
    {
      config: documentedAs({ body: UpdateDashboardRequest }),
      schema: { ...docs.updateDashboard, body: UpdateDashboardBody, response: { 200: UpdateDashboardResponse } },
    },
    async (request) => {
      const updated = await service.update(org(request), request.body)
      const answer = imported('Updated', updated, request.body.workspaceName)
      const { response, ...warned } = answer.data
      return { data: { response, droppedEndUserMetrics: [...updated.droppedEndUserMetrics], ...warned } }
    },
  )
  app.delete(
    '/api/v2/data-app/dashboard',
    {
      schema: { ...docs.deleteDashboard, querystring: DeleteDashboardQuery, response: { 200: DeletedResponse } },
    },
    async (request) => ({
      ...(await service.remove(org(request), request.query.workspaceName, request.query.dashboardId)),
      error: null,
    }),
  )
  app.post(
    '/api/v2/data-app/validate-dashboard',
    {
      config: documentedAs({ body: ImportDashboardRequest }),
      schema: { ...docs.validateDashboard, body: ImportDashboardBody, response: { 200: ValidateDashboardResponse } },
    },
    async (request) => {
      const { warnings, ...checked } = await service.check(org(request), request.body)
      return { data: { ...checked, ...withWarnings(warnings) } }
    },
  )
}

export default dashboards
