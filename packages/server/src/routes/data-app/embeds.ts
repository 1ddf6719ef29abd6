import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import type { AuthFailure } from '../../errors.js'
import { badRequest } from '../../errors.js'
import { check } from '../../schemas/check.js'
import {
  CreateEmbedBody,
  CreateEmbedRequest,
  CreateOrDeleteEmbedRequest,
  DeleteEmbedQuery,
  DeleteResponse,
  EmbedExport,
  EmbedExportDocument,
  EmbedList,
  EmptyDashboardEmbedBody,
  EmptyDashboardEmbedRequest,
  EmptyDashboardEmbedResponse,
  ExportEmbedBody,
  ExportEmbedQuery,
  IdResponse,
  LegacyDeleteEmbedBody,
  LegacyDeleteEmbedQuery,
  LegacyDeleteResponse,
  ListEmbedsBody,
  ListEmbedsQuery,
  OlderLegacyDeleteEmbedBody,
  RenameEmbedBody,
  RenameResponse,
  UpdateEmbedBody,
} from '../../schemas/embeds.js'
import { documentedAs } from '../../schemas/openapi.js'
import { withCurrentSpellings } from '../../services/embeds/legacy-access.js'
import { pageOf } from '../pagination.js'
import { docs } from './embeds.docs.js'

/** docs/api.md#token-kinds-per-route-group: how each embed endpoint answers a bad data app key. */
const auth = (code: AuthFailure['code'], status: AuthFailure['status']) => ({ authFailure: { code, status } })
const key401 = auth('INVALID_DATA_APP_API_KEY', 401)
const key400 = auth('INVALID_DATA_APP_API_KEY', 400)

