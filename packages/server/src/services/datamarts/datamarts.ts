import type { Static } from '@fastify/type-provider-typebox'
import type { ColumnFormat } from '@strata/contract/document'
import type { TenancySettings } from '../../connectors/credentials/validate.js'
import { validateTenancySettings } from '../../connectors/credentials/validate.js'
import { capabilitiesOf } from '../../connectors/registry.js'
import type { TableInfo } from '../../connectors/types.js'
import { ApiError, badRequest } from '../../errors.js'
import { tableKey } from '../../query/model.js'
import type { DatamartItem, DatamartTableInput, RelationshipInput } from '../../schemas/datamarts.js'
import { newId } from '../../security/secrets.js'
import { paged } from '../../store/paging.js'
import type { DatamartRow } from '../../store/schema.js'
import { isUniqueViolation, now, type Store } from '../../store/store.js'
import type { Datasource, Datasources } from '../datasources/datasources.js'
import { syncHint } from '../datasources/sync-hint.js'
import type { InvalidationBus } from '../events/bus.js'
import { peerCache } from '../events/peer-cache.js'

import { type ColumnIn, relationshipsIn, tablesIn } from './datamart-input.js'

/** A datamart column as stored and as the query engine reads it. */
export interface DatamartColumnConfig {
  readonly name: string
  readonly dataType: string
  readonly alias: string
  readonly label: string
  readonly isHide: boolean
  /** How its values read (declared; inferred from name and type when absent). */
  readonly format?: ColumnFormat
  readonly isCustomColumn: boolean
  readonly sql: string
  readonly isTimezoneConversion: boolean
  readonly defaultSort: 'ASC' | 'DESC' | null
}

/** A datamart table as stored and as the query engine reads it. */
export interface DatamartTableConfig {
  /** '' for a table without a schema (an Elasticsearch or OpenSearch index). */
  readonly schemaName: string
  readonly tableName: string
  readonly label: string
  readonly clientColumn: string | null
  readonly isHide: boolean
  readonly datamartTableColumns: readonly DatamartColumnConfig[]
}

/** A relationship as stored and as the query engine reads it (tables as `schema.table`, or `table` without a schema). */
export interface DatamartRelationshipConfig {
  readonly parentTable: string
  readonly parentColumn: string
  readonly childTable: string
  readonly childColumn: string
  readonly name: string
  readonly cardinality: 'ManyToMany' | 'ManyToOne' | 'OneToMany' | 'OneToOne' | null
  readonly joinType: 'INNER JOIN' | 'LEFT JOIN' | 'RIGHT JOIN' | 'FULL JOIN' | null
}

/** A create or update's tables and relationships, each field under our name or the hosted service's. */
export interface DatamartInput {
  readonly tableList: readonly Static<typeof DatamartTableInput>[]
  readonly relationships?: readonly Static<typeof RelationshipInput>[]
  readonly tenancySettings?: unknown
}

type DatamartListItem = Static<typeof DatamartItem>

/** A datamart as the query engine reads it. */
export interface Datamart {
  readonly id: string
  readonly name: string
  readonly datasourceId: string
  readonly tables: readonly DatamartTableConfig[]
  readonly relationships: readonly DatamartRelationshipConfig[]
  readonly tenancySettings: TenancySettings | undefined
  readonly updatedAt: string
}

/**
 * Datamarts: the semantic model over one datasource (tables with labels and tenant column,
 * columns with alias/label/custom SQL/time-zone flag/default sort, relationships). Every
 * table and column named must exist in the datasource's cached schema.
 */
export class Datamarts {
  private readonly byId = peerCache<Datamart>()

  constructor(
    private readonly store: Store,
    private readonly datasources: Datasources,
    private readonly bus: InvalidationBus,
  ) {
    bus.on((event) => {
      if (event.kind === 'datamart') this.byId.delete(event.datamartId)
    })
  }

