import { decimalNumber, isoDateTime, safeInteger } from '../shared/values.js'
import type { DataType } from '../types.js'

/** `Nullable(LowCardinality(String))` → `String`. */
export function baseType(nativeType: string): string {
  let t = nativeType.trim()
  for (;;) {
    const m = /^(?:Nullable|LowCardinality|SimpleAggregateFunction\([^,]+,)\s*\(?(.*)\)$/s.exec(t)
    if (!m?.[1]) return t
    t = m[1].trim()
  }
}

export function dataTypeOf(nativeType: string): DataType {
  const t = baseType(nativeType)
  if (/^U?Int(8|16|32|64|128|256)$/.test(t)) return 'integer'
  if (/^(Float32|Float64|BFloat16)$/.test(t) || /^Decimal/.test(t)) return 'number'
  if (t === 'Bool' || t === 'Boolean') return 'boolean'
  if (t === 'Date' || t === 'Date32') return 'date'
  if (/^DateTime/.test(t)) return 'datetime'
  if (/^(Array|Tuple|Map|Nested|JSON|Object)\b/.test(t)) return 'json'
  if (/^(String|FixedString|UUID|Enum8|Enum16|Enum|IPv4|IPv6)\b/.test(t)) return 'string'
  return 'unknown'
}

export function isNullable(nativeType: string): boolean {
  return /^(LowCardinality\()?Nullable\(/.test(nativeType.trim())
}

/** A value from ClickHouse JSON output → our JSON-safe value for that column type. */
export function convertValue(value: unknown, nativeType: string): unknown {
  if (value === null || value === undefined) return null
  const t = baseType(nativeType)
  if (/^U?Int(64|128|256)$/.test(t) && (typeof value === 'string' || typeof value === 'number')) {
    return safeInteger(value)
  }
  if (/^Decimal/.test(t) && (typeof value === 'string' || typeof value === 'number')) return decimalNumber(value)
  if (/^DateTime/.test(t) && typeof value === 'string') return isoDateTime(value)
  return value
}
