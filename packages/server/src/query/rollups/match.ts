import type { Condition, Dimension, Measure, Metric, MetricQuery } from '@strata/contract/document'
import type { ReaggregateFn } from '../ast.js'
import { asOfPeriodAgo } from '../compile.js'
import { type Env, shiftRange, wallRangeOf } from '../conditions.js'
import type { WallRange } from '../date-presets.js'
import type { Dialect } from '../dialects/base.js'
import type { AppliedFilter } from '../filters.js'
import { planJoins } from '../joins.js'
import { findTable, type ModelColumn, type ModelTable, type SemanticModel } from '../model.js'
import { clientColumnOf } from '../tenancy/scope.js'
import type { Tenancy } from '../tenancy/tenancy.js'
import { grainAnswers, isUtc, rangeOnBuckets } from './grains.js'
import { ROLLUP_TABLE, rollupModel } from './model.js'
import type { RollupColumn, RollupPlan } from './types.js'

/** A rollup whose last build is ready and still matches the document. */
export interface RollupCandidate {
  readonly plan: RollupPlan
  /** Rows of its last build (the smallest matching rollup is chosen). */
  readonly rows: number
  /** Its files: every tenant's, or one set per tenant database (`tenant`). */
  readonly files: readonly { readonly tenant?: string | undefined; readonly location: string }[]
  /** When the files were built: part of a served result's identity. */
  readonly builtAt: string
}

/** The planned request, as the warehouse compiled it. */
export interface MatchRequest {
  /** The metric as compiled (the end user's view, a drill's grain), RLS declarations kept only for guests. */
  readonly metric: Metric
  readonly model: SemanticModel
  readonly tenancy: Tenancy
  readonly filters: readonly AppliedFilter[]
  readonly timezone: string
  readonly now: Date
  /** The rows behind the metric are asked for. */
  readonly underlying: boolean
  /** The warehouse's dialect (for how the date ranges are read; the values are only compared). */
  readonly dialect: Dialect
}

/** How to read a request from one rollup: the metric, filters and tenancy rewritten onto its columns. */
export interface RollupRead {
  readonly rollup: RollupCandidate
  readonly model: SemanticModel
  readonly metric: Metric
  readonly filters: readonly AppliedFilter[]
  /** TABLE tenancy becomes a condition on the rollup's client column; DATABASE picks the files. */
  readonly tenancy: { readonly kind: 'none' } | { readonly kind: 'table' }
  /** How each measure is read again; an average's `scale`: the places the warehouse rounds its own to. */
  readonly measures: ReadonlyMap<
    string,
    { readonly fn: ReaggregateFn; readonly columns: readonly string[]; readonly scale?: number }
  >
  /** The file locations to read. */
  readonly files: readonly string[]
  /** Rollup columns holding joined tables' client columns: each must equal the tenant too. */
  readonly joinedTenants: readonly string[]
}

export type RollupMatch =
  | { readonly ok: true; readonly read: RollupRead }
  | { readonly ok: false; readonly reason: string }

/**
 * Chooses the rollup a planned request can be answered from exactly, or says why none can.
 * Served only when every table, column, filter (tenant, RLS, locked, dashboard, end user's,
 * drill, the metric's own) lands on the rollup's columns, every measure re-aggregates exactly,
 * the grain is the rollup's or a coarser aligned one, date ranges fall on its buckets and the
 * request's zone is the one its buckets were made in (UTC). The smallest fit wins (rows, then
 * dimensions). Pure.
 */
export function chooseRollup(request: MatchRequest, candidates: readonly RollupCandidate[]): RollupMatch {
  const { metric } = request
  if (metric.sql !== undefined || metric.query === undefined) return no('a SQL metric is never served from a rollup')
  if (request.underlying) return no('underlying rows are never served from a rollup')
  const from = findTable(request.model, metric.query.from)
  if (from === undefined) return no(`no table ${metric.query.from}`)
  const mine = candidates.filter((c) => c.plan.from === from.key)
  if (mine.length === 0) return no(`no ready rollup of ${from.key}`)
  const fits: RollupRead[] = []
  const reasons: string[] = []
  for (const c of mine) {
    const r = readFrom(request, metric.query, from, c)
    if (typeof r === 'string') reasons.push(`${c.plan.name}: ${r}`)
    else fits.push(r)
  }
  const best = fits.sort(
    (a, b) =>
      a.rollup.rows - b.rollup.rows ||
      a.rollup.plan.dimensions.length - b.rollup.plan.dimensions.length ||
      a.rollup.plan.name.localeCompare(b.rollup.plan.name),
  )[0]
  return best ? { ok: true, read: best } : no(reasons.join('; '))
}

const no = (reason: string): RollupMatch => ({ ok: false, reason })

class Refusal {
  constructor(readonly reason: string) {}
}
const refuse = (reason: string): never => {
  throw new Refusal(reason)
}

