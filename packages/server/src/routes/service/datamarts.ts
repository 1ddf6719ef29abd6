import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
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
import { docs } from './datamarts.docs.js'

/** Datamarts (the semantic model over a datasource); service token. Legacy paths included. */
const datamarts: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.datamarts
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  for (const [url, doc] of [
    ['/api/v2/data-app/datamarts', docs.createDatamart],
    ['/api/v2/dataApp/datamart/create', docs.createDatamartLegacy],
  ] as const) {
    app.post(
      url,
      { schema: { ...doc, body: CreateDatamartBody, response: { 200: DatamartIdResponse } } },
      async (request) => {
        const { name, datasourceName, ...input } = request.body
        return { id: await service.create(org(request), name, datasourceName, input), error: null }
      },
    )
  }
  app.put(
    '/api/v2/data-app/datamarts',
    {
      schema: { ...docs.updateDatamart, body: UpdateDatamartBody, response: { 200: DatamartIdResponse } },
    },
    async (request) => {
      const { datamartName, ...input } = request.body
      return { id: await service.update(org(request), datamartName, input), error: null }
    },
  )
  app.delete(
    '/api/v2/data-app/datamart',
    {
      schema: { ...docs.deleteDatamart, querystring: DeleteDatamartQuery, response: { 200: DatamartIdResponse } },
    },
    async (request) => ({ id: await service.delete(org(request), request.query.datamartName), error: null }),
  )
  app.post(
    '/api/v2/dataApp/datamart/delete',
    {
      schema: { ...docs.deleteDatamartLegacy, body: DeleteDatamartBody, response: { 200: DatamartIdResponse } },
    },
    async (request) => ({ id: await service.delete(org(request), request.body.datamartName), error: null }),
  )
  app.get(
    '/api/v2/data-app/datamarts',
    {
      schema: { ...docs.listDatamarts, querystring: DatamartListQuery, response: { 200: DatamartList } },
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
      schema: { ...docs.listDatamartsLegacy, body: DatamartListBody, response: { 200: DatamartList } },
    },
    async (request) => {
      const { isPagination, pageNumber, expandDetails } = request.body ?? {}
      const expand = expandDetails !== false
      return { data: await service.list(org(request), { page: pageOf(isPagination, pageNumber), expand }), error: null }
    },
  )
}

export default datamarts
