/** DuckDB type names to our DataTypes, for the server's side (no DuckDB loaded here). */
import type { DataType } from '../types.js'

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
