import type { JoinType, RawSql, Select } from '../../ast.js'
import { BaseDialect, type CompiledSql } from '../base.js'
import { JsonParams, refuse } from './params.js'
import { renderStatement } from './render.js'

/** Escapes the wildcard query's own metacharacters: `*`, `?` and the escape `\`. */
export const escapeWildcard = (text: string): string => text.replace(/[\\*?]/g, (c) => `\\${c}`)

/**
 * Elasticsearch and OpenSearch: not SQL. `render` emits one `_search` request as JSON text
 * (./statement.ts), values as `{"$param": i}` placeholders, identifiers (index and field names)
 * as JSON strings. Shared with BaseDialect only its checks (identifiers, counts); the SQL
 * renderer is never used.
 */
export class ElasticsearchDialect extends BaseDialect {
  readonly name = 'elasticsearch' as const
  /** the connector orders the groups as SQL does: NULL last ascending, first descending */
  override readonly nullOrder = 'high' as const
  /** DATABASE tenancy replaces the index at execution (ExecuteOptions.database), not a qualifier. */
  override readonly schemaIsDatabase = false

  /** A field or index name as a JSON string: exactly one token whatever it holds. */
  override quoteIdentifier(name: string): string {
    super.quoteIdentifier(name)
    return JSON.stringify(name)
  }

  override placeholder(index: number): string {
    return JSON.stringify({ $param: index })
  }

  /** Instants are bound as ISO 8601 strings (`strict_date_optional_time`), UTC. */
  override instantValue(instant: Date): unknown {
    return instant.toISOString()
  }

  /** The `wildcard` value of a case-insensitive substring match (the query sets case_insensitive). */
  override containsPattern(needle: string): string {
    return `*${escapeWildcard(needle)}*`
  }

  override joinKeyword(type: JoinType): string {
    throw refuse(type === 'FULL' ? 'a FULL JOIN' : `a ${type} JOIN`)
  }

  /**
   * The search itself (size 0: aggregations only): a search request has no form that checks
   * its aggregations without running them, and one search is what a dashboard load runs.
   */
  override dryRun(statement: string): readonly [string] {
    return [statement]
  }

  override render(node: Select | RawSql): CompiledSql {
    const ps = new JsonParams((v) => this.bindValue(v))
    const statement = renderStatement(node, ps)
    const sql = JSON.stringify(statement)
    return ps.slots.some((s) => s !== null) ? { sql, params: ps.values, slots: ps.slots } : { sql, params: ps.values }
  }
}
