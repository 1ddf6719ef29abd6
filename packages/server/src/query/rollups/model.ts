import { findTable, type ModelColumn, type ModelTable, type SemanticModel } from '../model.js'
import type { DataType } from '../types.js'
import type { RollupPlan } from './types.js'

/** The one table a rollup is read as: a DuckDB view over its Parquet files (connectors/duckdb/rollup-reader.ts). */
export const ROLLUP_SCHEMA = 'main'
export const ROLLUP_VIEW = 'rollup'
export const ROLLUP_TABLE = `${ROLLUP_SCHEMA}.${ROLLUP_VIEW}`

/**
 * The column type a rollup's files hold for each of our types, as DuckDB names it: the builder
 * writes these (services/rollups/builder.ts) and the model below reads them, from this one table.
 */
export const ROLLUP_COLUMN_TYPE = {
  string: 'VARCHAR',
  integer: 'BIGINT',
  number: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  datetime: 'TIMESTAMP',
  json: 'VARCHAR',
  unknown: 'VARCHAR',
} as const satisfies Readonly<Record<DataType, string>>

/**
 * A model of one table, the rollup: its time bucket (a date, or a timestamp for hours), its
 * dimensions typed, labelled and sorted as their columns in the warehouse, and its measures.
 * `clientColumn` names the rollup column holding the tenant (TABLE tenancy), so the compiler
 * puts the same bound condition on it as on the warehouse's table. `first` is the rollup column
 * listed before the other date columns (what a comparison without a range measures on).
 */
export function rollupModel(
  model: SemanticModel,
  plan: RollupPlan,
  clientColumn: string | undefined,
  first: string | undefined,
): SemanticModel {
  const columns = new Map<string, ModelColumn>()
  const original = (table: string, column: string) => findTable(model, table)?.columns.get(column)
  const add = (name: string, dataType: DataType, from: ModelColumn | undefined) => {
    columns.set(name, {
      name,
      dataType,
      nativeType: ROLLUP_COLUMN_TYPE[dataType],
      hidden: false,
      isTimezoneConversion: false,
      ...(from?.label !== undefined ? { label: from.label } : {}),
      ...(from?.format !== undefined ? { format: from.format } : {}),
      ...(from?.defaultSort !== undefined ? { defaultSort: from.defaultSort } : {}),
    })
  }
  const time = plan.time
  const dims = [...plan.dimensions].sort((a, b) => Number(b.name === first) - Number(a.name === first))
  const addTime = () => {
    if (time) add(time.name, time.grain === 'hour' ? 'datetime' : 'date', original(time.table, time.column))
  }
  if (time?.name === first || first === undefined) addTime()
  for (const d of dims) {
    const c = original(d.table, d.column)
    add(d.name, c?.dataType ?? 'unknown', c)
  }
  if (time !== undefined && time.name !== first && first !== undefined) addTime()
  for (const m of plan.measures) {
    const c = m.column === undefined ? undefined : original(plan.from, m.column)
    const type: DataType =
      m.aggregate === 'count' ? 'integer' : m.aggregate === 'sum' ? 'number' : (c?.dataType ?? 'unknown')
    add(m.name, type, undefined)
  }
  const table: ModelTable = {
    key: ROLLUP_TABLE,
    schema: ROLLUP_SCHEMA,
    name: ROLLUP_VIEW,
    hidden: false,
    ...(clientColumn !== undefined ? { clientColumn } : {}),
    columns,
  }
  return { tables: new Map([[table.key, table]]), relationships: [] }
}
