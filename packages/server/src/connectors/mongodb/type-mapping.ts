/**
 * BSON values → JSON-safe values and portable types. MongoDB has no schema: a collection's
 * columns are the top-level fields of a sample of its documents, typed by the BSON types seen
 * (int/long → integer, double/decimal → number, string, bool, date → datetime, objectId →
 * string, object/array → json; several kinds at once → unknown, ints with doubles → number).
 */
import type { DataType } from '../../query/types.js'
import { bytesToJson, decimalNumber, formatInstant, jsonNumber, safeInteger } from '../shared/values.js'

/** The BSON type name of a value as the driver returns it (promoteValues: false keeps int vs double). */
export function bsonType(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'bool'
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double'
  if (typeof value === 'bigint') return 'long'
  if (value instanceof Date) return 'date'
  if (Array.isArray(value)) return 'array'
  const tag = (value as { _bsontype?: unknown })._bsontype
  if (typeof tag === 'string') {
    return (
      {
        Int32: 'int',
        Double: 'double',
        Long: 'long',
        Decimal128: 'decimal',
        ObjectId: 'objectId',
        Binary: 'binData',
        Timestamp: 'timestamp',
        BSONRegExp: 'regex',
      }[tag] ?? tag
    )
  }
  return 'object'
}

const TYPE_OF: Readonly<Record<string, DataType>> = {
  int: 'integer',
  long: 'integer',
  double: 'number',
  decimal: 'number',
  string: 'string',
  objectId: 'string',
  bool: 'boolean',
  date: 'datetime',
  timestamp: 'datetime',
  object: 'json',
  array: 'json',
  binData: 'string',
}

/** The portable type of a field from the BSON types seen in it (nulls aside). */
export function dataTypeOf(types: ReadonlySet<string>): DataType {
  const seen = [...types].filter((t) => t !== 'null')
  if (seen.length === 0) return 'unknown'
  const mapped = new Set(seen.map((t) => TYPE_OF[t] ?? 'unknown'))
  if (mapped.size === 1) return [...mapped][0] as DataType
  if ([...mapped].every((t) => t === 'integer' || t === 'number')) return 'number'
  return 'unknown'
}

/** A BSON value as JSON-safe data; instants are rendered in `timeZone` (an offset always). */
export function jsonValue(value: unknown, timeZone: string): unknown {
  if (value === null || value === undefined) return null
  if (typeof value === 'number') return jsonNumber(value)
  if (typeof value === 'bigint') return safeInteger(value)
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (value instanceof Date) {
    const ms = value.getTime()
    return Number.isNaN(ms) ? null : formatInstant(BigInt(ms) * 1000n, timeZone)
  }
  if (Array.isArray(value)) return value.map((v) => jsonValue(v, timeZone))
  const tag = (value as { _bsontype?: unknown })._bsontype
  switch (tag) {
    case 'ObjectId':
      return (value as { toHexString(): string }).toHexString()
    case 'Decimal128':
      return decimalNumber(String(value))
    case 'Long':
      return safeInteger(BigInt(String(value)))
    case 'Int32':
    case 'Double':
      return jsonNumber(Number((value as { valueOf(): number }).valueOf()))
    case 'Binary':
      return bytesToJson((value as { buffer: Uint8Array }).buffer)
    case 'Timestamp':
      return formatInstant(BigInt((value as { high: number }).high) * 1_000_000n, timeZone)
    case undefined: {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = jsonValue(v, timeZone)
      return out
    }
    default:
      return String(value)
  }
}
