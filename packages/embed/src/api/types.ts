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

/** A saved dashboard view (DESIGN §2.8): a named set of filter values, and a layout when one was customised. */
export interface SavedView {
  readonly viewId: string
  readonly name: string
  /** Filter name → value, as the filters' own values (what `setFilter` takes). */
  readonly filters: Readonly<Record<string, unknown>>
  readonly layout?: readonly LayoutItem[]
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
    /** A saved (tenant or user) layout is in effect rather than the company's. */
    readonly customLayout?: boolean
  }
  readonly metrics: readonly RuntimeMetric[]
  /** The saved views of this token's tenant (or user); [] without the views permission. */
  readonly views?: readonly SavedView[]
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
