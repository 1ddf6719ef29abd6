import { type Api, unwrap } from '../transport.js'
import type { QueryParams, RequestBody, ResponseBody } from '../types.js'

/** An embed's metrics and their rows for one tenant (data app key). */
export class Metrics {
  constructor(private readonly api: Api) {}

  /** The metrics of the embed's dashboard that `clientId` sees. */
  list(query: QueryParams<'listMetrics'>): Promise<ResponseBody<'listMetrics'>> {
    return unwrap(this.api.GET('/api/v2/data-app/metrics', { params: { query } }))
  }

  /** Runs one metric of an embed with the tenancy of `clientId` and the given filters: its rows. */
  query(body: RequestBody<'queryMetric'>): Promise<ResponseBody<'queryMetric'>> {
    return unwrap(this.api.POST('/api/v2/data-app/query', { body }))
  }

  /**
   * Publishes a metric an end user made in the embed to every user of its tenant
   * (`isPublished: true`), or shows it to its creator only again (`false`).
   */
  publish(body: RequestBody<'setMetricPublished'>): Promise<ResponseBody<'setMetricPublished'>> {
    return unwrap(this.api.PUT('/api/v2/data-app/metrics/publish', { body }))
  }
}

/**
 * Dashboards: the list of those the data app embeds (data app key); export, import, update,
 * delete and validate of dashboard documents in a workspace (service token).
 */
export class Dashboards {
  constructor(private readonly api: Api) {}

  /** The dashboards the data app embeds, a page of 10 at a time when paginating. */
  list(query: QueryParams<'listDashboards'>): Promise<ResponseBody<'listDashboards'>> {
    return unwrap(this.api.GET('/api/v2/data-app/dashboards', { params: { query } }))
  }

  /** A dashboard of a workspace as a document. */
  export(body: RequestBody<'exportDashboard'>): Promise<ResponseBody<'exportDashboard'>> {
    return unwrap(this.api.POST('/api/v2/data-app/export-dashboard', { body }))
  }

  /** Creates a dashboard in a workspace from a document. */
  import(body: RequestBody<'importDashboard'>): Promise<ResponseBody<'importDashboard'>> {
    return unwrap(this.api.POST('/api/v2/data-app/import-dashboard', { body }))
  }

  /** Replaces a dashboard's document. */
  update(body: RequestBody<'updateDashboard'>): Promise<ResponseBody<'updateDashboard'>> {
    return unwrap(this.api.PUT('/api/v2/data-app/dashboard', { body }))
  }

  /** Deletes a dashboard of a workspace. */
  delete(query: QueryParams<'deleteDashboard'>): Promise<ResponseBody<'deleteDashboard'>> {
    return unwrap(this.api.DELETE('/api/v2/data-app/dashboard', { params: { query } }))
  }

  /** Checks a document against a workspace without storing it. */
  validate(body: RequestBody<'validateDashboard'>): Promise<ResponseBody<'validateDashboard'>> {
    return unwrap(this.api.POST('/api/v2/data-app/validate-dashboard', { body }))
  }
}

/** The email reports end users scheduled through the data app's embeds (data app key). */
export class Reports {
  constructor(private readonly api: Api) {}

  /** The reports, optionally of one embed or one `clientId`. */
  list(query: QueryParams<'listDataAppReports'> = {}): Promise<ResponseBody<'listDataAppReports'>> {
    return unwrap(this.api.GET('/api/v2/data-app/reports', { params: { query } }))
  }

  /** Deletes a report. */
  delete(query: QueryParams<'deleteDataAppReport'>): Promise<ResponseBody<'deleteDataAppReport'>> {
    return unwrap(this.api.DELETE('/api/v2/data-app/reports', { params: { query } }))
  }
}
