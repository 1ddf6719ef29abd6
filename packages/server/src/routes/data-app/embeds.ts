import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import type { AuthFailure } from '../../errors.js'
import { check } from '../../schemas/check.js'
import { responses } from '../../schemas/common.js'
import {
  CreateEmbedBody,
  DeleteEmbedQuery,
  DeleteResponse,
  EmbedExport,
  EmbedList,
  EmptyDashboardEmbedBody,
  EmptyDashboardEmbedResponse,
  ExportEmbedBody,
  ExportEmbedQuery,
  IdResponse,
  LegacyDeleteEmbedBody,
  LegacyDeleteEmbedQuery,
  LegacyDeleteResponse,
  ListEmbedsBody,
  ListEmbedsQuery,
  RenameEmbedBody,
  RenameResponse,
  UpdateEmbedBody,
} from '../../schemas/embeds.js'
import { pageOf } from '../pagination.js'

const security = [{ dataAppKey: [] }]
const tags = ['embeds']
/** The spec's Errors table: how each embed endpoint answers a bad data app key. */
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
      config: key401,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Create an embed; with ?embedId=… and body { embedId } it is the legacy delete',
        security,
        querystring: LegacyDeleteEmbedQuery,
        body: Type.Union([CreateEmbedBody, LegacyDeleteEmbedBody]),
        response: responses(Type.Union([IdResponse, LegacyDeleteResponse])),
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
      config: key401,
      schema: {
        tags,
        summary: 'Create an embed (legacy path)',
        deprecated: true,
        security,
        body: CreateEmbedBody,
        response: responses(IdResponse),
      },
    },
    async (request) => ({ id: (await service.create(dataApp(request), request.body)).embedId, error: null }),
  )

  app.get(
    '/api/v2/data-app/embeds',
    {
      config: key400,
      schema: { tags, summary: 'List embeds', security, querystring: ListEmbedsQuery, response: responses(EmbedList) },
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
      schema: {
        tags,
        summary: 'List embeds (legacy, typed body)',
        deprecated: true,
        security,
        body: ListEmbedsBody,
        response: responses(EmbedList),
      },
    },
    async (request) => {
      const { isPagination, pageNumber, clientId } = request.body ?? {}
      const page = pageOf(isPagination, pageNumber)
      return { data: await service.list(dataApp(request), { page, ...(clientId ? { clientId } : {}) }), error: null }
    },
  )

  for (const [method, url, deprecated] of [
    ['PUT', '/api/v2/data-app/embeds', false],
    ['POST', '/api/v2/dataApp/embed/update', true],
  ] as const) {
    app.route({
      method,
      url,
      config: auth('AUTHENTICATION_ERR', 401),
      schema: {
        tags,
        summary: 'Update an embed (partial accessSettings, effective at once)',
        deprecated,
        security,
        body: UpdateEmbedBody,
        response: responses(IdResponse),
      },
      handler: async (request) => {
        const { embedId, accessSettings, workspaceName } = request.body
        return { id: await service.update(dataApp(request), embedId, accessSettings, workspaceName), error: null }
      },
    })
  }

  app.delete(
    '/api/v2/data-app/embeds',
    {
      config: key401,
      schema: {
        tags,
        summary: 'Delete an embed (and its dashboard with isDeleteDashboard=true); its guest tokens stop at once',
        security,
        querystring: DeleteEmbedQuery,
        response: responses(DeleteResponse),
      },
    },
    async (request) => {
      const { embedId, isDeleteDashboard } = request.query
      return { id: await service.delete(dataApp(request), embedId, isDeleteDashboard === 'true') }
    },
  )
  app.put(
    '/api/v2/data-app/embeds/rename',
    {
      config: key400,
      schema: {
        tags,
        summary: 'Rename an embed (and its dashboard)',
        security,
        body: RenameEmbedBody,
        response: responses(RenameResponse),
      },
    },
    async (request) => {
      const { embedId, name, isRenameDashboard } = request.body
      await service.rename(dataApp(request), embedId, name, isRenameDashboard ?? false)
      return { id: embedId, name, error: null }
    },
  )

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
      config: key401,
      schema: {
        tags,
        summary: 'Export an embed with its dashboard document',
        security,
        querystring: ExportEmbedQuery,
        response: responses(EmbedExport),
      },
    },
    async (request, reply) => exportEmbed(request, reply, request.query.embedId),
  )
  app.get(
    '/api/v2/dataApp/embeds/export',
    {
      config: key401,
      schema: {
        tags,
        summary: 'Export an embed (legacy path)',
        deprecated: true,
        security,
        querystring: ExportEmbedQuery,
        response: responses(EmbedExport),
      },
    },
    async (request, reply) => exportEmbed(request, reply, request.query.embedId),
  )
  app.post(
    '/api/v2/dataApp/embeds/export',
    {
      config: key401,
      schema: {
        tags,
        summary: 'Export an embed (legacy, typed body)',
        deprecated: true,
        security,
        body: ExportEmbedBody,
        response: responses(EmbedExport),
      },
    },
    async (request, reply) => exportEmbed(request, reply, request.body.embedId),
  )

  for (const [url, deprecated] of [
    ['/api/v2/data-app/dashboard-embeds', false],
    ['/api/v2/dataApp/dashboard-embeds', true],
  ] as const) {
    app.post(
      url,
      {
        config: key401,
        schema: {
          tags,
          summary: 'Create Empty Dashboard Embed: a new dashboard (empty or imported) and its embed',
          deprecated,
          security,
          body: EmptyDashboardEmbedBody,
          response: responses(EmptyDashboardEmbedResponse),
        },
      },
      async (request) => {
        const embed = await service.createWithDashboard(dataApp(request), request.body)
        return { id: embed.embedId, name: embed.name, error: null }
      },
    )
  }
}

export default embeds
