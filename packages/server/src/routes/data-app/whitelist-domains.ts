import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireAuth } from '../../auth/hooks.js'
import { WhitelistDomainsBody, WhitelistDomainsResponse } from '../../schemas/data-apps.js'
import { docs } from './whitelist-domains.docs.js'

/** The origins allowed to load this data app's embeds (CORS); data app key. */
const whitelistDomains: FastifyPluginAsyncTypebox = async (app) => {
  const { dataApps } = app.services
  requireAuth(app, 'dataApp', (key) => dataApps.verifyKey(key), { code: 'INVALID_DATA_APP_API_KEY', status: 401 })

  app.get(
    '/api/v2/data-app/whitelist-domains',
    {
      schema: { ...docs.listWhitelistDomains, response: { 200: WhitelistDomainsResponse } },
    },
    async (request) => ({ data: await dataApps.whitelistDomains(principalOf(request, 'dataApp').dataAppId) }),
  )
  app.put(
    '/api/v2/data-app/whitelist-domains',
    {
      schema: { ...docs.setWhitelistDomains, body: WhitelistDomainsBody, response: { 200: WhitelistDomainsResponse } },
    },
    async (request) => ({
      data: await dataApps.setWhitelistDomains(principalOf(request, 'dataApp').dataAppId, request.body.domains),
    }),
  )
}

export default whitelistDomains
