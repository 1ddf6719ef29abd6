import type { Generated } from 'kysely'

/**
 * Row types of the metadata store. Timestamps are ISO 8601 strings (they sort as text on
 * both stores); booleans are 0/1 integers, so one query code serves SQLite and PostgreSQL.
 */
export interface Database {
  organizations: OrganizationRow
  admins: AdminRow
  refresh_tokens: RefreshTokenRow
  service_tokens: ServiceTokenRow
  data_apps: DataAppRow
  api_keys: ApiKeyRow
  datasources: DatasourceRow
  datamarts: DatamartRow
  workspaces: WorkspaceRow
  dashboards: DashboardRow
  embeds: EmbedRow
  guest_tokens: GuestTokenRow
  end_user_layouts: EndUserLayoutRow
  dashboard_views: DashboardViewRow
  end_user_metrics: EndUserMetricRow
  company_metric_states: CompanyMetricStateRow
  email_reports: EmailReportRow
  rollups: RollupRow
}

export interface OrganizationRow {
  id: string
  name: string
  created_at: string
}

export interface AdminRow {
  id: string
  organization_id: string
  first_name: string
  /** Lower-cased; unique. */
  email: string
  password_hash: string
  created_at: string
  updated_at: string
}

export interface RefreshTokenRow {
  id: string
  admin_id: string
  token_hash: string
  expires_at: string
  created_at: string
}

export interface ServiceTokenRow {
  id: string
  organization_id: string
  token_hash: string
  created_at: string
  /** null while current; set when replaced (rotation grace) */
  expires_at: string | null
}

export interface DataAppRow {
  id: string
  organization_id: string
  name: string
  /** JSON array of allowed embed origins */
  whitelist_domains: Generated<string>
  created_at: string
  updated_at: string
}

export interface ApiKeyRow {
  id: string
  data_app_id: string
  /** Public, non-secret identifier shown in lists (the key's prefix). */
  key_id: string
  key_hash: string
  name: string
  description: string
  created_at: string
  revoked_at: string | null
}

/** JSON columns hold text on both stores; the services parse them. */
export interface DatasourceRow {
  id: string
  organization_id: string
  /** credentials.name: unique per organization, case-sensitive */
  name: string
  type: string
  /** AES-256-GCM sealed JSON of the credentials (keyring.encrypt, context = id) */
  credentials: string
  /** JSON TenancySettings or null */
  tenancy_settings: string | null
  /** JSON TableInfo[] of the last introspection */
  schema_cache: string
  /** Bumped on every sync/update: part of every cache key */
  schema_version: number
  /**
   * What credentials that name no TLS mode get (shared/tls.ts SilentTlsPolicy): 'verify' for
   * rows created since TLS is verified by default, 'off' for rows created before (migration 008).
   */
  silent_tls: string
  created_at: string
  updated_at: string
}

export interface DatamartRow {
  id: string
  organization_id: string
  name: string
  datasource_id: string
  /** JSON DatamartTable[] */
  tables: string
  /** JSON DatamartRelationship[] */
  relationships: string
  tenancy_settings: string | null
  created_at: string
  updated_at: string
}

export interface WorkspaceRow {
  id: string
  organization_id: string
  name: string
  connection_type: string
  datasource_id: string | null
  datamart_id: string | null
  /** JSON of the optional workspace fields (llmName, themeName …) */
  settings: string
  created_at: string
  updated_at: string
}

export interface DashboardRow {
  id: string
  organization_id: string
  workspace_id: string
  /** The external dashboard id (unique per workspace) */
  dashboard_id: string
  name: string
  /** JSON dashboard document (docs/dashboard-document.md) */
  document: string
  /** 'api' (import or empty-dashboard embed) or 'internal' */
  origin: string
  created_by_client: string | null
  /** JSON object: the caller's metadata of a dashboard created with its embed (null: none) */
  metadata: string | null
  created_at: string
  updated_at: string
}

export interface EmbedRow {
  id: string
  data_app_id: string
  embed_id: string
  embed_type: string
  name: string
  dashboard_row_id: string
  metric_id: string | null
  /** JSON accessSettings */
  access_settings: string
  /** embedDescription of the empty-dashboard embed (null: none) */
  description: string | null
  created_at: string
  updated_at: string
}

export interface GuestTokenRow {
  token_hash: string
  data_app_id: string
  /** JSON: clientId, params, permissions, datasourceName, datamartName */
  claims: string
  created_at: string
  expires_at: string | null
}

