/**
 * Result columns' types, by DuckDB's type ids: used in the engine process (engine.ts), where
 * DuckDB is loaded. The server's side maps type names (type-names.ts) and never loads DuckDB.
 */
import { DuckDBTypeId } from '@duckdb/node-api'
import type { DataType } from '../types.js'

/** Result columns, by DuckDB's logical type id. */
export function dataTypeOfId(id: DuckDBTypeId): DataType {
  switch (id) {
    case DuckDBTypeId.BOOLEAN:
      return 'boolean'
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return 'integer'
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.DECIMAL:
      return 'number'
    case DuckDBTypeId.DATE:
      return 'date'
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_S:
    case DuckDBTypeId.TIMESTAMP_MS:
    case DuckDBTypeId.TIMESTAMP_NS:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return 'datetime'
    case DuckDBTypeId.VARCHAR:
    case DuckDBTypeId.UUID:
    case DuckDBTypeId.ENUM:
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIME_NS:
    case DuckDBTypeId.TIME_TZ:
    case DuckDBTypeId.INTERVAL:
    case DuckDBTypeId.BLOB:
    case DuckDBTypeId.BIT:
      return 'string'
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
    case DuckDBTypeId.STRUCT:
    case DuckDBTypeId.MAP:
    case DuckDBTypeId.UNION:
    case DuckDBTypeId.VARIANT:
      return 'json'
    default:
      return 'unknown'
  }
}
