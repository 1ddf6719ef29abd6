import type { DatasourceSettings, DatasourceTables, DatasourceTypeInfo } from '@strata/contract/studio'
import { credentialForms } from '../../connectors/credentials/form.js'
import { keepStoredSecrets, storedSecretNames } from '../../connectors/credentials/keep-secrets.js'
import type { TenancySettings, ValidCredentials } from '../../connectors/credentials/validate.js'
import {
  mergeTenancySettings,
  redactCredentials,
  validateCredentials,
  validateTenancySettings,
} from '../../connectors/credentials/validate.js'
import { createConnector } from '../../connectors/registry.js'
import type { SilentTlsPolicy } from '../../connectors/shared/tls.js'
import type { Connector, ConnectorOptions, DatasourceType, TableInfo } from '../../connectors/types.js'
import { ApiError, badRequest } from '../../errors.js'
import type { Keyring } from '../../security/keyring.js'
import { newId } from '../../security/secrets.js'
import { paged } from '../../store/paging.js'
import type { DatasourceRow } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'

export interface DatasourceInput {
  readonly datasourceType: DatasourceType
  readonly credentials: unknown
  readonly tenancySettings?: unknown
}

/** What create and update answer: never a credential field. */
export interface DatasourceSummary {
  readonly id: string
  readonly name: string
  readonly datasourceType: DatasourceType
  readonly tenancySettings: TenancySettings | null
  readonly tables: number
  readonly createdAt: string
  readonly updatedAt: string
  /** Present when something is saved but likely not what was meant (introspection found no table). */
  readonly warnings?: readonly string[]
}

/** A datasource as the query engine needs it (credentials stay inside its connector). */
export interface Datasource {
  readonly id: string
  readonly organizationId: string
  readonly name: string
  readonly type: DatasourceType
  readonly tenancySettings: TenancySettings | undefined
  readonly tables: readonly TableInfo[]
  /** Bumped by every update and sync; part of every result-cache key. */
  readonly schemaVersion: number
}

interface Introspection {
  readonly tables: TableInfo[]
}

/**
 * Datasources: credentials validated per type, sealed with AES-256-GCM (the row id is the
 * associated data, so a sealed value cannot be moved to another row), the connection tested
 * and the schema cached before anything is saved. One connector (pool) per datasource.
 */
export class Datasources {
  private readonly live = new Map<string, { connector: Connector; version: number }>()
  /** close() ran: no connector is opened any more (one opened later would never be closed). */
  private closed = false
  private readonly byId = peerCache<Datasource>()

  constructor(
    private readonly store: Store,
    private readonly keyring: Keyring,
    private readonly options: ConnectorOptions,
    private readonly bus: InvalidationBus,
  ) {
    bus.on((event) => {
      if (event.kind === 'datasource') this.byId.delete(event.datasourceId)
    })
  }

  async create(organizationId: string, input: DatasourceInput): Promise<DatasourceSummary> {
    const credentials = validateCredentials(input.datasourceType, input.credentials)
    const tenancy = input.tenancySettings === undefined ? undefined : validateTenancySettings(input.tenancySettings)
    const existing = await this.findRow(organizationId, credentials.name)
    if (existing) throw badRequest(`credentials.name: a datasource named ${credentials.name} already exists`)
    const { tables } = await this.probe(input.datasourceType, credentials, tenancy, 'verify')
    const id = newId()
    const at = now()
    const row: DatasourceRow = {
      id,
      organization_id: organizationId,
      name: credentials.name,
      type: input.datasourceType,
      credentials: this.keyring.encrypt(JSON.stringify(credentials), id),
      tenancy_settings: tenancy ? JSON.stringify(tenancy) : null,
      schema_cache: JSON.stringify(tables),
      schema_version: 1,
      silent_tls: 'verify',
      created_at: at,
      updated_at: at,
    }
    try {
      await this.store.db.insertInto('datasources').values(row).execute()
    } catch (err) {
      if (isUniqueViolation(err))
        throw badRequest(`credentials.name: a datasource named ${credentials.name} already exists`)
      throw err
    }
    return withWarnings(summary(row))
  }

