import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import {
  DeletedWorkspace,
  DeleteWorkspaceQuery,
  WorkspaceBody,
  WorkspaceDashboards,
  WorkspaceDashboardsBody,
  WorkspaceList,
  WorkspaceResponse,
} from '../../schemas/workspaces.js'
import { pageOf } from '../pagination.js'
import { docs } from './workspaces.docs.js'

/** Workspaces: create, update, list, delete, and the dashboards of one; service token. */
const workspaces: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.workspaces
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/workspace',
    {
      schema: { ...docs.createWorkspace, body: WorkspaceBody, response: { 200: WorkspaceResponse } },
    },
    async (request) => ({ data: await service.create(org(request), request.body), error: null }),
  )
  app.put(
    '/api/v2/workspace',
    {
      schema: { ...docs.updateWorkspace, body: WorkspaceBody, response: { 200: WorkspaceResponse } },
    },
    async (request) => ({ data: await service.update(org(request), request.body), error: null }),
  )
  app.get(
    '/api/v2/workspace',
    {
      schema: { ...docs.listWorkspaces, response: { 200: WorkspaceList } },
    },
    async (request) => ({ data: await service.list(org(request)) }),
  )
  app.post(
    '/api/v2/workspace/dashboards',
    {
      schema: {
        ...docs.listWorkspaceDashboards,
        body: WorkspaceDashboardsBody,
        response: { 200: WorkspaceDashboards },
      },
    },
    async (request) => {
      const { workspaceName, isPagination, pageNumber } = request.body
      const page = pageOf(isPagination, pageNumber)
      return { data: await app.services.dashboards.listInWorkspace(org(request), workspaceName, page), error: null }
    },
  )
  app.delete(
    '/api/v2/workspace',
    {
      schema: { ...docs.deleteWorkspace, querystring: DeleteWorkspaceQuery, response: { 200: DeletedWorkspace } },
    },
    async (request) => ({ ...(await service.delete(org(request), request.query.name)), error: null }),
  )
}

export default workspaces
