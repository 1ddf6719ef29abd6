/**
 * WHERE conditions of the AST → query DSL clauses, all in filter context (no scoring):
 * `=` term, `<>` must_not term (+ exists, as SQL excludes NULLs), `<` … `>=` range, IN terms,
 * NOT IN must_not terms (+ exists), IS NULL must_not exists, contains a case-insensitive
 * `wildcard` (`*needle*`, the needle's `*` `?` `\` escaped; a substring match like SQL's
 * LIKE, where match_phrase would follow the analyzer's tokens), AND/OR/NOT bool
 * filter/should/must_not. Ranges on a converted column carry its zone (`time_zone`) and the
 * wall-clock format the compiler binds. Subqueries (`{ sql }` lists, a tenancy table) and raw
 * SQL are refused.
 */
import type { Expr, Param } from '../../ast.js'
import { fieldOf, type JsonParams, keyed, refuse } from './params.js'
import type { Json } from './statement.js'

const RANGE: Record<string, string> = { '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' }
/** How the compiler binds wall-clock boundaries (zoned-time.ts wallString), dates, or instants. */
const WALL_FORMAT = 'yyyy-MM-dd HH:mm:ss||strict_date_optional_time||epoch_millis'

export const MATCH_ALL: Json = { match_all: {} }
export const MATCH_NONE: Json = { match_none: {} }

const exists = (field: string): Json => ({ exists: { field } })
const mustNot = (clause: Json, field?: string): Json => ({
  bool: { ...(field === undefined ? {} : { filter: [exists(field)] }), must_not: [clause] },
})

/** A literal NULL compared with `=`: never true in SQL. */
const isNullParam = (p: Param) => p.value === null && p.slot === undefined

export function condition(e: Expr, alias: string, ps: JsonParams): Json {
  switch (e.kind) {
    case 'exact-eq': {
      const { field } = fieldOf(e.expr, alias)
      return { term: keyed(field, { value: ps.add(e.value) }) }
    }
    case 'compare': {
      if (e.right.kind !== 'param') throw refuse('a comparison of two columns')
      const ref = fieldOf(e.left, alias)
      if (isNullParam(e.right)) return MATCH_NONE
      const value = ps.add(e.right)
      if (e.op === '=') return { term: keyed(ref.field, { value }) }
      if (e.op === '<>') return mustNot({ term: keyed(ref.field, { value }) }, ref.field)
      const bound: Record<string, Json> = { [RANGE[e.op] as string]: value }
      if (ref.zone !== undefined) {
        bound.time_zone = ps.add(ref.zone)
        bound.format = WALL_FORMAT
      }
      return { range: keyed(ref.field, bound) }
    }
    case 'in': {
      if (e.values.length === 0) return e.negated ? MATCH_ALL : MATCH_NONE
      const { field } = fieldOf(e.expr, alias)
      const clause = {
        terms: keyed(
          field,
          e.values.map((v) => ps.add(v)),
        ),
      }
      return e.negated ? mustNot(clause, field) : clause
    }
    case 'is-null': {
      const { field } = fieldOf(e.expr, alias)
      return e.negated ? exists(field) : mustNot(exists(field))
    }
    case 'contains': {
      const { field } = fieldOf(e.expr, alias)
      return { wildcard: keyed(field, { value: ps.add(e.pattern), case_insensitive: true }) }
    }
    case 'and':
      return { bool: { filter: e.items.map((i) => condition(i, alias, ps)) } }
    case 'or':
      return { bool: { should: e.items.map((i) => condition(i, alias, ps)), minimum_should_match: 1 } }
    case 'not':
      return mustNot(condition(e.expr, alias, ps))
    case 'bool':
      return e.value ? MATCH_ALL : MATCH_NONE
    case 'in-subquery':
      throw refuse('a subquery (a { sql, columnName } list or a tenancy table)')
    case 'raw':
      throw refuse('a SQL condition')
    default:
      throw refuse(`a condition of kind ${e.kind}`)
  }
}

/** The conditions of a WHERE, a top-level AND flattened into one list. */
export function conditions(where: Expr | null, alias: string, ps: JsonParams): Json[] {
  if (where === null) return []
  if (where.kind === 'and') return where.items.map((i) => condition(i, alias, ps))
  return [condition(where, alias, ps)]
}
