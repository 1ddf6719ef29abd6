import type { DatasourceSettings, DatasourceTables, DatasourceTypeInfo } from '@strata/contract/studio'
import { StudioError } from './errors.js'
import { Session, type SessionTokens } from './session.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface DatasourceItem {
  readonly name: string
  readonly datasourceType: string
  readonly createdAt: string
}
export interface DatamartItem {
  readonly name: string
  readonly createdAt: string
  readonly companyIntegration: { readonly name: string; readonly datasourceType: string }
  readonly datamartTables?: readonly DatamartTableItem[]
  readonly datamartRelationships?: readonly DatamartRelationshipItem[]
}
/** A datamart's table as the list answers it (expanded). */
export interface DatamartTableItem {
  readonly schemaName: string
  readonly tableName: string
  readonly label: string
  readonly clientColumn: string | null
  readonly isHide: boolean
  readonly datamartTableColumns: readonly DatamartColumnItem[]
}
export interface DatamartColumnItem {
  readonly columnName: string
  readonly alias: string
  readonly label: string
  readonly isHide: boolean
  readonly isCustomColumn: boolean
  readonly sql: string
  readonly isApplyTimezone: boolean
  readonly defaultSort: 'ASC' | 'DESC' | null
}
export interface DatamartRelationshipItem {
  readonly parentTableName: string
  readonly parentColumnName: string
  readonly childTableName: string
  readonly childColumnName: string
  readonly relationshipName: string
  readonly cardinality: string | null
  readonly join: JoinType | null
}
export interface WorkspaceItem {
  readonly name: string
  readonly connectionType: string
  readonly datasourceName: string | null
  readonly datamartName: string | null
  readonly createdAt: string
}
export interface DataAppItem {
  readonly name: string
  readonly createdAt: string
  readonly embedCount: number
}
export interface EmbedItem {
  readonly embedId: string
  readonly embedType: 'dashboard' | 'metric'
  readonly name: string
  readonly externalDashboard: { readonly externalDashboardId: string; readonly name: string } | null
  readonly externalMetric: { readonly metricId: string; readonly name: string } | null
  readonly embedMetadata: { readonly dashboardId: string | null; readonly metricId: string | null }
}
/** An embed's access settings: the flags, the creation mode and the datamart it names. */
export type AccessSettings = Record<string, boolean | string | undefined>
export interface ApiKeyItem {
  readonly key: string
  readonly name: string
  readonly description: string
  readonly createdAt: string
}
export interface DatamartTableInput {
  readonly schemaName: string
  readonly name: string
  readonly label?: string
  readonly clientColumn?: string | null
  readonly isHide?: boolean
  readonly columns?: readonly DatamartColumnInput[]
}
export interface DatamartColumnInput {
  readonly name: string
  readonly label?: string
  readonly isHide?: boolean
  readonly alias?: string
  readonly isCustomColumn?: boolean
  readonly sql?: string
  readonly isApplyTimezone?: boolean
  readonly defaultSort?: 'ASC' | 'DESC' | null
}
export type JoinType = 'INNER JOIN' | 'LEFT JOIN' | 'RIGHT JOIN' | 'FULL JOIN'
/** A relationship as the datamart routes take it: tables as `schema.table`. */
export interface RelationshipInput {
  readonly parentTable: string
  readonly parentColumn: string
  readonly childTable: string
  readonly childColumn: string
  readonly joinType: JoinType
  readonly name?: string
  readonly cardinality?: string
}

/**
 * The studio's only way to the server: the public HTTP API, with the admin's access token as
 * the bearer (the organization routes take it as they take the service token). A 401 refreshes
 * the session once and repeats the call.
 */
export class StudioApi {
  readonly session: Session

  constructor(
    /** The server's base path (before /studio, '' at the root): API calls and snippets start with it. */
    readonly base: string,
    onExpired: () => void,
  ) {
    this.session = new Session(
      async (refreshToken) =>
        (await this.call<{ data: SessionTokens }>('POST', '/api/v2/admin-account/jwt/refresh', { refreshToken }, false))
          .data,
      onExpired,
    )
  }

  // ---- account
  adminExists = async (): Promise<boolean> =>
    (await this.call<{ data: { created: boolean } }>('GET', '/api/v2/admin-account', undefined, false)).data.created
  createAdmin = (body: { firstName: string; email: string; password: string; companyName: string }) =>
    this.call('POST', '/api/v2/admin-account', body, false)
  signIn = async (email: string, password: string): Promise<void> => {
    const { data } = await this.call<{ data: SessionTokens }>(
      'POST',
      '/api/v2/admin-account/jwt',
      { email, password },
      false,
    )
    this.session.start(data)
  }

  // ---- datasources
  datasourceTypes = async (): Promise<DatasourceTypeInfo[]> =>
    (await this.call<{ data: DatasourceTypeInfo[] }>('GET', '/api/v2/datasource/types')).data
  datasources = async (): Promise<DatasourceItem[]> =>
    (await this.call<{ data: DatasourceItem[] }>('GET', '/api/v2/datasource')).data
  saveDatasource = (
    method: 'POST' | 'PUT',
    datasourceType: string,
    credentials: Record<string, unknown>,
  ): Promise<{ data: { id: string; tables: number; warnings?: string[] } }> =>
    this.call(method, '/api/v2/datasource', { datasourceType, credentials })
  syncDatasource = (name: string): Promise<{ data: { message: string } }> =>
    this.call('POST', '/api/v2/datasource/sync', { input: { datasourceId: name } })
  datasourceSettings = async (name: string): Promise<DatasourceSettings> =>
    (
      await this.call<{ data: DatasourceSettings }>(
        'GET',
        `/api/v2/datasource/credentials?name=${encodeURIComponent(name)}`,
      )
    ).data
  datasourceTables = async (name: string): Promise<DatasourceTables> =>
    (await this.call<{ data: DatasourceTables }>('GET', `/api/v2/datasource/tables?name=${encodeURIComponent(name)}`))
      .data

