import { LRUCache } from 'lru-cache'
import { capabilitiesOf } from '../../connectors/registry.js'
import type { DataType, QueryResult } from '../../connectors/types.js'
import { ApiError, badRequest } from '../../errors.js'
import { type CompiledQuery, type CompileInput, compileMetric } from '../../query/compile.js'
import type { Dialect } from '../../query/dialects/base.js'
import { getDialect } from '../../query/dialects/registry.js'
import type { DashboardDocument, Metric } from '../../query/document.js'
import { fingerprint } from '../../query/fingerprint.js'
import { type PlanTarget, planQuery, type QueryPlan } from '../../query/plan.js'
import { needsDatabases } from '../../query/tenancy/decide.js'
import { dateString, toWall } from '../../query/zoned-time.js'
import type { Dashboard, MetricCheck } from '../dashboards/dashboards.js'
import type { Datasources } from '../datasources/datasources.js'
import type { Embed } from '../embeds/embeds.js'
import type { InvalidationBus } from '../events/bus.js'
import type { RollupReader } from '../rollups/reader.js'
import type { ReadyRollups } from '../rollups/ready.js'
import type { Workspace, Workspaces } from '../workspaces/workspaces.js'
import type { MetricRequest } from './metric-requests.js'
import { ResultCache, type ResultKey } from './result-cache.js'
import type { Source, Sources } from './sources.js'
import { tenancyFactsOf } from './tenancy-facts.js'
import { TenantDatabases } from './tenant-databases.js'
import { TenantSlots } from './tenant-slots.js'

export type ServedFrom = 'cache' | 'rollup' | 'warehouse'

/** Where the service says which source answered each planned query (debug) and why a rollup read failed (warn). */
export interface QueryLog {
  debug(obj: Record<string, unknown>, msg: string): void
  warn(obj: Record<string, unknown>, msg: string): void
}

/** The metric query result (docs/runtime-api.md#the-metric-query-result). */
export interface MetricResult {
  readonly data: readonly Record<string, unknown>[]
  readonly timeTaken: number
  /** The first measure over the comparison window (compile.ts `asOfPeriodAgo` when no date range applies); 0 over no rows. */
  readonly comparisonValue?: number
  readonly totalRecords: number
  readonly metaData: {
    readonly columns: readonly { readonly name: string; readonly dataType: DataType }[]
    readonly groupbyColumnList: readonly string[]
  }
  readonly metricid: string
  readonly error: null
  /** Where the rows came from: the result cache, a rollup's files, or the warehouse. */
  readonly servedFrom: ServedFrom
  /** The rows were cut at QUERY_ROW_LIMIT. Not in the body (the result has no such field): a header. */
  readonly truncated?: true
}

/** What the remembered plans may hold (their keys and bound values), the largest one kept, and how long one lives. */
const PLANS_BYTES = 16 * 1024 * 1024
const MAX_PLAN_BYTES = 16 * 1024
const PLAN_TTL_MS = 60_000
const PLAN_EVENTS: ReadonlySet<string> = new Set([
  'embed',
  'dashboard',
  'datasource',
  'datamart',
  'workspace',
  'rollup',
])

interface Plan extends QueryPlan {
  /** Where it runs. */
  readonly source: Source
  /** The result cache's key of the request's statements, and its id (ResultCache.id). */
  readonly resultKey: ResultKey
  readonly resultId: string
  /** The calendar day in the request's zone it was prepared on (date presets). */
  readonly day: string | undefined
  /** DATABASE tenancy: until when (epoch ms) the list of databases it was decided on holds. */
  readonly until: number | undefined
}

/** Approximate bytes of a plan of its own (its compiled statement and source are shared): key, id (the bound values), fields. */
const planSize = (plan: Plan, key: string): number => 2 * (key.length + plan.resultId.length) + 512

/**
 * A number per object, for keys: a plan is for this dashboard object (a version of the
 * document, or a tenant's overlay of one) and this embed object (its settings as loaded).
 */
const objectIds = new WeakMap<object, number>()
let nextObjectId = 0
function objectId(o: object): number {
  let id = objectIds.get(o)
  if (id === undefined) {
    id = nextObjectId++
    objectIds.set(o, id)
  }
  return id
}

/** A request's own values, which with the embed and dashboard objects decide its plan. */
function planKey(r: MetricRequest): string {
  return JSON.stringify([
    r.metricId,
    r.clientId,
    r.filters,
    r.rls,
    r.endUser?.key ?? null,
    r.timezone ?? null,
    r.hints?.datasourceName ?? null,
    r.hints?.dataMartName ?? null,
    r.pageNumber ?? null,
    r.underlying === true,
    r.underlying ? (r.sort ?? null) : null,
    r.metric ? fingerprint(r.metric) : null,
    r.defaults !== false,
    r.timeGrain ?? null,
  ])
}
/** What the compiled-statement cache may hold (its keys and SQL text). */
const COMPILED_BYTES = 16 * 1024 * 1024

