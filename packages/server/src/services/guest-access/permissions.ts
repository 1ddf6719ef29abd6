import type { Capability, EffectivePermissions } from '@strata/contract/runtime'
import type { GuestClaims } from '../../auth/principal.js'
import { ApiError } from '../../errors.js'
import type { Embed } from '../embeds/embeds.js'

/** What a guest token may do on an embed: the embed's access settings and the token's permissions together. */
export function effective(claims: GuestClaims, embed: Embed): EffectivePermissions {
  const p = claims.permissions
  const a = embed.accessSettings
  const tokenFilter = claims.params.accessPermissions?.isAllowEndUserDashboardFilter
  /** The embed allows it AND the token does not turn it off (an omitted flag inherits). */
  const both = (embedAllows: boolean | undefined, tokenFlag: boolean | undefined) =>
    embedAllows === true && tokenFlag !== false
  return {
    download: p.isEnableDownloadMetrics === true,
    underlyingData: both(a.isAllowUnderlyingData, p.isEnableUnderlyingData),
    endUserDashboardFilter: (tokenFilter ?? true) && a.isAllowEndUserDashboardFilter !== false,
    showSideBar: p.isShowSideBar !== false,
    showDashboardName: p.isShowDashboardName !== false,
    metricCreation: a.isAllowMetricCreation === true && p.isDisableMetricCreation !== true,
    metricCreationMode: a.metricCreationMode ?? 'DRAG_DROP',
    metricUpdate: both(a.isAllowMetricUpdate, p.isEnableMetricUpdation),
    metricDeletion: both(a.isAllowMetricDeletion, p.isEnableManageMetrics),
    manageMetrics: both(a.isAllowManageMetrics, p.isEnableManageMetrics),
    archiveMetrics: both(a.isAllowManageMetrics, p.isEnableArchiveMetrics),
    customizeLayout: both(a.isAllowMetricLayoutChange, p.isEnableCustomizeLayout),
    dashboardViews: both(a.isAllowCreateDashboardView, p.isEnableCreateDashboardView),
    emailReports: a.isAllowEmailReports === true,
    aiPilot: a.isAllowAiPilot === true,
  }
}

/** 403 INSUFFICIENT_PERMISSIONS unless the embed and the token both allow `capability`. */
export function requireCapability(claims: GuestClaims, embed: Embed, capability: Capability, what: string): void {
  if (!effective(claims, embed)[capability]) {
    throw new ApiError('INSUFFICIENT_PERMISSIONS', 403, `${what} is not allowed for this embed and token`)
  }
}

/**
 * Whether an embed grants any self-serve capability (create, update, delete, manage, archive,
 * layout, views): only then does it show a tenant's version of the dashboard. Decided by the
 * embed alone, so every viewer of one embed sees the same version of it.
 */
export function grantsSelfServe(embed: Embed): boolean {
  const a = embed.accessSettings
  return (
    a.isAllowMetricCreation === true ||
    a.isAllowMetricUpdate === true ||
    a.isAllowMetricDeletion === true ||
    a.isAllowManageMetrics === true ||
    a.isAllowMetricLayoutChange === true ||
    a.isAllowCreateDashboardView === true
  )
}
