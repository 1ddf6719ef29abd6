import { badRequest } from '../../errors.js'
import type { JoinType, TimeGrain } from '../ast.js'
import { BaseDialect } from './base.js'

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/**
 * MySQL and MariaDB (also SingleStore). Positional `?` placeholders cannot be repeated, so
 * GROUP BY uses ordinals and every use of an expression binds its values again. CONVERT_TZ
 * with an IANA name needs the server's time zone tables (mysql_tzinfo_to_sql), else it
 * yields NULL. Naive DATETIME values are taken to be UTC; TIMESTAMP values are converted from
 * the session's zone, in which the server hands them over.
 */
export class MysqlDialect extends BaseDialect {
  readonly name = 'mysql' as const
  /** NULL sorts first ascending, last descending */
  override readonly nullOrder = 'low' as const
  override readonly identifierQuote = '`'
  override readonly identifierQuoteClose = '`'
  override readonly schemaIsDatabase = true
  /** utf8mb4_general_ci and most defaults ignore case, accents and trailing spaces. */
  readonly foldsText = true
  override readonly reusesPlaceholders = false

  override placeholder(): string {
    return '?'
  }

  /** `YYYY-MM-DD HH:MM:SS.sss` in UTC: MySQL reads no zone suffix. */
  override instantValue(d: Date): unknown {
    return (
      `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
      `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`
    )
  }

  /**
   * A TIMESTAMP compared with text reads the text as wall-clock time in the session's zone (the
   * token's): the UTC text is converted to that zone first. CONVERT_TZ between an offset and
   * the session zone needs no time zone tables when the session zone is an offset (what the
   * connector sets without them), and leaves a value outside TIMESTAMP's range unchanged.
   */
  readsInSessionZone(nativeType: string): boolean {
    return this.isZoned(nativeType)
  }

  override sessionInstant(placeholder: string): string {
    return `CONVERT_TZ(${placeholder}, '+00:00', @@session.time_zone)`
  }

  /**
   * MySQL/MariaDB string collations (default `utf8mb4_general_ci` / `utf8mb4_0900_ai_ci`) fold
   * case, and PAD SPACE ones ignore trailing spaces: a byte comparison decides, the plain `=`
   * before it keeps the column's index usable.
   */
  override exactEquals(x: () => string, v: () => string): string {
    return `(${x()} = ${v()} AND ${x()} = CAST(${v()} AS BINARY))`
  }

  /** A binary string: any comparison with it is byte for byte (no case folding, no padding). */
  override exactValue(placeholder: string): string {
    return `CAST(${placeholder} AS BINARY)`
  }

  /** `\` is MySQL's default LIKE escape (and a string-literal escape), so no ESCAPE clause. */
  override contains(expr: string, pattern: string): string {
    return `LOWER(${expr}) LIKE ${pattern}`
  }

  override timeGrain(grain: TimeGrain, x: () => string): string {
    switch (grain) {
      case 'hour':
        return `CAST(DATE_FORMAT(${x()}, '%Y-%m-%d %H:00:00') AS DATETIME)`
      case 'day':
        return `CAST(${x()} AS DATE)`
      case 'week':
        return `DATE_SUB(CAST(${x()} AS DATE), INTERVAL WEEKDAY(${x()}) DAY)`
      case 'month':
        return `CAST(DATE_FORMAT(${x()}, '%Y-%m-01') AS DATE)`
      case 'quarter':
        return `MAKEDATE(YEAR(${x()}), 1) + INTERVAL (QUARTER(${x()}) - 1) QUARTER`
      case 'year':
        return `MAKEDATE(YEAR(${x()}), 1)`
    }
  }

  /**
   * A TIMESTAMP column holds an instant and is read in the session's `time_zone` (it arrives as
   * the session's wall clock); a DATETIME is a wall clock with no zone, taken to be UTC.
   */
  override isZoned(nativeType: string): boolean {
    return /^timestamp(\(\d\))?$/i.test(nativeType.trim())
  }

  /**
   * `AVG` of an exact number is a DECIMAL with `div_precision_increment` (4 by default) more places
   * than the column: 4 for an integer, the column's scale + 4 for a DECIMAL(p, s), at most 30
   * (38 on MariaDB); a FLOAT or DOUBLE averages as a double.
   */
  override averageScale(nativeType: string): number | undefined {
    const t = nativeType.trim().toLowerCase()
    if (/^(tinyint|smallint|mediumint|int|integer|bigint|year)\b/.test(t)) return 4
    const m = /^(?:decimal|numeric|dec|fixed)\b\s*(?:\(\s*\d+\s*(?:,\s*(\d+)\s*)?\))?/.exec(t)
    return m ? Math.min(Number(m[1] ?? 0) + 4, 30) : undefined
  }

  override convertTimezone(expr: string, zone: string, nativeType: string): string {
    const from = this.isZoned(nativeType) ? '@@session.time_zone' : "'+00:00'"
    return `CONVERT_TZ(${expr}, ${from}, ${zone})`
  }

  override joinKeyword(type: JoinType): string {
    if (type === 'FULL') throw badRequest('MySQL has no FULL JOIN; change the relationship join type')
    return super.joinKeyword(type)
  }
}
