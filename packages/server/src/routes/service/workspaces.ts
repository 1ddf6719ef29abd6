import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { responses } from '../../schemas/common.js'
import { WorkspaceBody, WorkspaceResponse } from '../../schemas/workspaces.js'

const security = [{ serviceToken: [] }]
const tags = ['workspaces']

/** Workspaces; service token. */
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
}

export default workspaces
