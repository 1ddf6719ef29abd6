import { effectiveLayout } from '@strata/contract/grid'
import type { GuestClaims } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import type { LayoutItem } from '../../query/document.js'
import { now, type Store } from '../../store/store.js'
import type { Embed } from '../embeds/embeds.js'
import type { InvalidationBus } from '../events/bus.js'
import { requireCapability } from '../guest-access/permissions.js'
import type { Runtime } from '../runtime/runtime.js'
import { endUserKey, ofTenant, readEndUserState, tenantOf } from './end-user-state.js'
import { checkLayout, resolveLayout } from './layout-grid.js'

/** The self-serve routes' way in: the embed, its dashboard, the metrics the token sees. */
export type OpenContext = Pick<Runtime, 'context'>

/** Layouts and views belong to a dashboard embed: a metric embed shows one card, no grid, no filters. */
export function requireDashboardEmbed(embed: Embed, what: string): void {
  if (embed.embedType !== 'dashboard') {
    throw new ApiError(
      'EMBED_PARAM_ERROR',
      400,
      `Embed ${embed.embedId} shows one metric; ${what} is for dashboard embeds`,
    )
  }
}

/**
 * An end user's layout of a dashboard (docs/runtime-api.md#the-end-users-layout, capability customizeLayout): the user's
 * when the token has params.userIdentifier, else the tenant's. Stored apart from the company's
 * document; the load overlays it.
 */
export class Layouts {
  constructor(
    private readonly store: Store,
    private readonly runtime: OpenContext,
    private readonly bus: InvalidationBus,
  ) {}

  /** Saves the layout; answers the layout the load now returns (visible metrics it lacks appended). */
  async put(claims: GuestClaims, id: string, layout: readonly LayoutItem[]): Promise<LayoutItem[]> {
    const { embed, metricIds } = await this.runtime.context(claims, id)
    requireCapability(claims, embed, 'customizeLayout', 'Customizing the layout')
    requireDashboardEmbed(embed, 'a layout')
    checkLayout(layout, new Set(metricIds), embed.embedId)
    const items = layout.map(({ metricId, x, y, w, h }) => ({ metricId, x, y, w, h }))
    const key = endUserKey(claims, embed)
    const json = JSON.stringify(items)
    const at = now()
    await this.store.db
      .insertInto('end_user_layouts')
      .values({
        dashboard_row_id: key.dashboardRowId,
        data_app_id: key.dataAppId,
        client_id: key.clientId,
        user_identifier: key.userIdentifier,
        layout: json,
        updated_at: at,
      })
      .onConflict((c) =>
        c
          .columns(['dashboard_row_id', 'data_app_id', 'client_id', 'user_identifier'])
          .doUpdateSet({ layout: json, updated_at: at }),
      )
      .execute()
    await this.bus.publish({ kind: 'tenant-state', ...tenantOf(key) })
    return effectiveLayout(items, metricIds)
  }

  /**
   * Forgets the token's saved layout; answers what the load now returns: the company's (or, for
   * a user whose tenant saved one, the tenant's), visible metrics it lacks appended.
   */
  async reset(claims: GuestClaims, id: string): Promise<LayoutItem[]> {
    const { embed, dashboard, metricIds } = await this.runtime.context(claims, id)
    requireCapability(claims, embed, 'customizeLayout', 'Customizing the layout')
    requireDashboardEmbed(embed, 'a layout')
    const key = endUserKey(claims, embed)
    await this.store.db
      .deleteFrom('end_user_layouts')
      .where((eb) => eb.and(ofTenant(key)))
      .where('user_identifier', '=', key.userIdentifier)
      .execute()
    await this.bus.publish({ kind: 'tenant-state', ...tenantOf(key) })
    const { saved } = await readEndUserState(this.store.db, key, false)
    return resolveLayout({ tenant: saved.tenant }, dashboard.document.layout ?? [], metricIds).layout
  }
}
