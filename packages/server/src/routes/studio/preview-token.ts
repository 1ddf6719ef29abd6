import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireAuth } from '../../auth/hooks.js'
import { PreviewTokenBody, PreviewTokenResponse } from '../../schemas/studio-preview.js'
import { docs } from './preview-token.docs.js'

/** `POST /api/v2/studio/preview-token`: the studio's guest token for a tenant; admin access token only. */
const previewToken: FastifyPluginAsyncTypebox = async (app) => {
  const { admin, studioPreviewTokens } = app.services
  requireAuth(app, 'admin', (token) => admin.verifyAccessToken(token), { code: 'AUTHENTICATION_ERROR', status: 401 })

  app.post(
    '/api/v2/studio/preview-token',
    { schema: { ...docs.createStudioPreviewToken, body: PreviewTokenBody, response: { 200: PreviewTokenResponse } } },
    async (request) => ({
      data: await studioPreviewTokens.mint(principalOf(request, 'admin').organizationId, request.body),
    }),
  )
}

export default previewToken
