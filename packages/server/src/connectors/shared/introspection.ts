import type { ColumnInfo, TableInfo } from '../types.js'

/** What one row of an information_schema.columns listing says: the table it belongs to, and the column. */
export interface ColumnRow {
  readonly schema: string
  readonly table: string
  readonly column: ColumnInfo
}

/**
 * Rows of a columns listing (ordered by table, then ordinal position) → tables in the order
 * first seen, each with its columns in row order. `read` is the engine's reading of a row.
 */
export function tablesOf<R>(rows: Iterable<R>, read: (row: R) => ColumnRow): TableInfo[] {
  const tables = new Map<string, { schema: string; name: string; columns: ColumnInfo[] }>()
  for (const row of rows) {
    const { schema, table, column } = read(row)
    const key = JSON.stringify([schema, table])
    let entry = tables.get(key)
    if (!entry) {
      entry = { schema, name: table, columns: [] }
      tables.set(key, entry)
    }
    entry.columns.push(column)
  }
  return [...tables.values()]
}
