import { type Static, type TLiteral, type TUnion, Type } from 'typebox'
import { RollupsSchema } from './rollups.js'
import { worded } from './wording.js'

/**
 * The dashboard document (docs/dashboard-document.md): what export writes and
 * import reads. Objects are closed (additionalProperties: false) except `chart`, so a misspelt
 * `rls` or `where` is an error rather than a silently dropped restriction.
 */

const closed = { additionalProperties: false } as const
const Name = Type.String({ minLength: 1, maxLength: 200 })
/** Output column names: Postgres truncates identifiers beyond 63 bytes. */
const ColumnName = Type.String({ minLength: 1, maxLength: 63 })
const Identifier = Type.String({ minLength: 1, maxLength: 256 })
const TablePath = Type.String({
  minLength: 1,
  maxLength: 512,
  description: '`schema.table`, or `table` when unambiguous',
})
const literals = <const T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v)) as unknown as { -readonly [K in keyof T]: TLiteral<T[K]> }) as TUnion<{
    -readonly [K in keyof T]: TLiteral<T[K]>
  }>

export const CHART_TYPES = [
  'line',
  'bar',
  'stacked-bar',
  'area',
  'pie',
  'doughnut',
  'table',
  'single-value',
  'combo',
  'scatter',
  'funnel',
  'pivot',
  'trend',
] as const
export const AGGREGATES = ['sum', 'count', 'count-distinct', 'avg', 'min', 'max'] as const
export const TIME_GRAINS = ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const
export const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'not-in',
  'between',
  'is-null',
  'is-not-null',
  'contains',
] as const
export const FILTER_TYPES = ['multi-select', 'single-select', 'date-range', 'number-range', 'boolean', 'text'] as const
/** How a column's values read: quantities (number, currency, percent) or as written (id, text: no separators). */
export const NUMBER_STYLES = ['number', 'currency', 'percent', 'id', 'text'] as const
/** What a metric's first measure is compared with (its `comparison.period`). */
export const COMPARISON_PERIODS = ['previous-period', 'previous-year'] as const

export type ChartType = (typeof CHART_TYPES)[number]
export type Operator = (typeof OPERATORS)[number]
export type FilterType = (typeof FILTER_TYPES)[number]
export type NumberStyle = (typeof NUMBER_STYLES)[number]
export type ComparisonPeriod = (typeof COMPARISON_PERIODS)[number]
export type TimeGrain = (typeof TIME_GRAINS)[number]
export type Aggregate = (typeof AGGREGATES)[number]

const Scalar = Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean(), Type.Null()])

export const DashboardFilterSchema = Type.Object(
  {
    name: Identifier,
    label: Type.Optional(Name),
    type: literals(FILTER_TYPES),
    table: TablePath,
    column: Identifier,
    /** Applied when neither the token nor the end user gives a value. */
    default: Type.Optional(Type.Unknown()),
  },
  closed,
)

export const MetricFilterSchema = Type.Object(
  {
    name: Identifier,
    label: Type.Optional(Name),
    type: literals(FILTER_TYPES),
    column: Identifier,
    /** Default: the query's `from`. */
    table: Type.Optional(TablePath),
  },
  closed,
)

export const AggregateSchema = literals(AGGREGATES)

export const MeasureSchema = Type.Object(
  {
    name: ColumnName,
    aggregate: AggregateSchema,
    column: Type.Optional(Identifier),
    table: Type.Optional(TablePath),
  },
  closed,
)

export const DimensionSchema = Type.Object(
  {
    name: ColumnName,
    column: Identifier,
    table: Type.Optional(TablePath),
    timeGrain: Type.Optional(literals(TIME_GRAINS)),
  },
  closed,
)

export const ConditionSchema = Type.Object(
  {
    column: Identifier,
    table: Type.Optional(TablePath),
    operator: literals(OPERATORS),
    values: Type.Optional(Type.Array(Scalar, { maxItems: 1000 })),
  },
  closed,
)

