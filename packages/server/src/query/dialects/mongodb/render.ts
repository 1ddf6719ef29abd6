/**
 * Select AST → one MongoDB aggregation request (request.ts). The shape, in order:
 *   tenant `$match` (first stage, also first in every `$lookup` sub-pipeline of a tenant table)
 *   → `$replaceRoot {t0: $$ROOT}` and `$lookup` + `$unwind` per join (LEFT / INNER only)
 *   → `$match {$expr}` (the conditions, with SQL's three-valued logic)
 *   → `$group` (+ `$facet` for an ungrouped aggregate, which must yield one row on no input)
 *     or `$project` of plain rows → `$sort` → `$skip` → `$limit`.
 * What a pipeline cannot say (raw SQL, a tenancy table subquery, RIGHT/FULL joins, joins across
 * databases) is refused with a 400 naming it.
 */
import { type ApiError, badRequest } from '../../../errors.js'
import type {
  Aggregate,
  Expr,
  Join,
  JoinType,
  Param,
  RawSql,
  Select,
  SelectItem,
  Source,
  TableSource,
} from '../../ast.js'
import type { Slot } from '../../bind.js'
import type { CompiledSql } from '../base.js'
import { type Json, type MongoRequest, outputField, PARAM_KEY, SESSION_TIMEZONE } from './request.js'

type Obj = { [key: string]: Json }

/** A field name usable in a path: MongoDB reads `.` as nesting and a leading `$` as an operator. */
export function checkField(name: string): string {
  if (typeof name !== 'string' || name.length === 0) throw badRequest('An identifier must not be empty')
  if (name.includes('\u0000')) throw badRequest('An identifier must not contain a NUL character')
  if (name.includes('.') || name.startsWith('$')) {
    throw badRequest(`MongoDB field "${name.slice(0, 64)}" cannot be queried: it contains "." or starts with "$"`)
  }
  return name
}

function checkCollection(name: string): string {
  if (name.length === 0 || name.includes('\u0000') || name.startsWith('$')) {
    throw badRequest(`MongoDB collection "${name.slice(0, 64)}" cannot be queried`)
  }
  return name
}

/** The one kind of join a pipeline has: `$lookup` (+ `$unwind`), LEFT or INNER. */
export function lookupJoin(type: JoinType): '$lookup' {
  if (type !== 'LEFT' && type !== 'INNER') throw refuse(`a ${type} JOIN`)
  return '$lookup'
}

/** `{"$param": i}`: where params[i] goes. */
export const paramRef = (index: number): Obj => ({ [PARAM_KEY]: index })

const refuse = (what: string): ApiError =>
  badRequest(`MongoDB datasources cannot run ${what}: a metric on MongoDB compiles to an aggregation pipeline`)

const GRAIN_FORMAT = '%Y-%m-%d'
const WALL_FORMAT = '%Y-%m-%d %H:%M:%S'
const INVERSE = { '=': '<>', '<>': '=', '<': '>=', '<=': '>', '>': '<=', '>=': '<' } as const
const OPERATOR = { '=': '$eq', '<>': '$ne', '<': '$lt', '<=': '$lte', '>': '$gt', '>=': '$gte' } as const

/** `x` is neither null nor missing ($ifNull turns a missing field into null). */
const notNull = (x: Json): Json => ({ $ne: [{ $ifNull: [x, null] }, null] })
const isNullish = (x: Json): Json => ({ $eq: [{ $ifNull: [x, null] }, null] })

interface Base {
  readonly table: TableSource
  /** The tenant `$match` of this table, if it is tenant-scoped. */
  readonly tenant: Json | null
}

export class PipelineRenderer {
  readonly params: unknown[] = []
  readonly slots: (Slot | null)[] = []
  private readonly seen = new Map<Param, number>()
  /** Path prefix of each table alias: '' without joins, 't0.' … with them. */
  private prefixes = new Map<string, string>()

  constructor(private readonly bindValue: (value: unknown) => unknown) {}

  render(node: Select | RawSql): CompiledSql {
    if (node.kind === 'raw') throw refuse('a SQL metric')
    const request = this.request(node)
    const sql = JSON.stringify(request)
    return this.slots.some((s) => s !== null)
      ? { sql, params: this.params, slots: this.slots }
      : { sql, params: this.params }
  }

