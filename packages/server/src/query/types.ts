/**
 * The engine's vocabulary: the dialects it emits, our portable column types and the shape of
 * an introspected table. Connectors produce these (connectors/types.ts re-exports them); the
 * engine never imports from connectors.
 */

/** The SQL dialects the query compiler emits; each connector names the one it speaks. */
export type DialectName =
  | 'postgres'
  | 'mysql'
  | 'clickhouse'
  | 'duckdb'
  | 'mssql'
  | 'databricks'
  | 'firebolt'
  | 'mongodb'
  | 'snowflake'
  | 'bigquery'
  | 'elasticsearch'
  | 'trino'

/** Our portable column types (metaData.columns[].dataType of the metric query result). */
export type DataType = 'string' | 'number' | 'integer' | 'boolean' | 'date' | 'datetime' | 'json' | 'unknown'

export interface ColumnInfo {
  readonly name: string
  readonly dataType: DataType
  /** The engine's own type name, e.g. `timestamp with time zone`. */
  readonly nativeType: string
  readonly nullable: boolean
}

export interface TableInfo {
  /** Schema (Postgres, MSSQL, DuckDB) or database (MySQL, ClickHouse) holding the table. */
  readonly schema: string
  readonly name: string
  readonly columns: readonly ColumnInfo[]
}
