/**
 * RPC requests ([MS-TDS] 2.2.6.6,
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/619c43b6-9495-4a58-9e49-a4950db245b3)
 * and SQL batches (2.2.6.7): both start with ALL_HEADERS (a 4-byte total length that counts
 * itself). An RPC names its procedure — 0xFFFF and a procedure id for the well-known ones
 * (10 = sp_executesql) — then each parameter: B_VARCHAR name, a status byte, TYPE_INFO and the
 * value (2.2.5.6 TYPE_INFO, 2.2.5.5 data types, 2.2.5.2.3 PLP for the `max` types). The types
 * read are the ones tedious sends: int family (INTN), bit (BITN), float/real (FLTN),
 * decimal/numeric, nvarchar/nchar/varchar/char (PLP for `max`), date, time, datetime2,
 * datetimeoffset, datetime/smalldatetime (DATETIMN) and uniqueidentifier.
 */
import { legacyDateTime, type Parts, readDate, readTime, shifted, textOf, timeLength } from './calendar.js'
import { Cursor } from './wire.js'

export const SP_EXECUTESQL = 10

/** A bound value as text (PostgreSQL reads it) and the PostgreSQL type it is cast to, if any. */
export interface Param {
  readonly name: string
  /** The SQL Server type it was declared as (`int`, `nvarchar`, `datetimeoffset` …). */
  readonly declaration: string
  readonly value: string | null
  /** `int`, `timestamptz` …; undefined for text, which takes its type from where it is used, as T-SQL converts it. */
  readonly cast: string | undefined
}

export interface RpcCall {
  readonly procedure: string | number
  readonly params: readonly Param[]
}

export function skipAllHeaders(cursor: Cursor): void {
  const total = cursor.u32()
  cursor.offset += total - 4
}

export function parseBatch(payload: Buffer): string {
  const cursor = new Cursor(payload)
  skipAllHeaders(cursor)
  return cursor.bytes(cursor.remaining).toString('utf16le')
}

export function parseRpc(payload: Buffer): RpcCall {
  const cursor = new Cursor(payload)
  skipAllHeaders(cursor)
  const nameLength = cursor.u16()
  const procedure = nameLength === 0xffff ? cursor.u16() : cursor.ucs2(nameLength)
  cursor.u16() // option flags
  const params: Param[] = []
  while (cursor.remaining > 0) {
    const name = cursor.bVarchar()
    cursor.u8() // status flags (by reference, default value)
    params.push({ name, ...readTyped(cursor) })
  }
  return { procedure, params }
}

type Typed = Omit<Param, 'name'>

const INT_NAMES: Record<number, [string, string]> = {
  1: ['tinyint', 'smallint'],
  2: ['smallint', 'smallint'],
  4: ['int', 'int'],
  8: ['bigint', 'bigint'],
}

function readPlp(cursor: Cursor): Buffer | null {
  const total = cursor.u64()
  if (total === 0xffffffffffffffffn) return null
  const chunks: Buffer[] = []
  for (;;) {
    const length = cursor.u32()
    if (length === 0) break
    chunks.push(cursor.bytes(length))
  }
  return Buffer.concat(chunks)
}

function readDecimal(cursor: Cursor, scale: number): string | null {
  const length = cursor.u8()
  if (length === 0) return null
  const positive = cursor.u8() === 1
  const magnitude = cursor.bytes(length - 1)
  let unscaled = 0n
  for (let i = magnitude.length - 1; i >= 0; i--) unscaled = (unscaled << 8n) | BigInt(magnitude[i] as number)
  const digits = unscaled.toString().padStart(scale + 1, '0')
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  return positive ? text : `-${text}`
}

