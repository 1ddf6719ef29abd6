import { Type } from '@fastify/type-provider-typebox'
import { FilterValuesSchema } from '@strata/contract/runtime'

const Id = Type.String({ minLength: 1, maxLength: 500 })
const Filters = FilterValuesSchema

export const MetricQueryBody = Type.Object(
  {
    embedId: Id,
    metricId: Id,
    clientId: Id,
    dashboardFilter: Type.Optional(Filters),
    metricFilter: Type.Optional(Filters),
    datasourceName: Type.Optional(Id),
    dataMartName: Type.Optional(Id),
    pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Pages of 100 rows' })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        embedId: 'emb_1f2e3d4c5b6a7988',
        metricId: 'revenue_by_country',
        clientId: 'acme',
        dashboardFilter: { Country: ['DE', 'FR'], period: 'Last 90 days' },
        metricFilter: { status: ['paid'] },
        pageNumber: 1,
      },
    ],
  },
)

// The metric query result is the web component's contract too (the runtime API answers it).
export { MetricQueryResultSchema as MetricQueryResult } from '@strata/contract/runtime'
