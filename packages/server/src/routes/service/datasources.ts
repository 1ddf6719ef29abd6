import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import {
  DatasourceSettingsResponseSchema,
  DatasourceTablesResponseSchema,
  DatasourceTypesResponseSchema,
} from '@strata/contract/studio'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { DatasourceBody } from '../../connectors/credentials/validate.js'
import { DatasourceCreateRequest, DatasourceUpdateRequest } from '../../schemas/datasource-request.js'
import {
  DatasourceList,
  DatasourceResponse,
  DeleteDatasourceQuery,
  DeletedResponse,
  ListQuery,
  MessageResponse,
  SyncBody,
  TablesQuery,
} from '../../schemas/datasources.js'
import { documentedAs } from '../../schemas/openapi.js'
import { pageOf } from '../pagination.js'
import { docs } from './datasources.docs.js'

/** Create's and update's answer: the datasource, and its name at the top level too (as the hosted service's examples read it). */
const answer = <T extends { name: string }>(data: T) => ({ name: data.name, data, error: null })

/** Datasources: create, update (omitted secrets kept), sync, list, types, tables, stored settings, delete; service token. */
const datasources: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.datasources
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/datasource',
    {
      // the credentials of the type are checked by the service, which words the errors
      config: documentedAs({ body: DatasourceCreateRequest }),
      schema: { ...docs.createDatasource, body: DatasourceBody, response: { 200: DatasourceResponse } },
    },
    async (request) => answer(await service.create(org(request), request.body)),
  )
  app.put(
    '/api/v2/datasource',
    {
      config: documentedAs({ body: DatasourceUpdateRequest }),
      schema: { ...docs.updateDatasource, body: DatasourceBody, response: { 200: DatasourceResponse } },
    },
    async (request) => answer(await service.update(org(request), request.body)),
  )
  app.post(
    '/api/v2/datasource/sync',
    {
      schema: { ...docs.syncDatasource, body: SyncBody, response: { 200: MessageResponse } },
    },
    async (request) => ({ data: await service.sync(org(request), request.body.input.datasourceId) }),
  )
  app.get(
    '/api/v2/datasource',
    {
      schema: { ...docs.listDatasources, querystring: ListQuery, response: { 200: DatasourceList } },
    },
    async (request) => ({
      data: await service.list(org(request), pageOf(request.query.isPagination, request.query.pageNumber)),
    }),
  )
  app.get(
    '/api/v2/datasource/types',
    { schema: { ...docs.listDatasourceTypes, response: { 200: DatasourceTypesResponseSchema } } },
    async () => ({ data: service.credentialForms() }),
  )
  app.get(
    '/api/v2/datasource/tables',
    {
      schema: {
        ...docs.listDatasourceTables,
        querystring: TablesQuery,
        response: { 200: DatasourceTablesResponseSchema },
      },
    },
    async (request) => ({ data: await service.tables(org(request), request.query.name), error: null }),
  )
  app.get(
    '/api/v2/datasource/credentials',
    {
      schema: {
        ...docs.datasourceSettings,
        querystring: TablesQuery,
        response: { 200: DatasourceSettingsResponseSchema },
      },
    },
    async (request) => ({ data: await service.settings(org(request), request.query.name), error: null }),
  )
  app.delete(
    '/api/v2/datasource',
    {
      schema: { ...docs.deleteDatasource, querystring: DeleteDatasourceQuery, response: { 200: DeletedResponse } },
    },
    async (request) => ({ ...(await service.delete(org(request), request.query.name)), error: null }),
  )
}

export default datasources