/** TYPE_INFO then the value, of one parameter. */
export function readTyped(cursor: Cursor): Typed {
  const type = cursor.u8()
  switch (type) {
    case 0x26: {
      const size = cursor.u8()
      const [declaration, cast] = INT_NAMES[size] ?? ['int', 'int']
      const length = cursor.u8()
      if (length === 0) return { declaration, cast, value: null }
      const bytes = cursor.bytes(length)
      const value =
        length === 8
          ? bytes.readBigInt64LE().toString()
          : length === 1
            ? String(bytes[0])
            : String(bytes.readIntLE(0, length))
      return { declaration, cast, value }
    }
    case 0x68: {
      cursor.u8()
      const length = cursor.u8()
      return { declaration: 'bit', cast: 'boolean', value: length === 0 ? null : cursor.u8() === 1 ? 'true' : 'false' }
    }
    case 0x6d: {
      const size = cursor.u8()
      const length = cursor.u8()
      const declaration = size === 4 ? 'real' : 'float'
      const cast = size === 4 ? 'real' : 'double precision'
      if (length === 0) return { declaration, cast, value: null }
      const bytes = cursor.bytes(length)
      return { declaration, cast, value: String(length === 4 ? bytes.readFloatLE() : bytes.readDoubleLE()) }
    }
    case 0x6a:
    case 0x6c: {
      cursor.u8()
      const precision = cursor.u8()
      const scale = cursor.u8()
      const declaration = type === 0x6a ? 'decimal' : 'numeric'
      return { declaration, cast: `numeric(${precision}, ${scale})`, value: readDecimal(cursor, scale) }
    }
    case 0xe7:
    case 0xef:
    case 0xa7:
    case 0xaf: {
      const max = cursor.u16()
      cursor.bytes(5) // collation
      const wide = type === 0xe7 || type === 0xef
      const declaration = { 231: 'nvarchar', 239: 'nchar', 167: 'varchar', 175: 'char' }[type] as string
      let bytes: Buffer | null
      if (max === 0xffff) bytes = readPlp(cursor)
      else {
        const length = cursor.u16()
        bytes = length === 0xffff ? null : cursor.bytes(length)
      }
      return {
        declaration,
        cast: undefined,
        value: bytes === null ? null : bytes.toString(wide ? 'utf16le' : 'latin1'),
      }
    }
    case 0x28: {
      const length = cursor.u8()
      return {
        declaration: 'date',
        cast: 'date',
        value: length === 0 ? null : textOf({ days: readDate(cursor.bytes(3)), ticks: 0n }).slice(0, 10),
      }
    }
    case 0x29: {
      const scale = cursor.u8()
      const length = cursor.u8()
      if (length === 0) return { declaration: 'time', cast: 'time', value: null }
      const ticks = readTime(cursor.bytes(timeLength(scale)), scale)
      return { declaration: 'time', cast: 'time', value: textOf({ days: 0, ticks }).slice(11) }
    }
    case 0x2a: {
      const scale = cursor.u8()
      const length = cursor.u8()
      if (length === 0) return { declaration: 'datetime2', cast: 'timestamp', value: null }
      const ticks = readTime(cursor.bytes(timeLength(scale)), scale)
      return { declaration: 'datetime2', cast: 'timestamp', value: textOf({ days: readDate(cursor.bytes(3)), ticks }) }
    }
    case 0x2b: {
      const scale = cursor.u8()
      const length = cursor.u8()
      if (length === 0) return { declaration: 'datetimeoffset', cast: 'timestamptz', value: null }
      const ticks = readTime(cursor.bytes(timeLength(scale)), scale)
      const utc: Parts = { days: readDate(cursor.bytes(3)), ticks }
      const offset = cursor.bytes(2).readInt16LE()
      // the instant in UTC, written at its offset as SQL Server shows it
      const local = textOf(shifted(utc, offset))
      const sign = offset < 0 ? '-' : '+'
      const abs = Math.abs(offset)
      const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
      return { declaration: 'datetimeoffset', cast: 'timestamptz', value: `${local}${zone}` }
    }
    case 0x6f: {
      const size = cursor.u8()
      const length = cursor.u8()
      const declaration = size === 4 ? 'smalldatetime' : 'datetime'
      if (length === 0) return { declaration, cast: 'timestamp', value: null }
      if (length === 4) {
        const days = cursor.u16()
        const minutes = cursor.u16()
        return { declaration, cast: 'timestamp', value: legacyDateTime(days, minutes * 60 * 300) }
      }
      const days = cursor.i32()
      return { declaration, cast: 'timestamp', value: legacyDateTime(days, cursor.u32()) }
    }
    case 0x24: {
      cursor.u8()
      const length = cursor.u8()
      if (length === 0) return { declaration: 'uniqueidentifier', cast: 'uuid', value: null }
      const b = cursor.bytes(16)
      const hex = (bytes: number[]) => bytes.map((i) => (b[i] as number).toString(16).padStart(2, '0')).join('')
      const value = `${hex([3, 2, 1, 0])}-${hex([5, 4])}-${hex([7, 6])}-${hex([8, 9])}-${hex([10, 11, 12, 13, 14, 15])}`
      return { declaration: 'uniqueidentifier', cast: 'uuid', value }
    }
    default:
      throw new UnsupportedType(type)
  }
}

export class UnsupportedType extends Error {
  constructor(readonly type: number) {
    super(`the stand-in reads no parameter of TDS type 0x${type.toString(16)}`)
  }
}
