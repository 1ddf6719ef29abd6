/**
 * Snowflake types → our DataTypes, for INFORMATION_SCHEMA.COLUMNS (DATA_TYPE with
 * NUMERIC_SCALE) and for result columns (the SDK's column type names), and result values →
 * JSON-safe values (shared/values.ts conventions). Types: docs.snowflake.com
 * sql-reference/intro-summary-data-types.
 */
import { bytesToJson, decimalNumber, formatInstant, jsonNumber, safeInteger } from '../shared/values.js'
import type { DataType } from '../types.js'

/** INFORMATION_SCHEMA.COLUMNS.DATA_TYPE (NUMBER, FLOAT, TEXT, BOOLEAN, DATE, TIMESTAMP_NTZ …). */
export function dataTypeOfColumn(dataType: string, scale: number | null): DataType {
  const t = dataType.toUpperCase()
  if (t === 'NUMBER' || t === 'DECIMAL' || t === 'NUMERIC' || t === 'FIXED') return scale === 0 ? 'integer' : 'number'
  if (/^(INT|INTEGER|BIGINT|SMALLINT|TINYINT|BYTEINT)$/.test(t)) return 'integer'
  if (/^(FLOAT|FLOAT4|FLOAT8|DOUBLE|DOUBLE PRECISION|REAL|DECFLOAT)$/.test(t)) return 'number'
  if (/^(TEXT|VARCHAR|CHAR|CHARACTER|STRING|NCHAR|NVARCHAR)$/.test(t)) return 'string'
  if (t === 'BOOLEAN') return 'boolean'
  if (t === 'DATE') return 'date'
  if (/^(TIMESTAMP|DATETIME|TIMESTAMP_NTZ|TIMESTAMP_LTZ|TIMESTAMP_TZ)$/.test(t)) return 'datetime'
  if (/^(VARIANT|OBJECT|ARRAY|MAP)$/.test(t)) return 'json'
  if (t === 'TIME' || t === 'BINARY' || t === 'VARBINARY') return 'string'
  return 'unknown'
}

/** A result column as the SDK describes it (`fixed`, `real`, `text`, `timestamp_ltz` …). */
export interface ResultColumn {
  readonly name: string
  readonly type: string
  readonly scale: number
}

export function dataTypeOfResult(column: ResultColumn): DataType {
  switch (column.type) {
    case 'fixed':
      return column.scale === 0 ? 'integer' : 'number'
    case 'real':
    case 'decfloat':
      return 'number'
    case 'text':
    case 'time':
    case 'binary':
      return 'string'
    case 'boolean':
      return 'boolean'
    case 'date':
      return 'date'
    case 'timestamp_ntz':
    case 'timestamp_ltz':
    case 'timestamp_tz':
      return 'datetime'
    case 'variant':
    case 'object':
    case 'array':
    case 'map':
      return 'json'
    default:
      return 'unknown'
  }
}

/** The SDK's date and timestamp values: a JS Date with the exact parts it read. */
interface SfDate {
  getEpochSeconds(): number
  getNanoSeconds(): number
  getTimezone(): string | number
}
/** The SDK's TIME values. */
interface SfTime {
  getMidnightSeconds(): number
  getNanoSeconds(): number
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function isSfDate(v: unknown): v is SfDate {
  return v instanceof Date && typeof (v as unknown as SfDate).getEpochSeconds === 'function'
}

/** `YYYY-MM-DDTHH:MM:SS[.ffffff]` of a wall clock given as seconds + nanoseconds "since epoch". */
function wallClock(seconds: number, nanos: number): string {
  const d = new Date(seconds * 1000)
  const year = d.getUTCFullYear()
  const y = year < 0 ? `-${pad(-year, 6)}` : year > 9999 ? `+${year}` : pad(year, 4)
  const micros = Math.floor(nanos / 1000)
  const fraction = micros === 0 ? '' : `.${pad(micros, 6).replace(/0+$/, '')}`
  return `${y}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction}`
}

function offset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

/**
 * One value, JSON-safe. Numbers arrive as the server's text (the connector asks the SDK for
 * numbers as strings, so no 64-bit integer is rounded on the way): integers beyond 2^53 become
 * strings, decimals numbers. TIMESTAMP_NTZ is a wall clock without offset; TIMESTAMP_LTZ an
 * instant rendered in the session time zone; TIMESTAMP_TZ an instant with its own offset.
 */
export function convertValue(value: unknown, column: ResultColumn, sessionZone: string): unknown {
  if (value === null || value === undefined) return null
  switch (column.type) {
    case 'fixed':
      return column.scale === 0 && typeof value === 'string' ? safeInteger(value) : decimalNumber(value as string)
    case 'real':
    case 'decfloat':
      return typeof value === 'number' ? jsonNumber(value) : decimalNumber(value as string)
    case 'date':
      return isSfDate(value) ? wallClock(value.getEpochSeconds(), 0).slice(0, 10) : String(value)
    case 'timestamp_ntz':
      return isSfDate(value) ? wallClock(value.getEpochSeconds(), value.getNanoSeconds()) : String(value)
    case 'timestamp_ltz': {
      if (!isSfDate(value)) return String(value)
      const micros = BigInt(value.getEpochSeconds()) * 1_000_000n + BigInt(Math.floor(value.getNanoSeconds() / 1000))
      return formatInstant(micros, sessionZone)
    }
    case 'timestamp_tz': {
      if (!isSfDate(value)) return String(value)
      const zone = value.getTimezone()
      const minutes = typeof zone === 'number' ? zone : 0
      return `${wallClock(value.getEpochSeconds() + minutes * 60, value.getNanoSeconds())}${offset(minutes)}`
    }
    case 'time': {
      const t = value as SfTime
      if (typeof t.getMidnightSeconds !== 'function') return String(value)
      return wallClock(t.getMidnightSeconds(), t.getNanoSeconds()).slice(11)
    }
    case 'binary':
      return value instanceof Uint8Array ? bytesToJson(value) : String(value)
    default:
      return value
  }
}