const temporal = (c: ModelColumn) => c.dataType === 'date' || c.dataType === 'datetime'

/** The request rewritten onto one rollup, or why it cannot be. */
function readFrom(request: MatchRequest, q: MetricQuery, from: ModelTable, c: RollupCandidate): RollupRead | string {
  try {
    return new Reader(request, q, from, c).read()
  } catch (err) {
    if (err instanceof Refusal) return err.reason
    throw err
  }
}

interface Landed {
  readonly rollup: RollupColumn
  readonly column: ModelColumn
  readonly table: ModelTable
  readonly isTime: boolean
}

class Reader {
  private readonly plan: RollupPlan
  private readonly env: Env
  /** The request's result depends on the zone (time buckets, date ranges, converted columns). */
  private zoned = false
  private readonly tables = new Set<string>()
  private readonly used = new Set<RollupColumn>()

  constructor(
    private readonly request: MatchRequest,
    private readonly q: MetricQuery,
    private readonly from: ModelTable,
    private readonly candidate: RollupCandidate,
  ) {
    this.plan = candidate.plan
    this.env = { dialect: request.dialect, timezone: request.timezone, now: request.now }
  }

  read(): RollupRead {
    const { metric } = this.request
    const plan = this.plan
    const tenant = this.tenancy()
    const dimensions = (this.q.dimensions ?? []).map((d) => this.dimension(d))
    const measures = new Map<string, { fn: ReaggregateFn; columns: string[]; scale?: number }>()
    const rewritten = (this.q.measures ?? []).map((m) => {
      const read = this.measure(m)
      measures.set(m.name, read)
      return { name: m.name, aggregate: m.aggregate, column: read.columns[0] as string }
    })
    const where = this.q.where?.map((w) => this.condition(w))
    const rls = metric.rls?.map((b) => {
      const l = this.land(b.table, b.column, `the RLS column ${b.column}`)
      this.exactText(l.column, `the RLS column ${b.column}`)
      if (l.isTime) refuse(`RLS on ${l.column.name}, the rollup's time column`)
      return { variable: b.variable, column: l.rollup.name }
    })
    const { filters, ranged } = this.filters()
    const firstTemporal = this.comparison(ranged)
    this.joins()
    const joinedTenants = this.joinedTenants()
    if (this.zoned && !isUtc(this.request.timezone)) {
      refuse(`the request's time zone ${this.request.timezone} is not UTC, the zone the rollup's buckets are made in`)
    }
    const query: MetricQuery = {
      from: ROLLUP_TABLE,
      ...(dimensions.length ? { dimensions } : {}),
      ...(rewritten.length ? { measures: rewritten } : {}),
      ...(where ? { where } : {}),
      ...(this.q.orderBy ? { orderBy: this.q.orderBy } : {}),
      ...(this.q.limit !== undefined ? { limit: this.q.limit } : {}),
    }
    const { rls: _rls, query: _query, ...rest } = metric
    return {
      rollup: this.candidate,
      model: rollupModel(this.request.model, plan, tenant.column, firstTemporal),
      metric: { ...rest, query, ...(rls ? { rls } : {}) },
      filters,
      tenancy: tenant.column === undefined ? { kind: 'none' } : { kind: 'table' },
      measures,
      files: tenant.files,
      joinedTenants,
    }
  }

  /**
   * TABLE tenancy scopes each joined table to the tenant too: an INNER joined table's client
   * column, kept by the rollup, gets the same condition (the warehouse drops those rows alike);
   * a LEFT joined one would blank its columns instead, which a rollup cannot redo.
   */
  private joinedTenants(): string[] {
    const { tenancy, model } = this.request
    if (tenancy.kind !== 'table') return []
    const others = [...this.tables].filter((t) => t !== this.from.key)
    const plan = planJoins(model, this.from.key, others)
    if (!plan.ok) return refuse('it reads tables no longer related')
    const out: string[] = []
    for (const step of plan.steps) {
      const t = findTable(model, step.table) as ModelTable
      const client = clientColumnOf(tenancy, t)
      if (client === undefined) continue
      if (step.type !== 'INNER') refuse(`it joins ${t.key} (${step.type}), a table with a client column of its own`)
      const kept = this.columnOf(t.key, client)
      if (kept === undefined) refuse(`no column ${client} (the client column) of ${t.key}`)
      out.push((kept as RollupColumn).name)
    }
    return out
  }

