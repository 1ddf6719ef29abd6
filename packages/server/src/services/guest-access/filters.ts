import type { PinnedFilter } from '@strata/contract/runtime'
import type { GuestClaims } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import { filterKey } from '../../query/filters.js'
import type { Dashboard } from '../dashboards/dashboards.js'
import type { Embed } from '../embeds/embeds.js'

/** Whether the token's hideDashboardFilters hides a filter (by its name or its label). */
export function hiddenFilters(claims: GuestClaims): (f: { readonly name: string; readonly label?: string }) => boolean {
  const hidden = new Set((claims.params.hideDashboardFilters ?? []).map(filterKey))
  return (f) => hidden.has(filterKey(f.name)) || (f.label !== undefined && hidden.has(filterKey(f.label)))
}

/** A pinned filter as the load shows it: locked, its value shown only when the token says so (never a SQL list). */
export function shownPin(pin: { value: unknown; isShowOnUrl: boolean }): PinnedFilter {
  const sqlList = typeof pin.value === 'object' && pin.value !== null && 'sql' in pin.value
  const shown = pin.isShowOnUrl && !sqlList
  return { locked: true, ...(shown ? { pinned: pin.value } : {}), isShowOnUrl: pin.isShowOnUrl }
}

/** The dashboard filters the token pins (dashboardAppFilters), by lower-cased name or label. */
export function pinnedValues(
  claims: GuestClaims,
  dashboard: Dashboard,
): Map<string, { value: unknown; isShowOnUrl: boolean }> {
  const pins = new Map<string, { value: unknown; isShowOnUrl: boolean }>()
  for (const f of claims.params.dashboardAppFilters ?? []) {
    if (f.dashboardId !== dashboard.dashboardId) continue
    for (const [key, value] of Object.entries(f.values)) {
      pins.set(filterKey(key), { value, isShowOnUrl: f.isShowOnUrl ?? true })
    }
  }
  return pins
}

/** Whether dashboardFilterColumns (token first, else embed) let the end user filter on `table.column`. */
export function mayFilterColumn(claims: GuestClaims, embed: Embed, table: string, column: string): boolean {
  const allow = claims.params.accessPermissions?.dashboardFilterColumns ?? embed.accessSettings.dashboardFilterColumns
  return !allow || allow.some((t) => tableMatches(t.tableName, table) && t.columns.includes(column))
}

/** 403 unless dashboardFilterColumns (token first, else embed) let the end user filter on `table.column`. */
export function checkFilterColumn(claims: GuestClaims, embed: Embed, table: string, column: string): void {
  if (!mayFilterColumn(claims, embed, table, column)) {
    throw new ApiError('UNAUTHORIZED', 403, `Filtering on ${table}.${column} is not allowed for this token`)
  }
}

/** dashboardFilterColumns (token first, else embed): the only columns the end user may filter. */
export function checkFilterColumns(
  claims: GuestClaims,
  embed: Embed,
  dashboard: Dashboard,
  values: Readonly<Record<string, unknown>>,
): void {
  const hidden = hiddenFilters(claims)
  for (const key of Object.keys(values)) {
    const k = filterKey(key)
    const filter = (dashboard.document.filters ?? []).find(
      (f) => filterKey(f.name) === k || (f.label !== undefined && filterKey(f.label) === k),
    )
    if (!filter) throw badRequest(`dashboardFilter: no filter named "${key}"`)
    if (hidden(filter)) {
      throw new ApiError('UNAUTHORIZED', 403, `Filter ${filter.name} is hidden for this token`)
    }
    checkFilterColumn(claims, embed, filter.table, filter.column)
  }
}

const tableMatches = (allowed: string, table: string): boolean =>
  allowed === table || table.endsWith(`.${allowed}`) || allowed.endsWith(`.${table}`)
