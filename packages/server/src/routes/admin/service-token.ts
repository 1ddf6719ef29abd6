import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireAuth } from '../../auth/hooks.js'
import {
  CreateServiceTokenBody,
  KeyResponse,
  ResetPasswordBody,
  ResetPasswordResponse,
  RotateServiceTokenBody,
} from '../../schemas/admin.js'
import { responses } from '../../schemas/common.js'

const security = [{ adminToken: [] }]

/** Routes that take the admin access token (a JWT from sign-in). */
const serviceToken: FastifyPluginAsyncTypebox = async (app) => {
  const { admin, serviceTokens } = app.services
  requireAuth(app, 'admin', (token) => admin.verifyAccessToken(token), { code: 'AUTHENTICATION_ERROR', status: 401 })

  app.post(
    '/api/v2/service-token',
    {
      schema: {
        tags: ['administration'],
        summary: 'Create the service token (replaces the current one at once)',
        security,
        body: CreateServiceTokenBody,
        response: responses(KeyResponse),
      },
    },
    async (request) => serviceTokens.create(principalOf(request, 'admin').organizationId, request.body.token),
  )
  app.post(
    '/api/v2/service-token/rotate',
    {
      schema: {
        tags: ['administration'],
        summary: 'Rotate the service token; the old one works for expireAt more seconds',
        security,
        body: RotateServiceTokenBody,
        response: responses(KeyResponse),
      },
    },
    async (request) =>
      serviceTokens.rotate(principalOf(request, 'admin').organizationId, request.body.token, request.body.expireAt),
  )
  app.post(
    '/api/v2/service-token/reset-password',
    {
      config: { rateLimitGroup: 'auth', selfHostedOnly: true },
      schema: {
        tags: ['administration'],
        summary: 'Reset the admin password (self-hosted only)',
        security,
        body: ResetPasswordBody,
        response: responses(ResetPasswordResponse),
      },
    },
    async (request) => {
      const { currentPassword, password } = request.body
      await admin.resetPassword(principalOf(request, 'admin').adminId, currentPassword, password)
      return { data: { success: true } }
    },
  )
}

export default serviceToken