  private request(s: Select): MongoRequest {
    const from = s.from
    if (from.kind === 'derived' && from.select.kind === 'select' && !isTenantWrapper(from.select)) {
      // The compiler's count: SELECT COUNT(*) FROM (inner) q → the inner pipeline, then one aggregate row.
      const inner = this.request(from.select)
      if (s.joins.length > 0 || s.where !== null || !s.items.every((i) => i.kind === 'item' && isCountStar(i.expr))) {
        throw refuse('this query over a subquery')
      }
      const items = s.items as readonly SelectItem[]
      return {
        ...inner,
        pipeline: [...inner.pipeline, ...this.ungrouped(items)],
        columns: items.map((i) => i.alias),
      }
    }
    const base = this.base(from)
    const pipeline: Json[] = []
    if (base.tenant !== null) pipeline.push(base.tenant)
    this.prefixes = new Map([[from.alias, s.joins.length > 0 ? `${from.alias}.` : '']])
    if (s.joins.length > 0) {
      pipeline.push({ $replaceRoot: { newRoot: { [from.alias]: '$$ROOT' } } })
      for (const j of s.joins) pipeline.push(...this.lookup(j, base.table))
    }
    if (s.where !== null) pipeline.push({ $match: { $expr: this.cond(s.where, true) } })
    const items = s.items.map((i) => {
      if (i.kind === 'star') throw refuse('SELECT *')
      return i
    })
    const aggregates = items.some((i) => i.expr.kind === 'aggregate')
    if (s.groupBy.length > 0) pipeline.push(...this.grouped(items, s.groupBy))
    else if (aggregates) pipeline.push(...this.ungrouped(items))
    else pipeline.push({ $project: { _id: 0, ...fields(items.map((i) => ({ $ifNull: [this.val(i.expr), null] }))) } })
    if (s.orderBy.length > 0) {
      const sort: Obj = {}
      for (const o of s.orderBy) {
        const at = o.expr.kind === 'alias' ? items.findIndex((i) => i.alias === (o.expr as { name: string }).name) : -1
        if (at < 0) throw refuse('ORDER BY of an expression')
        sort[outputField(at)] = o.direction === 'asc' ? 1 : -1
      }
      pipeline.push({ $sort: sort })
    }
    if (s.offset !== null && s.offset > 0) pipeline.push({ $skip: count(s.offset, 'offset') })
    if (s.limit !== null) {
      // $limit must be positive: a limit of 0 is a stage that lets nothing through.
      pipeline.push(count(s.limit, 'limit') === 0 ? { $match: { $expr: false } } : { $limit: s.limit })
    }
    return {
      ...(base.table.schema === null ? {} : { database: base.table.schema }),
      collection: checkCollection(base.table.name),
      pipeline,
      columns: items.map((i) => i.alias),
    }
  }

  /** A table, or the compiler's tenant wrapper `(SELECT * FROM t WHERE t.client = :id) AS tN`. */
  private base(src: Source): Base {
    if (src.kind === 'table') return { table: src, tenant: null }
    const inner = src.select
    if (inner.kind === 'raw') throw refuse('a SQL subquery')
    if (!isTenantWrapper(inner)) throw refuse('a custom SQL column')
    const table = inner.from as TableSource
    const where = inner.where
    if (where === null) return { table, tenant: null }
    if (where.kind === 'in-subquery') throw refuse('TABLE tenancy through a tenancy table (a subquery)')
    if (where.kind !== 'exact-eq' || where.expr.kind !== 'column') throw refuse('this tenant condition')
    // Query form (not $expr): a literal comparison the server can answer from an index.
    return { table, tenant: { $match: { [checkField(where.expr.column)]: { $eq: this.param(where.value) } } } }
  }

  private lookup(j: Join, root: TableSource): Json[] {
    lookupJoin(j.type)
    const { table, tenant } = this.base(j.source)
    if (table.schema !== root.schema) throw refuse('a join across databases')
    const on = j.on
    if (on.kind !== 'compare' || on.op !== '=' || on.left.kind !== 'column' || on.right.kind !== 'column') {
      throw refuse('this join condition')
    }
    const key = this.val(on.left)
    const alias = j.source.alias
    const match = { $match: { $expr: { $and: [notNull('$$k'), { $eq: [`$${checkField(on.right.column)}`, '$$k'] }] } } }
    this.prefixes.set(alias, `${alias}.`)
    return [
      {
        $lookup: {
          from: checkCollection(table.name),
          let: { k: key },
          pipeline: tenant === null ? [match] : [tenant, match],
          as: alias,
        },
      },
      { $unwind: { path: `$${alias}`, preserveNullAndEmptyArrays: j.type === 'LEFT' } },
    ]
  }

