import type { RuntimeEmbed } from '@strata/contract/runtime'
import type { GuestClaims } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import type { Metric } from '../../query/document.js'
import type { Dashboard } from '../dashboards/dashboards.js'
import type { Embed } from '../embeds/embeds.js'

/** The one answer for a metric this token cannot see, whether or not it exists elsewhere. */
export const notInEmbed = (metricId: string, embed: Embed): ApiError =>
  new ApiError('EMBED_PARAM_ERROR', 400, `Metric ${metricId} is not in embed ${embed.embedId}`)

/**
 * The metrics this token may see: the embed's (a metric embed has one), shared or created by
 * the token's client, and private or unpublished ones only for the user who created them.
 */
export function visibleMetrics(claims: GuestClaims, embed: Embed, dashboard: Dashboard): readonly Metric[] {
  const user = claims.params.userIdentifier
  const own = (m: Metric) => m.createdByUser != null && m.createdByUser === user
  return dashboard.document.metrics.filter(
    (m) =>
      (embed.metricId === null || m.metricId === embed.metricId) &&
      (m.createdByClient == null || m.createdByClient === claims.clientId) &&
      (m.isPublished !== false || own(m)) &&
      (m.visibility !== 'private' || own(m)),
  )
}

/** Whether a new metric may be private (a userIdentifier) and is by default (the dashboard says so). */
export function privateMetrics(claims: GuestClaims, company: Dashboard): RuntimeEmbed['privateMetrics'] {
  const available = claims.params.userIdentifier !== undefined
  return { available, byDefault: available && company.document.isAllowPrivateMetricsByDefault === true }
}
