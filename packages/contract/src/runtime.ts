import { type Static, Type } from 'typebox'
import { AiAvailabilitySchema } from './ai.js'
import {
  AggregateSchema,
  type Chart,
  ChartSchema,
  ComparisonSchema,
  DashboardFilterSchema,
  LayoutItemSchema,
  MetricFormatsSchema,
  type TIME_GRAINS,
} from './document.js'
import { EndUserMetricDefinition, RuntimeView } from './self-serve.js'

/**
 * The web component runtime API (docs/runtime-api.md) under
 * `/api/v2/embed/runtime/:embedId`: the server validates and documents with these schemas, the
 * web component reads their `Static` types. Responses are open objects (the server may add
 * fields); request bodies are closed.
 */

/**
 * What the browser learns of a filter the token pins: that it is locked, and its value only where
 * it may show it (not a SQL-driven list's text, not a value marked isShowOnUrl: false).
 */
export const PinnedFilterSchema = Type.Object({
  locked: Type.Optional(Type.Literal(true, { description: 'The token fixes its value' })),
  pinned: Type.Optional(Type.Unknown({ description: 'The fixed value, when the token shows it' })),
  isShowOnUrl: Type.Optional(Type.Boolean()),
})

/** A dashboard filter as the browser sees it: the document's filter and what the token pins. */
export const RuntimeFilterSchema = Type.Object({
  ...DashboardFilterSchema.properties,
  ...PinnedFilterSchema.properties,
})

/**
 * A metric as the browser sees it: its chart, its columns' number formats, and the time grain of
 * each grained dimension (for axis labels).
 */
export const RuntimeMetricSchema = Type.Object({
  metricId: Type.String(),
  name: Type.String(),
  chart: ChartSchema,
  formats: Type.Optional(MetricFormatsSchema),
  timeGrains: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: 'Dimension name → its timeGrain (hour, day, week, month, quarter, year), for axis labels',
    }),
  ),
  aggregates: Type.Optional(
    Type.Record(Type.String(), AggregateSchema, {
      description: "A pivot table's measure name → its aggregate, so its totals add up only what adds up",
    }),
  ),
  /** The metric's comparison, as its document has it: its results carry comparisonValue. */
  comparison: Type.Optional(ComparisonSchema),
  origin: Type.Union([Type.Literal('company'), Type.Literal('tenant')], {
    description:
      "company: authored in the dashboard (this tenant's own version of one included); tenant: made by an end user",
  }),
  isPublished: Type.Boolean(),
  visibility: Type.Union([Type.Literal('shared'), Type.Literal('private')]),
  createdByUser: Type.Union([Type.String(), Type.Null()]),
  definition: Type.Optional(EndUserMetricDefinition),
  tenantVersion: Type.Optional(
    Type.Literal(true, {
      description:
        "A company metric shown in this tenant's own version (copy on write); DELETE …/metrics/:metricId/override resets it to the company's",
    }),
  ),
  unfiltered: Type.Optional(
    Type.Array(Type.String(), {
      description:
        "Names of the dashboard filters this metric does not take: a structured metric's table cannot reach the filter's column, a SQL metric does not declare it. A client marks the card while one of them is active",
    }),
  ),
  drillColumns: Type.Optional(
    Type.Record(Type.String(), Type.Object({ table: Type.String(), column: Type.String() }), {
      description:
        'Dimension name → the visible model column it reads, for drill-down (only with the end-user dashboard filter permission; never a tenant or hidden column)',
    }),
  ),
  drillTables: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'The visible tables a drill-down filter narrows this metric by (its table and those its relationships reach; none for a SQL metric), so a client marks a card that a drill chip does not filter (only with the end-user dashboard filter permission)',
    }),
  ),
  companyVersionChanged: Type.Optional(
    Type.Literal(true, {
      description:
        "The company has changed this metric since this tenant's version of it was made: offer the company's new version (reset the override)",
    }),
  ),
})

/**
 * What the browser may do with this embed (docs/guest-tokens.md#permissions): the embed's setting AND the token's
 * flag, an omitted token flag inheriting the embed's setting (download has no embed setting).
 */
export const EffectivePermissionsSchema = Type.Object(
  {
    download: Type.Boolean(),
    underlyingData: Type.Boolean(),
    endUserDashboardFilter: Type.Boolean(),
    showSideBar: Type.Boolean(),
    showDashboardName: Type.Boolean(),
    /** Create metrics (with the builder, or the chat: `metricCreationMode`). */
    metricCreation: Type.Boolean(),
    metricCreationMode: Type.Union([Type.Literal('DRAG_DROP'), Type.Literal('CHAT')]),
    metricUpdate: Type.Boolean(),
    metricDeletion: Type.Boolean(),
    manageMetrics: Type.Boolean({ description: 'Hide, publish and restore metrics' }),
    archiveMetrics: Type.Boolean(),
    customizeLayout: Type.Boolean(),
    dashboardViews: Type.Boolean(),
    emailReports: Type.Boolean(),
    aiPilot: Type.Boolean(),
  },
  { description: "What the browser may do with this embed: the token's permissions AND the embed's settings" },
)

