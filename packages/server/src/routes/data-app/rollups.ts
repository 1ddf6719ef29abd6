import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { RollupList, RollupListQuery, RollupRefreshBody, RollupRefreshResponse } from '../../schemas/rollups.js'
import { docs } from './rollups.docs.js'

/** Rollups' state and refresh (docs/rollups.md); the organization's service token. */
const rollups: FastifyPluginAsyncTypebox = async (app) => {
  const { rollups: service, rollupScheduler } = app.services
  requireServiceToken(app)

  app.get(
    '/api/v2/data-app/rollups',
    { schema: { ...docs.listRollups, querystring: RollupListQuery, response: { 200: RollupList } } },
    async (request) => ({ data: await service.list(principalOf(request, 'service').organizationId, request.query) }),
  )
  app.post(
    '/api/v2/data-app/rollups/refresh',
    { schema: { ...docs.refreshRollups, body: RollupRefreshBody, response: { 202: RollupRefreshResponse } } },
    async (request, reply) => {
      const data = await service.refresh(principalOf(request, 'service').organizationId, request.body)
      rollupScheduler?.wake()
      return reply.code(202).send({ data })
    },
  )
}

export default rollups
