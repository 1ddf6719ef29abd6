import { effectiveLayout } from '@strata/contract/grid'
import type { RuntimeView } from '@strata/contract/self-serve'
import { badRequest } from '../../errors.js'
import type { DashboardFilter, LayoutItem } from '../../query/document.js'
import { filterKey } from '../../query/filters.js'
import type { DashboardViewRow } from '../../store/schema.js'

type Hidden = (f: { readonly name: string; readonly label?: string }) => boolean

/** The dashboard filter a key names (its name, else its label; case-insensitive), unless hidden for this token. */
function shownFilter(filters: readonly DashboardFilter[], hidden: Hidden, key: string): DashboardFilter | undefined {
  const k = filterKey(key)
  const filter =
    filters.find((f) => filterKey(f.name) === k) ??
    filters.find((f) => f.label !== undefined && filterKey(f.label) === k)
  return filter && !hidden(filter) ? filter : undefined
}

/**
 * A view's filter values keyed by the filters' names. A key that names no dashboard filter, or one
 * the token hides, is a 400 that does not tell the two apart; two keys naming one filter too.
 */
export function viewFilters(
  filters: readonly DashboardFilter[],
  hidden: Hidden,
  values: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) {
    const filter = shownFilter(filters, hidden, key)
    if (!filter) throw badRequest(`filters: no filter named "${key}"`)
    if (filter.name in out) throw badRequest(`filters: "${key}" names filter ${filter.name} a second time`)
    out[filter.name] = value
  }
  return out
}

/** A stored view with its JSON read once (tenant-state.ts caches these). */
export interface SavedView {
  readonly viewId: string
  readonly name: string
  readonly filters: Readonly<Record<string, unknown>>
  readonly layout: readonly LayoutItem[] | null
}

export const savedView = (row: DashboardViewRow): SavedView => ({
  viewId: row.view_id,
  name: row.name,
  filters: JSON.parse(row.filters) as Record<string, unknown>,
  layout: row.layout === null ? null : (JSON.parse(row.layout) as LayoutItem[]),
})

/**
 * A stored view for the load: filters the dashboard no longer has (or this token hides) are
 * left out, and its layout, if any, is the effective one for the metrics the token sees. A
 * change of the company's document thus needs no write to saved views.
 */
export function runtimeView(
  view: SavedView,
  filters: readonly DashboardFilter[],
  hidden: Hidden,
  visible: readonly string[],
): RuntimeView {
  const shown = Object.fromEntries(Object.entries(view.filters).filter(([key]) => shownFilter(filters, hidden, key)))
  return {
    viewId: view.viewId,
    name: view.name,
    filters: shown,
    ...(view.layout ? { layout: effectiveLayout(view.layout, visible) } : {}),
  }
}