  /** The tenancy kept: the client column a rollup column, or the tenant database's own files. */
  private tenancy(): { column: string | undefined; files: string[] } {
    const { tenancy } = this.request
    const files = this.candidate.files
    if (tenancy.kind === 'database') {
      const own = files.filter((f) => f.tenant === tenancy.database).map((f) => f.location)
      if (own.length === 0) refuse(`no files for the tenant's database`)
      return { column: undefined, files: own }
    }
    if (files.some((f) => f.tenant !== undefined)) refuse('the rollup is kept per tenant database')
    if (files.length === 0) refuse('the rollup has no files')
    const all = files.map((f) => f.location)
    if (tenancy.kind === 'none') return { column: undefined, files: all }
    if (tenancy.tenancyTable !== undefined) refuse('tenancy through a tenancy table is answered by the warehouse')
    const client = clientColumnOf(tenancy, this.from)
    if (client === undefined) refuse(`${this.from.key} has no client column`)
    const kept = this.columnOf(this.from.key, client as string)
    if (kept === undefined) refuse(`no column ${client} (the client column) of ${this.from.key}`)
    return { column: (kept as RollupColumn).name, files: all }
  }

  private columnOf(table: string, column: string): RollupColumn | undefined {
    const t = this.plan.time
    if (t && t.table === table && t.column === column) return t
    return this.plan.dimensions.find((d) => d.table === table && d.column === column)
  }

  /** A column the request reads, found among the rollup's. */
  private land(tableRef: string | undefined, column: string, what: string): Landed {
    const { model } = this.request
    const table = tableRef === undefined ? this.from : findTable(model, tableRef)
    if (table === undefined) return refuse(`no table ${tableRef}`)
    const c = table.columns.get(column) ?? [...table.columns.values()].find((x) => x.alias === column)
    if (c === undefined) return refuse(`no column ${column} of ${table.key}`)
    const rollup = this.columnOf(table.key, c.name)
    if (rollup === undefined) return refuse(`no column ${c.name} of ${table.key} (${what})`)
    this.tables.add(table.key)
    this.used.add(rollup)
    if (c.isTimezoneConversion) this.zoned = true
    return { rollup, column: c, table, isTime: rollup.role === 'time' }
  }

  private dimension(d: Dimension): Dimension {
    const l = this.land(d.table, d.column, `dimension ${d.name}`)
    if (l.isTime) {
      const stored = this.plan.time?.grain as NonNullable<RollupPlan['time']>['grain']
      if (d.timeGrain === undefined) refuse(`it groups by ${l.column.name} itself, finer than the ${stored} buckets`)
      else if (!grainAnswers(stored, d.timeGrain)) refuse(`a ${d.timeGrain} grain is not made of ${stored} buckets`)
      this.zoned = true
    } else if (temporal(l.column)) {
      this.zoned = true
    }
    return { name: d.name, column: l.rollup.name, ...(d.timeGrain ? { timeGrain: d.timeGrain } : {}) }
  }

  private measure(m: Measure): { fn: ReaggregateFn; columns: string[]; scale?: number } {
    if (m.table !== undefined && findTable(this.request.model, m.table)?.key !== this.from.key) {
      refuse(`measure ${m.name} reads a joined table`)
    }
    if (m.aggregate === 'count-distinct') return refuse('count-distinct does not re-aggregate')
    const column = m.column === undefined ? undefined : this.physical(m.column)
    const kept = (aggregate: string, col: string | undefined) =>
      this.plan.measures.find((x) => x.aggregate === aggregate && x.column === col)?.name
    const what = column === undefined ? 'rows' : column
    if (m.aggregate === 'avg') {
      const sum = kept('sum', column)
      const count = kept('count', column)
      if (sum === undefined || count === undefined) refuse(`no sum and count of ${what} (avg)`)
      const native = column === undefined ? undefined : this.from.columns.get(column)?.nativeType
      const scale = native === undefined ? undefined : this.request.dialect.averageScale?.(native)
      return { fn: 'avg', columns: [sum as string, count as string], ...(scale !== undefined ? { scale } : {}) }
    }
    const name = kept(m.aggregate, column)
    if (name === undefined) refuse(`no ${m.aggregate} of ${what}`)
    return { fn: m.aggregate, columns: [name as string] }
  }

  private physical(column: string): string {
    const c = this.from.columns.get(column) ?? [...this.from.columns.values()].find((x) => x.alias === column)
    return c === undefined ? refuse(`no column ${column} of ${this.from.key}`) : c.name
  }

  private condition(w: Condition): Condition {
    const l = this.land(w.table, w.column, 'a where condition')
    this.exactText(l.column, 'a where condition')
    if (l.isTime && w.operator !== 'is-null' && w.operator !== 'is-not-null') {
      refuse(`a "${w.operator}" condition on ${l.column.name}, the rollup's time column`)
    }
    const { table: _table, ...rest } = w
    return { ...rest, column: l.rollup.name }
  }