  // ---- datamarts, workspaces, data apps
  datamarts = async (): Promise<DatamartItem[]> =>
    (await this.call<{ data: DatamartItem[] }>('GET', '/api/v2/data-app/datamarts')).data
  createDatamart = (body: {
    name: string
    datasourceName: string
    tableList: DatamartTableInput[]
    relationships: RelationshipInput[]
  }) => this.call('POST', '/api/v2/data-app/datamarts', body)
  updateDatamart = (body: {
    datamartName: string
    tableList: DatamartTableInput[]
    relationships: RelationshipInput[]
  }) => this.call('PUT', '/api/v2/data-app/datamarts', body)
  workspaces = async (): Promise<WorkspaceItem[]> =>
    (await this.call<{ data: WorkspaceItem[] }>('GET', '/api/v2/workspace')).data
  createWorkspace = (body: { name: string; connectionType: string; datamartName?: string; datasourceName?: string }) =>
    this.call('POST', '/api/v2/workspace', body)
  dataApps = async (): Promise<DataAppItem[]> =>
    (await this.call<{ data: DataAppItem[] }>('GET', '/api/v2/data-app')).data
  createDataApp = (name: string): Promise<{ name: string; key: string }> =>
    this.call('POST', '/api/v2/data-app', { name })

  // ---- a data app's embeds, keys and whitelist (organization routes: no secret key in the browser)
  embeds = async (app: string): Promise<EmbedItem[]> =>
    (await this.call<{ data: EmbedItem[] }>('GET', `${appPath(app)}/embeds`)).data
  embedAccess = async (app: string, embedId: string): Promise<AccessSettings> =>
    (
      await this.call<{ data: { accessSettings: AccessSettings } }>(
        'GET',
        `${appPath(app)}/embeds/access-settings?embedId=${encodeURIComponent(embedId)}`,
      )
    ).data.accessSettings
  createEmbed = async (
    app: string,
    body: {
      dashboardId: string
      embedType: 'dashboard' | 'metric'
      metricId?: string
      workspaceName: string
      name?: string
      accessSettings: AccessSettings
    },
  ): Promise<string> => (await this.call<{ id: string }>('POST', `${appPath(app)}/embeds`, body)).id
  updateEmbed = (app: string, embedId: string, accessSettings: AccessSettings) =>
    this.call('PUT', `${appPath(app)}/embeds`, { embedId, accessSettings })
  deleteEmbed = (app: string, embedId: string) =>
    this.call('DELETE', `${appPath(app)}/embeds?embedId=${encodeURIComponent(embedId)}`)
  workspaceDashboards = async (workspaceName: string): Promise<{ name: string; externalDashboardId: string }[]> =>
    (
      await this.call<{ data: { name: string; externalDashboardId: string }[] }>(
        'POST',
        '/api/v2/workspace/dashboards',
        { workspaceName },
      )
    ).data
  dashboardMetrics = async (
    workspaceName: string,
    dashboardId: string,
  ): Promise<{ metricId: string; name: string }[]> => {
    const doc = await this.call<{ data: { metrics?: { metricId: string; name?: string }[] } }>(
      'POST',
      '/api/v2/data-app/export-dashboard',
      { workspaceName, dashboardId },
    )
    return (doc.data.metrics ?? []).map((m) => ({ metricId: m.metricId, name: m.name ?? m.metricId }))
  }
  apiKeys = async (app: string): Promise<ApiKeyItem[]> =>
    (
      await this.call<{ data: ApiKeyItem[] }>(
        'GET',
        `/api/v2/data-app/api-tokens?dataAppName=${encodeURIComponent(app)}`,
      )
    ).data
  createApiKey = async (app: string, name: string, description: string): Promise<string> =>
    (
      await this.call<{ key: string }>('POST', '/api/v2/data-app/api-tokens', {
        dataAppName: app,
        name,
        ...(description ? { description } : {}),
      })
    ).key
  revokeApiKey = (app: string, key: string) =>
    this.call(
      'DELETE',
      `/api/v2/data-app/api-tokens?dataAppName=${encodeURIComponent(app)}&key=${encodeURIComponent(key)}`,
    )
  whitelist = async (app: string): Promise<string[]> =>
    (await this.call<{ data: string[] }>('GET', `${appPath(app)}/whitelist-domains`)).data
  setWhitelist = async (app: string, domains: readonly string[]): Promise<string[]> =>
    (await this.call<{ data: string[] }>('PUT', `${appPath(app)}/whitelist-domains`, { domains })).data

  async call<T>(method: Method, path: string, body?: unknown, authed = true, retried = false): Promise<T> {
    const headers: Record<string, string> = {}
    if (body !== undefined) headers['content-type'] = 'application/json'
    const token = this.session.accessToken
    if (authed && token) headers.authorization = `Bearer ${token}`
    let res: Response
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch {
      throw new StudioError('NETWORK', 0, '')
    }
    if (res.status === 401 && authed && !retried && (await this.session.refresh())) {
      return this.call(method, path, body, authed, true)
    }
    const json = (await res.json().catch(() => ({}))) as {
      error?: { code?: string; message?: string; details?: { field?: unknown } }
    }
    if (!res.ok) {
      const field = json.error?.details?.field
      throw new StudioError(
        json.error?.code ?? `HTTP_${res.status}`,
        res.status,
        json.error?.message ?? '',
        typeof field === 'string' ? field : undefined,
      )
    }
    return json as T
  }
}

const appPath = (app: string): string => `/api/v2/data-apps/${encodeURIComponent(app)}`
