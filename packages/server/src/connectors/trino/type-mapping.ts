/**
 * Trino types (also Athena's, and the Glue/Hive names Athena's catalogue reports) → DataType,
 * and Trino's JSON encoding of values (client protocol `data`) → our JSON-safe values.
 * https://trino.io/docs/current/language/types.html
 */
import { decimalNumber, isoDateTime, jsonNumber, offsetAt, safeInteger } from '../shared/values.js'
import type { DataType } from '../types.js'

export function dataTypeOf(nativeType: string): DataType {
  const t = nativeType.trim().toLowerCase()
  if (/^(tinyint|smallint|integer|int|bigint)$/.test(t)) return 'integer'
  if (/^(real|double|float|decimal|numeric)\b/.test(t)) return 'number'
  if (t === 'boolean') return 'boolean'
  if (t === 'date') return 'date'
  if (/^timestamp\b/.test(t)) return 'datetime'
  if (/^(array|map|row|struct|json)\b/.test(t)) return 'json'
  if (/^(varchar|char|string|varbinary|binary|uuid|ipaddress|time)\b/.test(t)) return 'string'
  return 'unknown'
}

/** `2024-01-01 09:00:00.000 Asia/Tokyo` (Trino's timestamp with time zone) → ISO 8601 with the offset. */
function zonedTimestamp(text: string): string {
  const m = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?) (.+)$/.exec(text)
  if (!m) return text
  const [, date, time, zone] = m as unknown as [string, string, string, string]
  if (/^[+-]\d{2}:\d{2}$/.test(zone)) return `${date}T${time}${zone}`
  if (zone === 'UTC' || zone === 'Z') return `${date}T${time}+00:00`
  try {
    // The offset at that wall-clock time: read it as UTC, then correct once by the zone's offset.
    const wallAsUtc = Date.parse(`${date}T${time.slice(0, 8)}Z`)
    const guess = offsetAt(zone, wallAsUtc)
    const sign = guess[0] === '-' ? -1 : 1
    const minutes = sign * (Number(guess.slice(1, 3)) * 60 + Number(guess.slice(4, 6)))
    return `${date}T${time}${offsetAt(zone, wallAsUtc - minutes * 60_000)}`
  } catch {
    return text
  }
}

/** A value of Trino's JSON encoding, for a column of `nativeType`, as our JSON-safe value. */
export function convertValue(value: unknown, nativeType: string): unknown {
  if (value === null || value === undefined) return null
  const t = nativeType.trim().toLowerCase()
  if (/^(tinyint|smallint|integer|int|bigint)$/.test(t) && (typeof value === 'string' || typeof value === 'number')) {
    return safeInteger(value)
  }
  if (/^(decimal|numeric)\b/.test(t) && (typeof value === 'string' || typeof value === 'number')) {
    return decimalNumber(value)
  }
  if (/^(real|double|float)\b/.test(t)) {
    if (typeof value === 'number') return jsonNumber(value)
    if (typeof value === 'string') return decimalNumber(value) // "NaN", "Infinity" stay strings
  }
  if (t === 'boolean' && typeof value === 'string') return value === 'true'
  if (/^timestamp\b.*with time zone$/.test(t) && typeof value === 'string') return zonedTimestamp(value)
  if (/^timestamp\b/.test(t) && typeof value === 'string') return isoDateTime(value)
  return value
}
