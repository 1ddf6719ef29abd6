/**
 * The SQL AST the metric compiler builds and a dialect renders. Every node is immutable and
 * tagged by `kind`. Values live only in `param` nodes (rendered as placeholders, collected
 * into `params`); identifiers live only in `column`/`table`/`alias` nodes (quoted by the
 * dialect); `raw` carries trusted SQL text written by a secret-key holder (custom columns,
 * SQL metrics, SQL-driven filter lists) and nothing else.
 */
import { Bound, type Scalar, type Slot } from './bind.js'

export type TimeGrain = 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year'
export type AggregateFn = 'sum' | 'count' | 'count-distinct' | 'avg' | 'min' | 'max'
export type JoinType = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL'
export type CompareOp = '=' | '<>' | '<' | '<=' | '>' | '>='
export type Direction = 'asc' | 'desc'

export interface ColumnRef {
  readonly kind: 'column'
  /** The table alias in the query (t0, t1 …), never a user string. */
  readonly table: string
  readonly column: string
}
/** A reference to an output column by its alias (ORDER BY). */
export interface AliasRef {
  readonly kind: 'alias'
  readonly name: string
}
/**
 * Trusted SQL text, only ever from the model or a secret-key holder's document (custom
 * columns, SQL metrics, SQL-driven lists), with bound parameters between its pieces, and
 * (SQL metrics) parenthesised subqueries in place of its table references.
 */
export interface RawSql {
  readonly kind: 'raw'
  readonly parts: readonly (string | Param | Select)[]
}
export interface Param {
  readonly kind: 'param'
  readonly value: unknown
  /** Made from a request value (see bind.ts): the statement binds that slot's value per request. */
  readonly slot?: Slot
  /**
   * In trusted raw SQL: every comparison with this value must be exact (the tenant's clientId
   * in a SQL metric), so dialects whose collations fold case or pad spaces bind it as bytes.
   */
  readonly exact?: true
  /**
   * An instant compared with a column the engine reads in the session's time zone (a MySQL
   * TIMESTAMP): the value is UTC, and dialects whose engine would read it as session wall-clock
   * time convert it (Dialect.sessionInstant).
   */
  readonly sessionZoned?: true
}
export interface Aggregate {
  readonly kind: 'aggregate'
  readonly fn: AggregateFn
  /** null: COUNT(*) */
  readonly arg: Expr | null
}
/**
 * A measure read back from pre-aggregated columns (a rollup): sum and min/max as they are,
 * count as the sum of the counts (0 over no rows, an integer), avg as the sum of the sums over
 * the sum of the counts.
 */
export interface Reaggregate {
  readonly kind: 'reaggregate'
  readonly fn: ReaggregateFn
  /** The column it reads; avg: the sum's, then the count's. */
  readonly args: readonly Expr[]
  /** avg: the decimal places the warehouse's own average has (Dialect.averageScale), rounded to as it rounds. */
  readonly scale?: number
}
export type ReaggregateFn = 'sum' | 'count' | 'min' | 'max' | 'avg'
export interface TimeGrainExpr {
  readonly kind: 'time-grain'
  readonly grain: TimeGrain
  readonly expr: Expr
}
/** Converts a timestamp to wall-clock time in an IANA zone (bound as a parameter). */
export interface TimezoneExpr {
  readonly kind: 'timezone'
  readonly expr: Expr
  readonly zone: Param
  /** The column's native type, so a dialect can tell naive from zoned timestamps. */
  readonly nativeType: string
}
export interface Compare {
  readonly kind: 'compare'
  readonly op: CompareOp
  readonly left: Expr
  readonly right: Expr
}
/**
 * `expr` equal to `value` exactly: same characters, same case, same trailing spaces, whatever
 * the column's collation. Tenancy compares with this (a case-insensitive or space-padding
 * collation would otherwise give clientId `ACME` or `acme ` the rows of `acme`).
 */
export interface ExactEquals {
  readonly kind: 'exact-eq'
  readonly expr: Expr
  readonly value: Param
  /** The column's native type, where known: a dialect may compare in its type (index, pruning). */
  readonly nativeType?: string
}
export interface InList {
  readonly kind: 'in'
  readonly expr: Expr
  readonly values: readonly Param[]
  readonly negated: boolean
}
export interface IsNull {
  readonly kind: 'is-null'
  readonly expr: Expr
  readonly negated: boolean
}
/** Case-insensitive substring match; `pattern` holds the already escaped LIKE pattern. */
export interface Contains {
  readonly kind: 'contains'
  readonly expr: Expr
  readonly pattern: Param
}
/** `expr IN (SELECT s.column FROM (source) AS s)` */
export interface InSubquery {
  readonly kind: 'in-subquery'
  readonly expr: Expr
  readonly source: RawSql | Select
  readonly column: string
}
export interface Logical {
  readonly kind: 'and' | 'or'
  readonly items: readonly Expr[]
}
export interface Not {
  readonly kind: 'not'
  readonly expr: Expr
}
export interface BoolConst {
  readonly kind: 'bool'
  readonly value: boolean
}

export type Expr =
  | ColumnRef
  | AliasRef
  | RawSql
  | Param
  | Aggregate
  | Reaggregate
  | TimeGrainExpr
  | TimezoneExpr
  | Compare
  | ExactEquals
  | InList
  | IsNull
  | Contains
  | InSubquery
  | Logical
  | Not
  | BoolConst

export interface SelectItem {
  readonly kind: 'item'
  readonly expr: Expr
  readonly alias: string
}
export interface Star {
  readonly kind: 'star'
}
export interface TableSource {
  readonly kind: 'table'
  /** null: unqualified (the session's database/schema). */
  readonly schema: string | null
  readonly name: string
  readonly alias: string
}
export interface DerivedSource {
  readonly kind: 'derived'
  readonly select: Select | RawSql
  readonly alias: string
}
export type Source = TableSource | DerivedSource

