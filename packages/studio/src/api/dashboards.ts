import type { DashboardDocument, LayoutItem, Metric } from '@strata/contract/document'
import type { StudioApi } from './client.js'

export type { DashboardDocument, LayoutItem, Metric }

export interface DashboardRef {
  readonly workspaceName: string
  readonly dashboardId: string
}

export interface PreviewToken {
  readonly token: string
  readonly embedId: string
  readonly expiresAt: string
}

export interface PreviewRequest extends DashboardRef {
  readonly dataAppName: string
  readonly clientId: string
  readonly author?: boolean
  readonly rlsSettings?: readonly { metricId: string; values: Record<string, string[]> }[]
  readonly permissions?: Record<string, boolean>
}

/** A page of a workspace's tenants (GET /api/v2/studio/tenants). */
export interface TenantPage {
  readonly source: 'column' | 'database' | 'none'
  readonly column: string | null
  readonly values: readonly string[]
  readonly nextCursor: string | null
}

export interface Validation {
  readonly valid: boolean
  readonly metrics: readonly { metricId: string; valid: boolean; error?: string }[]
}

/**
 * The dashboard routes the studio calls (the documented service routes, with the admin's
 * access token), and the preview token. A document is always written whole (`PUT`).
 */
export const dashboardsApi = (api: StudioApi) => ({
  list: async (workspaceName: string): Promise<{ name: string; externalDashboardId: string }[]> =>
    (
      await api.call<{ data: { name: string; externalDashboardId: string }[] }>(
        'POST',
        '/api/v2/workspace/dashboards',
        { workspaceName },
      )
    ).data,
  importDocument: async (workspaceName: string, dashboardId: string, document: unknown): Promise<string> =>
    (
      await api.call<{ data: { response: { dashboardId: string } } }>('POST', '/api/v2/data-app/import-dashboard', {
        workspaceName,
        dashboardId,
        importDashboardData: document,
      })
    ).data.response.dashboardId,
  exportDocument: async (ref: DashboardRef): Promise<DashboardDocument> =>
    (await api.call<{ data: DashboardDocument }>('POST', '/api/v2/data-app/export-dashboard', ref)).data,
  save: (ref: DashboardRef, document: DashboardDocument) =>
    api.call('PUT', '/api/v2/data-app/dashboard', { ...ref, importDashboardData: document }),
  validate: async (ref: DashboardRef, document: DashboardDocument): Promise<Validation> =>
    (
      await api.call<{ data: Validation }>('POST', '/api/v2/data-app/validate-dashboard', {
        workspaceName: ref.workspaceName,
        importDashboardData: document,
      })
    ).data,
  tenants: async (workspaceName: string, search: string): Promise<TenantPage> =>
    (
      await api.call<{ data: TenantPage }>(
        'GET',
        `/api/v2/studio/tenants?${new URLSearchParams({ workspaceName, ...(search ? { search } : {}) })}`,
      )
    ).data,
  previewToken: async (request: PreviewRequest): Promise<PreviewToken> =>
    (await api.call<{ data: PreviewToken }>('POST', '/api/v2/studio/preview-token', request)).data,
})

/** A dashboard id from a name: lower case letters, digits and dashes. */
export const slug = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'dashboard'

/** What an exported file holds: the export's `{ _meta, data }`, or a document as written by hand. */
export const documentOfFile = (json: unknown): unknown =>
  json && typeof json === 'object' && '_meta' in json && 'data' in json ? (json as { data: unknown }).data : json

/** Saves the document as a JSON file, as export writes it. */
export function download(name: string, document: DashboardDocument): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(document, null, 2)}\n`], { type: 'application/json' }))
  const a = Object.assign(window.document.createElement('a'), { href: url, download: name })
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
