import { type Static, Type } from 'typebox'
import { ComparisonSchema, LayoutItemSchema, MetricFormatsSchema, MetricSchema, QuerySchema } from './document.js'
import { GRID_COLUMNS, MAX_CARD_HEIGHT, MAX_LAYOUT_ITEMS } from './grid.js'

/**
 * The layout and views routes of the self-serve runtime API (docs/runtime-api.md#the-end-users-layout). The grid's
 * limits come from grid.ts; the rules a schema cannot say (x + w ≤ 12, each metric once, only
 * metrics the token sees) are the server's to check (services/self-serve/layout-grid.ts).
 */
const closed = { additionalProperties: false } as const

export const GridItem = Type.Object(
  {
    metricId: Type.String({ minLength: 1, maxLength: 200 }),
    x: Type.Integer({ minimum: 0, maximum: GRID_COLUMNS - 1, description: 'Column, 0–11' }),
    y: Type.Integer({ minimum: 0, maximum: 100_000, description: 'Row' }),
    w: Type.Integer({ minimum: 1, maximum: GRID_COLUMNS, description: 'Columns wide; x + w ≤ 12' }),
    h: Type.Integer({ minimum: 1, maximum: MAX_CARD_HEIGHT, description: 'Rows high' }),
  },
  closed,
)

/** At most 500 items, each metric at most once. */
export const GridLayout = Type.Array(GridItem, { maxItems: MAX_LAYOUT_ITEMS })

export const PutLayoutBody = Type.Object(
  { layout: GridLayout },
  {
    ...closed,
    examples: [
      {
        layout: [
          { metricId: 'revenue_by_country', x: 0, y: 0, w: 8, h: 5 },
          { metricId: 'revenue', x: 8, y: 0, w: 4, h: 5 },
        ],
      },
    ],
  },
)

/** What PUT and DELETE /layout answer: the layout the load now returns (with appended metrics). */
export const LayoutResponse = Type.Object({
  data: Type.Object({ layout: Type.Immutable(Type.Array(LayoutItemSchema)) }),
  error: Type.Null(),
})

/**
 * A view's filter values: dashboard filter name or label → value, in the end-user forms of docs/dashboard-document.md#filter-values-token-and-end-user
 * (the `{ sql, columnName }` form is for secret-key holders only).
 */
export const ViewFilterValue = Type.Union([
  Type.Boolean(),
  Type.Number(),
  Type.String({ maxLength: 1_000 }),
  Type.Array(Type.Union([Type.String({ maxLength: 1_000 }), Type.Number(), Type.Boolean()]), { maxItems: 1_000 }),
  Type.Object(
    {
      startDate: Type.Optional(Type.String({ maxLength: 64 })),
      endDate: Type.Optional(Type.String({ maxLength: 64 })),
    },
    closed,
  ),
  Type.Object({ min: Type.Optional(Type.Number()), max: Type.Optional(Type.Number()) }, closed),
])

export const ViewFilters = Type.Record(Type.String({ minLength: 1, maxLength: 200 }), ViewFilterValue, {
  maxProperties: 100,
  description: 'Dashboard filter name (or label) → value, as a runtime query’s dashboardFilter',
})

export const ViewName = Type.String({ minLength: 1, maxLength: 100 })

export const CreateViewBody = Type.Object(
  { name: ViewName, filters: ViewFilters, layout: Type.Optional(GridLayout) },
  {
    ...closed,
    examples: [
      {
        name: 'Germany, last quarter',
        filters: { country: ['DE'], period: 'Last quarter' },
        layout: [{ metricId: 'revenue_by_country', x: 0, y: 0, w: 12, h: 6 }],
      },
    ],
  },
)
export type CreateViewInput = Static<typeof CreateViewBody>

export const RuntimeView = Type.Object({
  viewId: Type.String(),
  name: Type.String(),
  filters: Type.Record(Type.String(), Type.Unknown()),
  layout: Type.Optional(Type.Immutable(Type.Array(LayoutItemSchema))),
})
/** A saved view as the browser gets it. */
export type RuntimeView = Static<typeof RuntimeView>

export const ViewsResponse = Type.Object({ data: Type.Immutable(Type.Array(RuntimeView)) })
export const CreatedViewResponse = Type.Object({ data: Type.Object({ viewId: Type.String(), name: Type.String() }) })
export const DeletedViewResponse = Type.Object({ data: Type.Object({ viewId: Type.String() }), error: Type.Null() })

/**
 * The self-serve runtime API's bodies and answers (docs/runtime-api.md#self-serve-metrics). An end user sends only a
 * structured metric definition: the document's metric minus metricId, sql, rls, filters, comparison
 * and createdBy*; every object closed, so a `sql` field is a 400 naming it.
 */

const ColumnName = Type.String({ minLength: 1, maxLength: 63 })

/** What a definition may weigh, as JSON: well past any builder's, far short of a flood. */
export const DEFINITION_MAX_BYTES = 16 * 1024
/**
 * Metrics a tenant's end users may make on one dashboard (the tenant's copies of company
 * metrics are not counted: there is at most one per company metric), and private ones per user.
 */
export const MAX_TENANT_METRICS = 200
export const MAX_PRIVATE_METRICS = 50
/** A saved view (its filters and layout as JSON) is at most this many bytes. */
export const VIEW_MAX_BYTES = 32 * 1024

export const EndUserMetricDefinition = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    chart: Type.Object(
      {
        type: MetricSchema.properties.chart.properties.type,
        x: Type.Optional(ColumnName),
        y: Type.Optional(Type.Array(ColumnName, { maxItems: 20 })),
        // the options of the chart types with a shape (docs/dashboard-document.md#chart-types-with-a-shape)
        line: Type.Optional(ColumnName),
        seriesBy: Type.Optional(ColumnName),
        columns: Type.Optional(ColumnName),
        totals: Type.Optional(Type.Boolean()),
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
  description: 'filter name or label (case-insensitive) → value in one of the documented filter value forms',
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
    comparison: Type.Optional(
      Type.Object(ComparisonSchema.properties, {
        ...closed,
        description:
          "Run it with this comparison, as a metric of the document with one runs (the answer carries comparisonValue); never saved with an end user's metric",
      }),
    ),
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
