import type { DatamartColumnInput, DatamartColumnItem, DatamartItem, JoinType } from '../api/client.js'
import type { Relationship } from './relationship-fields.js'
import { tableKey } from './table-key.js'

/** What the form holds for one picked table. */
export interface TableChoice {
  label: string
  clientColumn: string
  hidden: Set<string>
  labels: Map<string, string>
  /** An existing datamart's own columns and table flag, kept as stored where the form shows nothing of them. */
  readonly stored?: {
    readonly isHide: boolean
    readonly columns: ReadonlyMap<string, DatamartColumnItem>
  }
}

/** The form's state for an existing datamart: its tables (by `schema.table`) and relationships. */
export function editStateOf(
  item: DatamartItem,
  nextId: () => number,
): { picked: Map<string, TableChoice>; relationships: Relationship[] } {
  const picked = new Map<string, TableChoice>()
  for (const t of item.datamartTables ?? []) {
    const columns = t.datamartTableColumns
    picked.set(tableKey(t.schemaName, t.tableName), {
      label: t.label === t.tableName ? '' : t.label,
      clientColumn: t.clientColumn ?? '',
      hidden: new Set(columns.filter((c) => c.isHide).map((c) => c.columnName)),
      labels: new Map(columns.filter((c) => c.label && c.label !== c.columnName).map((c) => [c.columnName, c.label])),
      stored: { isHide: t.isHide, columns: new Map(columns.map((c) => [c.columnName, c])) },
    })
  }
  const relationships = (item.datamartRelationships ?? []).map(
    (r): Relationship => ({
      id: nextId(),
      leftTable: r.parentTableName,
      leftColumn: r.parentColumnName,
      rightTable: r.childTableName,
      rightColumn: r.childColumnName,
      joinType: (r.join ?? 'LEFT JOIN') as JoinType,
      ...(r.relationshipName ? { name: r.relationshipName } : {}),
      ...(r.cardinality ? { cardinality: r.cardinality } : {}),
    }),
  )
  return { picked, relationships }
}

/**
 * A table's columns as the datamart routes take them: the introspected columns with the form's
 * labels and hidden flags, over what was stored for them (alias, sort, time zone), and the
 * stored custom (SQL) columns as they were, since the form does not edit those.
 */
export function columnInputs(names: readonly string[], choice: TableChoice): DatamartColumnInput[] {
  const stored = choice.stored?.columns
  const kept = (c: DatamartColumnItem | undefined) =>
    c
      ? {
          ...(c.alias && c.alias !== c.columnName ? { alias: c.alias } : {}),
          ...(c.defaultSort ? { defaultSort: c.defaultSort } : {}),
          isApplyTimezone: c.isApplyTimezone,
        }
      : {}
  const plain = names.map((name) => {
    const label = choice.labels.get(name)
    return {
      name,
      ...kept(stored?.get(name)),
      ...(label ? { label } : {}),
      ...(choice.hidden.has(name) ? { isHide: true } : {}),
    }
  })
  const custom = [...(stored?.values() ?? [])]
    .filter((c) => c.isCustomColumn)
    .map((c) => ({
      name: c.columnName,
      ...kept(c),
      isCustomColumn: true,
      sql: c.sql,
      ...(c.label ? { label: c.label } : {}),
      ...(c.isHide ? { isHide: true } : {}),
    }))
  return [...plain, ...custom]
}
