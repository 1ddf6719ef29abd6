import { badRequest } from '../../errors.js'

/** The empty-dashboard embed's body (docs/api.md#embeds). */
export interface DashboardEmbedInput {
  readonly dashboardId: string
  readonly workspaceName: string
  readonly clientId: string
  readonly name?: string | undefined
  readonly isRenameDashboard?: boolean | undefined
  readonly importDashboardData?: Readonly<Record<string, unknown>> | undefined
  readonly schemaPairs?: readonly { replaceSchema: string; targetSchema: string }[] | undefined
  readonly accessSettings: Record<string, unknown>
  readonly templateDashboardId?: string | undefined
  readonly metadata?: Readonly<Record<string, unknown>> | undefined
  readonly embedDescription?: string | undefined
  readonly isAllowPrivateMetricsByDefault?: boolean | undefined
  readonly isImportMetrics?: boolean | undefined
  readonly metricImportMode?: 'GALLERY' | undefined
}

/** A dashboard's metadata: at most this many characters of JSON (it is stored with the dashboard). */
export const MAX_METADATA_JSON = 10_000

/** The caller's dashboard metadata, bounded; its timestamps are the dashboard's own, never the caller's. */
export function checkedMetadata(metadata: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  for (const key of ['createdAt', 'updatedAt']) {
    if (key in metadata)
      throw badRequest(`metadata.${key}: set by the server (the dashboard's own); choose another key`)
  }
  if (JSON.stringify(metadata).length > MAX_METADATA_JSON) {
    throw badRequest(`metadata: at most ${MAX_METADATA_JSON} characters of JSON`)
  }
  return metadata
}
