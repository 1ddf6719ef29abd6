import type { StudioClaim } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import { READ_ONLY_ACCESS } from '../../schemas/embeds.js'
import type { Dashboard, Dashboards } from '../dashboards/dashboards.js'
import type { Embed, Embeds } from '../embeds/embeds.js'

/**
 * The embed a studio token loads its one dashboard through. A preview (`author` false) is the
 * embed the data app's end users load by the dashboard's id (the first dashboard embed), so the
 * author sees what they see; with none yet, the dashboard read-only. An author token gets the
 * builder and the layout editor (creation, update, layout) over the company's document; the
 * studio saves what is built there into the document, never as a tenant's metric.
 */
export async function studioEmbed(
  embeds: Embeds,
  dashboards: Dashboards,
  dataAppId: string,
  claim: StudioClaim,
  id: string,
): Promise<{ embed: Embed; dashboard: Dashboard }> {
  const dashboard = await dashboards.get(claim.dashboardRowId)
  if (!dashboard) {
    throw new ApiError('AUTHENTICATION_ERROR', 401, `Dashboard ${id} does not exist or was deleted`)
  }
  const real = claim.author ? undefined : await embeds.resolve(dataAppId, dashboard.dashboardId)
  const own = real && real.dashboardRowId === dashboard.id ? real : undefined
  if (id !== dashboard.dashboardId && id !== own?.embedId) {
    throw new ApiError('UNAUTHORIZED', 403, `This token may not load ${id}`)
  }
  if (own) return { embed: own, dashboard }
  return {
    dashboard,
    embed: {
      id: `studio:${dashboard.id}`,
      dataAppId,
      embedId: dashboard.dashboardId,
      embedType: 'dashboard',
      name: dashboard.name,
      dashboardRowId: dashboard.id,
      metricId: null,
      accessSettings: claim.author ? AUTHOR_ACCESS : READ_ONLY_ACCESS,
      createdAt: dashboard.updatedAt,
      updatedAt: dashboard.updatedAt,
    },
  }
}

/** What the author's builder needs: create, edit and lay out metrics; nothing an end user keeps. */
const AUTHOR_ACCESS = {
  ...READ_ONLY_ACCESS,
  isAllowMetricCreation: true,
  isAllowMetricUpdate: true,
  isAllowMetricLayoutChange: true,
} as const
