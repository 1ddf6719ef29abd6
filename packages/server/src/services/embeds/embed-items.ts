import type { Static } from '@fastify/type-provider-typebox'
import type { DashboardDocument } from '../../query/document.js'
import type { EmbedItem } from '../../schemas/embeds.js'
import type { EmbedRow } from '../../store/schema.js'
import type { EmbedType } from './embed.js'

/** An embed as the data app's embed list shows it. */
export type EmbedListItem = Static<typeof EmbedItem>

/** An embed's row with the columns of its dashboard that its list item shows. */
export interface EmbedListRow extends EmbedRow {
  readonly dashboard_id: string
  readonly dashboard_name: string
  readonly document: string
  readonly dashboard_metadata: string | null
  readonly dashboard_created_at: string
  readonly dashboard_updated_at: string
}

/** The embed list's item (docs/api.md#embeds): the dashboard of a dashboard embed, the metric of a metric embed. */
export function toEmbedItem(row: EmbedListRow, dataAppName: string): EmbedListItem {
  const metricName =
    row.metric_id === null
      ? undefined
      : ((JSON.parse(row.document) as DashboardDocument).metrics.find((m) => m.metricId === row.metric_id)?.name ??
        row.metric_id)
  return {
    embedId: row.embed_id,
    embedType: row.embed_type as EmbedType,
    name: row.name,
    externalDashboard:
      row.embed_type === 'dashboard'
        ? {
            externalDashboardId: row.dashboard_id,
            metadata: {
              ...(row.dashboard_metadata === null ? {} : (JSON.parse(row.dashboard_metadata) as object)),
              createdAt: row.dashboard_created_at,
              updatedAt: row.dashboard_updated_at,
            },
            name: row.dashboard_name,
          }
        : null,
    externalMetric: row.metric_id === null ? null : { metricId: row.metric_id, name: metricName ?? row.metric_id },
    embedMetadata: {
      embedId: row.embed_id,
      name: row.name,
      embedType: row.embed_type,
      dataAppName,
      metricId: row.metric_id,
      // as the hosted service answers: one of the two ids, by the embed's type
      dashboardId: row.embed_type === 'dashboard' ? row.dashboard_id : null,
      embedDescription: row.description,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
  }
}
