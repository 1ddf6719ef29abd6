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

export const RuntimeQueryBody = Type.Object(
  {
    metricId: Id,
    dashboardFilter: Type.Optional(Filters),
    metricFilter: Type.Optional(Filters),
    pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  {
    additionalProperties: false,
    examples: [
      {
        metricId: 'revenue_by_country',
        dashboardFilter: { period: { startDate: '2026-01-01', endDate: '2026-03-31' } },
        metricFilter: { status: ['paid', 'shipped'] },
        pageNumber: 1,
      },
    ],
  },
)

export const MetricQueryResult = Type.Object(
  {
    data: Type.Immutable(Type.Array(Type.Record(Type.String(), Type.Unknown()))),
    timeTaken: Type.Number({ description: 'milliseconds' }),
    comparisonValue: Type.Optional(
      Type.Number({
        description:
          'metrics with a comparison: the first measure over the previous period of the first date range that applies, or, with none, as it stood at the end of the same day one month (previous-period) or one year (previous-year) ago; 0 over no rows',
      }),
    ),
    totalRecords: Type.Integer(),
    metaData: Type.Object({
      columns: Type.Immutable(Type.Array(Type.Object({ name: Type.String(), dataType: Type.String() }))),
      groupbyColumnList: Type.Immutable(Type.Array(Type.String())),
    }),
    metricid: Type.String(),
    error: Type.Null(),
  },
  {
    description:
      'The metric result. When its rows were cut at QUERY_ROW_LIMIT the answer carries the header `Strata-Truncated: true` (the body is unchanged).',
  },
)
