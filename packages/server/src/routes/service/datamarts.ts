import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { responses } from '../../schemas/common.js'
import {
  CreateDatamartBody,
  DatamartIdResponse,
  DatamartList,
  DatamartListBody,
  DatamartListQuery,
  DeleteDatamartBody,
  DeleteDatamartQuery,
  UpdateDatamartBody,
} from '../../schemas/datamarts.js'
import { pageOf } from '../pagination.js'

const security = [{ serviceToken: [] }]
const tags = ['datamarts']

/** Datamarts (the semantic model over a datasource); service token. Legacy paths included. */
const datamarts: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.datamarts
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/data-app/datamarts',
    {
      schema: {
        tags,
        summary: 'Create a datamart',
        security,
        body: CreateDatamartBody,
        response: responses(DatamartIdResponse),
      },
    },
    async (request) => {
      const { name, datasourceName, ...input } = request.body
      return { id: await service.create(org(request), name, datasourceName, input), error: null }
    },
  )
  app.put(
    '/api/v2/data-app/datamarts',
    {
      schema: {
        tags,
        summary: 'Replace the table configuration of a datamart',
        security,
        body: UpdateDatamartBody,
        response: responses(DatamartIdResponse),
      },
    },
    async (request) => {
      const { datamartName, ...input } = request.body
      return { id: await service.update(org(request), datamartName, input), error: null }
    },
  )
  app.delete(
    '/api/v2/data-app/datamart',
    {
      schema: {
        tags,
        summary: 'Delete a datamart',
        security,
        querystring: DeleteDatamartQuery,
        response: responses(DatamartIdResponse),
      },
    },
    async (request) => ({ id: await service.delete(org(request), request.query.datamartName), error: null }),
  )
  app.post(
    '/api/v2/dataApp/datamart/delete',
    {
      schema: {
        tags,
        summary: 'Delete a datamart (legacy)',
        deprecated: true,
        security,
        body: DeleteDatamartBody,
        response: responses(DatamartIdResponse),
      },
    },
    async (request) => ({ id: await service.delete(org(request), request.body.datamartName), error: null }),
  )
  app.get(
    '/api/v2/data-app/datamarts',
    {
      schema: {
        tags,
        summary: 'List datamarts; expandDetails omitted = expanded, else only "true" expands',
        security,
        querystring: DatamartListQuery,
        response: responses(DatamartList),
      },
    },
    async (request) => {
      const { isPagination, pageNumber, expandDetails } = request.query
      const expand = expandDetails === undefined || expandDetails === 'true'
      return { data: await service.list(org(request), { page: pageOf(isPagination, pageNumber), expand }), error: null }
    },
  )
  app.post(
    '/api/v2/dataApp/datamart/list',
    {
      schema: {
        tags,
        summary: 'List datamarts (legacy, typed body)',
        deprecated: true,
        security,
        body: DatamartListBody,
        response: responses(DatamartList),
      },
    },
    async (request) => {
      const { isPagination, pageNumber, expandDetails } = request.body ?? {}
      const expand = expandDetails !== false
      return { data: await service.list(org(request), { page: pageOf(isPagination, pageNumber), expand }), error: null }
    },
  )
}

export default datamarts
