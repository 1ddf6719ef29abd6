import { ApiError } from '../../errors.js'
import { type MissingName, tableKey } from '../../query/model.js'
import { syncHint } from '../datasources/sync-hint.js'
import type { Source } from '../query/sources.js'

/**
 * A document that names a table or column the model lacks (resolveTable / resolveColumn,
 * `details.missing`): the 400 says where the names come from. A table that the datasource's
 * cached schema has but the datamart does not list: add it to the datamart. Otherwise the
 * cached schema may be older than the warehouse: sync it (the datasource's id is given, in the
 * message and in `details.datasourceId`). Any other error is returned unchanged.
 */
export function withSchemaHint(err: unknown, source: Source): unknown {
  if (!(err instanceof ApiError)) return err
  const missing = missingOf(err.details?.missing)
  if (missing === undefined) return err
  const { datasource, datamart } = source
  const wanted = missing.table.toLowerCase()
  const cached = datasource.tables.some(
    (t) => tableKey(t.schema, t.name).toLowerCase() === wanted || t.name.toLowerCase() === wanted,
  )
  const hint =
    datamart !== undefined && missing.column === undefined && cached
      ? `Table ${missing.table} is in datasource ${datasource.name} but not in datamart ${datamart.name}: add it to the datamart's tableList (PUT /api/v2/data-app/datamarts)`
      : syncHint(datasource, missing.column === undefined ? 'table' : 'column') +
        (datamart !== undefined && missing.column === undefined
          ? ` (and add the table to datamart ${datamart.name}'s tableList)`
          : '')
  return new ApiError(
    err.code,
    err.status,
    `${err.message}. ${hint}`,
    { ...err.details, datasourceId: datasource.id },
    { cause: err },
  )
}

function missingOf(value: unknown): MissingName | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { table, column } = value as Record<string, unknown>
  if (typeof table !== 'string') return undefined
  return typeof column === 'string' ? { table, column } : { table }
}
