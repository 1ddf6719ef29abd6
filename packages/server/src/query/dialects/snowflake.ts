import type { TimeGrain } from '../ast.js'
import { assertCount, BaseDialect } from './base.js'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** The DATE_TRUNC date part of each grain (https://docs.snowflake.com/en/sql-reference/functions/date_trunc). */
const DATE_PART: Record<TimeGrain, string> = {
  hour: 'HOUR',
  day: 'DAY',
  week: 'WEEK',
  month: 'MONTH',
  quarter: 'QUARTER',
  year: 'YEAR',
}

/**
 * Snowflake, checked against docs.snowflake.com:
 * - Identifiers are always double-quoted, `"` doubled inside: a quoted identifier is stored and
 *   resolved exactly as written, while an unquoted one would be upper-cased
 *   (sql-reference/identifiers-syntax). Names come from INFORMATION_SCHEMA exactly as stored.
 * - Placeholders are numbered `:1`, `:2` … (developer-guide/node-js/nodejs-driver-execute,
 *   "Binding statement parameters": `:1` may appear twice for one value), bound by the
 *   snowflake-sdk in the query request's `bindings`; values are never spliced into SQL.
 * - Time grains are `DATE_TRUNC('<part>', x)` (functions/date_trunc), cast to DATE except for
 *   the hour. `DATE_TRUNC('WEEK', …)` follows the WEEK_START session parameter
 *   (sql-reference/parameters#week-start): 0, the default, is the "legacy" ISO-like behaviour
 *   with weeks starting on Monday, and 1 is Monday explicitly. An account or user may have set
 *   another day, so the connector pins `WEEK_START = 1` on every session it opens: weeks start
 *   on Monday, as in every other dialect.
 * - Time zones: `CONVERT_TIMEZONE('UTC', zone, ntz)` reads a naive TIMESTAMP_NTZ as UTC and gives
 *   the wall-clock TIMESTAMP_NTZ in `zone`; TIMESTAMP_TZ / _LTZ hold an instant, so the
 *   two-argument form converts them and the cast to TIMESTAMP_NTZ keeps the wall clock
 *   (functions/convert_timezone).
 * - `LIMIT n OFFSET m` (constructs/limit); an offset alone needs `LIMIT NULL`.
 * - LIKE patterns escape with a backslash (the pattern is bound). In Snowflake string literals a
 *   backslash is itself an escape character (data-types-text, "Escape sequences in single-quoted
 *   string constants"), so the one-backslash ESCAPE argument is written `'\\'` (functions/ilike).
 */
export class SnowflakeDialect extends BaseDialect {
  readonly name = 'snowflake' as const
  /** NULL sorts last ascending, first descending */
  override readonly nullOrder = 'high' as const

  override placeholder(index: number): string {
    return `:${index + 1}`
  }

  /** The SDK binds strings, numbers, booleans and null (its `Bind` type); other values as text. */
  override bindValue(value: unknown): unknown {
    if (typeof value === 'bigint') return value.toString()
    if (value instanceof Date) return this.instantValue(value)
    return value
  }

  /**
   * `YYYY-MM-DD HH24:MI:SS.FF3+00:00`, a format TIMESTAMP_INPUT_FORMAT AUTO reads
   * (sql-reference/date-time-input-output): an instant in UTC for TIMESTAMP_TZ / _LTZ columns,
   * and the UTC wall clock for a naive TIMESTAMP_NTZ (whose offset is dropped).
   */
  override instantValue(d: Date): unknown {
    return (
      `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
      `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}+00:00`
    )
  }

  override containsPattern(needle: string): string {
    return `%${this.escapeLike(needle)}%`
  }

  override contains(expr: string, pattern: string): string {
    return `${expr} ILIKE ${pattern} ESCAPE '\\\\'`
  }

  /**
   * Snowflake compares strings by their UTF-8 code points unless a collation applies
   * (sql-reference/collation, "Understanding collation"), but a column may be declared with
   * one (e.g. `COLLATE 'en-ci'`, case-insensitive). BINARY values carry no collation: both
   * sides become their UTF-8 bytes with `TO_BINARY(<string>, 'UTF-8')` (functions/to_binary,
   * the documented 'UTF-8' format), which compare byte for byte; TO_VARCHAR lets the check apply
   * to a numeric client column too. The plain `=` before it keeps partition pruning on the column.
   */
  override exactEquals(x: () => string, v: () => string): string {
    return `(${x()} = ${v()} AND TO_BINARY(TO_VARCHAR(${x()}), 'UTF-8') = TO_BINARY(${v()}, 'UTF-8'))`
  }

  override timeGrain(grain: TimeGrain, x: () => string): string {
    const truncated = `DATE_TRUNC('${DATE_PART[grain]}', ${x()})`
    return grain === 'hour' ? truncated : `CAST(${truncated} AS DATE)`
  }

  override isZoned(nativeType: string): boolean {
    return /^TIMESTAMP_(TZ|LTZ)\b|with time zone|timestamptz|timestampltz/i.test(nativeType)
  }

  override convertTimezone(expr: string, zone: string, nativeType: string): string {
    return this.isZoned(nativeType)
      ? `CAST(CONVERT_TIMEZONE(${zone}, ${expr}) AS TIMESTAMP_NTZ)`
      : `CONVERT_TIMEZONE('UTC', ${zone}, ${expr})`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }

  override limitClause(limit: number | null, offset: number | null): string {
    const hasOffset = offset !== null && offset > 0
    if (limit === null && !hasOffset) return ''
    let sql = ` LIMIT ${limit === null ? 'NULL' : assertCount(limit, 'limit')}`
    if (hasOffset) sql += ` OFFSET ${assertCount(offset, 'offset')}`
    return sql
  }
}
