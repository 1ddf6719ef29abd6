import type { TimeGrain } from '../ast.js'
import { assertCount, BaseDialect } from './base.js'

/**
 * Trino (also Amazon Athena engine v3, which speaks Trino SQL). Checked against the Trino
 * documentation (https://trino.io/docs/current/):
 * - identifiers in double quotes, a double quote doubled (language/reserved.html, "Identifiers");
 * - positional `?` parameters (sql/prepare.html, sql/execute.html, sql/execute-immediate.html):
 *   each `?` takes the next value, so values are bound again for every use and GROUP BY uses
 *   ordinals (sql/select.html, "GROUP BY clause": `GROUP BY 1`). Trino's client protocol has no
 *   bind: the connector renders each value as a typed literal (connectors/trino/literals.ts);
 * - `date_trunc(unit, x)` with units hour, day, week, month, quarter, year; `week` is the ISO
 *   week, starting on Monday (functions/datetime.html, "Truncation function");
 * - time zones: `AT TIME ZONE` takes a zone *literal* only (its grammar: `TIME ZONE string`), and
 *   our zone is a parameter, so the function forms are used: `with_timezone(ts, 'UTC')` reads a
 *   naive timestamp as UTC, `at_timezone(tstz, zone)` moves the instant to the zone, and the cast
 *   to `timestamp` keeps its wall-clock time (functions/datetime.html, "Time zone conversion");
 * - varchar `=` compares code points exactly (no collations, no padding for varchar), so the
 *   base `=` is exact (language/types.html, "VARCHAR"); `char(n)` columns pad, as SQL requires;
 * - `LIKE … ESCAPE` exists and there is no ILIKE: LOWER(x) LIKE (functions/comparison.html, "LIKE");
 * - `OFFSET m` comes before `LIMIT n` (sql/select.html: `[ OFFSET count ] [ LIMIT … ]`; the
 *   other order is a syntax error, trinodb/trino#7553);
 * - FULL OUTER JOIN exists (sql/select.html, "Joins");
 * - no implicit coercion from varchar to date or timestamp (language/types.html): date-range
 *   bounds are TrinoTemporal values, rendered as `DATE '…'` / `TIMESTAMP '…'` literals.
 */
/**
 * A date or timestamp given as text, to become a `DATE '…'` / `TIMESTAMP '…'` literal: Trino never
 * compares a varchar with a date or a timestamp (no implicit coercion), so date-range bounds must
 * carry their type. The text is checked again when it is rendered (connectors/trino/literals.ts).
 */
export class TrinoTemporal {
  constructor(
    readonly type: 'DATE' | 'TIMESTAMP',
    readonly text: string,
  ) {}

  toJSON(): string {
    return this.text
  }
}

export class TrinoDialect extends BaseDialect {
  readonly name = 'trino' as const
  /**
   * DATABASE tenancy names a schema of the catalog (trino) or a database of the data catalog
   * (athena, where a database is what Trino calls a schema): the table qualifier is rewritten to it.
   */
  override readonly schemaIsDatabase = true
  override readonly reusesPlaceholders = false

  override placeholder(): string {
    return '?'
  }

  /** A Date: rendered as `TIMESTAMP 'YYYY-MM-DD HH:MM:SS.sss'` in UTC (naive timestamps are UTC here). */
  override instantValue(d: Date): unknown {
    return d
  }

  override dateValue(date: string): unknown {
    return new TrinoTemporal('DATE', date)
  }

  override wallValue(wall: string): unknown {
    return new TrinoTemporal('TIMESTAMP', wall)
  }

  override timeGrain(grain: TimeGrain, x: () => string): string {
    return grain === 'hour' ? `date_trunc('hour', ${x()})` : `CAST(date_trunc('${grain}', ${x()}) AS DATE)`
  }

  override convertTimezone(expr: string, zone: string, nativeType: string): string {
    return this.isZoned(nativeType)
      ? `CAST(at_timezone(${expr}, ${zone}) AS timestamp)`
      : `CAST(at_timezone(with_timezone(${expr}, 'UTC'), ${zone}) AS timestamp)`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }

  override limitClause(limit: number | null, offset: number | null): string {
    let sql = ''
    if (offset !== null && offset > 0) sql += ` OFFSET ${assertCount(offset, 'offset')}`
    if (limit !== null) sql += ` LIMIT ${assertCount(limit, 'limit')}`
    return sql
  }
}
