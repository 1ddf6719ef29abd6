import { Type } from '@fastify/type-provider-typebox'

const Id = Type.String({ minLength: 1, maxLength: 500 })
const Filters = Type.Record(Type.String({ minLength: 1, maxLength: 500 }), Type.Unknown(), {
  description: 'filter name or label (case-insensitive) → value in one of the spec forms',
})

export const MetricQueryBody = Type.Object(
  {
    embedId: Id,
    metricId: Id,
    clientId: Id,
    dashboardFilter: Type.Optional(Filters),
    metricFilter: Type.Optional(Filters),
    datasourceName: Type.Optional(Id),
    dataMartName: Type.Optional(Id),
    pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'ours: pages of 100 rows' })),
  },
  { additionalProperties: false },
)

export const RuntimeQueryBody = Type.Object(
  {
    metricId: Id,
    dashboardFilter: Type.Optional(Filters),
    metricFilter: Type.Optional(Filters),
    pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
)

export const MetricQueryResult = Type.Object(
  {
    data: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    timeTaken: Type.Number({ description: 'milliseconds' }),
    comparisonValue: Type.Optional(
      Type.Number({
        description:
          'metrics with a comparison: the first measure over the previous period of the first date range that applies, or, with none, as it stood at the end of the same day one month (previous-period) or one year (previous-year) ago; 0 over no rows',
      }),
    ),
    totalRecords: Type.Integer(),
    metaData: Type.Object({
      columns: Type.Array(Type.Object({ name: Type.String(), dataType: Type.String() })),
      groupbyColumnList: Type.Array(Type.String()),
    }),
    metricid: Type.String(),
    error: Type.Null(),
  },
  {
    description:
      'The metric result. When its rows were cut at QUERY_ROW_LIMIT the answer carries the header `Strata-Truncated: true` (the body is unchanged).',
  },
)
