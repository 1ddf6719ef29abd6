import type { StudioApi } from './client.js'
import type { DashboardRef } from './dashboards.js'

/**
 * One rollup's state as `GET /api/v2/data-app/rollups` answers it (docs/rollups.md#observing):
 * the same fields the server's response schema declares.
 */
export interface RollupState {
  readonly workspaceName: string
  readonly dashboardId: string
  readonly name: string
  readonly state: 'stale' | 'building' | 'ready' | 'failed'
  readonly rows: number
  readonly bytes: number
  readonly partitions: number
  readonly lastRefreshAt: string | null
  readonly nextRefreshAt: string | null
  readonly lagSeconds: number | null
  readonly lastError: string | null
}

/** The rollup routes the studio calls (service routes, with the admin's access token). */
export const rollupsApi = (api: StudioApi) => ({
  /** The rollups of one dashboard (the route lists the organization's). */
  list: async (ref: DashboardRef): Promise<RollupState[]> =>
    (await api.call<{ data: RollupState[] }>('GET', '/api/v2/data-app/rollups')).data.filter(
      (r) => r.workspaceName === ref.workspaceName && r.dashboardId === ref.dashboardId,
    ),
  /** Makes the dashboard's rollups (or the one named) due now; the build follows in the background. */
  refresh: async (ref: DashboardRef, rollup?: string): Promise<RollupState[]> =>
    (
      await api.call<{ data: RollupState[] }>('POST', '/api/v2/data-app/rollups/refresh', {
        ...ref,
        ...(rollup ? { rollup } : {}),
      })
    ).data,
})
