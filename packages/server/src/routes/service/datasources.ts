import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireServiceToken } from '../../auth/hooks.js'
import { DatasourceBody } from '../../connectors/credentials/validate.js'
import { responses } from '../../schemas/common.js'
import {
  DatasourceList,
  DatasourceResponse,
  DeleteDatasourceQuery,
  DeletedResponse,
  ListQuery,
  MessageResponse,
  SyncBody,
} from '../../schemas/datasources.js'
import { pageOf } from '../pagination.js'

const security = [{ serviceToken: [] }]
const tags = ['datasources']

/** Datasources: create, update (whole credentials), sync, list, delete; service token. */
const datasources: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.datasources
  requireServiceToken(app)
  const org = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'service').organizationId

  app.post(
    '/api/v2/datasource',
    {
      schema: {
        tags,
        summary: 'Create a datasource: validate the credentials, test the connection, cache the schema',
        security,
        body: DatasourceBody,
        response: responses(DatasourceResponse),
      },
    },
    async (request) => ({ data: await service.create(org(request), request.body), error: null }),
  )
  app.put(
    '/api/v2/datasource',
    {
      schema: {
        tags,
        summary: 'Update a datasource (complete credentials of the same type); tenancy settings merge',
        security,
        body: DatasourceBody,
        response: responses(DatasourceResponse),
      },
    },
    async (request) => ({ data: await service.update(org(request), request.body), error: null }),
  )
  app.post(
    '/api/v2/datasource/sync',
    {
      schema: {
        tags,
        summary: 'Refresh the cached schema of a datasource (id from create, or its name)',
        security,
        body: SyncBody,
        response: responses(MessageResponse),
      },
    },
    async (request) => ({ data: await service.sync(org(request), request.body.input.datasourceId) }),
  )
  app.get(
    '/api/v2/datasource',
    {
      schema: {
        tags,
        summary: 'List datasources',
        security,
        querystring: ListQuery,
        response: responses(DatasourceList),
      },
    },
    async (request) => ({
      data: await service.list(org(request), pageOf(request.query.isPagination, request.query.pageNumber)),
    }),
  )
  app.delete(
    '/api/v2/datasource',
    {
      schema: {
        tags,
        summary: 'Delete a datasource no datamart or workspace uses',
        description:
          'Refused (400 INVALID_REQUEST_BODY, naming them) while a datamart or a DATASOURCE workspace uses it; an unknown name is 400 INVALID_DATASOURCE_NAME.',
        security,
        querystring: DeleteDatasourceQuery,
        response: responses(DeletedResponse),
      },
    },
    async (request) => ({ ...(await service.delete(org(request), request.query.name)), error: null }),
  )
}

export default datasources
