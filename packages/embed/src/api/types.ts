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

export interface RuntimeMetric {
  readonly metricId: string
  readonly name: string
  readonly chart: ChartConfig
  /** Output column name → its number format; absent when the document gives none. */
  readonly formats?: Readonly<Record<string, ColumnFormat>>
  /** Dimension name → its time grain, for dimensions that have one (axis labels by grain). */
  readonly timeGrains?: Readonly<Record<string, TimeGrain | string>>
  /** company: in the dashboard (a tenant's own version of one included); tenant: made by an end user. */
  readonly origin: 'company' | 'tenant'
  readonly isPublished: boolean
  readonly visibility: 'shared' | 'private'
  /** The creator's userIdentifier; null for the company's metrics and those made without one. */
  readonly createdByUser: string | null
  /** What the builder edits: with the update permission, for a structured metric within the visible model. */
  readonly definition?: MetricDefinition
}

/** A metric as an end user defines it (the server's schemas/self-serve.ts EndUserMetricDefinition): never SQL. */
export interface MetricDefinition {
  readonly name: string
  readonly chart: { readonly type: ChartType; readonly x?: string; readonly y?: readonly string[] }
  readonly query: {
    readonly from: string
    readonly measures?: readonly {
      readonly name: string
      readonly aggregate: 'sum' | 'count' | 'count-distinct' | 'avg' | 'min' | 'max'
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
      readonly operator: string
      readonly values?: readonly (string | number | boolean | null)[]
    }[]
    readonly orderBy?: readonly { readonly name: string; readonly direction: 'asc' | 'desc' }[]
    readonly limit?: number
  }
  readonly formats?: Readonly<Record<string, ColumnFormat>>
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
  /** Metrics archived for this tenant (or by this user), to restore from. */
  readonly archivedMetrics: readonly { readonly metricId: string; readonly name: string }[]
  readonly permissions: Permissions
  readonly timezone: string
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
