import { BaseDialect } from './base.js'

/** PostgreSQL (also Redshift, CockroachDB): the base dialect with ILIKE and boolean literals. */
export class PostgresDialect extends BaseDialect {
  readonly name = 'postgres' as const

  override containsPattern(needle: string): string {
    return `%${this.escapeLike(needle)}%`
  }

  override contains(expr: string, pattern: string): string {
    return `${expr} ILIKE ${pattern} ESCAPE '\\'`
  }

  override booleanCondition(value: boolean): string {
    return value ? 'TRUE' : 'FALSE'
  }
}