  async create(organizationId: string, name: string, datasourceName: string, input: DatamartInput): Promise<string> {
    const datasource = await this.datasources.byName(organizationId, datasourceName)
    if (!datasource) throw new ApiError('DATASOURCE_NAME_ERROR', 400, `No datasource named ${datasourceName}`)
    const config = normalise(datasource, input)
    const at = now()
    try {
      await this.store.db
        .insertInto('datamarts')
        .values({
          id: newId(),
          organization_id: organizationId,
          name,
          datasource_id: datasource.id,
          tables: JSON.stringify(config.tables),
          relationships: JSON.stringify(config.relationships),
          tenancy_settings: config.tenancySettings ? JSON.stringify(config.tenancySettings) : null,
          created_at: at,
          updated_at: at,
        })
        .execute()
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(`name: a datamart named ${name} already exists`)
      throw err
    }
    return name
  }

  /** Replaces the table configuration whole. */
  async update(organizationId: string, name: string, input: DatamartInput): Promise<string> {
    const row = await this.findRow(organizationId, name)
    const datasource = await this.datasources.get(row.datasource_id)
    const config = normalise(datasource, {
      ...input,
      tenancySettings:
        input.tenancySettings ?? (row.tenancy_settings ? (JSON.parse(row.tenancy_settings) as unknown) : undefined),
    })
    await this.store.db
      .updateTable('datamarts')
      .set({
        tables: JSON.stringify(config.tables),
        relationships: JSON.stringify(config.relationships),
        tenancy_settings: config.tenancySettings ? JSON.stringify(config.tenancySettings) : null,
        updated_at: now(),
      })
      .where('id', '=', row.id)
      .execute()
    await this.bus.publish({ kind: 'datamart', datamartId: row.id })
    return name
  }

  async delete(organizationId: string, name: string): Promise<string> {
    const row = await this.findRow(organizationId, name)
    const used = await this.store.db
      .selectFrom('workspaces')
      .select('name')
      .where('datamart_id', '=', row.id)
      .executeTakeFirst()
    if (used) throw badRequest(`datamartName: datamart ${name} is used by workspace ${used.name}`)
    await this.store.db.deleteFrom('datamarts').where('id', '=', row.id).execute()
    await this.bus.publish({ kind: 'datamart', datamartId: row.id })
    return name
  }

  async list(organizationId: string, options: { page?: number; expand: boolean }): Promise<DatamartListItem[]> {
    const query = this.store.db
      .selectFrom('datamarts')
      .innerJoin('datasources', 'datasources.id', 'datamarts.datasource_id')
      .selectAll('datamarts')
      .select(['datasources.name as datasource_name', 'datasources.type as datasource_type'])
      .where('datamarts.organization_id', '=', organizationId)
      .orderBy('datamarts.created_at')
      .orderBy('datamarts.name')
    const rows = await paged(query, options.page).execute()
    return rows.map((row) => {
      const tenancy = row.tenancy_settings ? (JSON.parse(row.tenancy_settings) as TenancySettings) : undefined
      const table = tenancy?.tenancyLevel === 'TABLE' ? tenancy : undefined
      const item: DatamartListItem = {
        name: row.name,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        datamartOrganization: {
          tenancyLevel: tenancy?.tenancyLevel ?? null,
          schemaName: table?.schemaName ?? null,
          tableName: table?.tableName ?? null,
          clientColumnType: table?.clientColumnType ?? null,
          primaryDatabaseName: null,
          tableClientNameColumn: table?.tableClientNameColumn ?? null,
          tablePrimaryKeyColumn: table?.tablePrimaryKeyColumn ?? null,
        },
        companyIntegration: { name: row.datasource_name, datasourceType: row.datasource_type },
      }
      if (options.expand) {
        item.datamartTables = listedTables(JSON.parse(row.tables) as DatamartTableConfig[])
        item.datamartRelationships = listedRelationships(JSON.parse(row.relationships) as DatamartRelationshipConfig[])
      }
      return item
    })
  }

  /** A datamart by name, or undefined. */
  async byName(organizationId: string, name: string): Promise<Datamart | undefined> {
    const row = await this.rowNamed(organizationId, name)
    return row && toDatamart(row)
  }

