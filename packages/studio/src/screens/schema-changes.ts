import type { IntrospectedTable } from '@strata/contract/studio'
import { tableKey } from './table-key.js'

/** What a sync found, compared with what was known before it. */
export interface SchemaChanges {
  readonly tables: number
  readonly columns: number
  readonly addedTables: readonly string[]
  readonly removedTables: readonly string[]
  /** `schema.table.column`, in tables present before and after. */
  readonly addedColumns: readonly string[]
  readonly removedColumns: readonly string[]
  /** `schema.table.column (old → new)`: the data type changed. */
  readonly retyped: readonly string[]
}

const key = (t: IntrospectedTable) => tableKey(t.schema, t.name)

/** The tables and columns of `after`, and how they differ from `before`. */
export function schemaChanges(
  before: readonly IntrospectedTable[],
  after: readonly IntrospectedTable[],
): SchemaChanges {
  const old = new Map(before.map((t) => [key(t), t]))
  const now = new Map(after.map((t) => [key(t), t]))
  const addedColumns: string[] = []
  const removedColumns: string[] = []
  const retyped: string[] = []
  for (const [name, table] of now) {
    const prior = old.get(name)
    if (!prior) continue
    const priorColumns = new Map(prior.columns.map((c) => [c.name, c]))
    const columns = new Set(table.columns.map((c) => c.name))
    for (const c of table.columns) {
      const was = priorColumns.get(c.name)
      if (!was) addedColumns.push(`${name}.${c.name}`)
      else if (was.dataType !== c.dataType) retyped.push(`${name}.${c.name} (${was.dataType} → ${c.dataType})`)
    }
    for (const c of prior.columns) if (!columns.has(c.name)) removedColumns.push(`${name}.${c.name}`)
  }
  return {
    tables: after.length,
    columns: after.reduce((n, t) => n + t.columns.length, 0),
    addedTables: [...now.keys()].filter((k) => !old.has(k)),
    removedTables: [...old.keys()].filter((k) => !now.has(k)),
    addedColumns,
    removedColumns,
    retyped,
  }
}

/** The changes in words, one line each; empty when nothing changed. */
export function describeChanges(c: SchemaChanges): string[] {
  const list = (label: string, items: readonly string[]) => (items.length > 0 ? [`${label}: ${items.join(', ')}`] : [])
  return [
    ...list(c.addedTables.length === 1 ? 'New table' : 'New tables', c.addedTables),
    ...list(c.removedTables.length === 1 ? 'Table gone' : 'Tables gone', c.removedTables),
    ...list(c.addedColumns.length === 1 ? 'New column' : 'New columns', c.addedColumns),
    ...list(c.removedColumns.length === 1 ? 'Column gone' : 'Columns gone', c.removedColumns),
    ...list('Type changed', c.retyped),
  ]
}
