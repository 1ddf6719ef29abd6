/**
 * The shapes of the web component runtime API (DESIGN.md §2.4): the server's schemas in
 * @strata/contract, imported as types only (the bundle carries no TypeBox). What is here besides
 * is the client's own: the `truncated` flag read from a header, the page size.
 */
import type {
  Aggregate,
  Chart,
  ChartType,
  ColumnFormat,
  RuntimeEmbed as ContractEmbed,
  RuntimeMetric as ContractMetric,
  EffectivePermissions,
  EndUserMetricDefinition,
  FilterType,
  LayoutItem,
  MetricQuery,
  MetricQueryResult,
  Operator,
  RuntimeFilter,
  RuntimeQuery,
  RuntimeView,
  TimeGrain,
} from '@strata/contract'

export type {
  Aggregate,
  ChartType,
  ColumnFormat,
  FilterType,
  LayoutItem,
  MetricQuery,
  Operator,
  RuntimeFilter,
  TimeGrain,
}

/** A metric as an end user defines it (the self-serve contract; never SQL): the server assigns its id. */
export interface MetricDefinition {
  readonly name: string
  readonly chart: { readonly type: ChartType; readonly x?: string; readonly y?: readonly string[] }
  readonly query: MetricQuery
  readonly formats?: Readonly<Record<string, ColumnFormat>>
}

/**
 * A metric of the load, with the self-serve fields (issue 15 contract): where it comes from,
 * who sees it, and the definition the builder edits.
 */
export type RuntimeMetric = ContractMetric & {
  /** The company's metric, or one this tenant (or user) made. */
  readonly origin?: 'company' | 'tenant'
  readonly isPublished?: boolean
  /** `private`: this user's own (another user's private metric is never sent). */
  readonly visibility?: 'shared' | 'private'
  readonly createdByUser?: string | null
  /** Present when the token may update metrics and the builder can edit this one. */
  readonly definition?: MetricDefinition
}

/** The load, with the self-serve additions. */
export type RuntimeEmbed = Omit<ContractEmbed, 'metrics'> & {
  readonly metrics: readonly RuntimeMetric[]
  /** Metrics archived by this tenant (or user): they left the dashboard and can be restored. */
  readonly archivedMetrics?: readonly { readonly metricId: string; readonly name: string }[]
  /**
   * Whether a new metric may be private (the token has a userIdentifier) and is by default
   * (the dashboard's isAllowPrivateMetricsByDefault). Absent: the builder offers no choice.
   */
  readonly privateMetrics?: { readonly available: boolean; readonly byDefault: boolean }
}

/** The visible model an end user builds on (`GET …/model`). */
export interface ModelColumn {
  readonly name: string
  readonly label: string
  readonly dataType: string
}
export interface ModelTable {
  readonly name: string
  readonly label: string
  readonly columns: readonly ModelColumn[]
}
export interface Model {
  readonly tables: readonly ModelTable[]
  readonly relationships: readonly unknown[]
}

/** A metric's chart: type, x (the dimension column), y (the measure columns); other keys pass through to ECharts. */
export type ChartConfig = Chart

/** A metric as an end user defines it (never SQL): what the builder edits and sends. */
export type MetricDefinition = EndUserMetricDefinition

/** What the browser may do with this embed (the token's permissions AND the embed's settings). */
export type Permissions = EffectivePermissions

/** A saved dashboard view (GET/POST /views under the runtime path, DESIGN.md §2.8). */
export type SavedView = RuntimeView

export type Row = Readonly<Record<string, unknown>>

export type QueryResult = MetricQueryResult & {
  /** The server cut the rows at its row limit (its `Strata-Truncated` header; not in the body). */
  readonly truncated?: boolean
}

export type QueryRequest = RuntimeQuery

/** Rows per page of a `table` metric: the server pages by 100. */
export const PAGE_SIZE = 100