  /**
   * A text value compared on a warehouse whose comparisons follow the column's collation
   * (`Dialect.foldsText`: case, accents, trailing spaces ignored) matches texts the rollup's exact
   * comparison would not: the warehouse answers. (The tenant condition is exact on both.)
   */
  private exactText(column: ModelColumn, what: string): void {
    if (this.request.dialect.foldsText === true && column.dataType === 'string') {
      refuse(`${what} compares text, which the ${this.request.dialect.name} warehouse compares by its collation`)
    }
  }

  /** The filters on rollup columns; dashboard filters whose table the metric does not reach are left out, as the warehouse does. */
  private filters(): { filters: AppliedFilter[]; ranged: { landed: Landed; range: WallRange } | undefined } {
    const out: AppliedFilter[] = []
    let ranged: { landed: Landed; range: WallRange } | undefined
    for (const f of this.request.filters) {
      const table = findTable(this.request.model, f.table)
      if (table === undefined) refuse(`no table ${f.table}`)
      const key = (table as ModelTable).key
      if (key !== this.from.key && !planJoins(this.request.model, this.from.key, [key]).ok) {
        if (f.scope === 'dashboard') continue
        refuse(`no relationship path to ${key}`)
      }
      const l = this.land(key, f.column, `filter ${f.name ?? f.column}`)
      this.exactText(l.column, `filter ${f.name ?? f.column}`)
      const range = wallRangeOf(f.value, this.env, f.name ?? f.column)
      if (temporal(l.column) || l.isTime) this.zoned = true
      if (l.isTime) {
        const g = this.plan.time?.grain as NonNullable<RollupPlan['time']>['grain']
        if (range === undefined) refuse(`a filter on ${l.column.name} that is not a date range`)
        else if (range !== null && !rangeOnBuckets(range, g))
          refuse(`the date range on ${l.column.name} does not fall on the rollup's ${g} buckets`)
      }
      if (ranged === undefined && range) ranged = { landed: l, range }
      out.push({ ...f, table: ROLLUP_TABLE, column: l.rollup.name })
    }
    return { filters: out, ranged }
  }

  /**
   * A comparison reads another window: the date range shifted, or everything up to the same
   * day a period ago on the first time dimension's column (else the table's first date column).
   * That window must fall on the buckets too. Returns the rollup column standing for the
   * table's first date column, which the compile on the rollup must find first.
   */
  private comparison(ranged: { landed: Landed; range: WallRange } | undefined): string | undefined {
    const { metric } = this.request
    if (metric.comparison === undefined || (this.q.measures ?? []).length === 0) return undefined
    this.zoned = true
    const g = this.plan.time?.grain
    if (ranged) {
      const shifted = shiftRange(ranged.range, metric.comparison.period)
      if (ranged.landed.isTime && g && !rangeOnBuckets(shifted, g)) {
        refuse(`the comparison's window does not fall on the rollup's ${g} buckets`)
      }
      return undefined
    }
    const dim = (this.q.dimensions ?? []).find((d) => d.timeGrain !== undefined)
    let l: Landed
    let first: string | undefined
    if (dim !== undefined) l = this.land(dim.table, dim.column, 'the comparison')
    else {
      const c = [...this.from.columns.values()].find(temporal)
      if (c === undefined) return undefined // the warehouse refuses it already
      l = this.land(undefined, c.name, 'the comparison')
      first = l.rollup.name
    }
    if (l.isTime && g) {
      const window = asOfPeriodAgo(metric.comparison.period, this.env)
      if (!rangeOnBuckets(window, g)) refuse(`the comparison's window does not fall on the rollup's ${g} buckets`)
    }
    return first
  }

  /**
   * The rollup's joins must not change the rows of the metric's table: a table the rollup joins
   * and the metric does not read must be LEFT joined and many-to-one (declared on its relationship).
   */
  private joins(): void {
    const { model } = this.request
    const rollupTables = new Set(this.plan.dimensions.map((d) => d.table))
    rollupTables.delete(this.plan.from)
    if (rollupTables.size === 0) return
    const theirs = planJoins(model, this.plan.from, rollupTables)
    const ours = planJoins(
      model,
      this.from.key,
      [...this.tables].filter((t) => t !== this.from.key),
    )
    if (!theirs.ok || !ours.ok) throw new Refusal('the rollup joins tables no longer related')
    const read = new Set(ours.steps.map((s) => s.table))
    for (const s of theirs.steps) {
      if (read.has(s.table)) continue
      const r = model.relationships.find(
        (x) =>
          (x.parentTable === s.onto && x.childTable === s.table) ||
          (x.childTable === s.onto && x.parentTable === s.table),
      )
      const forward = r?.parentTable === s.onto
      const toOne =
        r?.cardinality === 'OneToOne' ||
        (forward && r?.cardinality === 'ManyToOne') ||
        (!forward && r?.cardinality === 'OneToMany')
      if (s.type !== 'LEFT' || !toOne) {
        refuse(`the rollup joins ${s.table}, which could repeat or drop rows of ${this.from.key}`)
      }
    }
  }
}
