import type { TimeGrain } from '@strata/contract/document'
import { type Bound, bindRequest, rebind, type Scalar } from './bind.js'
import { type CompiledQuery, type CompileInput, compileMetric } from './compile.js'
import type { CompiledSql, Dialect } from './dialects/base.js'
import { RollupReadDialect } from './dialects/duckdb.js'
import type { DashboardDocument, Metric } from './document.js'
import { type AppliedFilter, type FilterInputs, resolveFilters } from './filters.js'
import { fingerprint } from './fingerprint.js'
import type { SemanticModel } from './model.js'
import { chooseRollup, type RollupCandidate, type RollupRead } from './rollups/match.js'
import { ROLLUP_TABLE } from './rollups/model.js'
import { tenantColumnsOf } from './tenancy/columns.js'
import { decideTenancy, type TenancyFacts } from './tenancy/decide.js'
import type { Tenancy } from './tenancy/tenancy.js'
import { regrained, type UnderlyingSort, underlyingOf } from './views.js'

/** Rows per page of a paged metric (a table's pages, the underlying rows). */
export const PAGE_ROWS = 100

/** One request for a metric, as the engine plans it (the caller has checked who may ask it). */
export interface PlanRequest {
  /** The metric as the document declares it (or as the server built it for this request). */
  readonly metric: Metric
  /** Names the metric in the compiled-shape key (a server-built metric is named by its request). */
  readonly metricId: string
  /** The dashboard document: its filters apply. */
  readonly document: DashboardDocument
  /** This version of the document in keys (`id@updatedAt`). */
  readonly documentVersion: string
  /** The tenant; `None` is no tenancy; undefined: no client at all (the dry run). */
  readonly clientId: string | undefined
  readonly filters: FilterInputs
  /** false: the dashboard filters' defaults do not apply. */
  readonly defaults: boolean
  /** The token's RLS values for this metric; null: a secret-key caller, the metric's RLS declarations left out. */
  readonly rls: Readonly<Record<string, unknown>> | null
  /** IANA zone of presets, ranges and converted columns. */
  readonly timezone: string
  readonly now: Date
  /** 1-based page (tables; the underlying rows are always paged). */
  readonly pageNumber?: number | undefined
  /** The rows behind the metric instead of the metric, in this order. */
  readonly underlying?: { readonly sort?: UnderlyingSort | undefined } | undefined
  /** Drill-down: this time-grained dimension at another grain. */
  readonly timeGrain?: { readonly dimension: string; readonly grain: TimeGrain } | undefined
  /** An end user's definition read against the model: its metric, and trusted restrictions ANDed in. */
  readonly endUser?: ((metric: Metric) => EndUserReading) | undefined
}

export interface EndUserReading {
  readonly metric: Metric
  readonly restrictions: readonly AppliedFilter[]
}

/** Where the plan runs: the source's model, its dialect, and what decides the tenancy. */
export interface PlanTarget {
  readonly model: SemanticModel
  /** This version of the model in keys. */
  readonly version: string
  readonly dialect: Dialect
  readonly datasourceId: string
  readonly schemaVersion: number
  /** The engine takes the request's zone as its session time zone. */
  readonly sessionTimeZone: boolean
  /** null: no tenancy (the dry run of an authored document). */
  readonly tenancy: TenancyFacts | null
  /** The dashboard's ready rollups; absent: rollups are not considered (the dry run, rollups off). */
  readonly rollups?: readonly RollupCandidate[] | undefined
}

/** One statement with the request's values bound. */
export interface Statement {
  readonly sql: string
  readonly params: readonly unknown[]
}

/**
 * What identifies a result: the result cache and its single-flight key on it. Two requests
 * with equal identities get one answer.
 */
export interface ResultIdentity {
  readonly datasourceId: string
  readonly schemaVersion: number
  readonly database: string | undefined
  readonly timezone: string | undefined
  /** The statements' text (main, count, comparison), as JSON. */
  readonly sql: string
  /** The statements' bound values. */
  readonly params: readonly unknown[]
  /** Served from a rollup: its name and build (absent: the warehouse). */
  readonly rollup?: string | undefined
}

/**
 * The rollup a plan is answered from instead of the warehouse (query/rollups/): the request's
 * statements compiled in DuckDB over the rollup's files, and their result's identity.
 */
export interface RollupChoice {
  readonly name: string
  /** File locations under the rollups root. */
  readonly files: readonly string[]
  /**
   * Its columns that most reads filter on, in that order: the tenant's (TABLE tenancy), then the
   * time bucket. A reader that keeps the rows in memory keeps them in this order, so a read
   * skips the other tenants' and times' rows by their blocks' min and max.
   */
  readonly order: readonly string[]
  readonly statements: QueryPlan['statements']
  readonly identity: ResultIdentity
}

