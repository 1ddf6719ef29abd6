import type { Kysely } from 'kysely'
import type { GuestClaims } from '../../auth/principal.js'
import type { LayoutItem } from '../../query/document.js'
import type { DashboardViewRow, Database } from '../../store/schema.js'
import type { Embed } from '../embeds/embeds.js'
import type { SavedLayouts } from './layout-grid.js'
import type { TenantKey } from './metric-store.js'

/**
 * Whose an end user's saved things are (docs/runtime-api.md#self-serve-metrics): the dashboard, the data app, the
 * token's clientId, and its userIdentifier, '' for the tenant's. Only ever built from the
 * guest token's claims, never from the request.
 */
export interface EndUserKey {
  readonly dashboardRowId: string
  readonly dataAppId: string
  readonly clientId: string
  /** '' = tenant-wide (a token without params.userIdentifier) */
  readonly userIdentifier: string
}

export function endUserKey(claims: GuestClaims, embed: Embed): EndUserKey {
  return {
    dashboardRowId: embed.dashboardRowId,
    dataAppId: claims.dataAppId,
    clientId: claims.clientId,
    userIdentifier: claims.params.userIdentifier ?? '',
  }
}

/** The tenant an end user's key belongs to (what a change of it invalidates: tenant-state.ts). */
export const tenantOf = ({ dashboardRowId, dataAppId, clientId }: TenantKey): TenantKey => ({
  dashboardRowId,
  dataAppId,
  clientId,
})

/** A tenant's rows in an end-user table (metrics, layouts, views): the leading columns of its key. */
export const ofTenant = (key: TenantKey) => ({
  dashboard_row_id: key.dashboardRowId,
  data_app_id: key.dataAppId,
  client_id: key.clientId,
})

/** What the load overlays on the company's dashboard: the saved layouts that apply, the token's views. */
export interface EndUserState {
  readonly saved: SavedLayouts
  readonly views: readonly DashboardViewRow[]
}

/**
 * The load's reads: one query for the layouts (the user's and the tenant's, one range of the
 * primary key) and, only with the views permission, one for the views (a range of their unique
 * key). Both run at once.
 */
export async function readEndUserState(
  db: Kysely<Database>,
  key: EndUserKey,
  withViews: boolean,
): Promise<EndUserState> {
  const [layouts, views] = await Promise.all([
    savedLayoutsQuery(db, key).execute(),
    withViews ? viewsOf(db, key) : Promise.resolve([]),
  ])
  const parse = (who: string) => {
    const row = layouts.find((l) => l.user_identifier === who)
    return row ? (JSON.parse(row.layout) as LayoutItem[]) : undefined
  }
  return {
    saved: { tenant: parse(''), ...(key.userIdentifier === '' ? {} : { user: parse(key.userIdentifier) }) },
    views,
  }
}

/** The tenant's and (with a userIdentifier) the user's saved layout: one range of the primary key. */
export function savedLayoutsQuery(db: Kysely<Database>, key: EndUserKey) {
  const users = key.userIdentifier === '' ? [''] : ['', key.userIdentifier]
  return db
    .selectFrom('end_user_layouts')
    .select(['user_identifier', 'layout'])
    .where((eb) => eb.and(ofTenant(key)))
    .where('user_identifier', 'in', users)
}

/** The views saved under exactly this key, oldest first. */
export function viewsOf(db: Kysely<Database>, key: EndUserKey): Promise<DashboardViewRow[]> {
  return viewsQuery(db, key).execute()
}

/** The views of exactly this key: one range of their unique (key, name) index. */
export function viewsQuery(db: Kysely<Database>, key: EndUserKey) {
  return db
    .selectFrom('dashboard_views')
    .selectAll()
    .where((eb) => eb.and(ofTenant(key)))
    .where('user_identifier', '=', key.userIdentifier)
    .orderBy('created_at')
    .orderBy('view_id')
}

/**
 * Forgets everything end users of a data app saved on a dashboard (every tenant, every user):
 * called when the data app's last embed of that dashboard is deleted. Deleting the dashboard
 * or the data app cascades in the store instead. Every self-serve table is listed here.
 */
export async function removeEndUserState(
  db: Kysely<Database>,
  dashboardRowId: string,
  dataAppId: string,
): Promise<void> {
  for (const table of ['end_user_metrics', 'company_metric_states', 'end_user_layouts', 'dashboard_views'] as const) {
    await db
      .deleteFrom(table)
      .where('dashboard_row_id', '=', dashboardRowId)
      .where('data_app_id', '=', dataAppId)
      .execute()
  }
}
