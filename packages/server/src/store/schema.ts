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
