import type { TimeGrain } from '../ast.js'
import { BaseDialect } from './base.js'

/**
 * Databricks SQL (SQL warehouses; Spark SQL). Each choice checked against Databricks' SQL
 * language reference (docs.databricks.com/sql/language-manual/…):
 * - identifiers in backticks, a backtick inside doubled (`sql-ref-identifiers`);
 * - named parameter markers `:p0`, bound by the Statement Execution API from `parameters`
 *   ({ name, value, type }); a marker may be referenced more than once in one statement
 *   (`sql-ref-parameter-marker`), so placeholders are reused and GROUP BY may use ordinals
 *   (`sql-ref-syntax-qry-select-groupby`: an integer literal is a position);
 * - `date_trunc(unit, expr)` returns a TIMESTAMP; 'WEEK' truncates to the Monday
 *   (`functions/date_trunc`): cast to DATE for day grains and coarser;
 * - time zones with `convert_timezone([sourceTz,] targetTz, sourceTs)` (DBSQL, DBR 13.3 LTS+;
 *   `functions/convert_timezone`): it returns the TIMESTAMP_NTZ wall-clock time in the target
 *   zone. A TIMESTAMP (an instant) is first turned into TIMESTAMP_NTZ in the session zone, and
 *   the two-argument form converts from the session zone back out, so the result does not depend
 *   on the session zone; a TIMESTAMP_NTZ column is taken to be UTC;
 * - `LIMIT n OFFSET m` (`sql-ref-syntax-qry-select-offset`: DBSQL, DBR 11.3 LTS+);
 * - LIKE's default escape character is `\` (`functions/like`), so no ESCAPE clause: a `'\'`
 *   literal would itself need escaping in Databricks string literals;
 * - a DATABASE-tenancy unit is a schema (the connector's `tenancyUnit`), so the compiler puts
 *   the tenant's schema in the table qualifier.
 */
export class DatabricksDialect extends BaseDialect {
  readonly name = 'databricks' as const
  /** NULL sorts first ascending, last descending (Spark SQL) */
  override readonly nullOrder = 'low' as const
  override readonly identifierQuote = '`'
  override readonly identifierQuoteClose = '`'
  override readonly schemaIsDatabase = true

  override placeholder(index: number): string {
    return `:p${index}`
  }

  /** Bound as a typed TIMESTAMP parameter by the connector (connectors/databricks/params.ts). */
  override instantValue(d: Date): unknown {
    return d
  }

  /**
   * `=` follows collations: UTF8_BINARY by default (exact), but a column, a schema or (DBSQL,
   * DBR 18.3+) the session may carry a case-insensitive one such as UTF8_LCASE or UNICODE_CI
   * (`sql-ref-collation`). Bytes compare exactly under any collation and on every runtime (the
   * `collate()` function needs DBR 16.1+): the UTF-8 bytes of both sides must be equal. The plain
   * `=` before it keeps data skipping on the column; CAST(x AS STRING) keeps a numeric tenant
   * column comparable with the string clientId.
   */
  override exactEquals(x: () => string, v: () => string): string {
    return `(${x()} = ${v()} AND CAST(CAST(${x()} AS STRING) AS BINARY) = CAST(${v()} AS BINARY))`
  }

  /**
   * In a SQL metric: a BINARY value, so the comparison is byte for byte whatever the column's
   * collation (STRING is promoted to BINARY for the comparison: `sql-ref-datatype-rules`).
   */
  override exactValue(placeholder: string): string {
    return `CAST(${placeholder} AS BINARY)`
  }

  override contains(expr: string, pattern: string): string {
    return `LOWER(${expr}) LIKE ${pattern}`
  }

  override timeGrain(grain: TimeGrain, x: () => string): string {
    const unit = grain.toUpperCase()
    return grain === 'hour' ? `date_trunc('HOUR', ${x()})` : `CAST(date_trunc('${unit}', ${x()}) AS DATE)`
  }

  /** TIMESTAMP (TIMESTAMP_LTZ) is an instant; TIMESTAMP_NTZ is a wall-clock time. */
  override isZoned(nativeType: string): boolean {
    return /^timestamp(_ltz)?$/i.test(nativeType.trim()) || /with time zone/i.test(nativeType)
  }

  override convertTimezone(expr: string, zone: string, nativeType: string): string {
    return this.isZoned(nativeType) ? `convert_timezone(${zone}, ${expr})` : `convert_timezone('UTC', ${zone}, ${expr})`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }
}