interface Rows {
  readonly rows: readonly Record<string, unknown>[]
  readonly columns: readonly { name: string; dataType: DataType }[]
  readonly total?: number
  readonly comparison?: number
  readonly truncated?: true
}

/**
 * Runs a metric for one tenant: tenancy from the clientId and the datasource/datamart/embed
 * settings, filters resolved against the document, compiled to the datasource's dialect,
 * executed through its pool, results cached per tenant context.
 */
export class MetricQueries {
  private readonly cache: ResultCache<Rows>
  private readonly slots: TenantSlots
  /** DATABASE tenancy's databases per datasource: held a minute, read again for a clientId they lack. */
  private readonly databases = new TenantDatabases()
  /** Prepared requests (see `plan`), bounded by entries and bytes. */
  private readonly plans = new LRUCache<string, Plan>({
    max: 20_000,
    maxSize: PLANS_BYTES,
    sizeCalculation: planSize,
    ttl: PLAN_TTL_MS,
  })
  /** Bumped by every change a plan may depend on: a plan prepared across one is not kept. */
  private generation = 0
  /** Compiled SQL per query shape (hot path: no compile per request), bounded by entries and bytes. */
  private readonly compiled = new LRUCache<string, CompiledQuery>({
    max: 5000,
    maxSize: COMPILED_BYTES,
    sizeCalculation: (compiled, key) => key.length + sqlLength(compiled),
  })

  constructor(
    private readonly sources: Sources,
    private readonly datasources: Datasources,
    private readonly workspaces: Workspaces,
    bus: InvalidationBus,
    private readonly options: {
      readonly queryTimeoutMs: number
      readonly rowLimit: number
      /** Queries in flight per tenant and datasource (see TenantSlots). */
      readonly tenantConcurrency: number
      readonly cacheTtlMs: number
      readonly redis: ConstructorParameters<typeof ResultCache>[1]
      /** Rollups answer the queries they fit (docs/rollups.md); absent: never. */
      readonly rollups?: { readonly ready: ReadyRollups; readonly reader: RollupReader; readonly serve: boolean }
      readonly log?: QueryLog
    },
  ) {
    this.#serveRollups = options.rollups?.serve ?? false
    this.cache = new ResultCache<Rows>(options.cacheTtlMs, options.redis)
    this.slots = new TenantSlots(options.tenantConcurrency)
    bus.on((event) => {
      if (PLAN_EVENTS.has(event.kind)) {
        this.generation++
        this.plans.clear()
      }
      if (event.kind === 'datasource' || event.kind === 'dashboard' || event.kind === 'datamart') {
        this.cache.clear()
        this.compiled.clear()
      }
      if (event.kind === 'datasource') this.databases.forget(event.datasourceId)
    })
  }

  #serveRollups: boolean

  /** Whether ready rollups answer the queries they fit (ROLLUP_SERVE); switching drops the remembered plans. */
  get serveRollups(): boolean {
    return this.#serveRollups
  }

  set serveRollups(on: boolean) {
    this.#serveRollups = on && this.options.rollups !== undefined
    this.generation++
    this.plans.clear()
  }

  /** Compiled statements held now: one per query shape, however many values end users send. */
  get compiledShapes(): number {
    return this.compiled.size
  }

  /** The metric of an embed (a metric embed exposes exactly its one metric). */
  metricOf(embed: Embed, dashboard: Dashboard, metricId: string): Metric {
    const metric = dashboard.document.metrics.find((m) => m.metricId === metricId)
    if (!metric || (embed.metricId !== null && embed.metricId !== metricId)) {
      throw new ApiError('EMBED_PARAM_ERROR', 400, `Metric ${metricId} does not belong to embed ${embed.embedId}`)
    }
    return metric
  }

