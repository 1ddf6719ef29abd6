import type { Measure, Metric } from '@strata/contract/document'
import type { ReaggregateFn } from './ast.js'
import type { CompiledSql, Dialect } from './dialects/base.js'
import type { AppliedFilter } from './filters.js'
import type { SemanticModel } from './model.js'
import type { Tenancy } from './tenancy/tenancy.js'
import type { DataType } from './types.js'

export type { Tenancy } from './tenancy/tenancy.js'

/** What the metric compiler takes and gives (shared by compile.ts and sql-metric.ts). */

export interface CompileContext {
  readonly tenancy: Tenancy
  /** The guest token's rlsSettings values for this metric. */
  readonly rls: Readonly<Record<string, unknown>>
  readonly filters: readonly AppliedFilter[]
  /** IANA zone: presets, date ranges and converted columns are evaluated in it. */
  readonly timezone: string
  readonly now: Date
  readonly page?: { readonly limit: number; readonly offset: number }
}

export interface CompileInput {
  readonly metric: Metric
  readonly model: SemanticModel
  readonly dialect: Dialect
  readonly context: CompileContext
  /**
   * The model's columns hold pre-aggregated values (a rollup, query/rollups/): how each measure
   * aggregates them again, by the columns of `from` it reads.
   */
  readonly reaggregate?: (measure: Measure) => {
    readonly fn: ReaggregateFn
    readonly columns: readonly string[]
    readonly scale?: number
  }
}

export interface CompiledQuery extends CompiledSql {
  /** Known output columns (empty for SQL metrics: take them from the result). */
  readonly columns: readonly { readonly name: string; readonly dataType: DataType }[]
  /** The dimension names the rows are grouped by. */
  readonly groupBy: readonly string[]
  /** COUNT(*) of the unpaged rows, when paging (totalRecords). */
  readonly countSql?: CompiledSql
  /** The measures over the comparison window, when the metric has a comparison (see asOfPeriodAgo without a date range). */
  readonly comparison?: CompiledSql
}
