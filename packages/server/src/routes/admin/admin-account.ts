import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AccessTokenResponse, CreateAdminBody, RefreshBody, SessionResponse, SignInBody } from '../../schemas/admin.js'
import { responses } from '../../schemas/common.js'

/** Admin bootstrap and sign-in; no bearer token (DESIGN.md §2.1). */
const adminAccount: FastifyPluginAsyncTypebox = async (app) => {
  const { admin } = app.services
  app.post(
    '/api/v2/admin-account',
    {
      config: { rateLimitGroup: 'auth', selfHostedOnly: true },
      schema: {
        tags: ['administration'],
        summary: 'Create the admin account (only while none exists)',
        body: CreateAdminBody,
        response: responses(AccessTokenResponse),
      },
    },
    async (request) => ({ data: await admin.create(request.body) }),
  )
  app.post(
    '/api/v2/admin-account/jwt',
    {
      config: { rateLimitGroup: 'auth' },
      schema: {
        tags: ['administration'],
        summary: 'Create Admin JWT (sign in)',
        body: SignInBody,
        response: responses(SessionResponse),
      },
    },
    async (request) => ({ data: await admin.signIn(request.body.email, request.body.password) }),
  )
  app.post(
    '/api/v2/admin-account/jwt/refresh',
    {
      config: { rateLimitGroup: 'refresh' },
      schema: {
        tags: ['administration'],
        summary: 'Refresh the admin JWT; the refresh token is single-use',
        body: RefreshBody,
        response: responses(SessionResponse),
      },
    },
    async (request) => ({ data: await admin.refresh(request.body.refreshToken) }),
  )
}

export default adminAccount