/** GET /:embedId: the embed, its dashboard's filters and layout, the metrics the token may see. */
export const RuntimeEmbedSchema = Type.Object({
  embedId: Type.String(),
  embedType: Type.Union([Type.Literal('dashboard'), Type.Literal('metric')]),
  name: Type.String(),
  dashboard: Type.Object({
    dashboardId: Type.String(),
    name: Type.String(),
    filters: Type.Immutable(Type.Array(RuntimeFilterSchema)),
    layout: Type.Immutable(Type.Array(LayoutItemSchema)),
    customLayout: Type.Boolean({ description: 'A saved layout (the tenant’s or the user’s) is in effect' }),
  }),
  metrics: Type.Immutable(Type.Array(RuntimeMetricSchema)),
  privateMetrics: Type.Object(
    {
      available: Type.Boolean({ description: 'The token has a userIdentifier: a new metric may be private' }),
      byDefault: Type.Boolean({
        description: "A new metric is private unless sent shared (the dashboard's isAllowPrivateMetricsByDefault)",
      }),
    },
    { description: 'What the builder offers for who sees a new metric' },
  ),
  archivedMetrics: Type.Immutable(
    Type.Array(Type.Object({ metricId: Type.String(), name: Type.String() }), {
      description: 'Archived for or by this tenant, to restore from',
    }),
  ),
  hiddenMetrics: Type.Immutable(
    Type.Array(Type.Object({ metricId: Type.String(), name: Type.String() }), {
      description:
        'Company metrics this tenant hid (DELETE …/metrics/:metricId), to restore with POST …/metrics/:metricId/restore; [] without the manageMetrics permission',
    }),
  ),
  views: Type.Immutable(
    Type.Array(RuntimeView, { description: "The token's saved views ([] without the views permission)" }),
  ),
  permissions: EffectivePermissionsSchema,
  ai: AiAvailabilitySchema,
  reports: Type.Object(
    {
      available: Type.Boolean({
        description:
          'Email reports can work: the emailReports permission AND SMTP_URL/EMAIL_FROM configured on the server (the report routes answer 400 EMAIL_NOT_CONFIGURED otherwise)',
      }),
      recipients: Type.Array(Type.String(), {
        maxItems: 100,
        description:
          "Who reports may go to, lower-cased: addresses, and @domain entries (every address of exactly that domain): the token's params.reportRecipients, else its userIdentifier when it is an e-mail address; [] when reports are not available or the token allows no one",
      }),
    },
    { description: 'Whether the web component shows its report controls (docs/web-component.md)' },
  ),
  timezone: Type.String({ description: "The token's params.timezone (UTC when absent): reports are scheduled in it" }),
})

const Id = Type.String({ minLength: 1, maxLength: 500 })

/** Filter values by filter name or label (dashboardFilter, metricFilter). */
export const FilterValuesSchema = Type.Record(Type.String({ minLength: 1, maxLength: 500 }), Type.Unknown(), {
  description: 'filter name or label (case-insensitive) → value in one of the documented filter value forms',
})

/** A day, `YYYY-MM-DD`. */
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 })

/**
 * One drill-down value (docs/runtime-api.md#drill-down): a column of the visible model equal to a
 * value, or within a range of days. ANDed with everything else, so it only narrows.
 */
export const DrillFilterSchema = Type.Object(
  {
    table: Type.String({
      minLength: 1,
      maxLength: 500,
      description: "A table of the visible model, as the load's drill columns name it",
    }),
    column: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'A visible column of that table (never a tenant or hidden column)',
    }),
    value: Type.Union([
      Type.String({ maxLength: 500 }),
      Type.Number(),
      Type.Boolean(),
      Type.Object({ startDate: Day, endDate: Day }, { additionalProperties: false }),
    ]),
  },
  { additionalProperties: false },
)

/** The time grains a drill may show a date dimension at. */
export const DRILL_GRAINS = [
  'year',
  'quarter',
  'month',
  'week',
  'day',
] as const satisfies readonly (typeof TIME_GRAINS)[number][]