/**
 * An end user's saved layout of a dashboard (docs/runtime-api.md#the-end-users-layout), keyed by dashboard, data app,
 * clientId and userIdentifier ('' = the tenant's).
 */
export interface EndUserLayoutRow {
  dashboard_row_id: string
  data_app_id: string
  client_id: string
  /** '' for the tenant's layout */
  user_identifier: string
  /** JSON LayoutItem[] */
  layout: string
  updated_at: string
}

/** A named set of dashboard filter values (and optionally a layout), keyed like a layout; names unique per key. */
export interface DashboardViewRow {
  view_id: string
  dashboard_row_id: string
  data_app_id: string
  client_id: string
  /** '' for a tenant-wide view */
  user_identifier: string
  name: string
  /** JSON: dashboard filter name → value */
  filters: string
  /** JSON LayoutItem[] or null */
  layout: string | null
  created_at: string
}

/**
 * A metric an end user made (docs/runtime-api.md#self-serve-metrics), or a tenant's copy-on-write version of a company
 * metric (`based_on_company` 1, same metric_id). Unique per (dashboard, data app, client, metric).
 */
export interface EndUserMetricRow {
  id: string
  metric_id: string
  dashboard_row_id: string
  data_app_id: string
  client_id: string
  /** The creating user's params.userIdentifier; '' when the token had none (tenant-wide). */
  user_identifier: string
  /** JSON end-user metric definition (@strata/contract/self-serve EndUserMetricDefinition). */
  definition: string
  visibility: 'shared' | 'private'
  /** 0/1: a private metric published to the whole tenant is 1. */
  is_published: number
  /** 0/1 */
  archived: number
  /** 0/1: a copy-on-write version of the company metric of the same metric_id. */
  based_on_company: number
  /** The company metric a version was copied from (migration 006); null for a tenant's own metric or an older copy. */
  company_fingerprint: string | null
  created_at: string
  updated_at: string
}

/** A tenant's state of one COMPANY metric of a dashboard: hidden (deleted for it) or archived. */
export interface CompanyMetricStateRow {
  dashboard_row_id: string
  data_app_id: string
  client_id: string
  metric_id: string
  /** 0/1 */
  hidden: number
  /** 0/1 */
  archived: number
  updated_at: string
}

/** A scheduled email report (docs/runtime-api.md#email-reports); see migrations/005-email-reports.ts. */
export interface EmailReportRow {
  report_id: string
  /** embeds.id (cascade) */
  embed_row_id: string
  /** The id the report was created under (an embed id, or a dashboard id of the embed). */
  embed_id: string
  data_app_id: string
  client_id: string
  /** '' when the creating token had no params.userIdentifier */
  user_identifier: string
  /** The data app key that minted the creating token (null: the demo's). */
  key_id: string | null
  /** The creating token's GuestClaims, sealed (keyring.encrypt, bound to report_id). Never returned. */
  claims: string
  name: string
  /** JSON: { metricIds, format, schedule, recipients, dashboardFilter } */
  definition: string
  timezone: string
  /** ISO instant of the next send (or retry) */
  next_run_at: string
  state: 'scheduled' | 'retrying' | 'stopped'
  /** failed attempts of the current run */
  attempts: number
  last_sent_at: string | null
  last_error: string | null
  /** the instance holding the lease, until lease_until (ISO) */
  leased_by: string | null
  lease_until: string | null
  created_at: string
}

/** A rollup's state (docs/rollups.md); see migrations/009-rollups.ts. */
export interface RollupRow {
  /** dashboards.id (cascade) */
  dashboard_row_id: string
  /** The rollup's name in the document */
  name: string
  organization_id: string
  /** Hash of the rollup's effective definition as the document declares it now */
  fingerprint: string
  state: 'building' | 'ready' | 'failed' | 'stale'
  rows: number
  bytes: number
  /** JSON RollupPartition[] of the files the last successful build left */
  partitions: string
  /** The fingerprint the files were built from (null: never built) */
  built_fingerprint: string | null
  /** ISO instant the last build (successful or not) ended */
  last_refresh_at: string | null
  /** ISO instant the last successful build started: the files hold the warehouse as of then */
  data_as_of: string | null
  /** ISO instant the next build is due */
  next_refresh_at: string
  last_error: string | null
  /** the instance holding the lease, until lease_until (ISO) */
  leased_by: string | null
  lease_until: string | null
  created_at: string
  updated_at: string
}
