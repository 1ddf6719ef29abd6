import { ApiError } from '../../errors.js'
import { resolveTable, type SemanticModel, tableKey } from '../model.js'
import type { TenancySettings } from './settings.js'
import type { Tenancy } from './tenancy.js'

/**
 * What decides a request's tenancy, gathered by the caller: the datasource's or datamart's
 * tenancySettings, the embed's tableTenancySettings, the model's client columns and, under
 * DATABASE tenancy, the databases the datasource has.
 */
export interface TenancyFacts {
  readonly model: SemanticModel
  /** The datamart's tenancySettings, else the datasource's. */
  readonly settings: TenancySettings | undefined
  /** The embed's tableTenancySettings: a client column per table, winning over the model's. */
  readonly tableSettings: readonly { readonly name: string; readonly clientColumn: string }[]
  /** Who the settings belong to, for refusals: `datamart sales` or `datasource warehouse`. */
  readonly owner: string
  readonly datasourceName: string
  readonly embedId: string
  /** What one database-tenancy tenant is called on this engine (`database`, `schema`…). */
  readonly unit: string
  /** The datasource's databases: needed (and only read) when `needsDatabases` says so. */
  readonly databases?: readonly string[] | undefined
}

/** Whether deciding the tenancy of `clientId` needs the datasource's databases (DATABASE tenancy): the caller lists them first. */
export function needsDatabases(settings: TenancySettings | undefined, clientId: string): boolean {
  return clientId !== 'None' && settings?.tenancyLevel === 'DATABASE'
}

/**
 * docs/tenancy.md. `None` is no tenancy, and only where none is configured: under a tenancy
 * (datasource or datamart tenancySettings, a datamart table's client column, the embed's
 * tableTenancySettings) it is refused, or a tenant whose id could be "None" would read every
 * row. DATABASE: the clientId names a database the datasource really has. TABLE: the client
 * column of every queried table, from the embed's tableTenancySettings, the datamart, or
 * through the tenancy table.
 */
export function decideTenancy(facts: TenancyFacts, clientId: string): Tenancy {
  const { settings, tableSettings, model } = facts
  const modelHasClientColumns = [...model.tables.values()].some((t) => t.clientColumn)
  if (clientId === 'None') {
    const configured = settings
      ? `${facts.owner} has ${settings.tenancyLevel} tenancy`
      : tableSettings.length > 0
        ? `embed ${facts.embedId} has tableTenancySettings`
        : modelHasClientColumns
          ? `${facts.owner} has client columns`
          : undefined
    if (configured === undefined) return { kind: 'none' }
    throw new ApiError(
      'CLIENT_ID_ERROR',
      400,
      `clientId: "None" means no tenancy, but ${configured}: pass the tenant's id`,
    )
  }
  if (settings?.tenancyLevel === 'DATABASE') {
    if (!(facts.databases ?? []).includes(clientId)) {
      throw new ApiError(
        'CLIENT_ID_ERROR',
        400,
        `clientId: ${clientId} is not a ${facts.unit} of datasource ${facts.datasourceName}`,
      )
    }
    return { kind: 'database', database: clientId }
  }
  const clientColumns = new Map<string, string>()
  for (const [i, t] of tableSettings.entries()) {
    clientColumns.set(resolveTable(model, t.name, `accessSettings.tableTenancySettings[${i}].name`).key, t.clientColumn)
  }
  if (settings?.tenancyLevel === 'TABLE') {
    return {
      kind: 'table',
      clientId,
      clientColumns,
      tenancyTable: {
        table: tableKey(settings.schemaName, settings.tableName),
        clientNameColumn: settings.tableClientNameColumn,
        primaryKeyColumn: settings.tablePrimaryKeyColumn,
      },
    }
  }
  if (clientColumns.size > 0 || modelHasClientColumns) return { kind: 'table', clientId, clientColumns }
  return { kind: 'none' }
}