  async run(request: MetricRequest): Promise<MetricResult> {
    const started = performance.now()
    const plan = await this.plan(request)
    const { metric, compiled, resultKey, resultId } = plan
    let servedFrom: ServedFrom = 'warehouse'
    const { value, hit } = await this.cache.get(
      resultKey,
      async () => {
        if (plan.rollup) {
          const rows = await this.fromRollup(plan, request).catch((err: unknown) => {
            this.options.log?.warn(
              { err, metricId: request.metricId, rollup: plan.rollup?.name },
              `rollup ${plan.rollup?.name} could not be read; the warehouse answers`,
            )
            return undefined
          })
          if (rows) {
            servedFrom = 'rollup'
            return rows
          }
        }
        return this.fromWarehouse(plan, request)
      },
      resultId,
    )
    return {
      data: value.rows,
      timeTaken: Math.round((performance.now() - started) * 100) / 100,
      ...(metric.comparison ? { comparisonValue: value.comparison ?? 0 } : {}),
      totalRecords: value.total ?? value.rows.length,
      metaData: { columns: value.columns, groupbyColumnList: compiled.groupBy },
      metricid: request.metricId,
      error: null,
      servedFrom: hit ? 'cache' : servedFrom,
      ...(value.truncated ? { truncated: true as const } : {}),
    }
  }

  /** The plan's statements on the warehouse, in the tenant's slot. */
  private async fromWarehouse(plan: Plan, request: MetricRequest): Promise<Rows> {
    const { source, metric, compiled, statements, database, sessionZone } = plan
    const connector = await this.datasources.connector(source.datasource)
    const tenant = JSON.stringify([source.datasource.id, database ?? null, request.clientId])
    const [main, count, comparison] = await this.slots.run(tenant, this.options.queryTimeoutMs, (timeoutMs) => {
      const run = (statement: { sql: string; params: readonly unknown[] }) =>
        connector.execute(statement.sql, {
          params: statement.params,
          timeoutMs,
          maxRows: this.options.rowLimit,
          ...(sessionZone ? { timezone: sessionZone } : {}),
          ...(database ? { database } : {}),
        })
      return Promise.all([
        run(statements.main),
        statements.count ? run(statements.count) : undefined,
        statements.comparison ? run(statements.comparison) : undefined,
      ])
    })
    return rowsOf(compiled, metric, main, count, comparison)
  }

  /** The plan's statements on its rollup's files, read by DuckDB in the engine process. */
  private async fromRollup(plan: Plan, request: MetricRequest): Promise<Rows> {
    const reader = this.options.rollups?.reader
    if (!reader || !plan.rollup) throw new Error('no rollup reader')
    const { main, count, comparison } = await reader.read(plan.rollup, {
      timeZone: request.timezone ?? 'UTC',
      maxRows: this.options.rowLimit,
      timeoutMs: this.options.queryTimeoutMs,
    })
    return rowsOf(plan.compiled, plan.metric, main, count, comparison)
  }

  /**
   * Compiles a request as `run` would (filters, tenancy, RLS, an end user's scope) and runs nothing:
   * how a definition an end user saves is checked against the token's tenancy (self-serve).
   */
  async check(request: MetricRequest): Promise<void> {
    await this.prepare(request)
  }

  /**
   * `prepare` and the result-cache id, remembered per request: one lookup on the hot path instead
   * of resolving filters, binding values, resolving the source and tenancy and building the
   * compile and result keys again. Keyed by the objects that decide a plan (the embed and this
   * version of the dashboard, or of the tenant's overlay of it) and the request's own values as
   * JSON; a plan is dropped with every change that can alter one (a datasource, datamart,
   * workspace, dashboard or embed event), when its calendar day in the zone is over (date
   * presets), after a minute, and under DATABASE tenancy when the list of databases it was
   * decided on is no longer held (a dropped tenant database is refused as soon as a fresh list
   * is). What is not remembered is a refusal: a request that fails is prepared again each time.
   */
  private async plan(request: MetricRequest): Promise<Plan> {
    const key = `${objectId(request.dashboard)}|${objectId(request.embed)}|${planKey(request)}`
    const day = dayIn(request.timezone ?? 'UTC', new Date())
    const known = this.plans.get(key)
    if (known && known.day === day && (known.until === undefined || Date.now() < known.until)) return known
    const generation = this.generation
    const prepared = await this.prepare(request)
    const resultKey: ResultKey = prepared.rollup?.identity ?? prepared.identity
    if (prepared.rollup || prepared.rollupReason !== undefined) {
      this.options.log?.debug(
        {
          metricId: request.metricId,
          dashboardId: request.dashboard.dashboardId,
          rollup: prepared.rollup?.name ?? null,
        },
        prepared.rollup ? `rollup ${prepared.rollup.name}` : `warehouse: ${prepared.rollupReason}`,
      )
    }
    const plan: Plan = { ...prepared, resultKey, resultId: ResultCache.id(resultKey), day, until: prepared.until }
    // a request with many long filter values is prepared each time: small next to its own cost
    if (generation === this.generation && planSize(plan, key) <= MAX_PLAN_BYTES) this.plans.set(key, plan)
    return plan
  }

