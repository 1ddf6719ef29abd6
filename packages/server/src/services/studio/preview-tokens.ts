import { ApiError, badRequest } from '../../errors.js'
import type { PreviewTokenRequest } from '../../schemas/studio-preview.js'
import type { Dashboards } from '../dashboards/dashboards.js'
import type { DataApps } from '../data-apps/data-apps.js'
import type { GuestTokens } from '../guest-tokens/guest-tokens.js'
import type { Workspaces } from '../workspaces/workspaces.js'

/** How long a studio token lives by default (STUDIO_PREVIEW_TTL_S): a preview session; the studio mints another when it ends. */
export const PREVIEW_TTL_MS = 15 * 60_000

/**
 * Guest tokens the studio mints for the signed-in admin (docs/studio.md#7-preview-as-a-tenant):
 * the same mint as `POST /api/v2/guest-token/create`, acting for the data app named, so no data
 * app key ever reaches the browser. The token loads one dashboard only (its claims say which),
 * lives `ttlMs` (15 minutes unless configured), and is the tenant's in every other way: tenancy by `clientId`, RLS values,
 * permissions.
 */
export class StudioPreviewTokens {
  constructor(
    private readonly dataApps: DataApps,
    private readonly workspaces: Workspaces,
    private readonly dashboards: Dashboards,
    private readonly guestTokens: GuestTokens,
    private readonly ttlMs: number = PREVIEW_TTL_MS,
  ) {}

  async mint(
    organizationId: string,
    request: PreviewTokenRequest,
  ): Promise<{ token: string; embedId: string; expiresAt: string }> {
    const dataApp = await this.dataApps.byName(organizationId, request.dataAppName)
    if (!dataApp) throw badRequest(`dataAppName: no data app named ${request.dataAppName}`)
    const workspace = await this.workspaces.byName(organizationId, request.workspaceName)
    if (!workspace) {
      throw new ApiError('WORKSPACE_ID_ERROR', 400, `workspaceName: no workspace named ${request.workspaceName}`)
    }
    const dashboard = await this.dashboards.byExternalId(workspace.id, request.dashboardId)
    if (!dashboard) {
      throw badRequest(`dashboardId: no dashboard ${request.dashboardId} in workspace ${workspace.name}`)
    }
    const metricIds = new Set(dashboard.document.metrics.map((m) => m.metricId))
    for (const [i, rls] of (request.rlsSettings ?? []).entries()) {
      if (!metricIds.has(rls.metricId)) {
        throw new ApiError(
          'RLS_SETTINGS_PARAM_ERROR',
          400,
          `rlsSettings[${i}].metricId: no metric ${JSON.stringify(rls.metricId)} in dashboard ${dashboard.dashboardId}`,
        )
      }
    }
    const principal = {
      kind: 'dataApp' as const,
      organizationId,
      dataAppId: dataApp.id,
      dataAppName: dataApp.name,
      keyId: null,
    }
    const expiresAt = Date.now() + this.ttlMs
    const { token } = await this.guestTokens.mint(
      principal,
      {
        dataAppName: dataApp.name,
        clientId: request.clientId,
        params: { ...(request.rlsSettings ? { rlsSettings: request.rlsSettings } : {}) },
        permissions: request.permissions ?? {},
        expiryTime: this.ttlMs,
      },
      { studio: { dashboardRowId: dashboard.id, author: request.author === true } },
    )
    return { token, embedId: dashboard.dashboardId, expiresAt: new Date(expiresAt).toISOString() }
  }
}
