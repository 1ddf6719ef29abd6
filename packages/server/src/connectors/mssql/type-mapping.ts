import { bytesToJson, safeInteger } from '../shared/values.js'
import type { DataType } from '../types.js'

/** SQL Server type names (`INFORMATION_SCHEMA.COLUMNS.DATA_TYPE`, tedious `declaration`). */
export function dataTypeOfName(nativeType: string): DataType {
  const t = nativeType.toLowerCase().replace(/\(.*$/, '').trim()
  if (/^(int|bigint|smallint|tinyint)$/.test(t)) return 'integer'
  if (t === 'bit') return 'boolean'
  if (/^(decimal|numeric|money|smallmoney|float|real)$/.test(t)) return 'number'
  if (t === 'date') return 'date'
  if (/^(datetime|datetime2|smalldatetime|datetimeoffset)$/.test(t)) return 'datetime'
  if (/^(varchar|nvarchar|char|nchar|text|ntext|uniqueidentifier|xml|time|sysname)$/.test(t)) return 'string'
  if (/^(binary|varbinary|image|timestamp|rowversion)$/.test(t)) return 'string'
  return 'unknown'
}

/** The declaration name of a column's type from mssql's recordset metadata. */
export function declarationOf(type: unknown): string {
  const decl = (type as { declaration?: unknown } | null)?.declaration
  return typeof decl === 'string' ? decl : 'unknown'
}

/**
 * mssql values → JSON-safe values. With `useUTC` the driver reads datetime/datetime2 (no zone)
 * as if UTC, so their ISO text minus the `Z` is the stored wall-clock time.
 */
export function convertValue(value: unknown, declaration: string): unknown {
  if (value === null || value === undefined) return null
  const t = declaration.toLowerCase()
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null
    const iso = value.toISOString()
    if (t === 'date') return iso.slice(0, 10)
    if (t === 'datetimeoffset') return iso
    return iso.slice(0, -1)
  }
  if (t === 'bigint' && (typeof value === 'string' || typeof value === 'number')) return safeInteger(value)
  if (Buffer.isBuffer(value)) return bytesToJson(value)
  return value
}
