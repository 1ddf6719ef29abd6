/**
 * Result sets as SQL Server sends them: COLMETADATA ([MS-TDS] 2.2.7.4,
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/58880b9f-381c-43b2-bf8b-0727a98c4f4c)
 * then one ROW (2.2.7.19) per row. Each PostgreSQL result type becomes the SQL Server type a
 * table of that shape would have: int2/int4/int8 → smallint/int/bigint (INTN), bool → bit
 * (BITN), float4/float8 → real/float (FLTN), numeric → decimal(p, s) (DECIMALN; without a
 * declared precision, decimal(38, s) with s the largest scale among the values, as SUM over a
 * decimal(p, s) column gives decimal(38, s)), date → date, timestamp → datetime2(7),
 * timestamptz → datetimeoffset(7) (sent at offset 0), everything else → nvarchar(max) (PLP) of
 * PostgreSQL's text.
 */
import { partsOf, writeDate, writeTime } from './calendar.js'
import { COLLATION } from './tokens.js'
import { bVarchar, u16, u32, u64 } from './wire.js'

const COLMETADATA = 0x81
const ROW = 0xd1
const NULLABLE = 0x0001
const SCALE = 7

/** A column of a PostgreSQL result: its name, type OID and type modifier. */
export interface SourceColumn {
  readonly name: string
  readonly dataTypeID: number
  readonly dataTypeModifier: number
}

type Kind =
  | { readonly kind: 'int'; readonly size: 2 | 4 | 8 }
  | { readonly kind: 'bit' }
  | { readonly kind: 'float'; readonly size: 4 | 8 }
  | { readonly kind: 'decimal'; readonly precision: number; readonly scale: number }
  | { readonly kind: 'date' }
  | { readonly kind: 'datetime2' }
  | { readonly kind: 'datetimeoffset' }
  | { readonly kind: 'nvarchar' }

export interface Shaped {
  readonly name: string
  readonly type: Kind
}

const OID = { BOOL: 16, INT8: 20, INT2: 21, INT4: 23, FLOAT4: 700, FLOAT8: 701, NUMERIC: 1700 } as const
const DATE = 1082
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184

function scaleOf(text: string | null): number {
  const dot = text?.indexOf('.') ?? -1
  return text === null || dot < 0 ? 0 : text.length - dot - 1
}

/** The SQL Server type of each column (numeric's scale may depend on the values). */
export function shape(columns: readonly SourceColumn[], rows: readonly (readonly (string | null)[])[]): Shaped[] {
  return columns.map((c, i): Shaped => {
    const type = ((): Kind => {
      switch (c.dataTypeID) {
        case OID.BOOL:
          return { kind: 'bit' }
        case OID.INT2:
          return { kind: 'int', size: 2 }
        case OID.INT4:
          return { kind: 'int', size: 4 }
        case OID.INT8:
          return { kind: 'int', size: 8 }
        case OID.FLOAT4:
          return { kind: 'float', size: 4 }
        case OID.FLOAT8:
          return { kind: 'float', size: 8 }
        case OID.NUMERIC: {
          if (c.dataTypeModifier >= 4) {
            const mod = c.dataTypeModifier - 4
            return { kind: 'decimal', precision: Math.min(38, mod >> 16), scale: mod & 0xffff }
          }
          const scale = Math.min(18, Math.max(0, ...rows.map((r) => scaleOf(r[i] ?? null))))
          return { kind: 'decimal', precision: 38, scale }
        }
        case DATE:
          return { kind: 'date' }
        case TIMESTAMP:
          return { kind: 'datetime2' }
        case TIMESTAMPTZ:
          return { kind: 'datetimeoffset' }
        default:
          return { kind: 'nvarchar' }
      }
    })()
    return { name: c.name, type }
  })
}

const decimalLength = (precision: number): number =>
  precision <= 9 ? 5 : precision <= 19 ? 9 : precision <= 28 ? 13 : 17

function typeInfo(t: Kind): Buffer {
  switch (t.kind) {
    case 'int':
      return Buffer.from([0x26, t.size])
    case 'bit':
      return Buffer.from([0x68, 1])
    case 'float':
      return Buffer.from([0x6d, t.size])
    case 'decimal':
      return Buffer.from([0x6a, decimalLength(t.precision), t.precision, t.scale])
    case 'date':
      return Buffer.from([0x28])
    case 'datetime2':
      return Buffer.from([0x2a, SCALE])
    case 'datetimeoffset':
      return Buffer.from([0x2b, SCALE])
    case 'nvarchar':
      return Buffer.concat([Buffer.from([0xe7]), u16(0xffff), COLLATION])
  }
}

export function colMetadata(columns: readonly Shaped[]): Buffer {
  return Buffer.concat([
    Buffer.from([COLMETADATA]),
    u16(columns.length),
    ...columns.flatMap((c) => [u32(0), u16(NULLABLE), typeInfo(c.type), bVarchar(c.name)]),
  ])
}

function decimalValue(text: string, precision: number, scale: number): Buffer {
  const negative = text.startsWith('-')
  const [whole = '0', fraction = ''] = text.replace(/^[-+]/, '').split('.')
  let unscaled = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale))
  const length = decimalLength(precision)
  const out = Buffer.alloc(1 + length)
  out[0] = length // the sign byte and the magnitude
  out[1] = negative && unscaled !== 0n ? 0 : 1
  for (let i = 2; i <= length; i++) {
    out[i] = Number(unscaled & 0xffn)
    unscaled >>= 8n
  }
  return out
}

function value(t: Kind, text: string | null): Buffer {
  if (text === null) return t.kind === 'nvarchar' ? u64(0xffffffffffffffffn) : Buffer.from([0])
  switch (t.kind) {
    case 'int': {
      const out = Buffer.alloc(1 + t.size)
      out[0] = t.size
      if (t.size === 8) out.writeBigInt64LE(BigInt(text), 1)
      else out.writeIntLE(Number(text), 1, t.size)
      return out
    }
    case 'bit':
      return Buffer.from([1, text === 't' || text === 'true' ? 1 : 0])
    case 'float': {
      const out = Buffer.alloc(1 + t.size)
      out[0] = t.size
      if (t.size === 8) out.writeDoubleLE(Number(text), 1)
      else out.writeFloatLE(Number(text), 1)
      return out
    }
    case 'decimal':
      return decimalValue(text, t.precision, t.scale)
    case 'date':
      return Buffer.concat([Buffer.from([3]), writeDate(partsOf(text).days)])
    case 'datetime2': {
      const p = partsOf(text)
      const time = writeTime(p.ticks, SCALE)
      return Buffer.concat([Buffer.from([time.length + 3]), time, writeDate(p.days)])
    }
    case 'datetimeoffset': {
      // the session runs in UTC: PostgreSQL writes the instant at +00
      const p = partsOf(text)
      const time = writeTime(p.ticks, SCALE)
      return Buffer.concat([Buffer.from([time.length + 5]), time, writeDate(p.days), u16(0)])
    }
    case 'nvarchar': {
      const bytes = Buffer.from(text, 'utf16le')
      const chunk = bytes.length === 0 ? [] : [u32(bytes.length), bytes]
      return Buffer.concat([u64(BigInt(bytes.length)), ...chunk, u32(0)])
    }
  }
}

export function rowToken(columns: readonly Shaped[], row: readonly (string | null)[]): Buffer {
  return Buffer.concat([Buffer.from([ROW]), ...columns.map((c, i) => value(c.type, row[i] ?? null))])
}
