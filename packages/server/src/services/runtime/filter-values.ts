import type { ColumnValuesQuery, ColumnValuesResult } from '@strata/contract/runtime'
import type { GuestClaims } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import type { Metric } from '../../query/document.js'
import { filterKey } from '../../query/filters.js'
import { findTable, resolveColumn } from '../../query/model.js'
import { checkFilterColumns, hiddenFilters } from '../guest-access/filters.js'
import { effective, requireCapability } from '../guest-access/permissions.js'
import type { MetricQueries } from '../query/metric-queries.js'
import { type EndUserScope, guestRequest } from '../query/metric-requests.js'
import type { Sources } from '../query/sources.js'
import { inheritedRls } from '../self-serve/inherited-rls.js'
import { visibleModel } from '../self-serve/visible-model.js'
import type { Workspaces } from '../workspaces/workspaces.js'
import type { Opened, Runtime } from './runtime.js'

/** Values are listed 100 a page (the metric engine's page); a cursor is the next page's number. */
const PAGE_SIZE = 100
/** Filter types whose values are picked from a list. */
const PICKABLE: ReadonlySet<string> = new Set(['multi-select', 'single-select', 'text'])

/**
 * The distinct values of a column for the token's tenant (docs/runtime-api.md#filter-values):
 * what value pickers offer. The values query is a metric the server builds (one dimension, the
 * column, not null, ascending) and runs through the metric engine as an end user's metric
 * runs: the token's tenancy, its RLS on the company's metrics as restrictions
 * (self-serve/inherited-rls.ts), and its locked dashboard filters; the defaults of the
 * dashboard's filters do not narrow it. The search is a metric filter of type text (a bound,
 * case-insensitive contains), so its statements and cached results are keyed like any metric's.
 */
export class FilterValues {
  constructor(
    private readonly runtime: Runtime,
    private readonly queries: MetricQueries,
    private readonly workspaces: Workspaces,
    private readonly sources: Sources,
  ) {}

  /** A dashboard filter's values: the end user may filter, and this filter is neither hidden nor outside dashboardFilterColumns. */
  async ofFilter(claims: GuestClaims, id: string, name: string, query: ColumnValuesQuery): Promise<ColumnValuesResult> {
    const opened = await this.runtime.open(claims, id)
    const { embed, dashboard } = opened
    const filters = embed.embedType === 'metric' ? [] : (dashboard.document.filters ?? [])
    const k = filterKey(name)
    const filter =
      filters.find((f) => filterKey(f.name) === k) ??
      filters.find((f) => f.label !== undefined && filterKey(f.label) === k)
    if (filter === undefined) throw badRequest(`filters: no filter named "${name}" on this dashboard`)
    if (hiddenFilters(claims)(filter))
      throw new ApiError('UNAUTHORIZED', 403, `Filter ${filter.name} is hidden for this token`)
    if (!effective(claims, embed).endUserDashboardFilter) {
      throw new ApiError('UNAUTHORIZED', 403, 'End-user dashboard filters are not allowed for this embed')
    }
    checkFilterColumns(claims, embed, dashboard, { [filter.name]: true })
    if (!PICKABLE.has(filter.type)) {
      throw badRequest(`filters: ${filter.name} is a ${filter.type} filter: its values are not listed`)
    }
    return this.list(claims, opened, `filter:${filter.name}`, filter.table, filter.column, query)
  }

  /** A visible model column's values, for the builder's filter inputs: needs the create capability; no tenant or hidden column. */
  async ofColumn(
    claims: GuestClaims,
    id: string,
    table: string,
    column: string,
    query: ColumnValuesQuery,
  ): Promise<ColumnValuesResult> {
    const opened = await this.runtime.open(claims, id)
    requireCapability(claims, opened.embed, 'metricCreation', 'Creating metrics')
    const visible = visibleModel(await this.source(claims, opened), opened.embed)
    const t = findTable(visible, table)
    const c = t && columnIn(t, column)
    if (t === undefined || c === undefined) throw badRequest(`columns: the model has no column ${table}.${column}`)
    return this.list(claims, opened, `column:${t.key}.${c}`, t.key, c, query)
  }

  private async source(claims: GuestClaims, opened: Opened) {
    const workspace = await this.workspaces.get(opened.company.workspaceId)
    return this.sources.resolve(workspace, { datasourceName: claims.datasourceName, dataMartName: claims.datamartName })
  }

  private async list(
    claims: GuestClaims,
    opened: Opened,
    name: string,
    table: string,
    column: string,
    query: ColumnValuesQuery,
  ): Promise<ColumnValuesResult> {
    const page = query.cursor === undefined ? 1 : Number(query.cursor)
    // the search is a case-insensitive contains: on text columns (others list every value)
    const modelTable = findTable((await this.source(claims, opened)).model, table)
    const dataType = modelTable && columnIn(modelTable, column) && resolveColumn(modelTable, column).dataType
    const search = dataType === 'string' || dataType === 'unknown' ? (query.search?.trim() ?? '') : ''
    const metric: Metric = {
      metricId: 'values',
      name: 'Values',
      chart: { type: 'table' },
      query: {
        from: table,
        // grouped by the value (a measure makes the engine group): distinct values
        measures: [{ name: 'rows', aggregate: 'count' }],
        dimensions: [{ name: 'value', column }],
        where: [{ column, operator: 'is-not-null' }],
        orderBy: [{ name: 'value', direction: 'asc' }],
      },
      filters: [{ name: 'search', type: 'text', column }],
    }
    const result = await this.queries.run(
      guestRequest(claims, opened, {
        metricId: `values:${name}`,
        metric,
        rls: {},
        endUser: rlsScope(claims, opened.company.document.metrics),
        ...(search ? { metricFilter: { search } } : {}),
        defaults: false,
        pageNumber: page,
      }),
    )
    const values = result.data.map((row) => plain(row.value))
    const more = page * PAGE_SIZE < result.totalRecords && page < 999
    return { data: { values, nextCursor: more ? String(page + 1) : null }, error: null }
  }
}

/** The token's RLS on the company's metrics, as restrictions on the values query (as on an end user's metric). */
function rlsScope(claims: GuestClaims, company: readonly Metric[]): EndUserScope {
  const relevant = new Set(company.filter((m) => m.sql !== undefined || m.rls !== undefined).map((m) => m.metricId))
  return {
    key: JSON.stringify((claims.params.rlsSettings ?? []).filter((e) => relevant.has(e.metricId))),
    apply: (metric, source, dialect) => ({
      metric,
      restrictions: inheritedRls(claims, company, { model: source.model, dialect }),
    }),
  }
}

function columnIn(table: Parameters<typeof resolveColumn>[0], name: string): string | undefined {
  try {
    return resolveColumn(table, name).name
  } catch {
    return undefined
  }
}

/** A value as JSON carries it: dates as ISO text, big integers as text. */
function plain(v: unknown): string | number | boolean {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v
  if (v instanceof Date) return v.toISOString()
  return String(v)
}
