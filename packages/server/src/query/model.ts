import type { ColumnFormat } from '@strata/contract/document'
import { badRequest } from '../errors.js'
import type { JoinType } from './ast.js'
import type { DataType, TableInfo } from './types.js'

/**
 * The semantic model a metric compiles against: the introspected schema, optionally curated by
 * a datamart (labels, client columns, custom SQL columns, relationships). Tables are keyed by
 * their canonical `schema.table`; every table path is resolved to that form where it enters.
 */

export interface ModelColumn {
  readonly name: string
  readonly dataType: DataType
  readonly nativeType: string
  readonly alias?: string
  readonly label?: string
  readonly hidden: boolean
  /** How its values read, as the datamart declares it (inferred from name and type when absent: column-formats). */
  readonly format?: ColumnFormat
  /** Custom column: trusted SQL written by a secret-key holder, evaluated over its table. */
  readonly sql?: string
  readonly isTimezoneConversion: boolean
  readonly defaultSort?: 'asc' | 'desc'
}

export interface ModelTable {
  /** Canonical `schema.table` (`table` where the schema is ''). */
  readonly key: string
  readonly schema: string
  readonly name: string
  readonly label?: string
  readonly clientColumn?: string
  readonly hidden: boolean
  readonly columns: ReadonlyMap<string, ModelColumn>
}

export type Cardinality = 'ManyToMany' | 'ManyToOne' | 'OneToMany' | 'OneToOne'

export interface Relationship {
  readonly parentTable: string
  readonly parentColumn: string
  readonly childTable: string
  readonly childColumn: string
  readonly name?: string
  readonly cardinality?: Cardinality
  /** As written `parent <joinType> child`; absent: LEFT JOIN away from the query's `from`. */
  readonly joinType?: JoinType
}

export interface SemanticModel {
  readonly tables: ReadonlyMap<string, ModelTable>
  readonly relationships: readonly Relationship[]
}

/** A datamart as the datamart API receives it (docs/api.md#datamarts). */
export interface DatamartModel {
  readonly tableList: readonly {
    readonly schemaName: string
    readonly name: string
    readonly label?: string
    readonly clientColumn?: string | null
    readonly isHide?: boolean
    readonly columns?: readonly {
      readonly name: string
      readonly alias?: string
      readonly label?: string
      readonly isHide?: boolean
      readonly format?: ColumnFormat
      readonly isCustomColumn?: boolean
      readonly sql?: string
      readonly dataType?: DataType
      readonly isTimezoneConversion?: boolean
      readonly defaultSort?: 'ASC' | 'DESC' | 'asc' | 'desc' | null
    }[]
  }[]
  readonly relationships?: readonly {
    readonly parentTable: string
    readonly parentColumn: string
    readonly childTable: string
    readonly childColumn: string
    readonly name?: string
    readonly cardinality?: Cardinality | null
    readonly joinType?: 'INNER JOIN' | 'LEFT JOIN' | 'RIGHT JOIN' | 'FULL JOIN' | null
  }[]
}

/** `schema.table`; a table without a schema (an Elasticsearch index) is keyed by its bare name. */
export const tableKey = (schema: string, name: string): string => (schema === '' ? name : `${schema}.${name}`)

function fromTableInfo(t: TableInfo): ModelTable {
  const columns = new Map<string, ModelColumn>()
  for (const c of t.columns) {
    columns.set(c.name, {
      name: c.name,
      dataType: c.dataType,
      nativeType: c.nativeType,
      hidden: false,
      isTimezoneConversion: false,
    })
  }
  return { key: tableKey(t.schema, t.name), schema: t.schema, name: t.name, hidden: false, columns }
}

/**
 * Builds the model. With a datamart, the model holds only its tables (each must exist in the
 * introspected schema), overlaid with its labels, client columns and custom columns.
 */
