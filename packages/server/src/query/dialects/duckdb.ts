import { BaseDialect } from './base.js'

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
