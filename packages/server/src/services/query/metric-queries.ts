import type { TimeGrain } from '@strata/contract/document'
import { LRUCache } from 'lru-cache'
import { capabilitiesOf } from '../../connectors/registry.js'
import type { DataType } from '../../connectors/types.js'
import { ApiError, badRequest } from '../../errors.js'
import { bindRequest, rebind, type Scalar } from '../../query/bind.js'
import { type CompiledQuery, type CompileInput, compileMetric, type Tenancy } from '../../query/compile.js'
import type { CompiledSql, Dialect } from '../../query/dialects/base.js'
import { getDialect } from '../../query/dialects/registry.js'
import type { DashboardDocument, Metric } from '../../query/document.js'
import { type AppliedFilter, type FilterInputs, resolveFilters } from '../../query/filters.js'
import { resolveTable } from '../../query/model.js'
import type { DialectName } from '../../query/types.js'
import { dateString, toWall } from '../../query/zoned-time.js'
import type { Dashboard, MetricCheck } from '../dashboards/dashboards.js'
import type { Datasources } from '../datasources/datasources.js'
import type { Embed } from '../embeds/embeds.js'
import type { InvalidationBus } from '../events/bus.js'
import type { Workspace, Workspaces } from '../workspaces/workspaces.js'
import { fingerprint } from './fingerprint.js'
import { ResultCache, type ResultKey } from './result-cache.js'
import type { Source, SourceHints, Sources } from './sources.js'
import { isShownColumn, tenantColumnsOf } from './tenant-columns.js'
import { TenantSlots } from './tenant-slots.js'

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
  /** The rows were cut at QUERY_ROW_LIMIT. Not in the body (the result has no such field): a header. */
  readonly truncated?: true
}

export interface MetricRequest {
  readonly embed: Embed
  readonly dashboard: Dashboard
  readonly metricId: string
  /** `None`: no tenancy. */
  readonly clientId: string
  readonly filters: FilterInputs
  /**
   * The guest token's rlsSettings values for this metric: every RLS variable the metric declares
   * needs one (else 400). null: a secret-key caller, to whom RLS does not apply (it names any
   * clientId; only guest tokens carry rlsSettings).
   */
  readonly rls: Readonly<Record<string, unknown>> | null
  /** IANA; the session time zone on the engines that have one, and where presets are evaluated. */
  readonly timezone?: string | undefined
  readonly hints?: SourceHints
  /** 1-based; pages of `pageSize` rows (tables). */
  readonly pageNumber?: number | undefined
  /** The rows behind the metric (its table's visible columns, same filters and tenancy). */
  readonly underlying?: boolean
  /**
   * The underlying rows' order (with `underlying` only): a column the rows show, checked against
   * them, so an identifier never comes from the request; the other columns break ties.
   */
  readonly sort?: { readonly column: string; readonly direction: 'asc' | 'desc' } | undefined
  /** The metric is an end user's definition: how it is read against the model (self-serve/end-user-scope.ts). */
  readonly endUser?: EndUserScope
  /**
   * A metric the server built for this request (a filter's distinct values, runtime/filter-values.ts),
   * run in place of the document's `metricId`; `metricId` then only names it in keys and errors.
   */
  readonly metric?: Metric
  /** false: the dashboard filters' defaults do not apply (a filter's values list every value). */
  readonly defaults?: boolean
  /** Drill-down: this time-grained dimension of the metric shown at another grain (checked by the caller). */
  readonly timeGrain?: { readonly dimension: string; readonly grain: TimeGrain }
}

/**
 * An end user's definition, read where the model is known (when a request is planned): the
 * metric with its names resolved as the end user may name them, and trusted conditions ANDed
 * in besides the filters (the token's RLS on the company's metrics).
 */
export interface EndUserScope {
  /** What `apply` depends on besides the dashboard, the embed and the model: part of the plan key. */
  readonly key: string
  apply(
    metric: Metric,
    source: Source,
    dialect: DialectName,
  ): { readonly metric: Metric; readonly restrictions: readonly AppliedFilter[] }
}

const PAGE_ROWS = 100
/** What the remembered plans may hold (their keys and bound values), the largest one kept, and how long one lives. */
const PLANS_BYTES = 16 * 1024 * 1024
const MAX_PLAN_BYTES = 16 * 1024
const PLAN_TTL_MS = 60_000
const PLAN_EVENTS: ReadonlySet<string> = new Set(['embed', 'dashboard', 'datasource', 'datamart', 'workspace'])