  /**
   * Deletes a datasource nothing uses; refused (400, naming them) while a datamart or a
   * workspace is bound to it. Its pool is closed and every instance forgets it.
   */
  async delete(organizationId: string, name: string): Promise<{ id: string }> {
    const row = await this.findRow(organizationId, name)
    if (!row) throw new ApiError('INVALID_DATASOURCE_NAME', 400, `name: no datasource named ${name}`)
    const [datamarts, workspaces] = await Promise.all([
      this.store.db
        .selectFrom('datamarts')
        .select('name')
        .where('datasource_id', '=', row.id)
        .orderBy('name')
        .execute(),
      this.store.db
        .selectFrom('workspaces')
        .select('name')
        .where('datasource_id', '=', row.id)
        .where('datamart_id', 'is', null)
        .orderBy('name')
        .execute(),
    ])
    const users = [...datamarts.map((d) => `datamart ${d.name}`), ...workspaces.map((w) => `workspace ${w.name}`)]
    if (users.length > 0) {
      throw badRequest(
        `name: datasource ${name} is used by ${users.join(', ')}; delete ${users.length === 1 ? 'it' : 'them'} first`,
      )
    }
    await this.store.db.deleteFrom('datasources').where('id', '=', row.id).execute()
    await this.forget(row.id)
    await this.bus.publish({ kind: 'datasource', datasourceId: row.id })
    return { id: row.id }
  }

  /**
   * Replaces the credentials (same type), re-tests, re-introspects; tenancy merges. A secret
   * field the update omits keeps its stored value while the endpoint is unchanged (keep-secrets.ts).
   */
  async update(organizationId: string, input: DatasourceInput): Promise<DatasourceSummary> {
    const name = nameOf(input.credentials)
    const row = name === undefined ? undefined : await this.findRow(organizationId, name)
    if (row && row.type !== input.datasourceType) {
      throw badRequest(`datasourceType: datasource ${row.name} is ${row.type}, not ${input.datasourceType}`)
    }
    const given = row
      ? keepStoredSecrets(input.datasourceType, input.credentials, this.storedCredentials(row))
      : input.credentials
    const credentials = validateCredentials(input.datasourceType, given)
    if (!row) throw badRequest(`credentials.name: no datasource named ${credentials.name}`)
    const previous = row.tenancy_settings ? (JSON.parse(row.tenancy_settings) as TenancySettings) : undefined
    const tenancy = mergeTenancySettings(previous, input.tenancySettings)
    const silentTls = namesTlsMode(credentials) ? 'verify' : silentTlsOf(row)
    const { tables } = await this.probe(input.datasourceType, credentials, tenancy, silentTls)
    const updated: DatasourceRow = {
      ...row,
      silent_tls: silentTls,
      credentials: this.keyring.encrypt(JSON.stringify(credentials), row.id),
      tenancy_settings: tenancy ? JSON.stringify(tenancy) : null,
      schema_cache: JSON.stringify(tables),
      schema_version: row.schema_version + 1,
      updated_at: now(),
    }
    await this.store.db.updateTable('datasources').set(updated).where('id', '=', row.id).execute()
    await this.forget(row.id)
    await this.bus.publish({ kind: 'datasource', datasourceId: row.id })
    return withWarnings(summary(updated))
  }

  /** Re-reads the schema of a datasource (by id or name); DATASOURCE_ID_ERROR when unknown. */
  async sync(organizationId: string, datasourceId: string): Promise<{ message: string }> {
    const row =
      (await this.store.db
        .selectFrom('datasources')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where((eb) => eb.or([eb('id', '=', datasourceId), eb('name', '=', datasourceId)]))
        .executeTakeFirst()) ?? undefined
    if (!row) throw new ApiError('DATASOURCE_ID_ERROR', 400, `No datasource with id ${datasourceId}`)
    const connector = this.connectorOf(row)
    const tables = await connector.introspect()
    await this.store.db
      .updateTable('datasources')
      .set({ schema_cache: JSON.stringify(tables), schema_version: row.schema_version + 1, updated_at: now() })
      .where('id', '=', row.id)
      .execute()
    await this.bus.publish({ kind: 'datasource', datasourceId: row.id })
    return { message: `Synced datasource ${row.name}: ${tables.length} tables` }
  }