/** What the end user drilled into: values that filter the card, and a date dimension's grain on it. */
export const DrillSchema = Type.Object(
  {
    filters: Type.Optional(Type.Array(DrillFilterSchema, { maxItems: 10 })),
    timeGrain: Type.Optional(
      Type.Object(
        {
          dimension: Type.String({
            minLength: 1,
            maxLength: 500,
            description: 'A time-grained dimension of the metric',
          }),
          grain: Type.Union([
            Type.Literal('year'),
            Type.Literal('quarter'),
            Type.Literal('month'),
            Type.Literal('week'),
            Type.Literal('day'),
          ]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Drill-down (needs the end-user dashboard filter permission): filters on visible model columns, ANDed with every other filter, and a time-grained dimension shown at another grain',
  },
)

/** POST /:embedId/query (and, with a sort, /:embedId/underlying). */
export const RuntimeQueryBodySchema = Type.Object(
  {
    metricId: Id,
    dashboardFilter: Type.Optional(FilterValuesSchema),
    metricFilter: Type.Optional(FilterValuesSchema),
    pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    drill: Type.Optional(DrillSchema),
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

/** The underlying rows' order: one visible column of the metric's table, across every page. */
export const UnderlyingSortSchema = Type.Object(
  {
    column: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "A column of the metric's table the rows show (never a tenant or hidden column)",
    }),
    direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
  },
  { additionalProperties: false },
)

/** POST /:embedId/underlying: the runtime query, and the order of the rows. */
export const UnderlyingQueryBodySchema = Type.Object(
  {
    ...RuntimeQueryBodySchema.properties,
    sort: Type.Optional(UnderlyingSortSchema),
  },
  {
    additionalProperties: false,
    examples: [
      {
        metricId: 'revenue_by_country',
        dashboardFilter: { period: { startDate: '2026-01-01', endDate: '2026-03-31' } },
        pageNumber: 2,
        sort: { column: 'amount', direction: 'desc' },
      },
    ],
  },
)

/** The metric query result of docs/runtime-api.md#the-metric-query-result (the runtime query, underlying data, and the data app query API). */
export const MetricQueryResultSchema = Type.Object(
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
    servedFrom: Type.Union([Type.Literal('cache'), Type.Literal('rollup'), Type.Literal('warehouse')], {
      description:
        'Where the rows came from: the result cache, a rollup of the dashboard (docs/rollups.md), or the warehouse',
    }),
  },
  {
    description:
      'The metric result. When its rows were cut at QUERY_ROW_LIMIT the answer carries the header `Strata-Truncated: true` (the body is unchanged).',
  },
)

/** GET /:embedId/filters/:name/values and its builder twin /:embedId/model/columns/:table/:column/values. */
export const ColumnValuesQuerySchema = Type.Object(
  {
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'Only values that contain this text, case-insensitively' }),
    ),
    cursor: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,2}$',
        description: 'The nextCursor of the previous page; the first page without one',
      }),
    ),
  },
  { additionalProperties: false },
)

/** A page of a column's distinct values for the token's tenant, sorted ascending. */
export const ColumnValuesResultSchema = Type.Object({
  data: Type.Object({
    values: Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
      description: 'At most 100 distinct non-null values, ascending',
    }),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as cursor for the next page; null on the last page',
    }),
  }),
  error: Type.Null(),
})

export type PinnedFilter = Static<typeof PinnedFilterSchema>
export type RuntimeFilter = Static<typeof RuntimeFilterSchema>
/** The chart's pass-through options typed as the schema allows them (see `Chart`). */
export type RuntimeMetric = Omit<Static<typeof RuntimeMetricSchema>, 'chart'> & { chart: Chart }
export type EffectivePermissions = Static<typeof EffectivePermissionsSchema>
export type RuntimeEmbed = Static<typeof RuntimeEmbedSchema>
export type FilterValues = Static<typeof FilterValuesSchema>
export type RuntimeQuery = Static<typeof RuntimeQueryBodySchema>
export type UnderlyingSort = Static<typeof UnderlyingSortSchema>
export type UnderlyingQuery = Static<typeof UnderlyingQueryBodySchema>
export type DrillFilter = Static<typeof DrillFilterSchema>
export type Drill = Static<typeof DrillSchema>
export type DrillGrain = (typeof DRILL_GRAINS)[number]
export type MetricQueryResult = Static<typeof MetricQueryResultSchema>
export type ColumnValuesQuery = Static<typeof ColumnValuesQuerySchema>
export type ColumnValuesResult = Static<typeof ColumnValuesResultSchema>

/** A capability of docs/guest-tokens.md#permissions, by its EffectivePermissions key (the boolean ones). */
export type Capability = {
  [K in keyof EffectivePermissions]: EffectivePermissions[K] extends boolean ? K : never
}[keyof EffectivePermissions]
