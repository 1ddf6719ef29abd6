import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { AdminAccountStatusSchema } from '@strata/contract/studio'
import { AccessTokenResponse, CreateAdminBody, RefreshBody, SessionResponse, SignInBody } from '../../schemas/admin.js'
import { docs } from './admin.docs.js'

/** Admin bootstrap and sign-in; no bearer token (docs/administration.md). */
const adminAccount: FastifyPluginAsyncTypebox = async (app) => {
  const { admin } = app.services
  app.get(
    '/api/v2/admin-account',
    { schema: { ...docs.adminAccountStatus, response: { 200: AdminAccountStatusSchema } } },
    async () => ({ data: { created: await admin.exists() } }),
  )
  app.post(
    '/api/v2/admin-account',
    {
      config: { rateLimitGroup: 'auth', selfHostedOnly: true },
      schema: { ...docs.createAdminAccount, body: CreateAdminBody, response: { 200: AccessTokenResponse } },
    },
    async (request) => ({ data: await admin.create(request.body) }),
  )
  app.post(
    '/api/v2/admin-account/jwt',
    {
      config: { rateLimitGroup: 'auth' },
      schema: { ...docs.createAdminJwt, body: SignInBody, response: { 200: SessionResponse } },
    },
    async (request) => ({ data: await admin.signIn(request.body.email, request.body.password) }),
  )
  app.post(
    '/api/v2/admin-account/jwt/refresh',
    {
      config: { rateLimitGroup: 'refresh' },
      schema: { ...docs.refreshAdminJwt, body: RefreshBody, response: { 200: SessionResponse } },
    },
    async (request) => ({ data: await admin.refresh(request.body.refreshToken) }),
  )
}

export default adminAccount
