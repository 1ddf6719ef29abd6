import type { RuntimeClient } from '../../api/client.js'
import type { Comparison, MetricDefinition, Model, QueryResult } from '../../api/types.js'

/** `{ data: { metricId }, error: null }`: what every metric change answers. */
interface MetricIdAnswer {
  readonly data: { readonly metricId: string }
}

export type Visibility = 'private' | 'shared'

/**
 * The self-serve calls of the runtime API (docs/runtime-api.md#self-serve-metrics), over the element's RuntimeClient
 * (so the guest token, its renewal and error envelopes are handled as for every other call).
 */
export class SelfServeApi {
  constructor(private readonly client: RuntimeClient) {}

  /** The tables and columns this token may build on. */
  async model(signal?: AbortSignal): Promise<Model> {
    const body = await this.client.call<{ data: Model }>('GET', '/model', undefined, signal)
    return body.data
  }

  /** Runs a definition without saving it. */
  preview(
    metric: MetricDefinition,
    dashboardFilter?: Readonly<Record<string, unknown>>,
    signal?: AbortSignal,
    comparison?: Comparison,
  ): Promise<QueryResult> {
    return this.client.call<QueryResult>(
      'POST',
      '/preview',
      { metric, ...(dashboardFilter ? { dashboardFilter } : {}), ...(comparison ? { comparison } : {}) },
      signal,
    )
  }

  async createMetric(metric: MetricDefinition, visibility?: Visibility): Promise<string> {
    const body = await this.client.call<MetricIdAnswer>('POST', '/metrics', {
      metric,
      ...(visibility ? { visibility } : {}),
    })
    return body.data.metricId
  }

  async updateMetric(metricId: string, metric: MetricDefinition): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('PUT', metricPath(metricId), { metric })).data.metricId
  }

  /** Deletes a tenant's metric; hides a company metric for this tenant. */
  async deleteMetric(metricId: string): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('DELETE', metricPath(metricId))).data.metricId
  }

  async archiveMetric(metricId: string): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('POST', `${metricPath(metricId)}/archive`)).data.metricId
  }

  async unarchiveMetric(metricId: string): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('POST', `${metricPath(metricId)}/unarchive`)).data.metricId
  }

  /** A company metric this tenant hid comes back. */
  async restoreMetric(metricId: string): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('POST', `${metricPath(metricId)}/restore`)).data.metricId
  }

  /** This tenant's version of a company metric is dropped: the company's shows again. */
  async resetMetric(metricId: string): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('DELETE', `${metricPath(metricId)}/override`)).data.metricId
  }

  /** "Keep mine": this tenant keeps its version of a company metric the company changed since. */
  async keepMetric(metricId: string): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('POST', `${metricPath(metricId)}/keep-version`)).data.metricId
  }

  /** A private metric of this user becomes visible to the whole tenant. */
  async publishMetric(metricId: string): Promise<string> {
    return (await this.client.call<MetricIdAnswer>('POST', `${metricPath(metricId)}/publish`)).data.metricId
  }
}

const metricPath = (metricId: string) => `/metrics/${encodeURIComponent(metricId)}`
