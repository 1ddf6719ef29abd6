import { type Api, unwrap } from '../transport.js'
import type { QueryParams, RequestBody, ResponseBody } from '../types.js'

/** The data app's embeds of dashboards and metrics (data app key). */
export class Embeds {
  constructor(private readonly api: Api) {}

  /** Embeds an existing dashboard (`embedType: 'dashboard'`) or one of its metrics (`'metric'`). */
  create(body: RequestBody<'createEmbed'>): Promise<ResponseBody<'createEmbed'>> {
    return unwrap(this.api.POST('/api/v2/data-app/embeds', { body }))
  }

  /** The embeds, all or a page of them, optionally only those a `clientId` created. */
  list(query: QueryParams<'listEmbeds'> = {}): Promise<ResponseBody<'listEmbeds'>> {
    return unwrap(this.api.GET('/api/v2/data-app/embeds', { params: { query } }))
  }

  /** Changes an embed's access settings. */
  update(body: RequestBody<'updateEmbed'>): Promise<ResponseBody<'updateEmbed'>> {
    return unwrap(this.api.PUT('/api/v2/data-app/embeds', { body }))
  }

  /** Deletes an embed (and its dashboard with `isDeleteDashboard: 'true'`). */
  delete(query: QueryParams<'deleteEmbed'>): Promise<ResponseBody<'deleteEmbed'>> {
    return unwrap(this.api.DELETE('/api/v2/data-app/embeds', { params: { query } }))
  }

  /** Renames an embed (and its dashboard with `isRenameDashboard: true`). */
  rename(body: RequestBody<'renameEmbed'>): Promise<ResponseBody<'renameEmbed'>> {
    return unwrap(this.api.PUT('/api/v2/data-app/embeds/rename', { body }))
  }

  /** The embed's dashboard as a document, with its access settings. */
  export(query: QueryParams<'exportEmbed'>): Promise<ResponseBody<'exportEmbed'>> {
    return unwrap(this.api.GET('/api/v2/data-app/embeds/export', { params: { query } }))
  }
}

/** Dashboards created and embedded in one call, recorded as made by an end user (data app key). */
export class DashboardEmbeds {
  constructor(private readonly api: Api) {}

  /** Creates the dashboard (empty or from a document) and embeds it. */
  create(body: RequestBody<'createDashboardEmbed'>): Promise<ResponseBody<'createDashboardEmbed'>> {
    return unwrap(this.api.POST('/api/v2/data-app/dashboard-embeds', { body }))
  }
}