  private grouped(items: readonly SelectItem[], groupBy: readonly number[]): Json[] {
    const id: Obj = {}
    const group: Obj = {}
    const out: Json[] = []
    items.forEach((it, i) => {
      if (groupBy.includes(i)) {
        id[`k${i}`] = { $ifNull: [this.val(it.expr), null] }
        out.push(`$_id.k${i}`)
      } else if (it.expr.kind === 'aggregate') {
        out.push(this.accumulate(it.expr, i, group))
      } else {
        throw refuse('a selected column that is neither grouped nor aggregated')
      }
    })
    return [{ $group: { _id: id, ...group } }, { $project: { _id: 0, ...fields(out) } }]
  }

  /**
   * Aggregates without GROUP BY yield exactly one row, also over no rows (COUNT 0, SUM NULL):
   * `$facet` always emits one document, and an empty group result falls back to those values.
   */
  private ungrouped(items: readonly SelectItem[]): Json[] {
    const group: Obj = {}
    const out: Json[] = []
    const empty: Json[] = []
    items.forEach((it, i) => {
      if (it.expr.kind !== 'aggregate') throw refuse('a selected column that is neither grouped nor aggregated')
      out.push(this.accumulate(it.expr, i, group))
      empty.push(it.expr.fn === 'count' || it.expr.fn === 'count-distinct' ? 0 : null)
    })
    return [
      { $facet: { r: [{ $group: { _id: null, ...group } }, { $project: { _id: 0, ...fields(out) } }] } },
      { $replaceRoot: { newRoot: { $ifNull: [{ $arrayElemAt: ['$r', 0] }, { $literal: fields(empty) }] } } },
    ]
  }

  /** Adds the accumulators of aggregate `i` to `group`; returns its final value (a $project expression). */
  private accumulate(a: Aggregate, i: number, group: Obj): Json {
    const acc = `a${i}`
    if (a.arg === null) {
      group[acc] = { $sum: 1 }
      return `$${acc}`
    }
    const x = this.val(a.arg)
    const present = { $cond: [notNull(x), 1, 0] }
    switch (a.fn) {
      case 'count':
        group[acc] = { $sum: present }
        return `$${acc}`
      case 'count-distinct':
        group[acc] = { $addToSet: { $ifNull: [x, null] } }
        return { $size: { $filter: { input: `$${acc}`, as: 'v', cond: { $ne: ['$$v', null] } } } }
      case 'sum':
        // $sum of no values is 0; SQL's SUM is NULL then.
        group[acc] = { $sum: x }
        group[`n${i}`] = { $sum: present }
        return { $cond: [{ $gt: [`$n${i}`, 0] }, `$${acc}`, null] }
      case 'avg':
      case 'min':
      case 'max':
        group[acc] = { [`$${a.fn}`]: x }
        return `$${acc}`
    }
  }

  /** A value expression (aggregation expression language). */
  private val(e: Expr): Json {
    switch (e.kind) {
      case 'column': {
        const prefix = this.prefixes.get(e.table)
        if (prefix === undefined) throw refuse(`a column of an unknown table ${e.table}`)
        return `$${prefix}${checkField(e.column)}`
      }
      case 'param':
        return { $literal: this.param(e) }
      case 'timezone':
        // Wall-clock time in the zone, as the text ranges on converted columns compare with.
        return { $dateToString: { date: this.val(e.expr), format: WALL_FORMAT, timezone: this.val(e.zone) } }
      case 'time-grain': {
        const converted = e.expr.kind === 'timezone'
        const date = e.expr.kind === 'timezone' ? this.val(e.expr.expr) : this.val(e.expr)
        const timezone = e.expr.kind === 'timezone' ? this.val(e.expr.zone) : SESSION_TIMEZONE
        const trunc = {
          $dateTrunc: { date, unit: e.grain, timezone, ...(e.grain === 'week' ? { startOfWeek: 'monday' } : {}) },
        }
        if (e.grain !== 'hour') return { $dateToString: { date: trunc, format: GRAIN_FORMAT, timezone } }
        // hour: an instant (rendered in the session zone), or a wall-clock hour of a converted column
        return converted ? { $dateToString: { date: trunc, format: '%Y-%m-%dT%H:00:00', timezone } } : trunc
      }
      case 'raw':
        throw refuse('a custom SQL column')
      case 'aggregate':
        throw refuse('an aggregate inside an expression')
      default:
        return this.cond(e, true)
    }
  }

