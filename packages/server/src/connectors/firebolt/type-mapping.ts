/**
 * Firebolt types → our DataTypes, and Firebolt's JSON values → JSON-safe values. Type names come
 * from information_schema.columns.data_type (`integer`, `numeric(10, 2)`, `text`,
 * `timestamptz` …) and from a result's `meta` (`int`, `bigint`, `double precision`, with a
 * ` null` suffix for nullable columns); docs.firebolt.io reference-sql/data-types.
 */
import { bytesToJson, decimalNumber, isoDateTime, jsonNumber, safeInteger } from '../shared/values.js'
import type { DataType } from '../types.js'

/** `int null` → `int`; `array(int null) null` → `array(int null)`. */
export function baseType(nativeType: string): string {
  return nativeType
    .trim()
    .toLowerCase()
    .replace(/\s+(not\s+)?null$/, '')
}

export function dataTypeOf(nativeType: string): DataType {
  const t = baseType(nativeType)
  if (/^(int|integer|int4|bigint|long|int8)$/.test(t)) return 'integer'
  if (/^(real|float4?|float8|double( precision)?|numeric|decimal)\b/.test(t)) return 'number'
  if (t === 'boolean' || t === 'bool') return 'boolean'
  if (t === 'date' || t === 'pgdate') return 'date'
  if (/^timestamp(tz|ntz)?$/.test(t)) return 'datetime'
  if (/^(array|struct)\b/.test(t) || t.endsWith('[]')) return 'json'
  if (/^(text|varchar|string|bytea)\b/.test(t)) return 'string'
  return 'unknown'
}

export function isNullable(nativeType: string, isNullableColumn?: string): boolean {
  if (isNullableColumn !== undefined) return /^(yes|true|1)$/i.test(isNullableColumn.trim())
  return /\snull$/i.test(nativeType.trim()) && !/not\s+null$/i.test(nativeType.trim())
}

/** json-bigint parses numbers beyond 15 digits as bignumber.js values. */
function isBigNumber(value: unknown): value is { toFixed(): string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { toFixed?: unknown }).toFixed === 'function' &&
    (value as { _isBigNumber?: unknown })._isBigNumber === true
  )
}

/** A value of Firebolt's JSON output → our JSON-safe value for that column type. */
export function convertValue(value: unknown, nativeType: string): unknown {
  if (value === null || value === undefined) return null
  const t = baseType(nativeType)
  const plain = isBigNumber(value) ? value.toFixed() : value
  if (/^(array)\b/.test(t) && Array.isArray(plain)) {
    const inner = /^array\((.*)\)$/.exec(t)?.[1] ?? 'text'
    return plain.map((v) => convertValue(v, inner))
  }
  switch (dataTypeOf(t)) {
    case 'integer':
      return typeof plain === 'string' || typeof plain === 'number' ? safeInteger(plain) : plain
    case 'number':
      if (typeof plain === 'number') return jsonNumber(plain)
      // Firebolt writes inf / -inf / nan as strings; they stay strings (JSON has none)
      return typeof plain === 'string' ? decimalNumber(plain) : plain
    case 'datetime':
      return typeof plain === 'string' ? isoDateTime(plain) : plain
    default:
      if (t === 'bytea' && typeof plain === 'string' && plain.startsWith('\\x')) {
        return bytesToJson(Buffer.from(plain.slice(2), 'hex'))
      }
      return plain
  }
}
