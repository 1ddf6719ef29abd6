/**
 * The statement the `elasticsearch` dialect emits (for elasticsearch and opensearch): one
 * `_search` request plus the plan that turns its answer into rows. It travels as JSON text in
 * `CompiledSql.sql`; every bound value is a placeholder object `{"$param": i}` standing for
 * `params[i]`, and `{"$session": "timezone"}` stands for the session time zone
 * (ExecuteOptions.timezone, else UTC). The connector replaces both by values, never inside a
 * string (connectors/elasticsearch/placeholders.ts).
 */
import type { AggregateFn, Direction, TimeGrain } from '../../ast.js'

/** A JSON value of the request, placeholders included. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json }

/** Stands for the session time zone in a request (date_histogram and range `time_zone`). */
export const SESSION_ZONE = { $session: 'timezone' } as const

/** One output column and where its value is read from. */
export interface Output {
  readonly name: string
  /**
   * key: the composite bucket's key `source`; doc_count: the bucket's document count; agg: the
   * metric aggregation `agg` (bucket or top level); total: hits.total (COUNT(*) without groups);
   * source: the hit's `_source` value of `field`.
   */
  readonly from: 'key' | 'doc_count' | 'agg' | 'total' | 'source'
  /** The field the value comes from (the connector types the value by the index mapping). */
  readonly field?: string
  readonly source?: string
  readonly agg?: string
  readonly fn?: AggregateFn
  /** A date_histogram key: its grain (the value is the bucket's start, in `zone`). */
  readonly grain?: TimeGrain
  /** The zone instants of this column are rendered in: a placeholder (param or session). */
  readonly zone?: Json
}

export interface OrderSpec {
  readonly column: string
  readonly direction: Direction
}

/**
 * metrics: top-level metric aggregations, one row. groups: a `composite` aggregation named
 * `groups`, paged by `after_key`; order, offset and limit are applied by the connector to the
 * collected buckets. hits: documents (dimensions without measures); `sort` is in the body, the
 * connector sets `from`/`size`. count: the number of rows the `of` request would give (paging's
 * total): groups are counted by paging the composite to the end.
 */
export type Plan =
  | { readonly shape: 'metrics'; readonly columns: readonly Output[] }
  | {
      readonly shape: 'groups'
      readonly columns: readonly Output[]
      readonly order: readonly OrderSpec[]
      readonly limit: number | null
      readonly offset: number | null
    }
  | {
      readonly shape: 'hits'
      readonly columns: readonly Output[]
      readonly limit: number | null
      readonly offset: number | null
    }
  | {
      readonly shape: 'count'
      readonly of: 'metrics' | 'groups' | 'hits'
      readonly name: string
      readonly limit: number | null
    }

export interface SearchStatement {
  /** The index (or alias, or pattern) searched; DATABASE tenancy replaces it by the tenant's. */
  readonly index: string
  /** The `_search` body. */
  readonly body: { readonly [key: string]: Json }
  readonly plan: Plan
}

/** Page size of the composite aggregation (buckets per request). */
export const COMPOSITE_PAGE = 1000
/** `cardinality` precision_threshold: its maximum, exact below ~40 000 distinct values. */
export const CARDINALITY_PRECISION = 40_000
