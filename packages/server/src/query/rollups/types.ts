import type { RollupGrain } from '@strata/contract/rollups'

/**
 * A rollup as the builder reads it: every reference resolved against the model to a table key
 * and a physical column, the tenant's client columns and the dashboard's RLS columns added as
 * dimensions, avg split into a sum and a count (they re-aggregate; an average does not).
 */
export interface RollupPlan {
  readonly name: string
  /** Canonical `schema.table` */
  readonly from: string
  readonly time?: RollupColumn & { readonly grain: RollupGrain }
  /** Declared dimensions, then the tenant and RLS columns the declaration left out. */
  readonly dimensions: readonly RollupColumn[]
  readonly measures: readonly RollupPlanMeasure[]
  readonly everyMs: number
  readonly incrementalMs?: number
  /** Identifies what the files hold: a new fingerprint is rebuilt whole. */
  readonly fingerprint: string
}

export interface RollupColumn {
  /** The column's name in the Parquet files. */
  readonly name: string
  readonly table: string
  readonly column: string
  readonly role: 'time' | 'dimension' | 'tenant' | 'rls'
}

export interface RollupPlanMeasure {
  readonly name: string
  readonly aggregate: 'sum' | 'count' | 'min' | 'max'
  /** Physical column; absent: COUNT(*) */
  readonly column?: string
  /** The declared measure this column serves (an avg is served by two). */
  readonly of: string
}
