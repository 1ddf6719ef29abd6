/**
 * DuckDB values ↔ JSON-safe JS. Out: bigints become numbers when exact (else strings), decimals
 * numbers, dates and timestamps ISO strings (TIMESTAMPTZ rendered in the session time zone),
 * nested values plain arrays and objects. In: JS params → values DuckDB can bind.
 */
import {
  DuckDBArrayValue,
  DuckDBBitValue,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBIntervalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTimeTZValue,
  DuckDBTimeValue,
  DuckDBUnionValue,
  DuckDBUUIDValue,
  type DuckDBValue,
  listValue,
  timestampTZValue,
} from '@duckdb/node-api'
import { bytesToJson, formatInstant, isoDateTime, jsonNumber, safeInteger } from '../shared/values.js'

export function toJson(value: DuckDBValue, timeZone: string): unknown {
  if (value === null || value === undefined) return null
  switch (typeof value) {
    case 'bigint':
      return safeInteger(value)
    case 'number':
      return jsonNumber(value)
    case 'string':
    case 'boolean':
      return value
  }
  if (value instanceof DuckDBDecimalValue) return jsonNumber(value.toDouble())
  if (value instanceof DuckDBDateValue) return value.toString()
  if (value instanceof DuckDBTimestampTZValue) {
    return value.isFinite ? formatInstant(value.micros, timeZone) : value.toString()
  }
  if (
    value instanceof DuckDBTimestampValue ||
    value instanceof DuckDBTimestampSecondsValue ||
    value instanceof DuckDBTimestampMillisecondsValue ||
    value instanceof DuckDBTimestampNanosecondsValue
  ) {
    return isoDateTime(value.toString())
  }
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    return value.items.map((item) => toJson(item, timeZone))
  }
  if (value instanceof DuckDBStructValue) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value.entries)) out[k] = toJson(v, timeZone)
    return out
  }
  if (value instanceof DuckDBMapValue) {
    return value.entries.map((e) => ({ key: toJson(e.key, timeZone), value: toJson(e.value, timeZone) }))
  }
  if (value instanceof DuckDBUnionValue) return toJson(value.value, timeZone)
  if (value instanceof DuckDBBlobValue) return bytesToJson(value.bytes)
  if (
    value instanceof DuckDBTimeValue ||
    value instanceof DuckDBTimeTZValue ||
    value instanceof DuckDBIntervalValue ||
    value instanceof DuckDBUUIDValue ||
    value instanceof DuckDBBitValue
  ) {
    return value.toString()
  }
  return String(value)
}

/** A bound parameter: JS arrays become LIST values, Dates TIMESTAMPTZ, objects JSON text. */
export function toDuckParam(value: unknown): DuckDBValue {
  if (value === undefined || value === null) return null
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value
  if (typeof value === 'number') return value
  if (value instanceof Date) return timestampTZValue(BigInt(value.getTime()) * 1000n)
  if (Array.isArray(value)) return listValue(value.map(toDuckParam))
  return JSON.stringify(value)
}
