import type { DashboardDocument, FilterType, Metric } from '@strata/contract/document'
import { badRequest, blamingToken } from '../errors.js'
import { canonicalDateRange } from './date-range.js'

/**
 * The value forms of docs/dashboard-document.md#filter-values-token-and-end-user: boolean, number, string (eq; a date preset
 * on a date column), array of strings (IN), `{ startDate, endDate }` (also written `{ start, end }`,
 * made `{ startDate, endDate }` here: query/date-range.ts), `{ min, max }`,
 * `{ sql, columnName }` (trusted text: secret-key holders only).
 */
export type FilterValue =
  | boolean
  | number
  | string
  | readonly (string | number | boolean)[]
  | { readonly startDate?: string; readonly endDate?: string }
  | { readonly min?: number; readonly max?: number }
  | { readonly sql: string; readonly columnName: string }

/**
 * Where a value came from. rls: the token's rlsSettings; app: the token's appFilters or
 * dashboardAppFilters; dashboard / metric: the end user's dashboardFilter / metricFilter;
 * user: any other caller-built filter.
 */
export type FilterSource = 'rls' | 'app' | 'dashboard' | 'metric' | 'user'

export interface AppliedFilter {
  /** Canonical `schema.table` ('' for filters of a SQL metric, which bind `{{name}}`). */
  readonly table: string
  readonly column: string
  /** Untrusted: checked against the value forms at compile time. */
  readonly value: FilterValue
  readonly source: FilterSource
  /** The filter's name: SQL metrics bind `{{name}}` from metric filters. */
  readonly name?: string
  readonly type?: FilterType
  /** dashboard: applied only to metrics whose `from` reaches the table; metric (default): must reach it. */
  readonly scope?: 'metric' | 'dashboard'
  /** May carry the `{ sql, columnName }` form. Default: true for rls and app, else false. */
  readonly trusted?: boolean
  /**
   * A restriction the token has no value for: a metric that reaches the table is refused with
   * this message rather than run unrestricted (fail closed; its `value` is never applied).
   */
  readonly refuse?: string
}

/** The `values` objects that apply to one metric (the caller picks the token entries by id). */
export interface FilterInputs {
  /** Token appFilters[].values for this metric: keys are metric filter names or labels. */
  readonly appFilters?: Readonly<Record<string, unknown>>
  /** Token dashboardAppFilters[].values for this dashboard: keys are dashboard filter names or labels. */
  readonly dashboardAppFilters?: Readonly<Record<string, unknown>>
  /** The end user's dashboardFilter. */
  readonly dashboardFilter?: Readonly<Record<string, unknown>>
  /** The end user's metricFilter. */
  readonly metricFilter?: Readonly<Record<string, unknown>>
  /** true when dashboardFilter/metricFilter come from a secret-key holder (POST /data-app/query). */
  readonly userFiltersTrusted?: boolean
  /**
   * The end user's drill-down values: a canonical `schema.table` and a column the caller checked
   * against the visible model, each applied as a dashboard filter would be (to the metrics whose
   * `from` reaches the table), never trusted.
   */
  readonly drill?: readonly DrillInput[]
}

/** One drill-down value (services/runtime/drill.ts checks it before it gets here). */
export interface DrillInput {
  readonly table: string
  readonly column: string
  readonly value: string | number | boolean | { readonly startDate: string; readonly endDate: string }
}

/** The name drill-down filters go by in errors (`dashboardFilter.drill`); no SQL metric declares it. */
export const DRILL_FILTER_NAME = 'drill'

/** Where a filter's value is named in errors: `appFilters.x`, `rlsSettings.x`, `dashboardFilter.x` … */
export const filterPath = (f: Pick<AppliedFilter, 'source' | 'name' | 'column'>): string =>
  `${f.source === 'app' ? 'appFilters' : f.source === 'rls' ? 'rlsSettings' : `${f.source}Filter`}.${f.name ?? f.column}`

