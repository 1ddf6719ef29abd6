import { BaseDialect } from './base.js'

/**
 * Firebolt (its PostgreSQL-compliant SQL, checked against docs.firebolt.io):
 * - identifiers in double quotes (reference-sql/lexical-structure/object-identifiers: "Any object
 *   identifier that contains special characters, spaces, or are case-sensitive must be enclosed in
 *   double quotes"); an embedded `"` is doubled, the PostgreSQL rule Firebolt's parser follows
 *   (the page names no other escape, and unquoted names fold to lower case, so we always quote);
 * - placeholders `$1…$n`: server-side prepared statements (firebolt-sdk
 *   `preparedStatementParamStyle: 'fb_numeric'`, sent as the `query_parameters` setting);
 *   a `$n` may repeat, so the base dialect's reuse and `GROUP BY 1` ordinals stay;
 * - `DATE_TRUNC('<unit>', x)` on DATE, TIMESTAMP and TIMESTAMPTZ
 *   (functions-reference/date-and-time/date-trunc); weeks start on Monday (its example:
 *   `DATE_TRUNC('week', TIMESTAMPTZ '1996-09-03 …')` gives 1996-09-02, a Monday), as in the base;
 * - `AT TIME ZONE` as in PostgreSQL (data-types/timestamptz, "AT TIME ZONE": TIMESTAMP AT TIME
 *   ZONE z → TIMESTAMPTZ read as local time in z; TIMESTAMPTZ AT TIME ZONE z → the wall-clock
 *   TIMESTAMP in z), so the base conversion applies: a naive TIMESTAMP is read as UTC first;
 * - `=` on TEXT compares the byte sequences (guides/sql-dialect/collations: "Firebolt checks
 *   whether the underlying byte sequences are the same"): exact, no case folding or padding;
 * - "contains" is `STRPOS(LOWER(x), LOWER($n)) > 0` (functions-reference/string/strpos and
 *   lower; case folding of ASCII letters only, the POSIX locale, as ILIKE's): Firebolt documents
 *   `<expression> ILIKE '<pattern>'` with `%` and `_` as wildcards and no escape character or
 *   ESCAPE clause, so a needle holding `%` or `_` could not be matched literally by ILIKE on
 *   documented behaviour; STRPOS takes the needle as plain text (bound, never escaped);
 * - `LIMIT n OFFSET m` and `TRUE`/`FALSE` as in PostgreSQL.
 */
export class FireboltDialect extends BaseDialect {
  readonly name = 'firebolt' as const

  /** The needle itself: STRPOS has no wildcards to escape. */
  override containsPattern(needle: string): string {
    return needle
  }

  override contains(expr: string, needle: string): string {
    return `STRPOS(LOWER(${expr}), LOWER(${needle})) > 0`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }
}