  async list(
    organizationId: string,
    page?: number,
  ): Promise<{ name: string; datasourceType: string; createdAt: string }[]> {
    const query = this.store.db
      .selectFrom('datasources')
      .select(['name', 'type', 'created_at'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('name')
    const rows = await paged(query, page).execute()
    return rows.map((r) => ({ name: r.name, datasourceType: r.type, createdAt: r.created_at }))
  }

  /**
   * What the edit form starts from: the stored credentials without any secret field, and the
   * names of the secret fields that hold a value (never the values).
   */
  async settings(organizationId: string, name: string): Promise<DatasourceSettings> {
    const row = await this.findRow(organizationId, name)
    if (!row) throw new ApiError('INVALID_DATASOURCE_NAME', 400, `name: no datasource named ${name}`)
    const type = row.type as DatasourceType
    const stored = this.storedCredentials(row)
    return {
      name: row.name,
      datasourceType: type,
      credentials: redactCredentials(type, stored),
      storedSecrets: storedSecretNames(type, stored),
      tenancySettings: row.tenancy_settings ? (JSON.parse(row.tenancy_settings) as Record<string, unknown>) : null,
      updatedAt: row.updated_at,
    }
  }

  /** The credential form of every type (the studio draws its datasource form from it). */
  credentialForms(): DatasourceTypeInfo[] {
    return credentialForms()
  }

  /** The tables and columns the last introspection (create, update, sync) found; never a credential. */
  async tables(organizationId: string, name: string): Promise<DatasourceTables> {
    const row = await this.findRow(organizationId, name)
    if (!row) throw new ApiError('INVALID_DATASOURCE_NAME', 400, `name: no datasource named ${name}`)
    const tables = JSON.parse(row.schema_cache) as TableInfo[]
    return {
      name: row.name,
      datasourceType: row.type,
      updatedAt: row.updated_at,
      tables: tables.map((t) => ({
        schema: t.schema,
        name: t.name,
        columns: t.columns.map((c) => ({ name: c.name, dataType: c.dataType, nativeType: c.nativeType })),
      })),
    }
  }

  /** A datasource by name, or undefined. */
  async byName(organizationId: string, name: string): Promise<Datasource | undefined> {
    const row = await this.findRow(organizationId, name)
    return row && this.toDatasource(row)
  }

  /** A datasource by id (cached until its next update or sync on this instance). */
  async get(id: string): Promise<Datasource> {
    const hit = this.byId.get(id)
    if (hit) return hit
    const row = await this.store.db.selectFrom('datasources').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
    return this.toDatasource(row)
  }

  /** The live connector (pool) of a datasource; reopened when the datasource changed. */
  async connector(datasource: Datasource): Promise<Connector> {
    const live = this.live.get(datasource.id)
    if (live && live.version === datasource.schemaVersion) return live.connector
    const row = await this.store.db
      .selectFrom('datasources')
      .selectAll()
      .where('id', '=', datasource.id)
      .executeTakeFirstOrThrow()
    return this.connectorOf(row)
  }

  async close(): Promise<void> {
    this.closed = true
    const all = [...this.live.values()]
    this.live.clear()
    await Promise.allSettled(all.map((l) => l.connector.close()))
  }

  private storedCredentials(row: DatasourceRow): Record<string, unknown> {
    return JSON.parse(this.keyring.decrypt(row.credentials, row.id)) as Record<string, unknown>
  }

  private connectorOf(row: DatasourceRow): Connector {
    // a call that began before close() (the demo's background warm-up) must not open a pool after it
    if (this.closed) throw new ApiError('SERVICE_UNAVAILABLE', 503, 'The server is shutting down')
    const live = this.live.get(row.id)
    if (live && live.version === row.schema_version) return live.connector
    if (live) void live.connector.close().catch(() => {})
    // Validated against the type's schema when they were saved (create, update).
    const credentials = JSON.parse(this.keyring.decrypt(row.credentials, row.id)) as ValidCredentials
    const connector = createConnector(row.type as DatasourceType, credentials, {
      ...this.options,
      silentTls: silentTlsOf(row),
    })
    this.live.set(row.id, { connector, version: row.schema_version })
    return connector
  }

  private toDatasource(row: DatasourceRow): Datasource {
    const datasource: Datasource = {
      id: row.id,
      organizationId: row.organization_id,
      name: row.name,
      type: row.type as DatasourceType,
      tenancySettings: row.tenancy_settings ? (JSON.parse(row.tenancy_settings) as TenancySettings) : undefined,
      tables: JSON.parse(row.schema_cache) as TableInfo[],
      schemaVersion: row.schema_version,
    }
    this.byId.set(row.id, datasource)
    return datasource
  }

  private async forget(id: string): Promise<void> {
    this.byId.delete(id)
    const live = this.live.get(id)
    this.live.delete(id)
    await live?.connector.close().catch(() => {})
  }

  private findRow(organizationId: string, name: string): Promise<DatasourceRow | undefined> {
    return this.store.db
      .selectFrom('datasources')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()
  }

  /**
   * Connects with the candidate credentials, introspects, and checks the tenancy settings
   * against what is there; the connection is closed whatever happens (nothing is saved on
   * failure).
   */
  private async probe(
    type: DatasourceType,
    credentials: ValidCredentials,
    tenancy: TenancySettings | undefined,
    silentTls: SilentTlsPolicy,
  ): Promise<Introspection> {
    const connector = createConnector(type, credentials, { ...this.options, silentTls })
    try {
      await connector.test()
      const tables = await connector.introspect()
      if (tenancy?.tenancyLevel === 'TABLE') checkTenancyTable(tenancy, tables)
      return { tables }
    } finally {
      await connector.close().catch(() => {})
    }
  }
}

/**
 * The row's TLS policy for credentials that name no mode: 'off' for a datasource created before
 * TLS was verified by default (store migration 008), else 'verify'.
 */
function silentTlsOf(row: DatasourceRow): SilentTlsPolicy {
  return row.silent_tls === 'off' ? 'off' : 'verify'
}

/**
 * Credentials that choose a mode (`tlsMode`, or the hosted API's `sslMode`): an update that
 * carries one moves a legacy row to the current policy, so removing it later does not fall back
 * to plain text.
 */
function namesTlsMode(credentials: ValidCredentials): boolean {
  return 'tlsMode' in credentials || 'sslMode' in credentials
}

function checkTenancyTable(tenancy: TenancySettings & { tenancyLevel: 'TABLE' }, tables: readonly TableInfo[]): void {
  const table = tables.find((t) => t.schema === tenancy.schemaName && t.name === tenancy.tableName)
  if (!table) throw badRequest(`tenancySettings.tableName: no table ${tenancy.schemaName}.${tenancy.tableName}`)
  for (const field of ['tableClientNameColumn', 'tablePrimaryKeyColumn'] as const) {
    const column = tenancy[field]
    if (!table.columns.some((c) => c.name === column)) {
      throw badRequest(`tenancySettings.${field}: no column ${column} in ${tenancy.schemaName}.${tenancy.tableName}`)
    }
  }
}

/** A datasource whose introspection found no table is saved, with a warning saying so (issue 13). */
function withWarnings(datasource: DatasourceSummary): DatasourceSummary {
  if (datasource.tables > 0) return datasource
  return {
    ...datasource,
    warnings: [
      `The introspection found no table in datasource ${datasource.name}: check the schema or database in its credentials (and the user's privileges), then PUT /api/v2/datasource or POST /api/v2/datasource/sync`,
    ],
  }
}

/** `credentials.name` of an unvalidated body, when it is a string. */
function nameOf(credentials: unknown): string | undefined {
  if (typeof credentials !== 'object' || credentials === null) return undefined
  const name = (credentials as { name?: unknown }).name
  return typeof name === 'string' ? name : undefined
}

function summary(row: DatasourceRow): DatasourceSummary {
  return {
    id: row.id,
    name: row.name,
    datasourceType: row.type as DatasourceType,
    tenancySettings: row.tenancy_settings ? (JSON.parse(row.tenancy_settings) as TenancySettings) : null,
    tables: (JSON.parse(row.schema_cache) as unknown[]).length,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
