import type { PrincipalOf } from '../../auth/principal.js'
import { ApiError, badRequest } from '../../errors.js'
import type { GuestTokenV1Request } from '../../schemas/guest-tokens.js'
import type { Store } from '../../store/store.js'
import type { Workspaces } from '../workspaces/workspaces.js'
import type { GuestTokens } from './guest-tokens.js'

/**
 * The v1 guest token (docs/guest-tokens.md#the-v1-token-a-workspace-for-a-data-app): the hosted
 * service's first form named a workspace where v2 names a data app. A key belongs to one data
 * app, so the token is that data app's, narrowed to the embeds of the workspace's dashboards:
 * the same token as v2 with `dataAppName` of the key and the workspace in its claims.
 * `params.dashboard.id` narrows it to one dashboard of the workspace that the data app embeds
 * (its `allowedEmbeds`). A `workspaceName` that names no workspace but is the key's data app
 * name is read as v2's `dataAppName` (a script that renamed the field moving from v1 to v2 or
 * back): the token of that data app, not narrowed to a workspace.
 */
export class WorkspaceGuestTokens {
  constructor(
    private readonly store: Store,
    private readonly tokens: GuestTokens,
    private readonly workspaces: Workspaces,
  ) {}

  async mint(app: PrincipalOf<'dataApp'>, request: GuestTokenV1Request): Promise<{ token: string }> {
    const { workspaceName, params, ...rest } = request
    const workspace = await this.workspaces.byName(app.organizationId, workspaceName)
    // scripts that moved from the v1 body by renaming the field send the data app's name in it
    const asDataApp = !workspace && workspaceName === app.dataAppName
    if (!workspace && !asDataApp) {
      throw new ApiError('WORKSPACE_ID_ERROR', 400, `workspaceName: no workspace named ${workspaceName}`)
    }
    const { dashboard, ...v2Params } = params ?? {}
    if (dashboard !== undefined) {
      if (v2Params.allowedEmbeds !== undefined) {
        throw badRequest('params: send params.dashboard or params.allowedEmbeds, not both')
      }
      if (!(await this.embedsDashboard(app.dataAppId, workspace?.id, dashboard.id))) {
        throw new ApiError(
          'DASHBOARD_PARAM_ERROR',
          400,
          `params.dashboard.id: data app ${app.dataAppName} embeds no dashboard ${JSON.stringify(dashboard.id)}${workspace ? ` of workspace ${workspaceName}` : ''}`,
        )
      }
      v2Params.allowedEmbeds = [dashboard.id]
    }
    const v2 = { ...rest, dataAppName: app.dataAppName, ...(params !== undefined ? { params: v2Params } : {}) }
    return workspace ? this.tokens.mint(app, v2, { workspaceId: workspace.id }) : this.tokens.mint(app, v2)
  }

  /** Whether the data app has an embed of this dashboard (of the workspace, when one is named). */
  private async embedsDashboard(dataAppId: string, workspaceId: string | undefined, dashboardId: string) {
    let query = this.store.db
      .selectFrom('embeds')
      .innerJoin('dashboards', 'dashboards.id', 'embeds.dashboard_row_id')
      .select('embeds.id')
      .where('embeds.data_app_id', '=', dataAppId)
      .where('dashboards.dashboard_id', '=', dashboardId)
    if (workspaceId !== undefined) query = query.where('dashboards.workspace_id', '=', workspaceId)
    return (await query.executeTakeFirst()) !== undefined
  }
}
