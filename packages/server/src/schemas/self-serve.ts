import { type Static, Type } from '@fastify/type-provider-typebox'
import { MetricFormatsSchema, MetricSchema, QuerySchema } from '../query/document-schema.js'

/**
 * The self-serve runtime API's bodies and answers (DESIGN.md §2.8). An end user sends only a
 * structured metric definition: the §2.2 metric minus metricId, sql, rls, filters, comparison
 * and createdBy*; every object closed, so a `sql` field is a 400 naming it.
 */

const closed = { additionalProperties: false } as const
const ColumnName = Type.String({ minLength: 1, maxLength: 63 })

/** What a definition may weigh, as JSON: well past any builder's, far short of a flood. */
export const DEFINITION_MAX_BYTES = 16 * 1024

export const EndUserMetricDefinition = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    chart: Type.Object(
      {
        type: MetricSchema.properties.chart.properties.type,
        x: Type.Optional(ColumnName),
        y: Type.Optional(Type.Array(ColumnName, { maxItems: 20 })),
      },
      closed,
    ),
    query: QuerySchema,
    formats: Type.Optional(MetricFormatsSchema),
  },
  {
    ...closed,
    description: `A metric as an end user defines it (never SQL); at most ${DEFINITION_MAX_BYTES} bytes as JSON`,
  },
)
export type EndUserMetricDefinition = Static<typeof EndUserMetricDefinition>

const Filters = Type.Record(Type.String({ minLength: 1, maxLength: 500 }), Type.Unknown(), {
  description: 'filter name or label (case-insensitive) → value in one of the spec forms',
})

const EXAMPLE_METRIC = {
  name: 'Orders by status',
  chart: { type: 'bar', x: 'status', y: ['orders'] },
  query: {
    from: 'public.orders',
    measures: [{ name: 'orders', aggregate: 'count' }],
    dimensions: [{ name: 'status', column: 'status' }],
    orderBy: [{ name: 'orders', direction: 'desc' }],
    limit: 100,
  },
}

export const PreviewBody = Type.Object(
  {
    metric: EndUserMetricDefinition,
    dashboardFilter: Type.Optional(Filters),
    metricFilter: Type.Optional(Filters),
  },
  { ...closed, examples: [{ metric: EXAMPLE_METRIC, dashboardFilter: { period: 'Last 90 days' } }] },
)

export const CreateMetricBody = Type.Object(
  {
    metric: EndUserMetricDefinition,
    visibility: Type.Optional(
      Type.Union([Type.Literal('shared'), Type.Literal('private')], {
        description:
          "private: only the token's userIdentifier sees it (needs one). Default: private when the token has a userIdentifier and the dashboard isAllowPrivateMetricsByDefault, else shared",
      }),
    ),
  },
  { ...closed, examples: [{ metric: EXAMPLE_METRIC, visibility: 'private' }] },
)

export const UpdateMetricBody = Type.Object(
  { metric: EndUserMetricDefinition },
  { ...closed, examples: [{ metric: EXAMPLE_METRIC }] },
)

export const MetricIdParams = Type.Object({
  embedId: Type.String({ minLength: 1, maxLength: 200 }),
  metricId: Type.String({ minLength: 1, maxLength: 200 }),
})

export const MetricIdResult = Type.Object({ data: Type.Object({ metricId: Type.String() }), error: Type.Null() })

export const SelfServeModel = Type.Object({
  data: Type.Object({
    tables: Type.Array(
      Type.Object({
        name: Type.String({ description: 'schema.table, as a definition names it' }),
        label: Type.String(),
        columns: Type.Array(Type.Object({ name: Type.String(), label: Type.String(), dataType: Type.String() })),
      }),
    ),
    relationships: Type.Array(
      Type.Object({
        parentTable: Type.String(),
        parentColumn: Type.String(),
        childTable: Type.String(),
        childColumn: Type.String(),
      }),
    ),
  }),
})
export type SelfServeModel = Static<typeof SelfServeModel>['data']
