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

/** Introspection: `information_schema.columns.data_type`, e.g. `DECIMAL(10,2)`, `INTEGER[]`. */
export function dataTypeOfName(nativeType: string): DataType {
  const t = nativeType.toUpperCase().trim()
  if (t.endsWith(']') || /^(STRUCT|MAP|UNION|LIST|JSON|VARIANT)\b/.test(t)) return 'json'
  if (t === 'BOOLEAN') return 'boolean'
  if (/^U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$/.test(t)) return 'integer'
  if (/^(FLOAT|DOUBLE|REAL|DECIMAL|NUMERIC)\b/.test(t)) return 'number'
  if (t === 'DATE') return 'date'
  if (t.startsWith('TIMESTAMP')) return 'datetime'
  if (/^(VARCHAR|UUID|ENUM|TIME|INTERVAL|BLOB|BIT)\b/.test(t)) return 'string'
  return 'unknown'
}
