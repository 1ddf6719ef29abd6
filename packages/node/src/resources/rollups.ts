import { type Api, unwrap } from '../transport.js'
import type { QueryParams, RequestBody, ResponseBody } from '../types.js'

/** Rollups of the organization's dashboards: their state, and refreshing them now (service token). */
export class Rollups {
  constructor(private readonly api: Api) {}

  /**
   * Every rollup with its state, rows, bytes, last and next refresh, lag and last error; only one
   * dashboard's with `{ workspaceName, dashboardId }` (both or neither).
   */
  list(query: QueryParams<'listRollups'> = {}): Promise<ResponseBody<'listRollups'>> {
    return unwrap(this.api.GET('/api/v2/data-app/rollups', { params: { query } }))
  }

  /** Makes a dashboard's rollups (or one) due now; answers (202) their state while they build in the background. */
  refresh(body: RequestBody<'refreshRollups'>): Promise<ResponseBody<'refreshRollups'>> {
    return unwrap(this.api.POST('/api/v2/data-app/rollups/refresh', { body }))
  }
}
