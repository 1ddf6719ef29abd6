import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireAuth } from '../../auth/hooks.js'
import { TenantsQuery, TenantsResponse } from '../../schemas/studio-tenants.js'
import { docs } from './tenants.docs.js'

/** `GET /api/v2/studio/tenants`: the tenants the preview offers; admin access token only. */
const tenants: FastifyPluginAsyncTypebox = async (app) => {
  const { admin, studioTenants } = app.services
  requireAuth(app, 'admin', (token) => admin.verifyAccessToken(token), { code: 'AUTHENTICATION_ERROR', status: 401 })

  app.get(
    '/api/v2/studio/tenants',
    { schema: { ...docs.listStudioTenants, querystring: TenantsQuery, response: { 200: TenantsResponse } } },
    async (request) => ({
      data: await studioTenants.list(principalOf(request, 'admin').organizationId, request.query),
    }),
  )
}

export default tenants