/** A request planned: what runs, where, with which values, and what identifies its result. */
export interface QueryPlan {
  /** The metric as compiled (a drill's or the underlying rows' view of the declared one). */
  readonly metric: Metric
  readonly compiled: CompiledQuery
  readonly statements: {
    readonly main: Statement
    readonly count: Statement | undefined
    readonly comparison: Statement | undefined
  }
  /** The tenant's database (DATABASE tenancy): where the statements run. */
  readonly database: string | undefined
  /** The session time zone, on engines that take one. */
  readonly sessionZone: string | undefined
  readonly identity: ResultIdentity
  /** The rollup this plan is served from; undefined: the warehouse. */
  readonly rollup?: RollupChoice | undefined
  /** Why the warehouse answers (no rollup fits); undefined when rollups were not considered or one fits. */
  readonly rollupReason?: string | undefined
}

/**
 * How a plan compiles: `compileMetric`, or the caller's memo of it keyed by `shape` (the model
 * and document versions, the metric's definition and view) plus the compile input's context.
 */
export type Compile = (input: CompileInput, shape: string) => CompiledQuery

/**
 * The one way from a request to SQL: the metric's view (an end user's reading, a drill's grain),
 * filters resolved against the document, the request's values checked and bound, the rows'
 * view, the tenancy decided, compiled in the dialect, the values bound into each statement,
 * and the result's identity. Pure: the caller gathers the target (source, dialect, the
 * datasource's databases under DATABASE tenancy) first.
 */
export function planQuery(request: PlanRequest, target: PlanTarget, compile: Compile = compileMetric): QueryPlan {
  let declared = withoutRlsFor(request.rls, request.metric)
  const scoped = request.endUser?.(declared)
  if (scoped) declared = scoped.metric
  if (request.timeGrain) declared = regrained(declared, request.timeGrain)
  // the request's values are checked (forms, caps) and bound before the tenancy and the compile
  const filters = resolveFilters(request.document, declared, request.filters, { defaults: request.defaults })
  const bound = bindRequest(
    scoped?.restrictions.length ? [...filters, ...scoped.restrictions] : filters,
    request.rls ?? {},
    request.clientId,
  )
  const { model, dialect } = target
  const underlying = request.underlying
  const metric = underlying
    ? underlyingOf(declared, model, target.tenancy ? tenantColumnsOf(target.tenancy) : new Map(), underlying.sort)
    : declared
  const pageNumber = underlying ? (request.pageNumber ?? 1) : request.pageNumber
  const tenancy: Tenancy =
    target.tenancy && request.clientId !== undefined
      ? decideTenancy(target.tenancy, request.clientId)
      : { kind: 'none' }
  const page = pageNumber === undefined ? undefined : Math.max(1, pageNumber)
  const view = underlying ? `underlying${underlying.sort ? `:${JSON.stringify(underlying.sort)}` : ''}` : 'metric'
  // the definition's fingerprint: a tenant's version of a company metric has the same id
  const shape = `${target.version}|${request.documentVersion}|${request.metricId}#${fingerprint(declared)}|${view}|${request.defaults}`
  const compiled = compile(
    {
      metric,
      model,
      dialect,
      context: {
        tenancy: tenancy.kind === 'table' && bound.clientId ? { ...tenancy, clientId: bound.clientId } : tenancy,
        rls: bound.rls,
        filters: bound.filters,
        timezone: request.timezone,
        now: request.now,
        ...(page ? { page: { limit: PAGE_ROWS, offset: (page - 1) * PAGE_ROWS } } : {}),
      },
    },
    shape,
  )
  const statements = bindStatements(compiled, bound.values, dialect)
  const database = tenancy.kind === 'database' ? tenancy.database : undefined
  const sessionZone = target.sessionTimeZone ? request.timezone : undefined
  const identity = {
    datasourceId: target.datasourceId,
    schemaVersion: target.schemaVersion,
    database,
    timezone: sessionZone,
  }
  // after the warehouse's compile: a request it refuses is refused, whatever rollups exist
  const match =
    target.rollups === undefined
      ? undefined
      : chooseRollup(
          {
            metric,
            model,
            tenancy,
            filters: bound.filters,
            timezone: request.timezone,
            now: request.now,
            underlying: underlying !== undefined,
            dialect,
          },
          target.rollups,
        )
  const rollup = match?.ok
    ? onRollup(match.read, {
        tenancy,
        bound,
        request,
        page,
        identity,
        compile,
        shape,
        dialect: ROLLUP_DIALECTS[dialect.nullOrder ?? 'last'],
      })
    : undefined
  return {
    metric,
    compiled,
    statements: { main: statements.main, count: statements.count, comparison: statements.comparison },
    database,
    sessionZone,
    identity: { ...identity, ...statements.key },
    ...(rollup ? { rollup } : {}),
    ...(match && !match.ok ? { rollupReason: match.reason } : {}),
  }
}

