import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireAuth } from '../../auth/hooks.js'
import { responses } from '../../schemas/common.js'
import { WhitelistDomainsBody, WhitelistDomainsResponse } from '../../schemas/data-apps.js'

const security = [{ dataAppKey: [] }]

/** The origins allowed to load this data app's embeds (CORS); data app key. */
const whitelistDomains: FastifyPluginAsyncTypebox = async (app) => {
  const { dataApps } = app.services
  requireAuth(app, 'dataApp', (key) => dataApps.verifyKey(key), { code: 'INVALID_DATA_APP_API_KEY', status: 401 })

  app.get(
    '/api/v2/data-app/whitelist-domains',
    {
      schema: {
        tags: ['data apps'],
        summary: 'List the allowed embed origins',
        security,
        response: responses(WhitelistDomainsResponse),
      },
    },
    async (request) => ({ data: await dataApps.whitelistDomains(principalOf(request, 'dataApp').dataAppId) }),
  )
  app.put(
    '/api/v2/data-app/whitelist-domains',
    {
      schema: {
        tags: ['data apps'],
        summary: 'Replace the allowed embed origins; [] clears',
        security,
        body: WhitelistDomainsBody,
        response: responses(WhitelistDomainsResponse),
      },
    },
    async (request) => ({
      data: await dataApps.setWhitelistDomains(principalOf(request, 'dataApp').dataAppId, request.body.domains),
    }),
  )
}

export default whitelistDomains