  /**
   * A request planned (query/plan.ts): the service gathers what the pure planner needs (the
   * metric the embed exposes, the source and its dialect, the datasource's databases under
   * DATABASE tenancy) and hands it its compiled-statement memo.
   */
  private async prepare(
    request: MetricRequest,
  ): Promise<QueryPlan & { readonly source: Source; readonly until: number | undefined }> {
    const metric = request.metric ?? this.metricOf(request.embed, request.dashboard, request.metricId)
    const { source, dialect } = await this.sourceOf(request)
    const settings = source.datamart?.tenancySettings ?? source.datasource.tenancySettings
    const databases = needsDatabases(settings, request.clientId)
      ? await this.databases.lookup(source.datasource.id, request.clientId, async () =>
          (await this.datasources.connector(source.datasource)).databases(),
        )
      : undefined
    const { endUser, underlying, sort, timeGrain } = request
    const rollups =
      this.#serveRollups && this.options.rollups && request.clientId !== undefined
        ? await this.options.rollups.ready.of(
            request.dashboard.id,
            request.dashboard.document,
            source.model,
            source.version,
          )
        : undefined
    const plan = planQuery(
      {
        metric,
        metricId: request.metricId,
        document: request.dashboard.document,
        documentVersion: `${request.dashboard.id}@${request.dashboard.updatedAt}`,
        clientId: request.clientId,
        filters: request.filters,
        defaults: request.defaults !== false,
        rls: request.rls,
        timezone: request.timezone ?? 'UTC',
        now: new Date(),
        pageNumber: request.pageNumber,
        ...(underlying ? { underlying: { sort } } : {}),
        ...(timeGrain ? { timeGrain } : {}),
        ...(endUser ? { endUser: (m: Metric) => endUser.apply(m, source, dialect.name) } : {}),
      },
      { ...this.targetOf(source, dialect, tenancyFactsOf(source, request.embed, databases?.names)), rollups },
      (input, shape) => this.compile(input, shape),
    )
    return { ...plan, source, until: databases?.until }
  }

  /** Where a source's plans run. */
  private targetOf(source: Source, dialect: Dialect, tenancy: PlanTarget['tenancy']): PlanTarget {
    return {
      model: source.model,
      version: source.version,
      dialect,
      datasourceId: source.datasource.id,
      schemaVersion: source.datasource.schemaVersion,
      // params.timezone is the session time zone on the types the API names (capabilities).
      sessionTimeZone: capabilitiesOf(source.datasource.type).timezoneParam,
      tenancy,
    }
  }

  /** The request's source and its dialect. */
  private async sourceOf(request: MetricRequest): Promise<{ source: Source; dialect: Dialect }> {
    const workspace = await this.workspaces.get(request.dashboard.workspaceId)
    const source = await this.sources.resolve(workspace, request.hints)
    return { source, dialect: getDialect((await this.datasources.connector(source.datasource)).dialect) }
  }

  /**
   * The dry run of docs/api.md#dashboards-as-code (validate, import, update): every metric of a checked
   * document compiled against the workspace's model and run on the warehouse in the dialect's
   * dry-run form (`dialect.dryRun`: for SQL `SELECT * FROM (<statement>) q WHERE 1 = 0`, then
   * with `LIMIT 0` appended; every reason is given when all fail), so the engine plans it
   * (names, types, functions) and returns no rows. Compiled with no tenancy, against the datasource's own
   * database (the one its model was introspected from): what a tenant adds (its client
   * columns, which an embed's tableTenancySettings may supply only later, or its database) is
   * not known when a document is authored, and is enforced, failing closed, at run time. No
   * request values exist either: dashboard filter defaults apply, RLS declarations are left
   * out (as for a secret-key caller), and a SQL metric's `{{name}}` variables, `{{clientId}}`
   * included, stand as NULL (what an empty list binds at run time). The compiler's and the
   * engine's refusals are the metric's error; an unreachable warehouse fails the whole call.
   */
  async probe(document: DashboardDocument, workspace: Workspace): Promise<MetricCheck[]> {
    const source = await this.sources.resolve(workspace)
    const connector = await this.datasources.connector(source.datasource)
    const dialect = getDialect(connector.dialect)
    const target = this.targetOf(source, dialect, null)
    const checks: MetricCheck[] = []
    for (const declared of document.metrics) {
      const { rls: _rls, ...metric } =
        declared.sql === undefined ? declared : { ...declared, sql: declared.sql.replace(PROBE_VARIABLE, 'NULL') }
      try {
        const { statements } = planQuery(
          {
            metric,
            metricId: declared.metricId,
            document,
            documentVersion: '',
            clientId: undefined,
            filters: {},
            defaults: true,
            rls: null,
            timezone: 'UTC',
            now: new Date(),
          },
          target,
        )
        for (const statement of [statements.main, statements.comparison]) {
          if (statement === undefined) continue
          const run = (sql: string) =>
            connector.execute(sql, { params: statement.params, timeoutMs: this.options.queryTimeoutMs, maxRows: 1 })
          const [first, second] = dialect.dryRun(statement.sql)
          try {
            await run(first)
          } catch (wrapped) {
            // Some engines refuse the first form of some statements (ClickHouse 18: a WITH clause
            // as a subquery): the statement as written with LIMIT 0 appended is the second try.
            if (second === undefined || !(wrapped instanceof ApiError) || wrapped.code !== 'QUERY_ERROR') throw wrapped
            try {
              await run(second)
            } catch (plain) {
              if (!(plain instanceof ApiError) || plain.message === wrapped.message) throw wrapped
              throw badRequest(`${wrapped.message} (as written, with LIMIT 0: ${plain.message})`)
            }
          }
        }
        checks.push({ metricId: declared.metricId, valid: true })
      } catch (err) {
        if (!(err instanceof ApiError) || err.code === 'DATASOURCE_CONNECTION_ERROR') throw err
        checks.push({ metricId: declared.metricId, valid: false, error: err.message })
      }
    }
    return checks
  }

