import type { Static } from '@fastify/type-provider-typebox'
import type { ColumnFormat } from '@strata/contract/document'
import { badRequest } from '../../errors.js'
import type { DatamartColumnInput, DatamartTableInput, RelationshipInput } from '../../schemas/datamarts.js'
import { either } from '../../validation/either.js'

/**
 * A datamart's tables, columns and relationships as a create or update names them: each field
 * under our name or the hosted service's (`name` or `columnName`, `joinType` or `join` …),
 * reduced here to one spelling before anything else reads them.
 */

export interface ColumnIn {
  readonly name: string
  readonly alias?: string | undefined
  readonly label?: string | undefined
  readonly isHide?: boolean | undefined
  readonly format?: ColumnFormat | undefined
  readonly isCustomColumn?: boolean | undefined
  readonly sql?: string | undefined
  readonly isTimezoneConversion?: boolean | undefined
  readonly defaultSort?: 'ASC' | 'DESC' | null | undefined
}

export interface TableIn {
  /** '' where the request names none (empty or omitted). */
  readonly schemaName: string
  readonly name: string
  readonly label?: string | undefined
  readonly clientColumn?: string | null | undefined
  readonly isHide?: boolean | undefined
  readonly columns?: readonly ColumnIn[] | undefined
}

export interface RelationshipIn {
  readonly parentTable: string
  readonly parentColumn: string
  readonly childTable: string
  readonly childColumn: string
  readonly name?: string | undefined
  readonly cardinality?: Static<typeof RelationshipInput>['cardinality']
  readonly joinType?: Static<typeof RelationshipInput>['joinType']
}

function required<T>(value: T | undefined, ours: string, theirs: string, path: string): T {
  if (value === undefined) throw badRequest(`${path}: ${ours} (or ${theirs}) is required`)
  return value
}

function column(c: Static<typeof DatamartColumnInput>, path: string): ColumnIn {
  return {
    name: required(either(c, 'name', 'columnName', path), 'name', 'columnName', path),
    alias: c.alias,
    label: c.label,
    isHide: c.isHide,
    format: c.format && checkedFormat(c.format, `${path}.format`),
    isCustomColumn: c.isCustomColumn,
    sql: c.sql,
    isTimezoneConversion: either(c, 'isTimezoneConversion', 'isApplyTimezone', path),
    defaultSort: c.defaultSort,
  }
}

/** A currency format names its currency; no other style may. */
function checkedFormat(f: ColumnFormat, path: string): ColumnFormat {
  if (f.style === 'currency' && f.currency === undefined)
    throw badRequest(`${path}.currency: style currency needs a currency (USD, EUR, …)`)
  if (f.style !== 'currency' && f.currency !== undefined)
    throw badRequest(`${path}.currency: only style currency takes a currency`)
  return f
}

/** tableList items in one spelling. */
export function tablesIn(list: readonly Static<typeof DatamartTableInput>[]): TableIn[] {
  return list.map((t, i) => {
    const path = `tableList[${i}]`
    const columns = either(t, 'columns', 'datamartTableColumns', path)
    return {
      schemaName: t.schemaName ?? '',
      name: required(either(t, 'name', 'tableName', path), 'name', 'tableName', path),
      label: t.label,
      clientColumn: t.clientColumn,
      isHide: t.isHide,
      columns: columns?.map((c, j) => column(c, `${path}.columns[${j}]`)),
    }
  })
}

/** relationships items in one spelling. */
export function relationshipsIn(list: readonly Static<typeof RelationshipInput>[] | undefined): RelationshipIn[] {
  return (list ?? []).map((r, i) => {
    const path = `relationships[${i}]`
    const field = <A extends keyof typeof r & string, B extends keyof typeof r & string>(ours: A, theirs: B) =>
      required(either(r, ours, theirs, path), ours, theirs, path) as string
    return {
      parentTable: field('parentTable', 'parentTableName'),
      parentColumn: field('parentColumn', 'parentColumnName'),
      childTable: field('childTable', 'childTableName'),
      childColumn: field('childColumn', 'childColumnName'),
      name: either(r, 'name', 'relationshipName', path),
      cardinality: r.cardinality,
      joinType: either(r, 'joinType', 'join', path),
    }
  })
}
