import { BaseDialect } from './base.js'

/**
 * PostgreSQL (also Redshift, CockroachDB): the base dialect with ILIKE and boolean literals.
 *
 * No string literal this dialect writes contains a backslash, so the SQL means the same whether
 * the server reads backslashes in literals as escapes or not (`standard_conforming_strings = off`,
 * Redshift's only behaviour): the LIKE escape character is `!`, written as `ESCAPE '!'`, and
 * `!`, `%` and `_` are escaped with it in the pattern, which is a bound parameter.
 */
export class PostgresDialect extends BaseDialect {
  readonly name = 'postgres' as const
  /** NULL sorts last ascending, first descending */
  override readonly nullOrder = 'high' as const
  override readonly likeEscape = '!'

  override containsPattern(needle: string): string {
    return `%${this.escapeLike(needle)}%`
  }

  override contains(expr: string, pattern: string): string {
    return `${expr} ILIKE ${pattern} ESCAPE '${this.likeEscape}'`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }
}