export function buildModel(tables: readonly TableInfo[], datamart?: DatamartModel): SemanticModel {
  const base = new Map<string, ModelTable>(tables.map((t) => [tableKey(t.schema, t.name), fromTableInfo(t)]))
  if (datamart === undefined) return { tables: base, relationships: [] }
  const curated = new Map<string, ModelTable>()
  datamart.tableList.forEach((dt, i) => {
    const path = `tableList[${i}]`
    const t = base.get(tableKey(dt.schemaName, dt.name))
    if (t === undefined) throw badRequest(`${path}: no table ${tableKey(dt.schemaName, dt.name)} in the datasource`)
    const columns = new Map(t.columns)
    dt.columns?.forEach((dc, j) => {
      const cpath = `${path}.columns[${j}]`
      const known = columns.get(dc.name)
      const custom = dc.isCustomColumn === true
      if (custom && (dc.sql === undefined || dc.sql.trim() === ''))
        throw badRequest(`${cpath}.sql: a custom column needs sql`)
      if (custom && known !== undefined) throw badRequest(`${cpath}.name: ${t.key} already has a column "${dc.name}"`)
      if (!custom && known === undefined) throw badRequest(`${cpath}.name: no column "${dc.name}" in ${t.key}`)
      const sort = dc.defaultSort?.toLowerCase()
      columns.set(dc.name, {
        name: dc.name,
        dataType: known?.dataType ?? dc.dataType ?? 'unknown',
        nativeType: known?.nativeType ?? '',
        ...(dc.alias ? { alias: dc.alias } : {}),
        ...(dc.label ? { label: dc.label } : {}),
        hidden: dc.isHide === true,
        ...(dc.format ? { format: dc.format } : {}),
        ...(custom ? { sql: dc.sql as string } : {}),
        isTimezoneConversion: dc.isTimezoneConversion === true,
        ...(sort === 'asc' || sort === 'desc' ? { defaultSort: sort } : {}),
      })
    })
    const clientColumn = dt.clientColumn ?? undefined
    if (clientColumn !== undefined && clientColumn !== '' && !columns.has(clientColumn)) {
      throw badRequest(`${path}.clientColumn: no column "${clientColumn}" in ${t.key}`)
    }
    curated.set(t.key, {
      ...t,
      ...(dt.label ? { label: dt.label } : {}),
      ...(clientColumn ? { clientColumn } : {}),
      hidden: dt.isHide === true,
      columns,
    })
  })
  const model: SemanticModel = { tables: curated, relationships: [] }
  const relationships = (datamart.relationships ?? []).map((r, i): Relationship => {
    const path = `relationships[${i}]`
    const parent = resolveTable(model, r.parentTable, `${path}.parentTable`)
    const child = resolveTable(model, r.childTable, `${path}.childTable`)
    resolveColumn(parent, r.parentColumn, `${path}.parentColumn`)
    resolveColumn(child, r.childColumn, `${path}.childColumn`)
    return {
      parentTable: parent.key,
      parentColumn: r.parentColumn,
      childTable: child.key,
      childColumn: r.childColumn,
      ...(r.name ? { name: r.name } : {}),
      ...(r.cardinality ? { cardinality: r.cardinality } : {}),
      ...(r.joinType ? { joinType: r.joinType.replace(' JOIN', '') as JoinType } : {}),
    }
  })
  return { tables: curated, relationships }
}

/** What a failed lookup names, in the 400's `details.missing` (a caller may add a hint from it). */
export interface MissingName {
  readonly table: string
  readonly column?: string
}

/**
 * Resolves a table path to its model table: `schema.table` exactly (`table` or `.table` for one
 * without a schema), else a bare `table`
 * that names exactly one table, else a unique case-insensitive match. 400 naming `path`
 * (with `details.missing`).
 */
export function resolveTable(model: SemanticModel, ref: string, path = 'table'): ModelTable {
  const exact = model.tables.get(ref)
  if (exact !== undefined) return exact
  // `.index`: a table without a schema as documents written before it was keyed by its bare name
  const unschemed = ref.startsWith('.') ? model.tables.get(ref.slice(1)) : undefined
  if (unschemed?.schema === '') return unschemed
  const all = [...model.tables.values()]
  const byName = all.filter((t) => t.name === ref)
  if (byName.length === 1) return byName[0] as ModelTable
  if (byName.length > 1) {
    throw badRequest(`${path}: table "${ref}" is ambiguous (${byName.map((t) => t.key).join(', ')}); use schema.table`)
  }
  const lower = ref.toLowerCase()
  const folded = all.filter((t) => t.key.toLowerCase() === lower || t.name.toLowerCase() === lower)
  if (folded.length === 1) return folded[0] as ModelTable
  throw badRequest(`${path}: no table "${ref}"`, { missing: { table: ref } })
}

/** The table `ref` resolves to, or undefined where resolveTable would refuse it. */
export function findTable(model: SemanticModel, ref: string): ModelTable | undefined {
  try {
    return resolveTable(model, ref)
  } catch {
    return undefined
  }
}

/** Resolves a column of a table by name, then by datamart alias. 400 naming `path` (with `details.missing`). */
export function resolveColumn(table: ModelTable, name: string, path = 'column'): ModelColumn {
  const exact = table.columns.get(name)
  if (exact !== undefined) return exact
  const aliased = [...table.columns.values()].filter((c) => c.alias === name)
  if (aliased.length === 1) return aliased[0] as ModelColumn
  throw badRequest(`${path}: no column "${name}" in ${table.key}`, { missing: { table: table.key, column: name } })
}
