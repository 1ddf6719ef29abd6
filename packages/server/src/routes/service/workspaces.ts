import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { responses } from '../../schemas/common.js'
import {
  DeletedWorkspace,
  DeleteWorkspaceQuery,
  WorkspaceBody,
  WorkspaceList,
  WorkspaceResponse,
} from '../../schemas/workspaces.js'

const security = [{ serviceToken: [] }]
const tags = ['workspaces']

/** Workspaces: create, update, list, delete; service token. */
const workspaces: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.workspaces
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/workspace',
    {
      schema: {
        tags,
        summary: 'Create a workspace',
        security,
        body: WorkspaceBody,
        response: responses(WorkspaceResponse),
      },
    },
    async (request) => ({ data: await service.create(org(request), request.body), error: null }),
  )
  app.put(
    '/api/v2/workspace',
    {
      schema: {
        tags,
        summary: 'Update a workspace',
        security,
        body: WorkspaceBody,
        response: responses(WorkspaceResponse),
      },
    },
    async (request) => ({ data: await service.update(org(request), request.body), error: null }),
  )
  app.get(
    '/api/v2/workspace',
    {
      schema: {
        tags,
        summary: 'List workspaces',
        security,
        response: responses(WorkspaceList),
      },
    },
    async (request) => ({ data: await service.list(org(request)) }),
  )
  app.delete(
    '/api/v2/workspace',
    {
      schema: {
        tags,
        summary: 'Delete a workspace with no dashboard',
        description:
          'Refused (400 INVALID_REQUEST_BODY, naming them) while dashboards live in it; an unknown name is 400 WORKSPACE_DOES_NOT_EXIST.',
        security,
        querystring: DeleteWorkspaceQuery,
        response: responses(DeletedWorkspace),
      },
    },
    async (request) => ({ ...(await service.delete(org(request), request.query.name)), error: null }),
  )
}

export default workspaces