  /**
   * A condition as an expression that is true exactly when SQL's is TRUE (`positive`) or FALSE
   * (not `positive`): NULL compares as unknown, which neither side includes, as in SQL.
   */
  private cond(e: Expr, positive: boolean): Json {
    switch (e.kind) {
      case 'compare':
      case 'exact-eq': {
        const [op, left, right] = e.kind === 'compare' ? [e.op, e.left, e.right] : (['=', e.expr, e.value] as const)
        if (isNullParam(left) || isNullParam(right)) return false
        const l = this.val(left)
        const r = this.val(right)
        const guards = [notNull(l), ...(right.kind === 'param' ? [] : [notNull(r)])]
        return { $and: [...guards, { [OPERATOR[positive ? op : INVERSE[op]]]: [l, r] }] }
      }
      case 'in': {
        if (e.values.length === 0) return positive === e.negated
        const inside = positive !== e.negated
        const present = e.values.filter((v) => !isNullParam(v))
        // x NOT IN (…, NULL) is never TRUE; x IN (…, NULL) is TRUE only through the other values
        if (!inside && present.length < e.values.length) return false
        const x = this.val(e.expr)
        const list = { $in: [x, present.map((v) => this.val(v))] }
        return { $and: [notNull(x), inside ? list : { $not: [list] }] }
      }
      case 'is-null': {
        const x = this.val(e.expr)
        return positive !== e.negated ? isNullish(x) : notNull(x)
      }
      case 'contains': {
        const x = this.val(e.expr)
        const match = { $regexMatch: { input: x, regex: this.val(e.pattern), options: 'i' } }
        return { $and: [{ $eq: [{ $type: x }, 'string'] }, positive ? match : { $not: [match] }] }
      }
      case 'and':
      case 'or': {
        const op = (e.kind === 'and') === positive ? '$and' : '$or'
        return { [op]: e.items.map((i) => this.cond(i, positive)) }
      }
      case 'not':
        return this.cond(e.expr, !positive)
      case 'bool':
        return e.value === positive
      case 'in-subquery':
        throw refuse(e.source.kind === 'raw' ? 'a SQL-driven list ({ sql, columnName })' : 'a subquery')
      case 'raw':
        throw refuse('a custom SQL condition')
      default:
        throw refuse(`a ${e.kind} as a condition`)
    }
  }

  /** `{"$param": i}`: the connector puts params[i] here as a BSON value. */
  private param(p: Param): Json {
    let index = this.seen.get(p)
    if (index === undefined) {
      index = this.params.length
      this.params.push(this.bindValue(p.value))
      this.slots.push(p.slot ?? null)
      this.seen.set(p, index)
    }
    return paramRef(index)
  }
}

/** The compiler's tenant/custom-column wrapper: `SELECT * [, customs] FROM table [WHERE …]`. */
function isTenantWrapper(s: Select): boolean {
  return (
    s.from.kind === 'table' &&
    s.joins.length === 0 &&
    s.groupBy.length === 0 &&
    s.items.length > 0 &&
    s.items[0]?.kind === 'star' &&
    s.items.slice(1).every((i) => i.kind === 'item' && i.expr.kind === 'raw') &&
    // customs are SQL: refused where they are met
    (s.items.length === 1 || (() => refuseCustom())())
  )
}

function refuseCustom(): never {
  throw refuse('a custom SQL column')
}

const isCountStar = (e: Expr) => e.kind === 'aggregate' && e.fn === 'count' && e.arg === null
const isNullParam = (e: Expr) => e.kind === 'param' && e.value === null && e.slot === undefined

function fields(values: readonly Json[]): Obj {
  const out: Obj = {}
  values.forEach((v, i) => {
    out[outputField(i)] = v
  })
  return out
}

function count(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw badRequest(`${what} must be a non-negative integer`)
  return n
}
