/**
 * The date and time layouts of TDS ([MS-TDS] 2.2.5.5.1.7–2.2.5.5.1.10,
 * https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-tds/786f5b8a-f87d-4980-9070-b9b7274c681d):
 * a date is 3 bytes of days since 0001-01-01 (proleptic Gregorian); a time is the count of
 * 10^-scale seconds since midnight in 3, 4 or 5 bytes (scale 0–2, 3–4, 5–7); datetimeoffset is
 * time and date in UTC, then the offset in minutes (2 bytes). The legacy datetime is days since
 * 1900-01-01 (4 bytes, signed) and 1/300 s since midnight (4 bytes).
 * Text in and out is PostgreSQL's ISO form (`YYYY-MM-DD HH:MM:SS.ffffff`), so no JS Date
 * (milliseconds) rounds the seventh digit away.
 */
const EPOCH_DAY = 719_162 // days from 0001-01-01 to 1970-01-01
const MS_PER_DAY = 86_400_000

export const timeLength = (scale: number): number => (scale <= 2 ? 3 : scale <= 4 ? 4 : 5)

function dayNumber(year: number, month: number, day: number): number {
  const d = new Date(0)
  d.setUTCFullYear(year, month - 1, day)
  return Math.round(d.getTime() / MS_PER_DAY) + EPOCH_DAY
}

function dateOfDay(days: number): string {
  const d = new Date((days - EPOCH_DAY) * MS_PER_DAY)
  const y = String(d.getUTCFullYear()).padStart(4, '0')
  return `${y}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`
}

export interface Parts {
  readonly days: number
  /** Nanoseconds since midnight / 100 (SQL Server's finest tick). */
  readonly ticks: bigint
}

/** `YYYY-MM-DD[ HH:MM:SS[.fffffff]]` → days and 100 ns ticks. */
export function partsOf(text: string): Parts {
  const m = /^(\d{4,})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?)?/.exec(text)
  if (!m) throw new Error(`not a date: ${text}`)
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = m as unknown as string[]
  const seconds = BigInt(Number(h) * 3600 + Number(mi) * 60 + Number(s))
  const fraction = BigInt((frac as string).padEnd(7, '0').slice(0, 7))
  return { days: dayNumber(Number(y), Number(mo), Number(d)), ticks: seconds * 10_000_000n + fraction }
}

/** days and ticks → `YYYY-MM-DD HH:MM:SS.fffffff`. */
export function textOf(parts: Parts): string {
  const seconds = Number(parts.ticks / 10_000_000n)
  const fraction = String(parts.ticks % 10_000_000n).padStart(7, '0')
  const hh = String(Math.floor(seconds / 3600)).padStart(2, '0')
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')
  const ss = String(seconds % 60).padStart(2, '0')
  return `${dateOfDay(parts.days)} ${hh}:${mm}:${ss}.${fraction}`
}

export const dateText = (days: number): string => dateOfDay(days)

/** Shifts by `minutes` (carrying across midnight). */
export function shifted(parts: Parts, minutes: number): Parts {
  const day = 86_400n * 10_000_000n
  let ticks = parts.ticks + BigInt(minutes) * 60n * 10_000_000n
  let days = parts.days
  while (ticks < 0n) {
    ticks += day
    days -= 1
  }
  while (ticks >= day) {
    ticks -= day
    days += 1
  }
  return { days, ticks }
}

const scaleDivisor = (scale: number): bigint => 10n ** BigInt(7 - scale)

export function writeTime(ticks: bigint, scale: number): Buffer {
  const out = Buffer.alloc(timeLength(scale))
  let units = ticks / scaleDivisor(scale)
  for (let i = 0; i < out.length; i++) {
    out[i] = Number(units & 0xffn)
    units >>= 8n
  }
  return out
}

export function readTime(bytes: Buffer, scale: number): bigint {
  let units = 0n
  for (let i = bytes.length - 1; i >= 0; i--) units = (units << 8n) | BigInt(bytes[i] as number)
  return units * scaleDivisor(scale)
}

export function writeDate(days: number): Buffer {
  const out = Buffer.alloc(3)
  out.writeUIntLE(days, 0, 3)
  return out
}

export const readDate = (bytes: Buffer): number => bytes.readUIntLE(0, 3)

/** The legacy datetime: days since 1900-01-01 and 1/300 s ticks → text. */
export function legacyDateTime(days1900: number, ticks300: number): string {
  const ms = Math.round((ticks300 * 10) / 3)
  return textOf({ days: dayNumber(1900, 1, 1) + days1900, ticks: BigInt(ms) * 10_000n })
}
