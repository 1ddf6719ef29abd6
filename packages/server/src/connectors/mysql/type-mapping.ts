import type { DataType } from '../types.js'

/** Result columns: the protocol's column type codes (mysql2 `FieldPacket.columnType`). */
const BY_CODE: Readonly<Record<number, DataType>> = {
  0: 'number', // DECIMAL
  1: 'integer', // TINY
  2: 'integer', // SHORT
  3: 'integer', // LONG
  4: 'number', // FLOAT
  5: 'number', // DOUBLE
  7: 'datetime', // TIMESTAMP
  8: 'integer', // LONGLONG
  9: 'integer', // INT24
  10: 'date', // DATE
  11: 'string', // TIME
  12: 'datetime', // DATETIME
  13: 'integer', // YEAR
  14: 'date', // NEWDATE
  15: 'string', // VARCHAR
  16: 'string', // BIT, as base64 bytes
  245: 'json', // JSON
  246: 'number', // NEWDECIMAL
  247: 'string', // ENUM
  248: 'string', // SET
  249: 'string', // TINY_BLOB
  250: 'string', // MEDIUM_BLOB
  251: 'string', // LONG_BLOB
  252: 'string', // BLOB (also TEXT)
  253: 'string', // VAR_STRING
  254: 'string', // STRING
}

export function dataTypeOfCode(code: number | undefined): DataType {
  return code === undefined ? 'unknown' : (BY_CODE[code] ?? 'unknown')
}

/** Codes whose values mysql2 hands back as 'YYYY-MM-DD hh:mm:ss' strings (dateStrings). */
export const DATETIME_CODES: ReadonlySet<number> = new Set([7, 12])

/** Introspection: `information_schema.columns.DATA_TYPE`. */
export function dataTypeOfName(nativeType: string): DataType {
  const t = nativeType.toLowerCase()
  if (/^(tinyint|smallint|mediumint|int|integer|bigint|year|bit)$/.test(t)) return 'integer'
  if (/^(decimal|numeric|float|double|real|dec|fixed)$/.test(t)) return 'number'
  if (t === 'bool' || t === 'boolean') return 'boolean'
  if (t === 'date') return 'date'
  if (t === 'datetime' || t === 'timestamp') return 'datetime'
  if (t === 'json') return 'json'
  if (/(char|text|enum|set|blob|binary|time|uuid|inet)/.test(t)) return 'string'
  return 'unknown'
}
