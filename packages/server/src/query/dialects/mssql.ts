import type { TimeGrain } from '../ast.js'
import { assertCount, BaseDialect } from './base.js'
import { windowsZone } from './mssql-zones.js'

/**
 * SQL Server (2012+): `[name]`, named `@p0` parameters (reusable, so GROUP BY repeats the
 * expressions: T-SQL has no GROUP BY ordinals), OFFSET … FETCH with a mandatory ORDER BY,
 * DATEFROMPARTS-based grains (DATETRUNC is 2022+ only). `AT TIME ZONE` takes Windows zone
 * names (`W. Europe Standard Time`): the token's IANA zone is bound as its Windows name from
 * CLDR's table (mssql-zones.ts), and a zone without one is a 400 before anything runs.
 */
export class MssqlDialect extends BaseDialect {
  readonly name = 'mssql' as const
  /** NULL sorts first ascending, last descending */
  override readonly nullOrder = 'low' as const
  /** The default collations ignore case, and `=` ignores trailing spaces under every collation. */
  readonly foldsText = true
  override readonly identifierQuote = '['
  override readonly identifierQuoteClose = ']'
  override readonly groupByOrdinal = false
  override readonly offsetNeedsOrderBy = true

  override placeholder(index: number): string {
    return `@p${index}`
  }

  override instantValue(d: Date): unknown {
    return d
  }

  override zoneValue(zone: string): unknown {
    return windowsZone(zone)
  }

  /**
   * SQL Server's default collations fold case, and `=` ignores trailing spaces under every
   * collation: compare in a binary collation and compare lengths with a sentinel appended
   * (LEN drops trailing spaces). CONVERT/CONCAT keep it valid for a numeric client column.
   */
  override exactEquals(x: () => string, v: () => string): string {
    const text = (e: string) => `CONVERT(nvarchar(4000), ${e}) COLLATE Latin1_General_100_BIN2`
    return `(${x()} = ${v()} AND ${text(x())} = ${text(v())} AND LEN(CONCAT(${x()}, N'.')) = LEN(CONCAT(${v()}, N'.')))`
  }

  /** `[` opens a character class in T-SQL LIKE. */
  override escapeLike(text: string): string {
    return text.replace(/[\\%_[]/g, (c) => `\\${c}`)
  }

  override timeGrain(grain: TimeGrain, x: () => string): string {
    switch (grain) {
      case 'hour':
        return `DATEADD(hour, DATEDIFF(hour, 0, ${x()}), 0)`
      case 'day':
        return `CAST(${x()} AS date)`
      case 'week':
        return `DATEADD(day, -((DATEPART(weekday, ${x()}) + @@DATEFIRST + 5) % 7), CAST(${x()} AS date))`
      case 'month':
        return `DATEFROMPARTS(YEAR(${x()}), MONTH(${x()}), 1)`
      case 'quarter':
        return `DATEFROMPARTS(YEAR(${x()}), (DATEPART(quarter, ${x()}) - 1) * 3 + 1, 1)`
      case 'year':
        return `DATEFROMPARTS(YEAR(${x()}), 1, 1)`
    }
  }

  override convertTimezone(expr: string, zone: string, nativeType: string): string {
    return this.isZoned(nativeType)
      ? `CAST(${expr} AT TIME ZONE ${zone} AS datetime2)`
      : `CAST((${expr} AT TIME ZONE 'UTC') AT TIME ZONE ${zone} AS datetime2)`
  }

  override aggregate(fn: string, arg: string | null): string {
    // AVG of an int column is integer division in T-SQL.
    return fn === 'avg' && arg !== null ? `AVG(CAST(${arg} AS float))` : super.aggregate(fn, arg)
  }

  override limitClause(limit: number | null, offset: number | null): string {
    if (limit === null && (offset === null || offset === 0)) return ''
    let sql = ` OFFSET ${assertCount(offset ?? 0, 'offset')} ROWS`
    if (limit !== null) sql += ` FETCH NEXT ${assertCount(limit, 'limit')} ROWS ONLY`
    return sql
  }
}
