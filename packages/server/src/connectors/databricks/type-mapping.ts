/**
 * Databricks types → ours, and JSON_ARRAY values (every value its string representation, or
 * null) → JSON-safe values by the manifest's column type (`type_text`, e.g. `decimal(10,2)`,
 * else `type_name`, e.g. `DECIMAL`). The names are Databricks' (`sql-ref-datatypes`), with the
 * API's manifest spellings (BYTE, SHORT, LONG) and the standard aliases (INTEGER, VARCHAR(n),
 * NUMERIC) that Databricks also accepts.
 */
import { decimalNumber, isoDateTime, jsonNumber, safeInteger } from '../shared/values.js'
import type { DataType } from '../types.js'

/** `DECIMAL(10,2)` → `DECIMAL`; `ARRAY<INT>` → `ARRAY`; `TIMESTAMP WITH TIME ZONE` kept whole. */
export function baseType(nativeType: string): string {
  const t = nativeType.trim().toUpperCase()
  if (/^TIMESTAMP WITH(OUT)? TIME ZONE$/.test(t)) return t
  return t.replace(/[(<].*$/s, '').trim()
}

const INTEGER = new Set(['TINYINT', 'BYTE', 'SMALLINT', 'SHORT', 'INT', 'INTEGER', 'BIGINT', 'LONG'])
const DECIMAL = new Set(['DECIMAL', 'DEC', 'NUMERIC'])
const FLOAT = new Set(['FLOAT', 'REAL', 'DOUBLE'])
const STRING = new Set(['STRING', 'CHAR', 'VARCHAR'])
const DATETIME = new Set(['TIMESTAMP', 'TIMESTAMP_LTZ', 'TIMESTAMP_NTZ', 'TIMESTAMP WITH TIME ZONE'])
const NESTED = new Set(['ARRAY', 'MAP', 'STRUCT', 'VARIANT', 'OBJECT'])

export function dataTypeOf(nativeType: string): DataType {
  const t = baseType(nativeType)
  if (INTEGER.has(t)) return 'integer'
  if (DECIMAL.has(t) || FLOAT.has(t)) return 'number'
  if (STRING.has(t)) return 'string'
  if (t === 'BOOLEAN') return 'boolean'
  if (t === 'DATE') return 'date'
  if (DATETIME.has(t) || t === 'TIMESTAMP WITHOUT TIME ZONE') return 'datetime'
  if (NESTED.has(t)) return 'json'
  return 'unknown'
}

/** One JSON_ARRAY value of a column of `nativeType` → our JSON-safe value. */
export function convertValue(value: string | null | undefined, nativeType: string): unknown {
  if (value === null || value === undefined) return null
  const t = baseType(nativeType)
  if (INTEGER.has(t)) return safeInteger(value)
  if (DECIMAL.has(t)) return decimalNumber(value)
  if (FLOAT.has(t)) {
    const n = Number(value)
    return value.trim() === '' || Number.isNaN(n) ? value : jsonNumber(n)
  }
  if (t === 'BOOLEAN') return value === 'true' ? true : value === 'false' ? false : value
  if (DATETIME.has(t) || t === 'TIMESTAMP WITHOUT TIME ZONE') return isoDateTime(value)
  if (NESTED.has(t)) {
    try {
      return JSON.parse(value) as unknown
    } catch {
      return value
    }
  }
  return value
}
