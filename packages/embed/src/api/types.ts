/**
 * The shapes of the web component runtime API (DESIGN.md §2.4): the server's schemas in
 * @strata/contract, imported as types only (the bundle carries no TypeBox). What is here besides
 * is the client's own: the `truncated` flag read from a header, the page size.
 */
import type {
  Chart,
  ChartType,
  ColumnFormat,
  RuntimeEmbed as ContractEmbed,
  EffectivePermissions,
  FilterType,
  LayoutItem,
  MetricQueryResult,
  RuntimeFilter,
  RuntimeMetric,
  RuntimeQuery,
} from '@strata/contract'

export type { ChartType, ColumnFormat, FilterType, LayoutItem, RuntimeFilter, RuntimeMetric }

/** A metric's chart: type, x (the dimension column), y (the measure columns); other keys pass through to ECharts. */
export type ChartConfig = Chart

/** What the browser may do with this embed (the token's permissions AND the embed's settings). */
export type Permissions = EffectivePermissions

/** A saved dashboard view (DESIGN §2.8): a named set of filter values, and a layout when one was customised. */
export interface SavedView {
  readonly viewId: string
  readonly name: string
  /** Filter name → value, as the filters' own values (what `setFilter` takes). */
  readonly filters: Readonly<Record<string, unknown>>
  readonly layout?: readonly LayoutItem[]
}

/**
 * The load with the self-serve additions of issue 15 (`dashboard.customLayout`, `views`), optional
 * so an older server's load still reads. Replace with the contract's type once
 * @strata/contract's RuntimeEmbedSchema carries them.
 */
export type RuntimeEmbed = ContractEmbed & {
  readonly dashboard: ContractEmbed['dashboard'] & {
    /** A saved (tenant or user) layout is in effect rather than the company's. */
    readonly customLayout?: boolean
  }
  /** The saved views of this token's tenant (or user); [] without the views permission. */
  readonly views?: readonly SavedView[]
}

export type Row = Readonly<Record<string, unknown>>

export type QueryResult = MetricQueryResult & {
  /** The server cut the rows at its row limit (its `Strata-Truncated` header; not in the body). */
  readonly truncated?: boolean
}

export type QueryRequest = RuntimeQuery

/** Rows per page of a `table` metric: the server pages by 100. */
export const PAGE_SIZE = 100
