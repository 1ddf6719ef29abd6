import type { OrderItem, ReaggregateFn } from '../ast.js'
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

  /**
   * An average with a `scale` is rounded to it as a decimal division rounds, half away from zero,
   * in integers so no double lands on the wrong side of a half: the sum of the sums (exact
   * decimals of fewer places, kept as doubles) as a whole number of 10^-scale, divided by the
   * count.
   */
  override reaggregate(fn: ReaggregateFn, args: readonly string[], scale?: number): string {
    if (fn !== 'avg' || scale === undefined) return super.reaggregate(fn, args)
    const [a, b] = args
    const k = Math.min(Math.max(0, Math.trunc(scale)), 15)
    const units = `CAST(ROUND(SUM(${a}) * 1e${k}) AS HUGEINT)`
    const count = `NULLIF(CAST(SUM(${b}) AS HUGEINT), 0)`
    return `CAST(SIGN(${units}) * ((ABS(${units}) * 2 + ${count}) // (2 * ${count})) AS DOUBLE) / 1e${k}`
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
