import type { TimeGrain } from '../ast.js'
import { BaseDialect } from './base.js'

/**
 * GoogleSQL for BigQuery. Every choice is checked against Google's reference
 * (https://cloud.google.com/bigquery/docs/reference/standard-sql/…) and, offline, by the ZetaSQL
 * analyser (bigquery.zetasql.test.ts), which accepts exactly the SQL BigQuery's front end does:
 *
 * - Identifiers: backticks; "quoted identifiers have the same escape sequences as string
 *   literals" (lexical#quoted_identifiers), so `\` and `` ` `` are backslash-escaped and control
 *   characters written as `\uXXXX`. A table path is `dataset`.`table`, each part quoted on its own
 *   (lexical#table_names allows quoting each part of a path); the dataset is the schema, and
 *   DATABASE tenancy (unit: dataset) replaces it.
 * - Parameters: named `@p0` (query parameters, parameterized-queries); a name may repeat.
 * - Grains: `DATE_TRUNC(CAST(x AS DATE), MONTH)`; weeks start on Monday like every other dialect,
 *   `WEEK(MONDAY)` (date_functions#date_trunc). CAST of a TIMESTAMP to DATE/DATETIME takes the
 *   default time zone (conversion_functions#cast), i.e. the session zone the connector sets. The
 *   hour grain is `DATETIME_TRUNC(CAST(x AS DATETIME), HOUR)`: a wall-clock DATETIME.
 * - Time zones: TIMESTAMP is an instant: `DATETIME(ts, zone)` is its wall-clock time in the zone
 *   (datetime_functions#datetime); a naive DATETIME is read as UTC first: `TIMESTAMP(dt, 'UTC')`.
 * - Exact equality: STRING `=` is byte for byte unless a collation (e.g. `und:ci`) is attached
 *   to the column, table or dataset, and an explicit collation wins over an absent one
 *   (collation-concepts#propagate). BYTES carry no collation, so tenancy compares the UTF-8 bytes:
 *   `CAST(CAST(x AS STRING) AS BYTES) = CAST(@p AS BYTES)` (the inner CAST also serves an INT64
 *   client column, which BigQuery would not compare with a STRING parameter), after a plain `=`
 *   in the column's type that keeps partition and cluster pruning on the tenant column.
 * - LIKE: the backslash is BigQuery's LIKE escape character and there is no ESCAPE clause
 *   (operators#like_operator); the pattern is a bound parameter escaped in JS.
 * - `LIMIT n OFFSET m` (query-syntax#limit_and_offset_clause); `GROUP BY 1` ordinals are allowed
 *   (query-syntax#group_by_col_ordinals).
 */
export class BigqueryDialect extends BaseDialect {
  readonly name = 'bigquery' as const
  /** NULL sorts first ascending, last descending */
  override readonly nullOrder = 'low' as const
  override readonly identifierQuote = '`'
  override readonly identifierQuoteClose = '`'
  override readonly schemaIsDatabase = true

  override quoteIdentifier(name: string): string {
    super.quoteIdentifier(name) // refuses empty names and NUL
    let escaped = ''
    for (const c of name) {
      const code = c.charCodeAt(0)
      if (c === '\\' || c === '`') escaped += `\\${c}`
      else if (code < 0x20 || code === 0x7f) escaped += `\\u${code.toString(16).padStart(4, '0')}`
      else escaped += c
    }
    return `\`${escaped}\``
  }

  override placeholder(index: number): string {
    return `@p${index}`
  }

  /**
   * TIMESTAMP column: a JS Date, which the SDK binds as a TIMESTAMP parameter (an unambiguous
   * instant). Any other (a naive DATETIME, taken to be UTC): its UTC wall time as text, a STRING
   * parameter BigQuery coerces to DATETIME (conversion_rules#parameter_coercion); a TIMESTAMP
   * parameter would not compare with a DATETIME, and zone-less text would be read in the
   * session zone by a TIMESTAMP.
   */
  override instantValue(d: Date, nativeType = ''): unknown {
    return this.isZoned(nativeType) ? d : d.toISOString().replace('T', ' ').replace('Z', '')
  }

  /**
   * The byte comparison alone would hide the column from partition and cluster pruning (a
   * function of the column prunes nothing), so a plain `=` in the column's own type comes first:
   * `x = @p` on a STRING column, `x = SAFE_CAST(@p AS INT64)` on an INT64 one (a clientId that
   * is no integer matches no row). A column of another or unknown type keeps the byte check
   * alone.
   */
  override exactEquals(x: () => string, v: () => string, nativeType = ''): string {
    const exact = `CAST(CAST(${x()} AS STRING) AS BYTES) = CAST(${v()} AS BYTES)`
    const type = nativeType.trim().toUpperCase()
    if (/^STRING(\(\d+\))?$/.test(type)) return `(${x()} = ${v()} AND CAST(${x()} AS BYTES) = CAST(${v()} AS BYTES))`
    if (/^(INT64|INTEGER)$/.test(type)) return `(${x()} = SAFE_CAST(${v()} AS INT64) AND ${exact})`
    return exact
  }

  /** `\` is the LIKE escape character already; BigQuery has no ESCAPE clause. */
  override contains(expr: string, pattern: string): string {
    return `LOWER(${expr}) LIKE ${pattern}`
  }

  override timeGrain(grain: TimeGrain, x: () => string): string {
    switch (grain) {
      case 'hour':
        return `DATETIME_TRUNC(CAST(${x()} AS DATETIME), HOUR)`
      case 'day':
        return `CAST(${x()} AS DATE)`
      case 'week':
        return `DATE_TRUNC(CAST(${x()} AS DATE), WEEK(MONDAY))`
      case 'month':
        return `DATE_TRUNC(CAST(${x()} AS DATE), MONTH)`
      case 'quarter':
        return `DATE_TRUNC(CAST(${x()} AS DATE), QUARTER)`
      case 'year':
        return `DATE_TRUNC(CAST(${x()} AS DATE), YEAR)`
    }
  }

  /** BigQuery's TIMESTAMP is an instant (absolute point in time); DATETIME is a wall-clock time. */
  override isZoned(nativeType: string): boolean {
    return /^TIMESTAMP$/i.test(nativeType.trim()) || super.isZoned(nativeType)
  }

  override convertTimezone(expr: string, zone: string, nativeType: string): string {
    return this.isZoned(nativeType) ? `DATETIME(${expr}, ${zone})` : `DATETIME(TIMESTAMP(${expr}, 'UTC'), ${zone})`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }
}