  /** By id; from memory after the first read, forgotten on every change (all instances). */
  async get(id: string): Promise<Datamart> {
    const hit = this.byId.get(id)
    if (hit) return hit
    const datamart = toDatamart(
      await this.store.db.selectFrom('datamarts').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    )
    this.byId.set(id, datamart)
    return datamart
  }

  private async findRow(organizationId: string, name: string): Promise<DatamartRow> {
    const row = await this.rowNamed(organizationId, name)
    if (!row) throw badRequest(`datamartName: no datamart named ${name}`)
    return row
  }

  private rowNamed(organizationId: string, name: string): Promise<DatamartRow | undefined> {
    return this.store.db
      .selectFrom('datamarts')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()
  }
}

function toDatamart(row: DatamartRow): Datamart {
  return {
    id: row.id,
    name: row.name,
    datasourceId: row.datasource_id,
    tables: JSON.parse(row.tables) as DatamartTableConfig[],
    relationships: JSON.parse(row.relationships) as DatamartRelationshipConfig[],
    tenancySettings: row.tenancy_settings ? (JSON.parse(row.tenancy_settings) as TenancySettings) : undefined,
    updatedAt: row.updated_at,
  }
}

/** Checks every name against the datasource's schema and fills the defaults of the list item. */
function normalise(
  datasource: Datasource,
  input: DatamartInput,
): { tables: DatamartTableConfig[]; relationships: DatamartRelationshipConfig[]; tenancySettings?: TenancySettings } {
  const seen = new Map<string, TableInfo>()
  const tables = tablesIn(input.tableList).map((t, i): DatamartTableConfig => {
    const path = `tableList[${i}]`
    const info = datasource.tables.find((x) => x.schema === t.schemaName && x.name === t.name)
    if (!info) throw missingTable(datasource, t.schemaName, t.name, path)
    const key = tableKey(t.schemaName, t.name)
    if (seen.has(key)) throw badRequest(`${path}: table ${key} is listed twice`)
    seen.set(key, info)
    const given = new Map((t.columns ?? []).map((c) => [c.name, c]))
    const columns = info.columns.map((c) => {
      const g = given.get(c.name)
      given.delete(c.name)
      if (g?.isCustomColumn) throw badRequest(`${path}.columns: ${c.name} is a column of ${key}, not a custom column`)
      return column(c.name, c.dataType, g)
    })
    for (const [name, g] of given) {
      if (!g.isCustomColumn)
        throw badRequest(`${path}.columns: no column ${name} in ${key}. ${syncHint(datasource, 'column')}`)
      if (!g.sql?.trim()) throw badRequest(`${path}.columns: custom column ${name} needs sql`)
      columns.push(column(name, 'unknown', g))
    }
    const clientColumn = t.clientColumn ?? null
    if (clientColumn !== null && !info.columns.some((c) => c.name === clientColumn)) {
      throw badRequest(`${path}.clientColumn: no column ${clientColumn} in ${key}. ${syncHint(datasource, 'column')}`)
    }
    return {
      schemaName: t.schemaName,
      tableName: t.name,
      label: t.label ?? '',
      clientColumn,
      isHide: t.isHide ?? false,
      datamartTableColumns: columns,
    }
  })
  // the hosted service's examples name a relationship's tables without their schema
  const relationshipTable = (table: string): string => {
    if (seen.has(table)) return table
    if (table.startsWith('.') && seen.has(table.slice(1))) return table.slice(1) // `.index`: an index as `schema.table`
    if (table.includes('.')) return table
    const matches = [...seen.keys()].filter((k) => k.slice(k.lastIndexOf('.') + 1) === table)
    return matches.length === 1 ? (matches[0] ?? table) : table
  }
  const relationships = relationshipsIn(input.relationships).map((given, i): DatamartRelationshipConfig => {
    const r = {
      ...given,
      parentTable: relationshipTable(given.parentTable),
      childTable: relationshipTable(given.childTable),
    }
    if (r.joinType === 'FULL JOIN' && capabilitiesOf(datasource.type).fullJoin === false) {
      throw badRequest(
        `relationships[${i}].joinType: ${datasource.type} datasources have no FULL JOIN; use INNER, LEFT or RIGHT JOIN`,
      )
    }
    for (const side of ['parent', 'child'] as const) {
      const table = r[`${side}Table`]
      const columnName = r[`${side}Column`]
      const info = seen.get(table)
      if (!info)
        throw badRequest(
          `relationships[${i}].${side}Table: ${table} is not in tableList (use schema.table, or table where it has no schema)`,
        )
      if (!info.columns.some((c) => c.name === columnName)) {
        throw badRequest(
          `relationships[${i}].${side}Column: no column ${columnName} in ${table}. ${syncHint(datasource, 'column')}`,
        )
      }
    }
    return {
      parentTable: r.parentTable,
      parentColumn: r.parentColumn,
      childTable: r.childTable,
      childColumn: r.childColumn,
      name: r.name ?? `${r.parentTable}.${r.parentColumn} → ${r.childTable}.${r.childColumn}`,
      cardinality: r.cardinality ?? null,
      joinType: r.joinType ?? null,
    }
  })
  const tenancySettings =
    input.tenancySettings === undefined ? datasource.tenancySettings : validateTenancySettings(input.tenancySettings)
  return tenancySettings ? { tables, relationships, tenancySettings } : { tables, relationships }
}

