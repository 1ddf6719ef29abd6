import type { MetricQuery } from '@strata/contract/document'
import { badRequest, blamingToken, TokenRefusal } from '../errors.js'
import {
  agg,
  aliasRef,
  and,
  bool,
  cmp,
  col,
  derived,
  type Expr,
  grain,
  inZone,
  item,
  join,
  type OrderItem,
  order,
  type Param,
  param,
  raw,
  reaggregate,
  type Select,
  type SelectItem,
  type Source,
  select,
  star,
} from './ast.js'
import type { CompileContext, CompiledQuery, CompileInput } from './compile-types.js'
import {
  type Env,
  rangeCondition,
  shiftRange,
  type Target,
  valueCondition,
  wallRangeOf,
  whereCondition,
} from './conditions.js'
import type { WallRange } from './date-presets.js'
import type { CompiledSql } from './dialects/base.js'
import { filterPath } from './filters.js'
import { planJoins } from './joins.js'
import { type ModelColumn, type ModelTable, resolveColumn, resolveTable } from './model.js'
import { compileSqlMetric } from './sql-metric.js'
import { assertTenancy, clientColumnOf, tenantCondition, tenantTable } from './tenancy/scope.js'
import type { DataType } from './types.js'
import { addDays, addMonths, assertTimeZone, midnight, toWall } from './zoned-time.js'

export type { CompileContext, CompiledQuery, CompileInput, Tenancy } from './compile-types.js'

/** Compiles one metric to SQL and bound parameters in the dialect. Throws a 400 ApiError on bad input. */
export function compileMetric(input: CompileInput): CompiledQuery {
  const { metric, context } = input
  assertTimeZone(context.timezone)
  if (context.page !== undefined) {
    const { limit, offset } = context.page
    if (!Number.isSafeInteger(limit) || limit < 1 || !Number.isSafeInteger(offset) || offset < 0) {
      throw badRequest('page: limit must be a positive integer and offset a non-negative integer')
    }
  }
  assertTenancy(context.tenancy)
  if (metric.sql !== undefined) return compileSqlMetric(input, metric.sql)
  if (metric.query === undefined) throw badRequest(`metric ${metric.metricId}: has neither query nor sql`)
  return new QueryCompiler(input, metric.query).compile()
}

/**
 * The comparison window when no date range applies: every row up to the end of the same day
 * one month (previous-period) or one year (previous-year) ago, in the zone — the value as it
 * stood then. (A day that month lacks, such as the 31st, is the month's last day.)
 */
export function asOfPeriodAgo(period: 'previous-period' | 'previous-year', env: Env): WallRange {
  const today = midnight(toWall(env.now, env.timezone))
  const back = period === 'previous-year' ? 12 : 1
  const first = addMonths(today, -back)
  const last = new Date(Date.UTC(first.year, first.month, 0)).getUTCDate()
  const day = { ...first, day: Math.min(today.day, last) }
  return { start: { ...today, year: 1, month: 1, day: 1 }, end: addDays(day, 1) }
}

interface Used {
  readonly table: ModelTable
  readonly alias: string
  readonly customs: Map<string, ModelColumn>
}

/** One structured query: tables, joins, tenancy, then the select list and conditions. */
class QueryCompiler {
  private readonly env: Env
  private readonly from: ModelTable
  private readonly used = new Map<string, Used>()
  #zone: Param | undefined
  private readonly clientId: Param | null
  private readonly label: string

  constructor(
    private readonly input: CompileInput,
    private readonly q: MetricQuery,
  ) {
    const { context, dialect, metric } = input
    this.env = { dialect, timezone: context.timezone, now: context.now }
    this.label = `metric ${metric.metricId}`
    this.from = resolveTable(input.model, q.from, `${this.label}.query.from`)
    this.clientId = context.tenancy.kind === 'table' ? param(context.tenancy.clientId) : null
    this.use(this.from.key)
  }

