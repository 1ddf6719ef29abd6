import type { GuestClaims } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import type { Dashboard } from '../dashboards/dashboards.js'
import type { Embed } from '../embeds/embeds.js'
import { checkFilterColumns } from './filters.js'
import { notInEmbed, visibleMetrics } from './metrics.js'
import { effective } from './permissions.js'

/**
 * What a guest token may ask of a metric: one it sees (else the 400 of a metric not in the
 * embed), and end-user dashboard filters only with that permission and only on the columns
 * dashboardFilterColumns allow (403).
 */
export function checkGuestQuery(
  claims: GuestClaims,
  embed: Embed,
  dashboard: Dashboard,
  request: { readonly metricId: string; readonly dashboardFilter?: Readonly<Record<string, unknown>> | undefined },
): void {
  if (!visibleMetrics(claims, embed, dashboard).some((m) => m.metricId === request.metricId)) {
    throw notInEmbed(request.metricId, embed)
  }
  const dashboardFilter = request.dashboardFilter ?? {}
  if (Object.keys(dashboardFilter).length > 0) {
    if (!effective(claims, embed).endUserDashboardFilter) {
      throw new ApiError('UNAUTHORIZED', 403, 'End-user dashboard filters are not allowed for this embed')
    }
    checkFilterColumns(claims, embed, dashboard, dashboardFilter)
  }
}
