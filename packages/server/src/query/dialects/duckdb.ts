import type { OrderItem } from '../ast.js'
import { BaseDialect, type NullOrder, type ParamSink } from './base.js'

/**
 * DuckDB (csv, awss3): Postgres-like. Time zones go through `timezone(zone, ts)` (ICU, bundled
 * with the Node package): on a TIMESTAMPTZ it gives the wall-clock TIMESTAMP in the zone; a naive
 * TIMESTAMP is first read as UTC.
 */
export class DuckdbDialect extends BaseDialect {
  readonly name = 'duckdb' as const

  override containsPattern(needle: string): string {
    return `%${this.escapeLike(needle)}%`
  }

  override contains(expr: string, pattern: string): string {
    return `${expr} ILIKE ${pattern} ESCAPE '\\'`
  }

  override convertTimezone(expr: string, zone: string, nativeType: string): string {
    return this.isZoned(nativeType) ? `timezone(${zone}, ${expr})` : `timezone(${zone}, timezone('UTC', ${expr}))`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }
}

/**
 * DuckDB as a rollup read renders it: every ORDER BY term says where NULL goes, as the warehouse
 * the rollup stands in for puts it by default (`nullOrder`), so a NULL group is where the
 * warehouse's own answer has it.
 */
export class RollupReadDialect extends DuckdbDialect {
  constructor(readonly warehouseNulls: NullOrder) {
    super()
  }

  protected override orderTerm(o: OrderItem, ps: ParamSink): string {
    const first =
      this.warehouseNulls === 'low' ? o.direction === 'asc' : this.warehouseNulls === 'high' && o.direction === 'desc'
    return `${super.orderTerm(o, ps)} NULLS ${first ? 'FIRST' : 'LAST'}`
  }
}
