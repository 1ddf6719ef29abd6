/** The shapes of the web component runtime API (DESIGN.md §2.4). */

export type FilterType = 'multi-select' | 'single-select' | 'date-range' | 'number-range' | 'boolean' | 'text'

export type ChartType = 'line' | 'bar' | 'stacked-bar' | 'area' | 'pie' | 'doughnut' | 'table' | 'single-value'

export type DataType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime' | 'json' | 'unknown'

export interface RuntimeFilter {
  readonly name: string
  readonly label?: string
  readonly type: FilterType
  readonly table: string
  readonly column: string
  readonly default?: unknown
  /** The guest token pins this filter: it is locked (its value shown only when `pinned` is sent). */
  readonly locked?: boolean
  /** The pinned value, when the token lets the browser show it. */
  readonly pinned?: unknown
  readonly isShowOnUrl?: boolean
}

export interface LayoutItem {
  readonly metricId: string
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

export interface ChartConfig {
  readonly type: ChartType
  /** The dimension column. */
  readonly x?: string
  /** The measure columns. */
  readonly y?: readonly string[]
  /** Anything else passes through (merged into the ECharts option for ECharts types). */
  readonly [key: string]: unknown
}

/**
 * How one output column's numbers read (the dashboard document's `formats`). `percent`: the
 * value is a fraction (0.25 → 25%). `currency`: an ISO 4217 code, with style currency.
 */
export interface ColumnFormat {
  readonly style: 'number' | 'currency' | 'percent'
  readonly currency?: string
  /** Fixed decimals (0–6). */
  readonly decimals?: number
  /** true: always compact (1.2K, 3.4M); false: never; absent: from a size on (single values, axis ticks). */
  readonly compact?: boolean
}

export type TimeGrain = 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year'

export type Aggregate = 'sum' | 'count' | 'count-distinct' | 'avg' | 'min' | 'max'

export type Operator =
  | 'eq'
  | 'neq'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'in'
  | 'not-in'
  | 'between'
  | 'is-null'
  | 'is-not-null'
  | 'contains'

/** The §2.2 query form an end user sends (never SQL). */
export interface MetricQuery {
  readonly from: string
  readonly measures?: readonly {
    readonly name: string
    readonly aggregate: Aggregate
    readonly column?: string
    readonly table?: string
  }[]
  readonly dimensions?: readonly {
    readonly name: string
    readonly column: string
    readonly table?: string
    readonly timeGrain?: TimeGrain
  }[]
  readonly where?: readonly {
    readonly column: string
    readonly table?: string
    readonly operator: Operator
    readonly values?: readonly (string | number | boolean | null)[]
  }[]
  readonly orderBy?: readonly { readonly name: string; readonly direction: 'asc' | 'desc' }[]
  readonly limit?: number
}

/** A metric as an end user defines it (the self-serve contract): the server assigns its id. */
export interface MetricDefinition {
  readonly name: string
  readonly chart: { readonly type: ChartType; readonly x?: string; readonly y?: readonly string[] }
  readonly query: MetricQuery
  readonly formats?: Readonly<Record<string, ColumnFormat>>
}

export interface RuntimeMetric {
  readonly metricId: string
  readonly name: string
  readonly chart: ChartConfig
  /** Output column name → its number format; absent when the document gives none. */
  readonly formats?: Readonly<Record<string, ColumnFormat>>
  /** Dimension name → its time grain, for dimensions that have one (axis labels by grain). */
  readonly timeGrains?: Readonly<Record<string, TimeGrain | string>>
  /** The company's metric, or one this tenant (or user) made. */
  readonly origin?: 'company' | 'tenant'
  readonly isPublished?: boolean
  /** `private`: this user's own (another user's private metric is never sent). */
  readonly visibility?: 'shared' | 'private'
  readonly createdByUser?: string | null
  /** The end-user definition the builder edits: present when the token may update it. */
  readonly definition?: MetricDefinition
}

export interface Permissions {
  readonly download: boolean
  readonly underlyingData: boolean
  readonly endUserDashboardFilter: boolean
  readonly showSideBar: boolean
  readonly showDashboardName: boolean
  readonly metricCreation: boolean
  readonly metricCreationMode: 'DRAG_DROP' | 'CHAT'
  readonly metricUpdate: boolean
  readonly metricDeletion: boolean
  readonly manageMetrics: boolean
  readonly archiveMetrics: boolean
  readonly customizeLayout: boolean
  readonly dashboardViews: boolean
  readonly emailReports: boolean
  readonly aiPilot: boolean
}

export interface RuntimeEmbed {
  readonly embedId: string
  readonly embedType: 'dashboard' | 'metric'
  readonly name: string
  readonly dashboard: {
    readonly dashboardId: string
    readonly name: string
    readonly filters: readonly RuntimeFilter[]
    readonly layout: readonly LayoutItem[]
  }
  readonly metrics: readonly RuntimeMetric[]
  readonly permissions: Permissions
  readonly timezone: string
  /** Metrics archived by this tenant (or user): they left the dashboard, and can be restored. */
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
  readonly dataType: DataType | string
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

export interface ColumnMeta {
  readonly name: string
  readonly dataType: DataType | string
}

export type Row = Readonly<Record<string, unknown>>

export interface QueryResult {
  readonly data: readonly Row[]
  readonly timeTaken: number
  readonly totalRecords: number
  readonly comparisonValue?: number | string | null
  readonly metaData: { readonly columns: readonly ColumnMeta[]; readonly groupbyColumnList: readonly string[] }
  readonly metricid: string
  readonly error: null
  /** The server cut the rows at its row limit (its `Strata-Truncated` header; not in the body). */
  readonly truncated?: boolean
}

export interface QueryRequest {
  readonly metricId: string
  readonly dashboardFilter?: Readonly<Record<string, unknown>>
  readonly metricFilter?: Readonly<Record<string, unknown>>
  readonly pageNumber?: number
}

/** Rows per page of a `table` metric: the server pages by 100. */
export const PAGE_SIZE = 100
