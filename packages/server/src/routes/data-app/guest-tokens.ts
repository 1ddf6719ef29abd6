import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import { responses } from '../../schemas/common.js'
import { GuestTokenBody, GuestTokenResponse } from '../../schemas/guest-tokens.js'

/** Guest token minting: strict body (any undeclared field is a 400); data app key. */
const guestTokens: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.guestTokens
  requireDataAppKey(app, { code: 'AUTHENTICATION_ERROR', status: 401 })

  app.post(
    '/api/v2/guest-token/create',
    {
      schema: {
        tags: ['guest tokens'],
        summary: 'Mint a guest token for one end user (opaque; claims stay server-side)',
        security: [{ dataAppKey: [] }],
        body: GuestTokenBody,
        response: responses(GuestTokenResponse),
      },
    },
    async (request) => service.mint(principalOf(request, 'dataApp'), request.body),
  )
}

export default guestTokens