/**
 * Rollups are read by DuckDB in the engine process, whatever the warehouse; its ORDER BY puts
 * NULL where the warehouse would (RollupReadDialect), one dialect per such order.
 */
const ROLLUP_DIALECTS = {
  low: new RollupReadDialect('low'),
  high: new RollupReadDialect('high'),
  last: new RollupReadDialect('last'),
} as const

/** The request compiled on the rollup's one table, its values bound as on the warehouse. */
function onRollup(
  read: RollupRead,
  at: {
    readonly tenancy: Tenancy
    readonly bound: ReturnType<typeof bindRequest>
    readonly request: PlanRequest
    readonly page: number | undefined
    readonly identity: Omit<ResultIdentity, 'sql' | 'params'>
    readonly compile: Compile
    readonly shape: string
    /** DuckDB, ordering NULL as the warehouse does. */
    readonly dialect: RollupReadDialect
  },
): RollupChoice {
  const { bound, request, page } = at
  const { plan, builtAt } = read.rollup
  const clientId = bound.clientId
  if (read.tenancy.kind === 'table' && clientId === undefined) throw new Error('TABLE tenancy without a client')
  const compiled = at.compile(
    {
      metric: read.metric,
      model: read.model,
      dialect: at.dialect,
      context: {
        tenancy: read.tenancy.kind === 'table' ? { kind: 'table', clientId: clientId as Bound } : { kind: 'none' },
        rls: bound.rls,
        filters: [
          ...read.filters,
          // joined tables' client columns: the tenant, bound like the main one (exact text equality in DuckDB)
          ...read.joinedTenants.map((column) => ({
            table: ROLLUP_TABLE,
            column,
            value: clientId as unknown as string,
            source: 'rls' as const,
            trusted: true,
          })),
        ],
        timezone: request.timezone,
        now: request.now,
        ...(page ? { page: { limit: PAGE_ROWS, offset: (page - 1) * PAGE_ROWS } } : {}),
      },
      reaggregate: (m) => {
        const again = read.measures.get(m.name)
        if (again === undefined) throw new Error(`rollup ${plan.name}: no reading of measure ${m.name}`)
        return again
      },
    },
    `rollup:${plan.name}@${plan.fingerprint}|${at.dialect.warehouseNulls}|${at.shape}`,
  )
  const statements = bindStatements(compiled, bound.values, at.dialect)
  const name = `${plan.name}@${builtAt}`
  return {
    name: plan.name,
    files: read.files,
    order: [
      ...plan.dimensions.filter((d) => d.role === 'tenant').map((d) => d.name),
      ...(plan.time ? [plan.time.name] : []),
    ],
    statements: { main: statements.main, count: statements.count, comparison: statements.comparison },
    identity: { ...at.identity, ...statements.key, rollup: `${name}:${read.files.join(',')}` },
  }
}

/** The statements of one request: the compiled shape with the request's values bound, and their identity's statement half. */
function bindStatements(compiled: CompiledQuery, values: readonly Scalar[], dialect: Dialect) {
  const bind = (c: CompiledSql): Statement => ({
    sql: c.sql,
    params: rebind(c.params, c.slots, values, (v) => dialect.bindValue(v)),
  })
  const main = bind(compiled)
  const count = compiled.countSql ? bind(compiled.countSql) : undefined
  const comparison = compiled.comparison ? bind(compiled.comparison) : undefined
  return {
    main,
    count,
    comparison,
    key: {
      sql: sqlKeyOf(compiled),
      params: [main.params, count?.params ?? null, comparison?.params ?? null],
    },
  }
}

/** The identity's SQL of a compiled metric (its statements' text), made once per compiled shape. */
const sqlKeys = new WeakMap<CompiledQuery, string>()
function sqlKeyOf(compiled: CompiledQuery): string {
  let key = sqlKeys.get(compiled)
  if (key === undefined) {
    key = JSON.stringify([compiled.sql, compiled.countSql?.sql ?? null, compiled.comparison?.sql ?? null])
    sqlKeys.set(compiled, key)
  }
  return key
}

/**
 * The metric as a secret-key caller (rls null) runs it: without its RLS declarations. One copy
 * per metric, so its fingerprint (a hash of the definition) is computed once, not per request.
 */
const withoutRls = new WeakMap<Metric, Metric>()
function withoutRlsFor(rls: PlanRequest['rls'], metric: Metric): Metric {
  if (rls !== null || metric.rls === undefined) return metric
  let copy = withoutRls.get(metric)
  if (copy === undefined) {
    const { rls: _rls, ...rest } = metric
    copy = rest
    withoutRls.set(metric, copy)
  }
  return copy
}
