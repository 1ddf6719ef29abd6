import type { DataType } from '../../query/types.js'
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

/**
 * Which catalog or schema a listing reads: one named by a bound value, any but the named ones
 * (the engine's system schemas, bound too), or the one the session stands in (`current`: a
 * fixed SQL function such as `CURRENT_SCHEMA()`, never text from a request).
 */
export type Scope =
  | { readonly equals: string }
  | { readonly notIn: readonly string[] }
  | { readonly current: 'CURRENT_DATABASE()' | 'CURRENT_CATALOG()' | 'CURRENT_SCHEMA()' }

/** What differs between engines in the information_schema.columns query. */
export interface ColumnsListing {
  /** The engine's placeholder for the parameter at `index` (0-based): `$1`, `?` … */
  readonly placeholder: (index: number) => string
  /** The engine's quoting of an alias: `"name"`, `` `name` ``, `[name]`. */
  readonly quote: (alias: string) => string
  /** `TABLE_CATALOG` filter; absent where information_schema is one catalog's (MySQL, Postgres, SQL Server). */
  readonly catalog?: Scope
  /** `TABLE_SCHEMA` filter; absent: every schema the connection sees. */
  readonly schema?: Scope
  /** Columns read besides the standard five (`udt_name`, `column_type`, `numeric_scale`), lower case. */
  readonly extraColumns?: readonly string[]
}

/**
 * A row of the listing: `table_schema`, `table_name`, `column_name`, `data_type`,
 * `is_nullable` and the extra columns, under their lower-case names.
 */
export type ListedColumn = Readonly<Record<string, unknown>>

const STANDARD = ['table_schema', 'table_name', 'column_name', 'data_type', 'is_nullable'] as const

/**
 * The one information_schema.columns query of the SQL engines. Names are written in upper case
 * (SQL Server's case-sensitive collations and Snowflake need it; the others fold case) and
 * aliased, quoted, to lower case, so every engine's rows read alike (MySQL and Snowflake answer
 * `TABLE_SCHEMA` otherwise). Values are bound; rows come ordered by table and ordinal position.
 */
export function columnsListing(listing: ColumnsListing): { sql: string; params: string[] } {
  const params: string[] = []
  const bind = (value: string) => {
    params.push(value)
    return listing.placeholder(params.length - 1)
  }
  const condition = (column: string, scope: Scope): string => {
    if ('equals' in scope) return `${column} = ${bind(scope.equals)}`
    if ('current' in scope) return `${column} = ${scope.current}`
    return `${column} NOT IN (${scope.notIn.map(bind).join(', ')})`
  }
  const where = [
    ...(listing.catalog ? [condition('TABLE_CATALOG', listing.catalog)] : []),
    ...(listing.schema ? [condition('TABLE_SCHEMA', listing.schema)] : []),
  ]
  const columns = [...STANDARD, ...(listing.extraColumns ?? [])]
  const sql =
    `SELECT ${columns.map((c) => `${c.toUpperCase()} AS ${listing.quote(c)}`).join(', ')}` +
    ' FROM INFORMATION_SCHEMA.COLUMNS' +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ' ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION'
  return { sql, params }
}

/** Standard SQL's quoting of an alias (a fixed lower-case name: nothing to escape). */
export const doubleQuoted = (alias: string): string => `"${alias}"`

/** How an engine reads a listed column's type: its native type name, our DataType, nullability. */
export interface ColumnReading {
  /** The native type shown to users (default: `data_type`). */
  readonly nativeType?: (row: ListedColumn) => string
  readonly dataType: (nativeType: string, row: ListedColumn) => DataType
  /** Default: `is_nullable` is not `NO` (information_schema says YES or NO). */
  readonly nullable?: (nativeType: string, row: ListedColumn) => boolean
}

/** The rows of `columnsListing` → tables, through the engine's type mapping. */
export function tablesOfListing(rows: Iterable<ListedColumn>, reading: ColumnReading): TableInfo[] {
  return tablesOf(rows, (row) => {
    const nativeType = reading.nativeType?.(row) ?? String(row.data_type)
    return {
      schema: String(row.table_schema),
      table: String(row.table_name),
      column: {
        name: String(row.column_name),
        nativeType,
        dataType: reading.dataType(nativeType, row),
        nullable: reading.nullable?.(nativeType, row) ?? String(row.is_nullable).toUpperCase() !== 'NO',
      },
    }
  })
}