type Prepared = Awaited<ReturnType<MetricQueries['prepare']>>
interface Plan extends Prepared {
  /** The result cache's key of the request's statements, and its id (ResultCache.id). */
  readonly resultKey: ResultKey
  readonly resultId: string
  /** The calendar day in the request's zone it was prepared on (date presets). */
  readonly day: string | undefined
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
  private readonly databases = new LRUCache<string, readonly string[]>({ max: 1000, ttl: 60_000 })
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
    },
  ) {
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
      if (event.kind === 'datasource') this.databases.delete(event.datasourceId)
    })
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
    const { source, metric, compiled, statements, database, sessionZone, resultKey, resultId } =
      await this.plan(request)
    const { value } = await this.cache.get(
      resultKey,
      async () => {
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
        return {
          rows: main.rows,
          ...(main.truncated ? { truncated: true as const } : {}),
          columns: compiled.columns.length > 0 ? compiled.columns : main.columns,
          ...(count ? { total: Number(Object.values(count.rows[0] ?? {})[0] ?? 0) } : {}),
          ...(comparison ? { comparison: firstMeasure(comparison.rows[0], metric) } : {}),
        }
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
      ...(value.truncated ? { truncated: true as const } : {}),
    }
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
   * presets), and after a minute (a DATABASE tenancy's list of databases is remembered as long).
   * What is not remembered is a refusal: a request that fails is prepared again each time.
   */
  private async plan(request: MetricRequest): Promise<Plan> {
    const key = `${objectId(request.dashboard)}|${objectId(request.embed)}|${planKey(request)}`
    const day = dayIn(request.timezone ?? 'UTC', new Date())
    const known = this.plans.get(key)
    if (known && known.day === day) return known
    const generation = this.generation
    const prepared = await this.prepare(request)
    const resultKey: ResultKey = {
      datasourceId: prepared.source.datasource.id,
      schemaVersion: prepared.source.datasource.schemaVersion,
      database: prepared.database,
      timezone: prepared.sessionZone,
      ...prepared.statements.key,
    }
    const plan: Plan = { ...prepared, resultKey, resultId: ResultCache.id(resultKey), day }
    // a request with many long filter values is prepared each time: small next to its own cost
    if (generation === this.generation && planSize(plan, key) <= MAX_PLAN_BYTES) this.plans.set(key, plan)
    return plan
  }

  private async prepare(request: MetricRequest) {
    let declared = withoutRlsFor(
      request,
      request.metric ?? this.metricOf(request.embed, request.dashboard, request.metricId),
    )
    // an end user's definition is read against the model first (its names, the token's RLS)
    const known = request.endUser ? await this.sourceOf(request) : undefined
    const scoped = known && request.endUser?.apply(declared, known.source, known.dialect.name)
    if (scoped) declared = scoped.metric
    if (request.timeGrain) declared = regrained(declared, request.timeGrain)
    // the request's values are checked (forms, caps) and bound before the tenancy and the compile
    const filters = resolveFilters(request.dashboard.document, declared, request.filters, {
      defaults: request.defaults !== false,
    })
    const bound = bindRequest(
      scoped?.restrictions.length ? [...filters, ...scoped.restrictions] : filters,
      request.rls ?? {},
      request.clientId,
    )
    const { source, dialect } = known ?? (await this.sourceOf(request))
    const metric = request.underlying ? underlyingOf(declared, source, request.embed, request.sort) : declared
    const pageNumber = request.underlying ? (request.pageNumber ?? 1) : request.pageNumber
    const tenancy = await this.tenancy(source, request)
    const timezone = request.timezone ?? 'UTC'
    const page = pageNumber === undefined ? undefined : Math.max(1, pageNumber)
    const compiled = this.compile(
      {
        metric,
        model: source.model,
        dialect,
        context: {
          tenancy: tenancy.kind === 'table' && bound.clientId ? { ...tenancy, clientId: bound.clientId } : tenancy,
          rls: bound.rls,
          filters: bound.filters,
          timezone,
          now: new Date(),
          ...(page ? { page: { limit: PAGE_ROWS, offset: (page - 1) * PAGE_ROWS } } : {}),
        },
      },
      // the definition's fingerprint: a tenant's version of a company metric has the same id
      `${source.version}|${request.dashboard.id}@${request.dashboard.updatedAt}|${request.metricId}#${fingerprint(declared)}|${request.underlying ? `underlying${request.sort ? `:${JSON.stringify(request.sort)}` : ''}` : 'metric'}|${request.defaults !== false}`,
    )
    const statements = bindStatements(compiled, bound.values, dialect)
    const database = tenancy.kind === 'database' ? tenancy.database : undefined
    // params.timezone is the session time zone on the types the API names (capabilities).
    const sessionZone = capabilitiesOf(source.datasource.type).timezoneParam ? timezone : undefined
    return { source, metric, compiled, statements, database, sessionZone }
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
    const checks: MetricCheck[] = []
    for (const declared of document.metrics) {
      const { rls: _rls, ...metric } =
        declared.sql === undefined ? declared : { ...declared, sql: declared.sql.replace(PROBE_VARIABLE, 'NULL') }
      try {
        const bound = bindRequest(resolveFilters(document, metric, {}), {}, undefined)
        const compiled = compileMetric({
          metric,
          model: source.model,
          dialect,
          context: {
            tenancy: { kind: 'none' },
            rls: bound.rls,
            filters: bound.filters,
            timezone: 'UTC',
            now: new Date(),
          },
        })
        const statements = bindStatements(compiled, bound.values, dialect)
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

  /**
   * docs/tenancy.md. `None` is no tenancy, and only where none is configured: under a tenancy
   * (datasource or datamart tenancySettings, a datamart table's client column, the embed's
   * tableTenancySettings) it is refused, or a tenant whose id could be "None" would read every
   * row. DATABASE: the clientId names a database the datasource really has. TABLE: the client
   * column of every queried table, from the embed's tableTenancySettings, the datamart, or
   * through the tenancy table.
   */
  private async tenancy(source: Source, request: MetricRequest): Promise<Tenancy> {
    const { clientId } = request
    const settings = source.datamart?.tenancySettings ?? source.datasource.tenancySettings
    const tableSettings = request.embed.accessSettings.tableTenancySettings ?? []
    const modelHasClientColumns = [...source.model.tables.values()].some((t) => t.clientColumn)
    if (clientId === 'None') {
      const owner = source.datamart ? `datamart ${source.datamart.name}` : `datasource ${source.datasource.name}`
      const configured = settings
        ? `${owner} has ${settings.tenancyLevel} tenancy`
        : tableSettings.length > 0
          ? `embed ${request.embed.embedId} has tableTenancySettings`
          : modelHasClientColumns
            ? `${owner} has client columns`
            : undefined
      if (configured === undefined) return { kind: 'none' }
      throw new ApiError(
        'CLIENT_ID_ERROR',
        400,
        `clientId: "None" means no tenancy, but ${configured}: pass the tenant's id`,
      )
    }
    if (settings?.tenancyLevel === 'DATABASE') {
      const databases = await this.databasesOf(source)
      if (!databases.includes(clientId)) {
        const unit = capabilitiesOf(source.datasource.type).tenancyUnit
        throw new ApiError(
          'CLIENT_ID_ERROR',
          400,
          `clientId: ${clientId} is not a ${unit} of datasource ${source.datasource.name}`,
        )
      }
      return { kind: 'database', database: clientId }
    }
    const clientColumns = new Map<string, string>()
    for (const [i, t] of tableSettings.entries()) {
      clientColumns.set(
        resolveTable(source.model, t.name, `accessSettings.tableTenancySettings[${i}].name`).key,
        t.clientColumn,
      )
    }
    if (settings?.tenancyLevel === 'TABLE') {
      return {
        kind: 'table',
        clientId,
        clientColumns,
        tenancyTable: {
          table: `${settings.schemaName}.${settings.tableName}`,
          clientNameColumn: settings.tableClientNameColumn,
          primaryKeyColumn: settings.tablePrimaryKeyColumn,
        },
      }
    }
    if (clientColumns.size > 0 || modelHasClientColumns) return { kind: 'table', clientId, clientColumns }
    return { kind: 'none' }
  }

  private async databasesOf(source: Source): Promise<readonly string[]> {
    const key = source.datasource.id
    let list = this.databases.get(key)
    if (!list) {
      list = await (await this.datasources.connector(source.datasource)).databases()
      this.databases.set(key, list)
    }
    return list
  }
}

/** A SQL metric's `{{name}}` variables, which the dry run binds as NULL. */
const PROBE_VARIABLE = /\{\{\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\}/g

interface Statement {
  readonly sql: string
  readonly params: readonly unknown[]
}

/** The statements of one request: the compiled shape with the request's values bound, and their result-cache key. */
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

/** The result-cache SQL of a compiled metric (its statements' text), made once per compiled shape. */
const sqlKeys = new WeakMap<CompiledQuery, string>()
function sqlKeyOf(compiled: CompiledQuery): string {
  let key = sqlKeys.get(compiled)
  if (key === undefined) {
    key = JSON.stringify([compiled.sql, compiled.countSql?.sql ?? null, compiled.comparison?.sql ?? null])
    sqlKeys.set(compiled, key)
  }
  return key
}

const sqlLength = (c: CompiledQuery): number =>
  c.sql.length + (c.countSql?.sql.length ?? 0) + (c.comparison?.sql.length ?? 0) + 256

/**
 * The metric as a secret-key caller (rls null) runs it: without its RLS declarations. One copy
 * per metric, so its fingerprint (a hash of the definition) is computed once, not per request.
 */
const withoutRls = new WeakMap<Metric, Metric>()
function withoutRlsFor(request: MetricRequest, metric: Metric): Metric {
  if (request.rls !== null || metric.rls === undefined) return metric
  let copy = withoutRls.get(metric)
  if (copy === undefined) {
    const { rls: _rls, ...rest } = metric
    copy = rest
    withoutRls.set(metric, copy)
  }
  return copy
}

/**
 * A drill-down's view of a metric: one time-grained dimension at another grain, its order kept.
 * Only a dimension that has a grain may change (400 otherwise): the rows are the same rows,
 * grouped otherwise.
 */
export function regrained(metric: Metric, { dimension, grain }: { dimension: string; grain: TimeGrain }): Metric {
  const dims = metric.query?.dimensions ?? []
  if (!metric.query || !dims.some((d) => d.name === dimension && d.timeGrain !== undefined)) {
    throw badRequest(`drill.timeGrain.dimension: ${metric.metricId} has no time-grained dimension "${dimension}"`)
  }
  return {
    ...metric,
    query: { ...metric.query, dimensions: dims.map((d) => (d.name === dimension ? { ...d, timeGrain: grain } : d)) },
  }
}

/**
 * The underlying-data view of a metric: the distinct rows of its table's visible columns (at
 * most 50; never a hidden or a tenant column), under the metric's own conditions, filters and
 * tenancy, paged.
 */
function underlyingOf(metric: Metric, source: Source, embed: Embed, sort?: MetricRequest['sort']): Metric {
  if (!metric.query) throw badRequest(`Metric ${metric.metricId} is a SQL metric: it has no underlying rows to show`)
  const table = resolveTable(source.model, metric.query.from, 'query.from')
  const tenantColumns = tenantColumnsOf(source, embed)
  const columns = [...table.columns.values()].filter((c) => isShownColumn(table, c, tenantColumns)).slice(0, 50)
  // the sort names one of the columns shown (so never a tenant or hidden one); the rest keep pages stable
  const sorted = sort && columns.find((c) => c.name === sort.column)
  if (sort && !sorted) {
    throw badRequest(`sort.column: the rows of ${metric.metricId} have no column "${sort.column.slice(0, 100)}"`)
  }
  const orderBy = sorted
    ? [
        { name: sorted.name, direction: sort.direction },
        ...columns.filter((c) => c !== sorted).map((c) => ({ name: c.name, direction: 'asc' as const })),
      ]
    : undefined
  const { comparison: _comparison, ...rest } = metric
  return {
    ...rest,
    chart: { type: 'table' },
    query: {
      from: metric.query.from,
      ...(metric.query.where ? { where: metric.query.where } : {}),
      dimensions: columns.map((c) => ({ name: c.name, column: c.name })),
      ...(orderBy ? { orderBy } : {}),
    },
  }
}

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

/** The first measure of the comparison row; an aggregate over no rows (NULL) is 0. */
function firstMeasure(row: Record<string, unknown> | undefined, metric: Metric): number {
  const name = metric.query?.measures?.[0]?.name
  const value = row && name !== undefined ? Number(row[name] ?? 0) : 0
  return Number.isFinite(value) ? value : 0
}