  /** The token's zone as the dialect binds it, made on first use (only converted columns need it). */
  private get zone(): Param {
    const { dialect, context } = this.input
    this.#zone ??= param(dialect.zoneValue?.(context.timezone) ?? context.timezone)
    return this.#zone
  }

  private use(key: string): Used {
    let u = this.used.get(key)
    if (u === undefined) {
      u = { table: resolveTable(this.input.model, key), alias: `t${this.used.size}`, customs: new Map() }
      this.used.set(key, u)
    }
    return u
  }

  /** Whether the query's `from` reaches a table through the model's relationships. */
  private reaches(key: string): boolean {
    return key === this.from.key || planJoins(this.input.model, this.from.key, [key]).ok
  }

  private target(tableRef: string | undefined, column: string, where: string): Target {
    const t = tableRef === undefined ? this.from : resolveTable(this.input.model, tableRef, `${where}.table`)
    if (!this.reaches(t.key)) throw badRequest(`${where}: no relationship path from ${this.from.key} to ${t.key}`)
    const u = this.use(t.key)
    const c = resolveColumn(t, column, `${where}.column`)
    if (c.sql !== undefined) u.customs.set(c.name, c)
    const ref = col(u.alias, c.name)
    return c.isTimezoneConversion
      ? { expr: inZone(ref, this.zone, c.nativeType), column: c, converted: true }
      : { expr: ref, column: c, converted: false }
  }

  compile(): CompiledQuery {
    const { metric, context } = this.input
    const q = this.q
    const items: SelectItem[] = []
    const columns: { name: string; dataType: DataType }[] = []
    const dims = q.dimensions ?? []
    dims.forEach((d, i) => {
      const t = this.target(d.table, d.column, `${this.label}.query.dimensions[${i}]`)
      items.push(item(d.timeGrain === undefined ? t.expr : grain(d.timeGrain, t.expr), d.name))
      const type: DataType =
        d.timeGrain === undefined ? t.column.dataType : d.timeGrain === 'hour' ? 'datetime' : 'date'
      columns.push({ name: d.name, dataType: type })
    })
    const measures = q.measures ?? []
    measures.forEach((m, i) => {
      const at = `${this.label}.query.measures[${i}]`
      if (m.column === undefined && m.aggregate !== 'count')
        throw badRequest(`${at}.column: ${m.aggregate} needs a column`)
      const t = m.column === undefined ? null : this.target(m.table, m.column, at)
      const again = this.input.reaggregate?.(m)
      const expr = again
        ? reaggregate(
            again.fn,
            again.columns.map((c) => this.target(undefined, c, at).expr),
            again.scale,
          )
        : agg(m.aggregate, t?.expr ?? null)
      items.push(item(expr, m.name))
      const type: DataType =
        m.aggregate === 'count' || m.aggregate === 'count-distinct'
          ? 'integer'
          : m.aggregate === 'sum' || m.aggregate === 'avg'
            ? 'number'
            : (t?.column.dataType ?? 'unknown')
      columns.push({ name: m.name, dataType: type })
    })
    if (items.length === 0) throw badRequest(`${this.label}.query: needs at least one measure or dimension`)

    const conditions: Expr[] = []
    q.where?.forEach((w, i) => {
      const at = `${this.label}.query.where[${i}]`
      conditions.push(whereCondition(this.target(w.table, w.column, at), w, this.env, at))
    })
    this.rlsConditions(conditions)
    const ranged = this.filterConditions(conditions)

    const groupBy = measures.length > 0 ? dims.map((_, i) => i) : []
    const orderBy = this.orderBy()
    const page = context.page
    const base = { items, groupBy, orderBy }
    const where = conditions
    const main = this.select({ ...base, where, ...this.window(page) })
    const result: CompiledQuery = {
      ...this.input.dialect.render(main),
      columns,
      groupBy: measures.length > 0 ? dims.map((d) => d.name) : [],
    }
    const extra: { countSql?: CompiledSql; comparison?: CompiledSql } = {}
    if (page !== undefined) {
      const inner = this.select({ items, groupBy, orderBy: [], where, limit: q.limit ?? null, offset: null })
      extra.countSql = this.input.dialect.render(
        select({ items: [item(agg('count', null), 'total')], from: derived(inner, 'q') }),
      )
    }
    if (metric.comparison !== undefined && measures.length > 0) {
      const previous = [...conditions]
      if (ranged !== null) {
        const shifted = shiftRange(ranged.range, metric.comparison.period)
        previous[ranged.index] = rangeCondition(ranged.target, shifted, this.env) ?? bool(true)
      } else {
        const before = asOfPeriodAgo(metric.comparison.period, this.env)
        previous.push(rangeCondition(this.comparisonTarget(), before, this.env) ?? bool(true))
      }
      const mItems = items.slice(dims.length)
      extra.comparison = this.input.dialect.render(
        this.select({ items: mItems, groupBy: [], orderBy: [], where: previous, limit: null, offset: null }),
      )
    }
    return { ...result, ...extra }
  }

