import type { PrincipalOf } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import { now, type Store } from '../../store/store.js'
import type { Dashboards } from '../dashboards/dashboards.js'
import type { Embeds } from '../embeds/embeds.js'
import type { InvalidationBus } from '../events/bus.js'

/**
 * Publishing by key (docs/api.md#publishing-a-metric-by-key): the data app's backend sets
 * whether a metric its end users made is published. Published: every user of the metric's
 * tenant sees it (a private one becomes shared, as the runtime's publish does); unpublished:
 * only its creator sees it, and the metrics list shows it with `isPublished: false`, kept and
 * ready to publish again. The company's own metrics are always published.
 */
export class MetricPublishing {
  constructor(
    private readonly store: Store,
    private readonly embeds: Embeds,
    private readonly dashboards: Dashboards,
    private readonly bus: InvalidationBus,
  ) {}

  async setPublished(
    app: PrincipalOf<'dataApp'>,
    embedId: string,
    metricId: string,
    isPublished: boolean,
  ): Promise<{ id: string }> {
    const embed = await this.embeds.get(embedId)
    if (!embed || embed.dataAppId !== app.dataAppId) {
      throw new ApiError('INVALID_METRIC_ID', 400, `embedId: data app ${app.dataAppName} has no embed ${embedId}`)
    }
    const unknown = () => new ApiError('INVALID_METRIC_ID', 400, `metricId: no metric ${metricId} in embed ${embedId}`)
    if (embed.metricId !== null && embed.metricId !== metricId) throw unknown()
    const dashboard = await this.dashboards.get(embed.dashboardRowId)
    if (dashboard?.document.metrics.some((m) => m.metricId === metricId)) {
      if (isPublished) return { id: metricId }
      throw badRequest(
        `metricId: ${metricId} is a metric of the dashboard itself, published to every client; only metrics end users made can be unpublished`,
      )
    }
    const result = await this.store.db
      .updateTable('end_user_metrics')
      .set({
        is_published: isPublished ? 1 : 0,
        ...(isPublished ? { visibility: 'shared' as const } : {}),
        updated_at: now(),
      })
      .where('dashboard_row_id', '=', embed.dashboardRowId)
      .where('data_app_id', '=', app.dataAppId)
      .where('metric_id', '=', metricId)
      .where('based_on_company', '=', 0)
      .executeTakeFirst()
    if (result.numUpdatedRows === 0n) throw unknown()
    await this.bus.publish({ kind: 'tenant-state', dashboardRowId: embed.dashboardRowId })
    return { id: metricId }
  }
}
