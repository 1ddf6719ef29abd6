/**
 * BigQuery column types → our DataTypes, and the REST API's row values → JSON-safe values.
 * Rows are read raw (`f`/`v` cells, every scalar as text: https://cloud.google.com/bigquery/docs/reference/rest/v2/jobs/getQueryResults)
 * and converted here by the field's type, with the conventions of shared/values.ts: INT64 a
 * number up to 2^53 else a string, NUMERIC/BIGNUMERIC numbers, DATE `YYYY-MM-DD`, DATETIME ISO
 * without an offset (a wall-clock time), TIMESTAMP (an instant) ISO with the session zone's
 * offset, BYTES base64 (as sent), JSON parsed, STRUCT an object, REPEATED an array.
 */
import { decimalNumber, formatInstant, isoDateTime, jsonNumber, safeInteger } from '../shared/values.js'
import type { DataType } from '../types.js'

/** One field of a table or result schema (TableFieldSchema). */
export interface Field {
  readonly name: string
  readonly type: string
  readonly mode?: string
  readonly fields?: readonly Field[]
}

/** A raw row: `{ f: [{ v }] }`; a STRUCT value is a row, a REPEATED value a list of `{ v }`. */
interface RawRow {
  readonly f: readonly { readonly v: unknown }[]
}

export function dataTypeOf(type: string, mode?: string): DataType {
  if (mode === 'REPEATED') return 'json'
  switch (type.toUpperCase()) {
    case 'INTEGER':
    case 'INT64':
      return 'integer'
    case 'FLOAT':
    case 'FLOAT64':
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return 'number'
    case 'BOOLEAN':
    case 'BOOL':
      return 'boolean'
    case 'STRING':
    case 'BYTES':
    case 'TIME':
    case 'GEOGRAPHY':
    case 'INTERVAL':
      return 'string'
    case 'DATE':
      return 'date'
    case 'DATETIME':
    case 'TIMESTAMP':
      return 'datetime'
    case 'RECORD':
    case 'STRUCT':
    case 'JSON':
    case 'RANGE':
      return 'json'
    default:
      return 'unknown'
  }
}

/** A TIMESTAMP cell: microseconds since the epoch (useInt64Timestamp), or float seconds (older format). */
function instant(text: string, timeZone: string): string {
  const micros = /^-?\d+$/.test(text) ? BigInt(text) : BigInt(Math.round(Number(text) * 1e6))
  return formatInstant(micros, timeZone)
}

export function convertValue(value: unknown, field: Field, timeZone: string): unknown {
  if (value === null || value === undefined) return null
  if (field.mode === 'REPEATED' && Array.isArray(value)) {
    const element = { ...field, mode: 'NULLABLE' }
    return value.map((cell) => convertValue((cell as { v: unknown }).v, element, timeZone))
  }
  const type = field.type.toUpperCase()
  if (type === 'RECORD' || type === 'STRUCT') return convertRow(value as RawRow, field.fields ?? [], timeZone)
  if (typeof value !== 'string') return value
  switch (type) {
    case 'INTEGER':
    case 'INT64':
      return safeInteger(value)
    case 'FLOAT':
    case 'FLOAT64':
      return jsonNumber(Number(value))
    case 'NUMERIC':
    case 'BIGNUMERIC':
      return decimalNumber(value)
    case 'BOOLEAN':
    case 'BOOL':
      return value === 'true'
    case 'TIMESTAMP':
      return instant(value, timeZone)
    case 'DATETIME':
      return isoDateTime(value)
    case 'JSON':
      try {
        return JSON.parse(value) as unknown
      } catch {
        return value
      }
    default:
      return value
  }
}

export function convertRow(row: RawRow, fields: readonly Field[], timeZone: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  fields.forEach((field, i) => {
    out[field.name] = convertValue(row.f[i]?.v, field, timeZone)
  })
  return out
}