/**
 * The 400 for a table the datasource does not hold. A table named without a schema where the
 * datasource's tables have one (every type but Elasticsearch and OpenSearch) is told so at
 * `schemaName`, with the schemas that hold a table of that name.
 */
function missingTable(datasource: Datasource, schema: string, name: string, path: string): ApiError {
  if (schema === '' && !datasource.tables.some((x) => x.schema === '')) {
    const holders = datasource.tables.filter((x) => x.name === name).map((x) => x.schema)
    const hint = holders.length > 0 ? `: ${name} is in ${holders.join(', ')}` : ''
    return badRequest(
      `${path}.schemaName: required, ${datasource.type} datasource ${datasource.name} names its tables schema.table${hint}`,
    )
  }
  return badRequest(
    `${path}: no table ${tableKey(schema, name)} in datasource ${datasource.name}. ${syncHint(datasource, 'table')}`,
  )
}

function column(name: string, dataType: string, given: ColumnIn | undefined): DatamartColumnConfig {
  return {
    name,
    dataType,
    alias: given?.alias ?? '',
    label: given?.label ?? '',
    isHide: given?.isHide ?? false,
    ...(given?.format ? { format: given.format } : {}),
    isCustomColumn: given?.isCustomColumn ?? false,
    sql: given?.isCustomColumn ? (given.sql ?? '') : '',
    isTimezoneConversion: given?.isTimezoneConversion ?? false,
    defaultSort: given?.defaultSort ?? null,
  }
}

/** Stored tables in the list item's names (the hosted service's, docs/api.md#datamarts). */
function listedTables(tables: readonly DatamartTableConfig[]): NonNullable<DatamartListItem['datamartTables']> {
  return tables.map((t) => ({
    schemaName: t.schemaName,
    tableName: t.tableName,
    label: t.label,
    clientColumn: t.clientColumn,
    isHide: t.isHide,
    datamartTableColumns: t.datamartTableColumns.map((c) => ({
      columnName: c.name,
      datatype: c.dataType,
      alias: c.alias,
      label: c.label,
      isHide: c.isHide,
      ...(c.format ? { format: c.format } : {}),
      isCustomColumn: c.isCustomColumn,
      sql: c.sql,
      isApplyTimezone: c.isTimezoneConversion,
      defaultSort: c.defaultSort,
    })),
  }))
}

/** Stored relationships in the list item's names. */
function listedRelationships(
  relationships: readonly DatamartRelationshipConfig[],
): NonNullable<DatamartListItem['datamartRelationships']> {
  return relationships.map((r) => ({
    parentTableName: r.parentTable,
    parentColumnName: r.parentColumn,
    childTableName: r.childTable,
    childColumnName: r.childColumn,
    relationshipName: r.name,
    cardinality: r.cardinality,
    join: r.joinType,
  }))
}
