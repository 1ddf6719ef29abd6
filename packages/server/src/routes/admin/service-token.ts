import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireAuth } from '../../auth/hooks.js'
import {
  CreateServiceTokenBody,
  KeyResponse,
  ResetPasswordBody,
  ResetPasswordResponse,
  RotateServiceTokenBody,
} from '../../schemas/admin.js'
import { docs } from './admin.docs.js'

/** Routes that take the admin access token (a JWT from sign-in). */
const serviceToken: FastifyPluginAsyncTypebox = async (app) => {
  const { admin, serviceTokens } = app.services
  requireAuth(app, 'admin', (token) => admin.verifyAccessToken(token), { code: 'AUTHENTICATION_ERROR', status: 401 })

  app.post(
    '/api/v2/service-token',
    {
      schema: { ...docs.createServiceToken, body: CreateServiceTokenBody, response: { 200: KeyResponse } },
    },
    async (request) => serviceTokens.create(principalOf(request, 'admin').organizationId, request.body.token),
  )
  app.post(
    '/api/v2/service-token/rotate',
    {
      schema: { ...docs.rotateServiceToken, body: RotateServiceTokenBody, response: { 200: KeyResponse } },
    },
    async (request) =>
      serviceTokens.rotate(principalOf(request, 'admin').organizationId, request.body.token, request.body.expireAt),
  )
  app.post(
    '/api/v2/service-token/reset-password',
    {
      config: { rateLimitGroup: 'auth', selfHostedOnly: true },
      schema: { ...docs.resetAdminPassword, body: ResetPasswordBody, response: { 200: ResetPasswordResponse } },
    },
    async (request) => {
      const { currentPassword, password } = request.body
      await admin.resetPassword(principalOf(request, 'admin').adminId, currentPassword, password)
      return { data: { success: true } }
    },
  )
}

export default serviceToken
