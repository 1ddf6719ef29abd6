import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import { GuestTokenBody, GuestTokenResponse, GuestTokenV1Body } from '../../schemas/guest-tokens.js'
import { docs } from './guest-tokens.docs.js'

/** Guest token minting (v2, and v1 naming a workspace): strict body (any undeclared field is a 400); data app key. */
const guestTokens: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.guestTokens
  requireDataAppKey(app, { code: 'AUTHENTICATION_ERROR', status: 401 })

  app.post(
    '/api/v2/guest-token/create',
    {
      schema: { ...docs.createGuestToken, body: GuestTokenBody, response: { 200: GuestTokenResponse } },
    },
    async (request) => service.mint(principalOf(request, 'dataApp'), request.body),
  )
  app.post(
    '/api/v1/guest-token/create',
    {
      schema: { ...docs.createGuestTokenV1, body: GuestTokenV1Body, response: { 200: GuestTokenResponse } },
    },
    async (request) => app.services.workspaceGuestTokens.mint(principalOf(request, 'dataApp'), request.body),
  )
}

export default guestTokens