  /**
   * The date column a comparison without a date range measures "as it stood" on: the first
   * time dimension's, else the first date or datetime column of the `from` table.
   */
  private comparisonTarget(): Target {
    const at = `${this.label}.comparison`
    const dim = (this.q.dimensions ?? []).find((d) => d.timeGrain !== undefined)
    if (dim !== undefined) return this.target(dim.table, dim.column, at)
    const column = [...this.from.columns.values()].find((c) => c.dataType === 'date' || c.dataType === 'datetime')
    if (column === undefined) {
      throw badRequest(`${at}: ${this.from.key} has no date column to compare periods on, and no date range applies`)
    }
    return this.target(undefined, column.name, at)
  }

  private window(page: CompileContext['page']): { limit: number | null; offset: number | null } {
    const cap = this.q.limit ?? null
    if (page === undefined) return { limit: cap, offset: null }
    const limit = cap === null ? page.limit : Math.max(0, Math.min(page.limit, cap - page.offset))
    return { limit, offset: page.offset }
  }

  private orderBy(): OrderItem[] {
    const q = this.q
    if (q.orderBy !== undefined && q.orderBy.length > 0)
      return q.orderBy.map((o) => order(aliasRef(o.name), o.direction))
    const dims = q.dimensions ?? []
    const sorted = dims.flatMap((d) => {
      const t = d.table === undefined ? this.from : resolveTable(this.input.model, d.table)
      const s = t.columns.get(d.column)?.defaultSort
      return s === undefined ? [] : [order(aliasRef(d.name), s)]
    })
    if (sorted.length > 0) return sorted
    // Paging needs a stable order: every dimension, ascending.
    return this.input.context.page === undefined ? [] : dims.map((d) => order(aliasRef(d.name), 'asc'))
  }

  private rlsConditions(out: Expr[]): void {
    const { metric, context } = this.input
    const bindings = metric.rls ?? []
    for (const key of Object.keys(context.rls)) {
      if (!bindings.some((b) => b.variable === key)) {
        throw new TokenRefusal('INVALID_REQUEST_BODY', 400, `rlsSettings: ${this.label} has no RLS variable "${key}"`)
      }
    }
    bindings.forEach((b, i) => {
      const value = context.rls[b.variable]
      // fail closed: a metric restricted by RLS never runs unrestricted for want of a value
      if (value === undefined) {
        throw new TokenRefusal(
          'INVALID_REQUEST_BODY',
          400,
          `rlsSettings: ${this.label} declares the RLS variable "${b.variable}", and the token gives it no value`,
        )
      }
      const at = `rlsSettings.${b.variable}`
      const t = this.target(b.table, b.column, `${this.label}.rls[${i}]`)
      const c = blamingToken(() => valueCondition(t, value, { where: at, trusted: true }, this.env))
      if (c !== null) out.push(c)
    })
  }

