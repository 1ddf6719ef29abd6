/**
 * MongoDB: not SQL. `render` emits one aggregation request as JSON text (request.ts, render.ts)
 * with `{"$param": i}` where bound values go; the connector parses it and binds the values as
 * BSON. Requires MongoDB 4.2+ ($regexMatch) and 5.0+ for time grains ($dateTrunc with a time
 * zone). Identifiers are field and collection names from the introspected schema, checked here
 * (a field with `.` or a leading `$` cannot be addressed by a path and is refused).
 */
import type { JoinType, RawSql, Select } from '../../ast.js'
import type { DialectName } from '../../types.js'
import type { CompiledSql, Dialect } from '../base.js'
import { checkField, lookupJoin, PipelineRenderer, paramRef } from './render.js'

/** Regular-expression metacharacters: escaped so that a contains value matches literally. */
const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g

export class MongodbDialect implements Dialect {
  readonly name: DialectName = 'mongodb'
  /** BSON order: null is below every other value (first ascending, last descending). */
  readonly nullOrder = 'low' as const
  /** A table's schema is its database: DATABASE tenancy names the tenant's database there. */
  readonly schemaIsDatabase = true

  /** A field name as a JSON string (after the checks above); the pipeline holds it as a path. */
  quoteIdentifier(name: string): string {
    return JSON.stringify(checkField(name))
  }

  /** How params[index] appears in the request text. */
  placeholder(index: number): string {
    return JSON.stringify(paramRef(index))
  }

  /** LEFT and INNER joins are `$lookup`; RIGHT and FULL are refused (a 400 naming the JOIN). */
  joinKeyword(type: JoinType): string {
    return lookupJoin(type)
  }

  /** The pipeline behind a `$match` no document passes: the server parses and checks every stage, and returns no rows. */
  dryRun(statement: string): readonly [string] {
    const request = JSON.parse(statement) as { pipeline: unknown[] }
    return [JSON.stringify({ ...request, pipeline: [{ $match: { $expr: false } }, ...request.pipeline] })]
  }

  render(node: Select | RawSql): CompiledSql {
    return new PipelineRenderer((v) => this.bindValue(v)).render(node)
  }

  /** Instants are BSON dates: the connector binds a Date as one. */
  instantValue(instant: Date): unknown {
    return instant
  }

  /** A case-insensitive `$regexMatch` pattern (option `i`) matching `needle` literally. */
  containsPattern(needle: string): string {
    return needle.replace(REGEX_SPECIAL, (c) => `\\${c}`)
  }

  bindValue(value: unknown): unknown {
    return value
  }
}