export interface Join {
  readonly kind: 'join'
  readonly type: JoinType
  readonly source: Source
  readonly on: Expr
}
export interface OrderItem {
  readonly kind: 'order'
  readonly expr: Expr
  readonly direction: Direction
}
export interface Select {
  readonly kind: 'select'
  readonly items: readonly (SelectItem | Star)[]
  readonly from: Source
  readonly joins: readonly Join[]
  readonly where: Expr | null
  /** Indexes into `items`; a dialect renders ordinals or repeats the expressions. */
  readonly groupBy: readonly number[]
  readonly orderBy: readonly OrderItem[]
  readonly limit: number | null
  readonly offset: number | null
}

const freeze = <T extends object>(node: T): T => Object.freeze(node)

export const col = (table: string, column: string): ColumnRef => freeze({ kind: 'column', table, column })
export const aliasRef = (name: string): AliasRef => freeze({ kind: 'alias', name })
export const raw = (...parts: (string | Param | Select)[]): RawSql =>
  freeze({ kind: 'raw', parts: Object.freeze(parts) })
/** A bound value; a request's value (`Bound`) keeps its slot, so the statement can be rebound. */
export const param = (value: unknown): Param =>
  value instanceof Bound
    ? freeze({ kind: 'param', value: value.value, slot: { index: value.slot } })
    : freeze({ kind: 'param', value })
/** A value made from a request value by `map` (a LIKE pattern, say), rebound the same way. */
export const mappedParam = (value: Scalar | Bound, map: (value: Scalar) => unknown): Param =>
  value instanceof Bound
    ? freeze({ kind: 'param', value: map(value.value), slot: { index: value.slot, map } })
    : freeze({ kind: 'param', value: map(value) })
export const exactParam = (value: unknown): Param => freeze({ ...param(value), exact: true })
/** A UTC instant compared with a column read in the session's zone (see Param.sessionZoned). */
export const sessionZonedParam = (value: unknown): Param => freeze({ ...param(value), sessionZoned: true })
export const agg = (fn: AggregateFn, arg: Expr | null): Aggregate => freeze({ kind: 'aggregate', fn, arg })
export const reaggregate = (fn: ReaggregateFn, args: readonly Expr[], scale?: number): Reaggregate =>
  freeze({ kind: 'reaggregate', fn, args: Object.freeze([...args]), ...(scale !== undefined ? { scale } : {}) })
export const grain = (g: TimeGrain, expr: Expr): TimeGrainExpr => freeze({ kind: 'time-grain', grain: g, expr })
export const inZone = (expr: Expr, zone: Param, nativeType: string): TimezoneExpr =>
  freeze({ kind: 'timezone', expr, zone, nativeType })
export const cmp = (op: CompareOp, left: Expr, right: Expr): Compare => freeze({ kind: 'compare', op, left, right })
export const exactEq = (expr: Expr, value: Param, nativeType?: string): ExactEquals =>
  freeze(nativeType === undefined ? { kind: 'exact-eq', expr, value } : { kind: 'exact-eq', expr, value, nativeType })
export const inList = (expr: Expr, values: readonly Param[], negated = false): InList =>
  freeze({ kind: 'in', expr, values: Object.freeze([...values]), negated })
export const isNull = (expr: Expr, negated = false): IsNull => freeze({ kind: 'is-null', expr, negated })
export const contains = (expr: Expr, pattern: Param): Contains => freeze({ kind: 'contains', expr, pattern })
export const inSubquery = (expr: Expr, source: RawSql | Select, column: string): InSubquery =>
  freeze({ kind: 'in-subquery', expr, source, column })
export const not = (expr: Expr): Not => freeze({ kind: 'not', expr })
export const bool = (value: boolean): BoolConst => freeze({ kind: 'bool', value })

/** AND of the conditions; null when there are none, the condition itself when there is one. */
export function and(items: readonly (Expr | null)[]): Expr | null {
  const present = items.filter((e): e is Expr => e !== null)
  if (present.length === 0) return null
  if (present.length === 1) return present[0] ?? null
  return freeze<Logical>({ kind: 'and', items: Object.freeze(present) })
}
export function or(items: readonly Expr[]): Expr {
  if (items.length === 0) return bool(false)
  if (items.length === 1) return items[0] as Expr
  return freeze<Logical>({ kind: 'or', items: Object.freeze([...items]) })
}

export const item = (expr: Expr, alias: string): SelectItem => freeze({ kind: 'item', expr, alias })
export const star = (): Star => freeze({ kind: 'star' })
export const table = (schema: string | null, name: string, alias: string): TableSource =>
  freeze({ kind: 'table', schema, name, alias })
export const derived = (select: Select | RawSql, alias: string): DerivedSource =>
  freeze({ kind: 'derived', select, alias })
export const join = (type: JoinType, source: Source, on: Expr): Join => freeze({ kind: 'join', type, source, on })
export const order = (expr: Expr, direction: Direction): OrderItem => freeze({ kind: 'order', expr, direction })

export function select(parts: Partial<Omit<Select, 'kind' | 'from'>> & { from: Source }): Select {
  return freeze({
    kind: 'select',
    items: Object.freeze([...(parts.items ?? [star()])]),
    from: parts.from,
    joins: Object.freeze([...(parts.joins ?? [])]),
    where: parts.where ?? null,
    groupBy: Object.freeze([...(parts.groupBy ?? [])]),
    orderBy: Object.freeze([...(parts.orderBy ?? [])]),
    limit: parts.limit ?? null,
    offset: parts.offset ?? null,
  })
}