  /** Pushes filter conditions; returns the first date range, which a comparison shifts. */
  private filterConditions(out: Expr[]): { index: number; target: Target; range: WallRange } | null {
    let ranged: { index: number; target: Target; range: WallRange } | null = null
    this.input.context.filters.forEach((f) => {
      const at = filterPath(f)
      if (f.table === '') throw badRequest(`${at}: a filter of a SQL metric cannot apply to ${this.label}`)
      const key = resolveTable(this.input.model, f.table, `${at}.table`).key
      if (!this.reaches(key)) {
        if (f.scope === 'dashboard') return
        throw badRequest(`${at}: no relationship path from ${this.from.key} to ${key}`)
      }
      // the token's values (rls, app): a refusal of theirs is the token's, whatever the metric
      const fromToken = f.source === 'rls' || f.source === 'app'
      if (f.refuse !== undefined) throw new TokenRefusal('INVALID_REQUEST_BODY', 400, f.refuse)
      const t = this.target(key, f.column, at)
      const trusted = f.trusted ?? fromToken
      const condition = () =>
        valueCondition(t, f.value, { where: at, trusted, ...(f.type ? { type: f.type } : {}) }, this.env)
      const c = fromToken ? blamingToken(condition) : condition()
      if (c === null) return
      if (ranged === null) {
        const range = wallRangeOf(f.value, this.env, at)
        if (range) ranged = { index: out.length, target: t, range }
      }
      out.push(c)
    })
    return ranged
  }

  /** Tenancy of one table (tenancy/scope.ts); the `from` table without a client column is refused. */
  private tenancyCondition(u: Used): Expr | null {
    const { context, model, dialect } = this.input
    const tenancy = context.tenancy
    if (tenancy.kind !== 'table' || this.clientId === null) return null
    if (clientColumnOf(tenancy, u.table) === undefined) {
      if (u.table.key === this.from.key) {
        throw badRequest(
          `${this.label}: ${u.table.key} has no client column; TABLE tenancy refuses to query it rather than return every tenant's rows`,
        )
      }
      return null
    }
    return tenantCondition(tenancy, model, dialect, u.table, u.alias, this.clientId)
  }

  /** A used table: plain, or a derived table scoped to the tenant and carrying custom columns. */
  private source(u: Used): Source {
    const tenant = this.tenancyCondition(u)
    const plain = tenantTable(this.input.context.tenancy, this.input.dialect, u.table, u.alias)
    if (tenant === null && u.customs.size === 0) return plain
    const customs = [...u.customs.values()].map((c) => item(raw(c.sql as string), c.name))
    return derived(select({ items: [star(), ...customs], from: plain, where: tenant }), u.alias)
  }

  private select(s: {
    items: readonly SelectItem[]
    groupBy: readonly number[]
    orderBy: readonly OrderItem[]
    where: readonly Expr[]
    limit: number | null
    offset: number | null
  }): Select {
    const plan = planJoins(this.input.model, this.from.key, [...this.used.keys()].slice(1))
    if (!plan.ok) throw badRequest(`${this.label}: no relationship path from ${this.from.key} to ${plan.unreachable}`)
    for (const step of plan.steps) this.use(step.table)
    const joins = plan.steps.map((st) => {
      const u = this.use(st.table)
      const onto = this.use(st.onto)
      return join(st.type, this.source(u), cmp('=', col(onto.alias, st.ontoColumn), col(u.alias, st.column)))
    })
    const from = this.used.get(this.from.key) as Used
    return select({
      items: s.items,
      from: this.source(from),
      joins,
      where: and(s.where),
      groupBy: s.groupBy,
      orderBy: s.orderBy,
      limit: s.limit,
      offset: s.offset,
    })
  }
}
