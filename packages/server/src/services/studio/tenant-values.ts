import { ApiError } from '../../errors.js'
import { bindRequest, rebind } from '../../query/bind.js'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import type { Metric } from '../../query/document.js'
import { resolveFilters } from '../../query/filters.js'
import type { Datasources } from '../datasources/datasources.js'
import type { Sources } from '../query/sources.js'
import type { Workspaces } from '../workspaces/workspaces.js'

/** Tenants are listed 100 a page; a cursor is the next page's number. */
export const TENANT_PAGE = 100
/** The last page a cursor may name (100,000 tenants): a list, not an export. */
const MAX_PAGE = 1000

export interface TenantQuery {
  readonly workspaceName: string
  readonly search?: string | undefined
  readonly cursor?: string | undefined
}

export interface TenantList {
  /** Where the values come from: a table's tenant column, the datasource's databases, or nowhere (no tenancy). */
  readonly source: 'column' | 'database' | 'none'
  /** `schema.table.column` of the tenant column read (source `column`). */
  readonly column: string | null
  readonly values: string[]
  readonly nextCursor: string | null
}

/**
 * The tenants (`clientId` values) the studio offers when an admin previews a dashboard as one:
 * the distinct values of the workspace's tenant column (the first table of its datamart that
 * has one), or, under DATABASE tenancy, the datasource's databases. The search is a bound,
 * case-insensitive contains (`%` and `_` match themselves); pages of 100. Read with no tenancy
 * (the admin sees every tenant), through the dialect's compiler like any metric, and never
 * cached: the list is read when the preview form opens or the search changes.
 */
export class StudioTenants {
  constructor(
    private readonly workspaces: Workspaces,
    private readonly sources: Sources,
    private readonly datasources: Datasources,
    private readonly queryTimeoutMs: number,
  ) {}

  async list(organizationId: string, query: TenantQuery): Promise<TenantList> {
    const workspace = await this.workspaces.byName(organizationId, query.workspaceName)
    if (!workspace) {
      throw new ApiError('WORKSPACE_ID_ERROR', 400, `workspaceName: no workspace named ${query.workspaceName}`)
    }
    const page = query.cursor === undefined ? 1 : Number(query.cursor)
    if (!Number.isSafeInteger(page) || page < 1 || page > MAX_PAGE) {
      throw new ApiError('INVALID_REQUEST_BODY', 400, `cursor: not a cursor this route answered`)
    }
    const search = query.search?.trim() ?? ''
    const source = await this.sources.resolve(workspace)
    const settings = source.datamart?.tenancySettings ?? source.datasource.tenancySettings
    const connector = await this.datasources.connector(source.datasource)
    if (settings?.tenancyLevel === 'DATABASE') {
      const needle = search.toLowerCase()
      const all = (await connector.databases()).filter((d) => d.toLowerCase().includes(needle)).sort()
      const values = all.slice((page - 1) * TENANT_PAGE, page * TENANT_PAGE)
      const more = page * TENANT_PAGE < all.length && page < MAX_PAGE
      return { source: 'database', column: null, values, nextCursor: more ? String(page + 1) : null }
    }
    const table = [...source.model.tables.values()].find((t) => t.clientColumn)
    if (!table?.clientColumn) return { source: 'none', column: null, values: [], nextCursor: null }
    const column = table.clientColumn
    const metric: Metric = {
      metricId: 'tenants',
      name: 'Tenants',
      chart: { type: 'table' },
      query: {
        from: table.key,
        measures: [{ name: 'rows', aggregate: 'count' }],
        dimensions: [{ name: 'value', column }],
        where: [{ column, operator: 'is-not-null' }],
        orderBy: [{ name: 'value', direction: 'asc' }],
      },
      filters: [{ name: 'search', type: 'text', column }],
    }
    const dialect = getDialect(connector.dialect)
    const filters = resolveFilters({ name: 'tenants', metrics: [metric] }, metric, {
      ...(search ? { metricFilter: { search } } : {}),
      userFiltersTrusted: true,
    })
    const bound = bindRequest(filters, {}, undefined)
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
        // one more than a page: whether another page exists, without counting
        page: { limit: TENANT_PAGE + 1, offset: (page - 1) * TENANT_PAGE },
      },
    })
    const params = rebind(compiled.params, compiled.slots, bound.values, (v) => dialect.bindValue(v))
    const result = await connector.execute(compiled.sql, {
      params,
      timeoutMs: this.queryTimeoutMs,
      maxRows: TENANT_PAGE + 1,
    })
    const values = result.rows.map((row) => String(row.value))
    const more = values.length > TENANT_PAGE && page < MAX_PAGE
    return {
      source: 'column',
      column: `${table.key}.${column}`,
      values: values.slice(0, TENANT_PAGE),
      nextCursor: more ? String(page + 1) : null,
    }
  }
}
