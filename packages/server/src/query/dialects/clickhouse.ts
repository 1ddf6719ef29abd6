import { badRequest } from '../../errors.js'
import type { TimeGrain } from '../ast.js'
import { BaseDialect } from './base.js'

const GRAIN: Record<TimeGrain, string> = {
  hour: 'toStartOfHour',
  day: 'toDate',
  week: 'toMonday',
  month: 'toStartOfMonth',
  quarter: 'toStartOfQuarter',
  year: 'toStartOfYear',
}

/** The ClickHouse type of a query parameter, from its JS value. */
export function clickhouseType(value: unknown): string {
  if (value === null || value === undefined) return 'Nullable(String)'
  if (typeof value === 'string') return 'String'
  if (typeof value === 'bigint') return 'Int64'
  if (typeof value === 'number') return Number.isSafeInteger(value) ? 'Int64' : 'Float64'
  if (typeof value === 'boolean') return 'UInt8'
  if (value instanceof Date) return 'DateTime64(3)'
  if (Array.isArray(value)) {
    const types = new Set(value.map(clickhouseType))
    if (types.size > 1 && [...types].every((t) => t === 'Int64' || t === 'Float64')) return 'Array(Float64)'
    if (types.size > 1) throw badRequest('A list value must not mix types')
    return `Array(${[...types][0] ?? 'String'})`
  }
  throw badRequest('A value must be a string, number, boolean, date or list')
}

/**
 * ClickHouse: typed named parameters `{p0:String}` (sent as param_p0 by the client), which
 * may repeat, so GROUP BY repeats the expressions (no ordinals: positional GROUP BY is a
 * setting). Identifiers take backslash escapes inside backticks. Requires query parameters
 * (ClickHouse ≥ 19.x); LIKE escapes need ≥ 20.x.
 */
export class ClickhouseDialect extends BaseDialect {
  readonly name = 'clickhouse' as const
  override readonly identifierQuote = '`'
  override readonly identifierQuoteClose = '`'
  override readonly schemaIsDatabase = true
  override readonly groupByOrdinal = false

  override quoteIdentifier(name: string): string {
    super.quoteIdentifier(name)
    return `\`${name.replace(/[\\`]/g, (c) => `\\${c}`)}\``
  }

  override placeholder(index: number, value: unknown): string {
    return `{p${index}:${clickhouseType(value)}}`
  }

  override bindValue(value: unknown): unknown {
    return typeof value === 'boolean' ? (value ? 1 : 0) : value
  }

  override instantValue(d: Date): unknown {
    return d
  }

  /**
   * SUM, AVG, MIN and MAX over no value are NULL in SQL; ClickHouse answers 0 for SUM and the
   * type's default for MIN and MAX. `if(count(x) = 0, NULL, f(x))` says NULL in every version
   * (the -OrNull combinators and aggregate_functions_null_for_empty are newer than 18.x).
   */
  override aggregate(fn: string, arg: string | null): string {
    const plain = super.aggregate(fn, arg)
    return arg === null || fn === 'count' || fn === 'count-distinct' ? plain : `if(count(${arg}) = 0, NULL, ${plain})`
  }

  override contains(expr: string, pattern: string): string {
    return `lowerUTF8(${expr}) LIKE ${pattern}`
  }

  override timeGrain(grain: TimeGrain, x: () => string): string {
    return `${GRAIN[grain]}(${x()})`
  }

  override convertTimezone(expr: string, zone: string): string {
    return `toTimeZone(${expr}, ${zone})`
  }
}
