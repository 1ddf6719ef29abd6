import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { ColumnValuesQuerySchema, ColumnValuesResultSchema } from '@strata/contract/runtime'
import { principalOf } from '../../auth/hooks.js'
import { docs } from './filter-values.docs.js'

const Name = Type.String({ minLength: 1, maxLength: 200 })
const FilterParams = Type.Object({ embedId: Name, name: Name })
const ColumnParams = Type.Object({ embedId: Name, table: Name, column: Name })

/**
 * Value pickers (docs/runtime-api.md#filter-values), registered inside the runtime's guest-token
 * context (runtime.ts): a dashboard filter's values, and the builder's twin on a model column.
 */
const filterValues: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.filterValues
  const claims = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'guest').claims

  app.get(
    '/:embedId/filters/:name/values',
    {
      schema: {
        ...docs.getFilterValues,
        params: FilterParams,
        querystring: ColumnValuesQuerySchema,
        response: { 200: ColumnValuesResultSchema },
      },
    },
    async (request) => {
      const { embedId, name } = request.params
      return service.ofFilter(claims(request), embedId, name, request.query)
    },
  )
  app.get(
    '/:embedId/model/columns/:table/:column/values',
    {
      schema: {
        ...docs.getModelColumnValues,
        params: ColumnParams,
        querystring: ColumnValuesQuerySchema,
        response: { 200: ColumnValuesResultSchema },
      },
    },
    async (request) => {
      const { embedId, table, column } = request.params
      return service.ofColumn(claims(request), embedId, table, column, request.query)
    },
  )
}

export default filterValues
