import { randomBytes } from 'node:crypto'
import { type RuntimeView, VIEW_MAX_BYTES } from '@strata/contract/self-serve'
import type { GuestClaims } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import type { LayoutItem } from '../../query/document.js'
import type { DashboardViewRow } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'
import { checkFilterColumns, hiddenFilters } from '../guest-access/filters.js'
import { effective, requireCapability } from '../guest-access/permissions.js'
import { endUserKey, ofTenant, tenantOf, viewsOf } from './end-user-state.js'
import { checkLayout } from './layout-grid.js'
import { type OpenContext, requireDashboardEmbed } from './layouts.js'
import { runtimeView, savedView, viewFilters } from './view-shape.js'

/** At most this many views per key (a tenant, or one user of it). */
export const MAX_VIEWS = 100

export interface CreateView {
  readonly name: string
  readonly filters: Readonly<Record<string, unknown>>
  readonly layout?: readonly LayoutItem[] | undefined
}

/** `v_` and 12 url-safe random characters. */
const newViewId = () => `v_${randomBytes(9).toString('base64url')}`

/**
 * Dashboard views (docs/runtime-api.md#dashboard-views, capability dashboardViews): named sets of dashboard filter
 * values, and optionally a layout, saved under the token's key: the user's with
 * params.userIdentifier, else the tenant's. A token lists and deletes only its own key's views.
 */
export class Views {
  constructor(
    private readonly store: Store,
    private readonly runtime: OpenContext,
    private readonly bus: InvalidationBus,
  ) {}

  async list(claims: GuestClaims, id: string): Promise<RuntimeView[]> {
    const { embed, dashboard, metricIds } = await this.runtime.context(claims, id)
    requireCapability(claims, embed, 'dashboardViews', 'Saving dashboard views')
    if (embed.embedType !== 'dashboard') return []
    const hidden = hiddenFilters(claims)
    const rows = await viewsOf(this.store.db, endUserKey(claims, embed))
    return rows.map((row) => runtimeView(savedView(row), dashboard.document.filters ?? [], hidden, metricIds))
  }

  /**
   * Filters are checked as a runtime query's dashboardFilter: names (or labels) of the dashboard's
   * filters, not hidden ones (400, as an unknown one), only allowed columns (403 UNAUTHORIZED),
   * and only where the end user may filter at all.
   */
  async create(claims: GuestClaims, id: string, input: CreateView): Promise<{ viewId: string; name: string }> {
    const { embed, dashboard, metricIds } = await this.runtime.context(claims, id)
    requireCapability(claims, embed, 'dashboardViews', 'Saving dashboard views')
    requireDashboardEmbed(embed, 'a view')
    const name = input.name.trim()
    if (name.length === 0 || name.length > 100) throw badRequest('name: must be 1 to 100 characters (not only spaces)')
    const filters = viewFilters(dashboard.document.filters ?? [], hiddenFilters(claims), input.filters)
    if (Object.keys(filters).length > 0) {
      if (!effective(claims, embed).endUserDashboardFilter) {
        throw new ApiError('UNAUTHORIZED', 403, 'End-user dashboard filters are not allowed for this embed')
      }
      checkFilterColumns(claims, embed, dashboard, filters)
    }
    if (input.layout) checkLayout(input.layout, new Set(metricIds), embed.embedId, 'layout')
    const key = endUserKey(claims, embed)
    const row: DashboardViewRow = {
      view_id: newViewId(),
      dashboard_row_id: key.dashboardRowId,
      data_app_id: key.dataAppId,
      client_id: key.clientId,
      user_identifier: key.userIdentifier,
      name,
      filters: JSON.stringify(filters),
      layout: input.layout
        ? JSON.stringify(input.layout.map(({ metricId, x, y, w, h }) => ({ metricId, x, y, w, h })))
        : null,
      created_at: now(),
    }
    // every load of the key carries its views: each is bounded in bytes, as a definition is
    const bytes = Buffer.byteLength(row.filters) + (row.layout === null ? 0 : Buffer.byteLength(row.layout))
    if (bytes > VIEW_MAX_BYTES) {
      throw badRequest(
        `filters: a view holds at most ${VIEW_MAX_BYTES} bytes of filters and layout as JSON; this one is ${bytes} bytes`,
      )
    }
    try {
      await this.store.db.transaction().execute(async (tx) => {
        const { n } = await tx
          .selectFrom('dashboard_views')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where((eb) => eb.and(ofTenant(key)))
          .where('user_identifier', '=', key.userIdentifier)
          .executeTakeFirstOrThrow()
        if (Number(n) >= MAX_VIEWS) {
          throw badRequest(`name: at most ${MAX_VIEWS} views may be saved; delete one first`)
        }
        await tx.insertInto('dashboard_views').values(row).execute()
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(`name: a view named "${name}" is already saved`)
      throw err
    }
    await this.bus.publish({ kind: 'tenant-state', ...tenantOf(key) })
    return { viewId: row.view_id, name }
  }

  /** Another key's view (another tenant's, another user's) is answered as one that does not exist. */
  async remove(claims: GuestClaims, id: string, viewId: string): Promise<{ viewId: string }> {
    const { embed } = await this.runtime.context(claims, id)
    requireCapability(claims, embed, 'dashboardViews', 'Saving dashboard views')
    const key = endUserKey(claims, embed)
    const result = await this.store.db
      .deleteFrom('dashboard_views')
      .where('view_id', '=', viewId)
      .where((eb) => eb.and(ofTenant(key)))
      .where('user_identifier', '=', key.userIdentifier)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) {
      throw new ApiError('EMBED_PARAM_ERROR', 400, `View ${viewId} is not in embed ${embed.embedId}`)
    }
    await this.bus.publish({ kind: 'tenant-state', ...tenantOf(key) })
    return { viewId }
  }
}