  /**
   * compileMetric, memoised per query shape: the input's request values are `Bound`s (see
   * query/bind.ts), which the key holds as their types, so every request of one shape shares
   * one compiled statement and end users' values never grow this cache. The compiled SQL
   * depends on `now` only through the calendar day in the zone (date presets resolve to whole
   * days), so the key holds that day instead; every other input is in the key (`scope`: model
   * version, dashboard version, metric). Cleared with the result cache when a datasource,
   * datamart or dashboard changes.
   */
  private compile(input: CompileInput, scope: string): CompiledQuery {
    const { context } = input
    const day = dayIn(context.timezone, context.now)
    if (day === undefined) return compileMetric(input) // a bad zone: compileMetric answers the 400
    const tenancy =
      context.tenancy.kind === 'table'
        ? { ...context.tenancy, clientColumns: [...(context.tenancy.clientColumns ?? new Map()).entries()] }
        : context.tenancy
    const key = JSON.stringify([
      scope,
      day,
      context.timezone,
      tenancy,
      context.rls,
      context.filters,
      context.page ?? null,
    ])
    let compiled = this.compiled.get(key)
    if (compiled === undefined) {
      compiled = compileMetric(input)
      this.compiled.set(key, compiled)
    }
    return compiled
  }
}

/** A SQL metric's `{{name}}` variables, which the dry run binds as NULL. */
const PROBE_VARIABLE = /\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}/g

const sqlLength = (c: CompiledQuery): number =>
  c.sql.length + (c.countSql?.sql.length ?? 0) + (c.comparison?.sql.length ?? 0) + 256

/** The calendar day in `timeZone` at `now`, remembered per zone until the next whole minute. */
const days = new Map<string, { readonly until: number; readonly day: string }>()
function dayIn(timeZone: string, now: Date): string | undefined {
  const at = now.getTime()
  const known = days.get(timeZone)
  if (known && at < known.until && at >= known.until - 60_000) return known.day
  let day: string
  try {
    day = dateString(toWall(now, timeZone))
  } catch {
    return undefined
  }
  if (days.size >= 1000) days.clear()
  days.set(timeZone, { until: Math.floor(at / 60_000 + 1) * 60_000, day })
  return day
}

/** A result as the cache keeps it, from the statements' results (the warehouse's or a rollup's). */
function rowsOf(
  compiled: CompiledQuery,
  metric: Metric,
  main: QueryResult,
  count: QueryResult | undefined,
  comparison: QueryResult | undefined,
): Rows {
  return {
    rows: main.rows,
    ...(main.truncated ? { truncated: true as const } : {}),
    columns: compiled.columns.length > 0 ? compiled.columns : main.columns,
    ...(count ? { total: Number(Object.values(count.rows[0] ?? {})[0] ?? 0) } : {}),
    ...(comparison ? { comparison: firstMeasure(comparison.rows[0], metric) } : {}),
  }
}

/** The first measure of the comparison row; an aggregate over no rows (NULL) is 0. */
function firstMeasure(row: Record<string, unknown> | undefined, metric: Metric): number {
  const name = metric.query?.measures?.[0]?.name
  const value = row && name !== undefined ? Number(row[name] ?? 0) : 0
  return Number.isFinite(value) ? value : 0
}
