import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { KeyResponse } from '../../schemas/admin.js'
import {
  ApiTokenList,
  ApiTokenListQuery,
  CreateApiTokenBody,
  CreateDataAppBody,
  CreateDataAppResponse,
  DataAppList,
  RenameDataAppBody,
  RenameDataAppResponse,
  RevokeApiTokenQuery,
} from '../../schemas/data-apps.js'
import { pageOf } from '../pagination.js'
import { docs } from './data-apps.docs.js'

/** The hosted API answers a bad service token on api-tokens and on the rename with AUTHENTICATION_ERROR 400. */
const apiTokensAuth = { authFailure: { code: 'AUTHENTICATION_ERROR', status: 400 } } as const

/** Data apps and their API keys; service token. */
const dataApps: FastifyPluginAsyncTypebox = async (app) => {
  const { dataApps } = app.services
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/data-app',
    {
      schema: { ...docs.createDataApp, body: CreateDataAppBody, response: { 200: CreateDataAppResponse } },
    },
    async (request) => dataApps.create(org(request), request.body.name),
  )
  for (const [url, doc] of [
    ['/api/v2/data-app', docs.renameDataApp],
    ['/api/v2/dataApp', docs.renameDataAppLegacy],
  ] as const) {
    app.put(
      url,
      {
        config: apiTokensAuth,
        schema: { ...doc, body: RenameDataAppBody, response: { 200: RenameDataAppResponse } },
      },
      async (request) => dataApps.rename(org(request), request.body.name, request.body.updateName),
    )
  }
  app.get(
    '/api/v2/data-app',
    { schema: { ...docs.listDataApps, response: { 200: DataAppList } } },
    async (request) => ({ data: await dataApps.list(org(request)) }),
  )
  app.post(
    '/api/v2/data-app/api-tokens',
    {
      config: apiTokensAuth,
      schema: { ...docs.createApiToken, body: CreateApiTokenBody, response: { 200: KeyResponse } },
    },
    async (request) => {
      const { dataAppName, name, description } = request.body
      return dataApps.createApiKey(org(request), dataAppName, name, description ?? '')
    },
  )
  app.get(
    '/api/v2/data-app/api-tokens',
    {
      config: apiTokensAuth,
      schema: { ...docs.listApiTokens, querystring: ApiTokenListQuery, response: { 200: ApiTokenList } },
    },
    async (request) => {
      const { dataAppName, isPagination, pageNumber } = request.query
      return { data: await dataApps.listApiKeys(org(request), dataAppName, pageOf(isPagination, pageNumber)) }
    },
  )
  app.delete(
    '/api/v2/data-app/api-tokens',
    {
      config: apiTokensAuth,
      schema: { ...docs.revokeApiToken, querystring: RevokeApiTokenQuery, response: { 200: KeyResponse } },
    },
    async (request) => dataApps.revokeApiKey(org(request), request.query.dataAppName, request.query.key),
  )
}

export default dataApps
