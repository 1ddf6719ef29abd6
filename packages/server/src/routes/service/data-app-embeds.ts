import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import type { PrincipalOf } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import { DataAppParams, WhitelistDomainsBody, WhitelistDomainsResponse } from '../../schemas/data-apps.js'
import {
  CreateEmbedBody,
  CreateEmbedRequest,
  DeleteEmbedQuery,
  DeleteResponse,
  EmbedAccessQuery,
  EmbedAccessResponse,
  EmbedList,
  IdResponse,
  ListEmbedsQuery,
  UpdateEmbedBody,
} from '../../schemas/embeds.js'
import { documentedAs } from '../../schemas/openapi.js'
import { pageOf } from '../pagination.js'
import { docs } from './data-app-embeds.docs.js'

/**
 * A data app's embeds and whitelist-domains with the organization's token (service token or the
 * admin's access token): the routes the data app key takes, for a data app named in the path.
 * The studio manages embeds with these, so the secret key is never needed in the browser.
 */
const dataAppEmbeds: FastifyPluginAsyncTypebox = async (app) => {
  const { dataApps, embeds } = app.services
  requireServiceToken(app)

  /** Acts as the named data app; no key is involved (keyId null). */
  const actingAs = async (request: FastifyRequest, name: string): Promise<PrincipalOf<'dataApp'>> => {
    const organizationId = principalOf(request, 'service').organizationId
    const found = await dataApps.byName(organizationId, name)
    if (!found) throw new ApiError('DATA_APP_NOT_FOUND', 400, `Data app ${name} not found`)
    return { kind: 'dataApp', organizationId, dataAppId: found.id, dataAppName: found.name, keyId: null }
  }
  const base = '/api/v2/data-apps/:dataAppName'

  app.get(
    `${base}/embeds`,
    {
      schema: {
        ...docs.listAppEmbeds,
        params: DataAppParams,
        querystring: ListEmbedsQuery,
        response: { 200: EmbedList },
      },
    },
    async (request) => {
      const { isPagination, pageNumber, clientId } = request.query
      const page = pageOf(isPagination, pageNumber)
      const dataApp = await actingAs(request, request.params.dataAppName)
      return { data: await embeds.list(dataApp, { page, ...(clientId ? { clientId } : {}) }), error: null }
    },
  )
  app.get(
    `${base}/embeds/access-settings`,
    {
      schema: {
        ...docs.readAppEmbedAccess,
        params: DataAppParams,
        querystring: EmbedAccessQuery,
        response: { 200: EmbedAccessResponse },
      },
    },
    async (request) => {
      const dataApp = await actingAs(request, request.params.dataAppName)
      const embed = await embeds.get(request.query.embedId)
      if (embed?.dataAppId !== dataApp.dataAppId) {
        throw new ApiError(
          'EMBED_NOT_FOUND',
          404,
          `Data app ${dataApp.dataAppName} has no embed ${request.query.embedId}`,
        )
      }
      return { data: { embedId: embed.embedId, accessSettings: embed.accessSettings } }
    },
  )
  app.post(
    `${base}/embeds`,
    {
      config: documentedAs({ body: CreateEmbedRequest }),
      schema: { ...docs.createAppEmbed, params: DataAppParams, body: CreateEmbedBody, response: { 200: IdResponse } },
    },
    async (request) => {
      const dataApp = await actingAs(request, request.params.dataAppName)
      return { id: (await embeds.create(dataApp, request.body)).embedId, error: null }
    },
  )
  app.put(
    `${base}/embeds`,
    { schema: { ...docs.updateAppEmbed, params: DataAppParams, body: UpdateEmbedBody, response: { 200: IdResponse } } },
    async (request) => {
      const { embedId, accessSettings, workspaceName } = request.body
      const dataApp = await actingAs(request, request.params.dataAppName)
      return { id: await embeds.update(dataApp, embedId, accessSettings, workspaceName), error: null }
    },
  )
  app.delete(
    `${base}/embeds`,
    {
      schema: {
        ...docs.deleteAppEmbed,
        params: DataAppParams,
        querystring: DeleteEmbedQuery,
        response: { 200: DeleteResponse },
      },
    },
    async (request) => {
      const { embedId, isDeleteDashboard } = request.query
      const dataApp = await actingAs(request, request.params.dataAppName)
      return { id: await embeds.delete(dataApp, embedId, isDeleteDashboard === 'true') }
    },
  )

  app.get(
    `${base}/whitelist-domains`,
    { schema: { ...docs.listAppWhitelistDomains, params: DataAppParams, response: { 200: WhitelistDomainsResponse } } },
    async (request) => {
      const dataApp = await actingAs(request, request.params.dataAppName)
      return { data: await dataApps.whitelistDomains(dataApp.dataAppId) }
    },
  )
  app.put(
    `${base}/whitelist-domains`,
    {
      schema: {
        ...docs.setAppWhitelistDomains,
        params: DataAppParams,
        body: WhitelistDomainsBody,
        response: { 200: WhitelistDomainsResponse },
      },
    },
    async (request) => {
      const dataApp = await actingAs(request, request.params.dataAppName)
      return { data: await dataApps.setWhitelistDomains(dataApp.dataAppId, request.body.domains) }
    },
  )
}

export default dataAppEmbeds
