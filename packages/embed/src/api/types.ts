/**
 * The shapes of the web component runtime API (docs/runtime-api.md): the server's schemas in
 * @strata/contract, imported as types only (the bundle carries no TypeBox). What is here besides
 * is the client's own: the `truncated` flag read from a header, the page size.
 */
import type {
  Aggregate,
  Chart,
  ChartType,
  ColumnFormat,
  Comparison,
  ComparisonPeriod,
  Drill,
  DrillFilter,
  DrillGrain,
  EffectivePermissions,
  EndUserMetricDefinition,
  FilterType,
  LayoutItem,
  MetricQuery,
  MetricQueryResult,
  NumberStyle,
  Operator,
  RuntimeEmbed,
  RuntimeFilter,
  RuntimeMetric,
  RuntimeQuery,
  RuntimeView,
  SelfServeModel,
  TimeGrain,
} from '@strata/contract'

/** The load (with its self-serve additions: archivedMetrics, views, privateMetrics …). */
export type {
  Aggregate,
  ChartType,
  ColumnFormat,
  Comparison,
  ComparisonPeriod,
  Drill,
  DrillFilter,
  DrillGrain,
  FilterType,
  LayoutItem,
  MetricQuery,
  NumberStyle,
  Operator,
  RuntimeEmbed,
  RuntimeFilter,
  RuntimeMetric,
  TimeGrain,
}

/** The visible model an end user builds on (`GET …/model`). */
export type Model = SelfServeModel
export type ModelTable = Model['tables'][number]
export type ModelColumn = ModelTable['columns'][number]

/** A metric's chart: type, x (the dimension column), y (the measure columns); other keys pass through to ECharts. */
export type ChartConfig = Chart

/** A metric as an end user defines it (never SQL): what the builder edits and sends. */
export type MetricDefinition = EndUserMetricDefinition

/** What the browser may do with this embed (the token's permissions AND the embed's settings). */
export type Permissions = EffectivePermissions

/** A saved dashboard view (GET/POST /views under the runtime path, docs/runtime-api.md#dashboard-views). */
export type SavedView = RuntimeView

export type Row = Readonly<Record<string, unknown>>

export type QueryResult = MetricQueryResult & {
  /** The server cut the rows at its row limit (its `Strata-Truncated` header; not in the body). */
  readonly truncated?: boolean
}

export type QueryRequest = RuntimeQuery

/** Rows per page of a `table` metric: the server pages by 100. */
export const PAGE_SIZE = 100
