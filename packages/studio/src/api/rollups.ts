import type { RollupStatus } from '@strata/contract/rollups'
import type { StudioApi } from './client.js'
import type { DashboardRef } from './dashboards.js'

/** The rollup routes the studio calls (service routes, with the admin's access token). */
export const rollupsApi = (api: StudioApi) => ({
  /** The rollups of one dashboard, with their state. */
  list: async (ref: DashboardRef): Promise<RollupStatus[]> =>
    (
      await api.call<{ data: RollupStatus[] }>(
        'GET',
        `/api/v2/data-app/rollups?${new URLSearchParams({ workspaceName: ref.workspaceName, dashboardId: ref.dashboardId })}`,
      )
    ).data,
  /** Makes the dashboard's rollups (or the one named) due now; the build follows in the background. */
  refresh: async (ref: DashboardRef, rollup?: string): Promise<RollupStatus[]> =>
    (
      await api.call<{ data: RollupStatus[] }>('POST', '/api/v2/data-app/rollups/refresh', {
        ...ref,
        ...(rollup ? { rollup } : {}),
      })
    ).data,
})