export const QuerySchema = Type.Object(
  {
    from: TablePath,
    measures: Type.Optional(Type.Array(MeasureSchema, { maxItems: 100 })),
    dimensions: Type.Optional(Type.Array(DimensionSchema, { maxItems: 100 })),
    where: Type.Optional(Type.Array(ConditionSchema, { maxItems: 100 })),
    orderBy: Type.Optional(
      Type.Array(Type.Object({ name: ColumnName, direction: literals(['asc', 'desc'] as const) }, closed), {
        maxItems: 100,
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  closed,
)

/**
 * How the element shows one output column's values (docs/dashboard-document.md, "Number formats"):
 * `id` and `text` draw a value as written (48318, never "48,318"). `currency` is required with
 * style currency and refused with the others (checked where a format is read).
 */
export const ColumnFormatSchema = Type.Object(
  {
    style: literals(NUMBER_STYLES),
    currency: Type.Optional(
      Type.String({
        pattern: worded('^[A-Z]{3}$', 'a three-letter ISO 4217 code (USD, EUR, JPY)'),
        description: 'ISO 4217 code (USD, EUR, …); only with style currency',
      }),
    ),
    decimals: Type.Optional(Type.Integer({ minimum: 0, maximum: 6 })),
    compact: Type.Optional(Type.Boolean({ description: '1.2K, 3.4M' })),
  },
  { ...closed, description: 'percent: the value is a fraction (0.25 is 25%)' },
)

/** Output column name (a measure or dimension of a query metric, a column of a SQL metric) → its format. */
export const MetricFormatsSchema = Type.Record(ColumnName, ColumnFormatSchema, { maxProperties: 100 })

/** A metric's comparison: the result's `comparisonValue`, the first measure over that period. */
export const ComparisonSchema = Type.Object({ period: literals(COMPARISON_PERIODS) }, closed)

/** A metric's chart: its type, the dimension (x) and the measures (y); other options pass through. */
export const ChartSchema = Type.Object(
  {
    type: literals(CHART_TYPES),
    x: Type.Optional(ColumnName),
    y: Type.Optional(Type.Array(ColumnName, { maxItems: 100 })),
  },
  { additionalProperties: true, description: 'Presentation options beyond type/x/y pass through untouched' },
)

export const MetricSchema = Type.Object(
  {
    metricId: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' }),
    name: Name,
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    chart: ChartSchema,
    formats: Type.Optional(MetricFormatsSchema),
    query: Type.Optional(QuerySchema),
    sql: Type.Optional(Type.String({ minLength: 1, maxLength: 100_000 })),
    filters: Type.Optional(Type.Array(MetricFilterSchema, { maxItems: 100 })),
    dashboardFilters: Type.Optional(
      Type.Array(Identifier, {
        maxItems: 100,
        uniqueItems: true,
        description:
          'SQL metrics: the dashboard filters (by name) the metric takes; each applies to the table it names wherever the SQL reads that table',
      }),
    ),
    rls: Type.Optional(
      Type.Array(Type.Object({ variable: Identifier, column: Identifier, table: Type.Optional(TablePath) }, closed), {
        maxItems: 100,
      }),
    ),
    comparison: Type.Optional(ComparisonSchema),
    isPublished: Type.Optional(Type.Boolean()),
    createdByUser: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    /** The clientId (tenant) that created the metric from an embed: visible only to that client. */
    createdByClient: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
    visibility: Type.Optional(literals(['shared', 'private'] as const)),
  },
  closed,
)

export const LayoutItemSchema = Type.Object(
  {
    metricId: Type.String({ minLength: 1, maxLength: 100 }),
    x: Type.Integer({ minimum: 0 }),
    y: Type.Integer({ minimum: 0 }),
    w: Type.Integer({ minimum: 1 }),
    h: Type.Integer({ minimum: 1 }),
  },
  closed,
)

export const DashboardDocumentSchema = Type.Object(
  {
    name: Name,
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    filters: Type.Optional(Type.Array(DashboardFilterSchema, { maxItems: 100 })),
    layout: Type.Optional(Type.Array(LayoutItemSchema, { maxItems: 500 })),
    metrics: Type.Array(MetricSchema, { maxItems: 500 }),
    /** Metrics end users create are private by default when their token has a userIdentifier (docs/runtime-api.md#create). */
    isAllowPrivateMetricsByDefault: Type.Optional(Type.Boolean()),
    /** Pre-aggregations built from the warehouse (docs/rollups.md), or "auto". */
    rollups: Type.Optional(RollupsSchema),
  },
  { ...closed, $id: 'DashboardDocument' },
)

export type DashboardFilter = Static<typeof DashboardFilterSchema>
export type MetricFilter = Static<typeof MetricFilterSchema>
export type Measure = Static<typeof MeasureSchema>
export type Dimension = Static<typeof DimensionSchema>
export type Condition = Static<typeof ConditionSchema>
export type MetricQuery = Static<typeof QuerySchema>
export type ColumnFormat = Static<typeof ColumnFormatSchema>
export type Comparison = Static<typeof ComparisonSchema>
export type MetricFormats = Static<typeof MetricFormatsSchema>
/** A chart as read: `additionalProperties: true` in the schema is the index signature here. */
export type Chart = Static<typeof ChartSchema> & { readonly [option: string]: unknown }
export type Metric = Static<typeof MetricSchema>
export type LayoutItem = Static<typeof LayoutItemSchema>
export type DashboardDocument = Static<typeof DashboardDocumentSchema>