/** Embeds: create, list, update, delete, rename, export; data app key; legacy paths too. */
const embeds: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.embeds
  requireDataAppKey(app)
  const dataApp = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'dataApp')

  // The preferred create path doubles as the legacy delete (POST with ?embedId=… and a JSON
  // body { embedId }), so its body is checked in the handler once the form is known.
  app.post(
    '/api/v2/data-app/embeds',
    {
      config: { ...key401, ...documentedAs({ body: CreateOrDeleteEmbedRequest }) },
      attachValidation: true,
      schema: {
        ...docs.createEmbed,
        querystring: LegacyDeleteEmbedQuery,
        body: Type.Union([CreateEmbedBody, LegacyDeleteEmbedBody]),
        response: { 200: Type.Union([IdResponse, LegacyDeleteResponse]) },
      },
    },
    async (request) => {
      if (request.validationError?.validationContext === 'querystring') throw request.validationError
      const body = request.body as unknown
      // the body may be any JSON value here (validation is deferred): only an object can name an embed
      const isObject = typeof body === 'object' && body !== null && !Array.isArray(body)
      if (request.query.embedId !== undefined || (isObject && 'embedId' in body && !('embedType' in body))) {
        const { embedId, isDeleteDashboard } = check(LegacyDeleteEmbedBody, body ?? {}, '')
        const deleteDashboard = isDeleteDashboard ?? request.query.isDeleteDashboard === 'true'
        return { id: await service.delete(dataApp(request), embedId, deleteDashboard), error: null }
      }
      const input = check(CreateEmbedBody, body, '')
      return { id: (await service.create(dataApp(request), input)).embedId, error: null }
    },
  )
  app.post(
    '/api/v2/dataApp/embeds',
    {
      config: { ...key401, ...documentedAs({ body: CreateEmbedRequest }) },
      schema: { ...docs.createEmbedLegacy, body: CreateEmbedBody, response: { 200: IdResponse } },
    },
    async (request) => ({ id: (await service.create(dataApp(request), request.body)).embedId, error: null }),
  )

  app.get(
    '/api/v2/data-app/embeds',
    {
      config: key400,
      schema: { ...docs.listEmbeds, querystring: ListEmbedsQuery, response: { 200: EmbedList } },
    },
    async (request) => {
      const { isPagination, pageNumber, clientId } = request.query
      const page = pageOf(isPagination, pageNumber)
      return { data: await service.list(dataApp(request), { page, ...(clientId ? { clientId } : {}) }), error: null }
    },
  )
  app.post(
    '/api/v2/dataApp/embed/list',
    {
      config: key400,
      schema: { ...docs.listEmbedsLegacy, body: ListEmbedsBody, response: { 200: EmbedList } },
    },
    async (request) => {
      const { isPagination, pageNumber, clientId } = request.body ?? {}
      const page = pageOf(isPagination, pageNumber)
      return { data: await service.list(dataApp(request), { page, ...(clientId ? { clientId } : {}) }), error: null }
    },
  )

  // the legacy path also reads the hosted service's older accessSettings spellings
  for (const [method, url, doc, spelled] of [
    ['PUT', '/api/v2/data-app/embeds', docs.updateEmbed, (settings: object) => settings],
    ['POST', '/api/v2/dataApp/embed/update', docs.updateEmbedLegacy, withCurrentSpellings],
  ] as const) {
    app.route({
      method,
      url,
      config: auth('AUTHENTICATION_ERR', 401),
      schema: { ...doc, body: UpdateEmbedBody, response: { 200: IdResponse } },
      handler: async (request) => {
        const { embedId, accessSettings, workspaceName } = request.body
        const settings = spelled(accessSettings)
        return { id: await service.update(dataApp(request), embedId, settings, workspaceName), error: null }
      },
    })
  }

  app.delete(
    '/api/v2/data-app/embeds',
    {
      config: key401,
      schema: { ...docs.deleteEmbed, querystring: DeleteEmbedQuery, response: { 200: DeleteResponse } },
    },
    async (request) => {
      const { embedId, isDeleteDashboard } = request.query
      return { id: await service.delete(dataApp(request), embedId, isDeleteDashboard === 'true') }
    },
  )
  // As the hosted service's example sends it, this path may come with no body at all (the id
  // in the query string): the body is checked in the handler, an absent one as {}.
  app.post(
    '/api/v2/dataApp/embed/delete',
    {
      config: { ...key401, ...documentedAs({ body: OlderLegacyDeleteEmbedBody }) },
      schema: {
        ...docs.deleteEmbedOlderLegacy,
        querystring: LegacyDeleteEmbedQuery,
        response: { 200: LegacyDeleteResponse },
      },
    },
    async (request) => {
      const body = check(OlderLegacyDeleteEmbedBody, request.body ?? {}, '')
      const embedId = body.embedId ?? request.query.embedId
      if (embedId === undefined) throw badRequest('embedId is required (in the body, or in the query string)')
      const deleteDashboard = body.isDeleteDashboard ?? request.query.isDeleteDashboard === 'true'
      return { id: await service.delete(dataApp(request), embedId, deleteDashboard), error: null }
    },
  )
  app.put(
    '/api/v2/data-app/embeds/rename',
    {
      config: key400,
      schema: { ...docs.renameEmbed, body: RenameEmbedBody, response: { 200: RenameResponse } },
    },
    async (request) => {
      const { embedId, name, isRenameDashboard } = request.body
      await service.rename(dataApp(request), embedId, name, isRenameDashboard ?? false)
      return { id: embedId, name, error: null }
    },
  )

  const exportConfig = { ...key401, ...documentedAs({ ok: EmbedExportDocument }) }
  const exportEmbed = async (request: Parameters<typeof principalOf>[0], reply: FastifyReply, embedId: string) => {
    const document = await service.export(dataApp(request), embedId)
    reply.header(
      'content-disposition',
      `attachment; filename="dashboard-${embedId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json"`,
    )
    return document
  }
  app.get(
    '/api/v2/data-app/embeds/export',
    {
      config: exportConfig,
      schema: { ...docs.exportEmbed, querystring: ExportEmbedQuery, response: { 200: EmbedExport } },
    },
    async (request, reply) => exportEmbed(request, reply, request.query.embedId),
  )
  app.get(
    '/api/v2/dataApp/embeds/export',
    {
      config: exportConfig,
      schema: { ...docs.exportEmbedLegacy, querystring: ExportEmbedQuery, response: { 200: EmbedExport } },
    },
    async (request, reply) => exportEmbed(request, reply, request.query.embedId),
  )
  app.post(
    '/api/v2/dataApp/embeds/export',
    {
      config: exportConfig,
      schema: { ...docs.exportEmbedLegacyBody, body: ExportEmbedBody, response: { 200: EmbedExport } },
    },
    async (request, reply) => exportEmbed(request, reply, request.body.embedId),
  )

  for (const [url, doc] of [
    ['/api/v2/data-app/dashboard-embeds', docs.createDashboardEmbed],
    ['/api/v2/dataApp/dashboard-embeds', docs.createDashboardEmbedLegacy],
  ] as const) {
    app.post(
      url,
      {
        config: { ...key401, ...documentedAs({ body: EmptyDashboardEmbedRequest }) },
        schema: { ...doc, body: EmptyDashboardEmbedBody, response: { 200: EmptyDashboardEmbedResponse } },
      },
      async (request) => {
        const { embed, dashboardId, warnings } = await service.createWithDashboard(dataApp(request), request.body)
        return {
          id: dashboardId,
          name: embed.name,
          embedId: embed.embedId,
          error: null,
          ...(warnings.length > 0 ? { warnings } : {}),
        }
      },
    )
  }
}

export default embeds