interface Named {
  readonly name: string
  readonly label?: string
}

/**
 * How a filter is named wherever a key refers to one (token values, hidden and pinned filters,
 * the end user's filters): trimmed, case-insensitive. One function, so every check agrees.
 */
export const filterKey = (key: string): string => key.trim().toLowerCase()

function find<T extends Named>(filters: readonly T[], key: string, where: string): T {
  const k = filterKey(key)
  const hit =
    filters.find((f) => filterKey(f.name) === k) ??
    filters.find((f) => f.label !== undefined && filterKey(f.label) === k)
  if (hit === undefined) throw badRequest(`${where}: no filter named "${key}"`)
  return hit
}

function entries(values: unknown, where: string): [string, unknown][] {
  if (values === undefined || values === null) return []
  if (typeof values !== 'object' || Array.isArray(values)) throw badRequest(`${where}: must be an object`)
  return Object.entries(values)
}

/**
 * Resolves filter values to model columns. Keys match a filter's name or label, case-
 * insensitively; a key that matches no filter is a 400. Dashboard filters with a `default`
 * that got no value from the token or the end user apply their default (unless `defaults` is false:
 * a filter's list of values is not narrowed by the defaults of the filters).
 */
export function resolveFilters(
  document: DashboardDocument,
  metric: Metric,
  inputs: FilterInputs,
  options: { readonly defaults?: boolean } = {},
): AppliedFilter[] {
  const metricFilters = metric.filters ?? []
  const dashboardFilters = document.filters ?? []
  const from = metric.query?.from ?? ''
  const out: AppliedFilter[] = []
  const given = new Set<string>()

  const onMetric = (values: unknown, source: FilterSource, trusted: boolean, where: string) => {
    for (const [key, value] of entries(values, where)) {
      const f = find(metricFilters, key, `${where}.${key} (metric ${metric.metricId})`)
      out.push({
        table: f.table ?? from,
        column: f.column,
        value: canonicalDateRange(value, `${where}.${key}`) as FilterValue,
        source,
        name: f.name,
        type: f.type,
        scope: 'metric',
        trusted,
      })
    }
  }
  const onDashboard = (values: unknown, source: FilterSource, trusted: boolean, where: string) => {
    for (const [key, value] of entries(values, where)) {
      const f = find(dashboardFilters, key, `${where}.${key}`)
      given.add(f.name)
      out.push({
        table: f.table,
        column: f.column,
        value: canonicalDateRange(value, `${where}.${key}`) as FilterValue,
        source,
        name: f.name,
        type: f.type,
        scope: 'dashboard',
        trusted,
      })
    }
  }

  const userTrusted = inputs.userFiltersTrusted === true
  // the token's filters: a key that names no filter is the token's refusal, whatever the metric
  blamingToken(() => onMetric(inputs.appFilters, 'app', true, 'appFilters'))
  blamingToken(() => onDashboard(inputs.dashboardAppFilters, 'app', true, 'dashboardAppFilters'))
  onDashboard(inputs.dashboardFilter, 'dashboard', userTrusted, 'dashboardFilter')
  onMetric(inputs.metricFilter, 'metric', userTrusted, 'metricFilter')
  for (const d of metric.sql === undefined ? (inputs.drill ?? []) : []) {
    out.push({
      table: d.table,
      column: d.column,
      value: d.value,
      source: 'dashboard',
      name: DRILL_FILTER_NAME,
      scope: 'dashboard',
      trusted: false,
    })
  }
  for (const f of options.defaults === false ? [] : dashboardFilters) {
    if (f.default === undefined || given.has(f.name)) continue
    out.push({
      table: f.table,
      column: f.column,
      value: f.default as FilterValue,
      source: 'dashboard',
      name: f.name,
      type: f.type,
      scope: 'dashboard',
      trusted: false,
    })
  }
  return out
}
