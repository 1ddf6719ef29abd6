/**
 * JSON-safe values, shared by every connector: numbers that fit, strings that do not, and one
 * rendering of dates and times across engines (ISO 8601 with a `T`; an offset only where the
 * engine's type carries an instant, rendered in the session time zone).
 */
import { ApiError } from '../../errors.js'

/** An integer as a JS number when exact, else its decimal string (JSON has no 64-bit ints). */
export function safeInteger(value: bigint | number | string): number | string {
  if (typeof value === 'number') return value
  // up to 15 characters (sign included) an integer's text is below 2^53: exact as a number, no BigInt
  if (typeof value === 'string' && value.length <= 15 && INTEGER.test(value)) return Number(value)
  const big = typeof value === 'bigint' ? value : parseBigInt(value)
  if (big === undefined) return String(value)
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big.toString()
}

const INTEGER = /^-?\d+$/

function parseBigInt(text: string): bigint | undefined {
  if (!INTEGER.test(text)) return undefined
  return BigInt(text)
}

/** A decimal as a JS number (analytics tolerate the rounding); non-finite values stay strings. */
export function decimalNumber(value: string | number): number | string {
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  const n = Number(value)
  return Number.isFinite(n) && value.trim() !== '' ? n : value
}

/** JSON cannot carry NaN or ±Infinity; they become strings. */
export function jsonNumber(value: number): number | string {
  return Number.isFinite(value) ? value : String(value)
}

/**
 * `2024-01-02 03:04:05.678+09` (Postgres, MySQL, ClickHouse text) → `2024-01-02T03:04:05.678+09:00`.
 * A value without an offset keeps none: it is a wall-clock time, not an instant.
 */
export function isoDateTime(text: string): string {
  const m =
    /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?$/.exec(text)
  if (!m) return text // BC dates, 'infinity' and other specials pass through unchanged
  const [, date, time, zone] = m
  return `${date}T${time}${zone === undefined ? '' : normaliseOffset(zone)}`
}

function normaliseOffset(zone: string): string {
  if (zone === 'Z') return 'Z'
  const sign = zone[0]
  const digits = zone.slice(1).replace(/:/g, '')
  const hh = digits.slice(0, 2)
  const mm = digits.slice(2, 4) || '00'
  const ss = digits.slice(4, 6)
  return `${sign}${hh}:${mm}${ss ? `:${ss}` : ''}`
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      era: 'short',
    })
    if (formatters.size > 500) formatters.clear()
    formatters.set(timeZone, f)
  }
  return f
}

/** Throws a typed 400 unless `timeZone` is an IANA name this process (ICU) knows. */
export function checkTimeZone(timeZone: string): void {
  // The character check keeps the name safe wherever an engine needs it as a literal.
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/.test(timeZone)) throw unknownTimeZone(timeZone)
  try {
    formatter(timeZone)
  } catch {
    throw unknownTimeZone(timeZone)
  }
}

function unknownTimeZone(timeZone: string): ApiError {
  return new ApiError('QUERY_ERROR', 400, `Unknown time zone "${timeZone.slice(0, 64)}"`)
}

interface WallClock {
  readonly year: number
  readonly month: number
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
}

function wallClock(epochMs: number, timeZone: string): WallClock {
  const parts: Record<string, string> = {}
  for (const p of formatter(timeZone).formatToParts(new Date(epochMs))) parts[p.type] = p.value
  const year = Number(parts.year)
  return {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  }
}

/** The UTC offset of `timeZone` at that instant, in minutes east of Greenwich. */
export function offsetMinutesAt(timeZone: string, epochMs: number): number {
  const wholeSecondMs = Math.floor(epochMs / 1000) * 1000
  const w = wallClock(wholeSecondMs, timeZone)
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear undoes that.
  const fixed = new Date(asUtc)
  fixed.setUTCFullYear(w.year)
  return Math.round((fixed.getTime() - wholeSecondMs) / 60_000)
}

/** `+09:00` style offset of `timeZone` at that instant (MariaDB without time zone tables needs it). */
export function offsetAt(timeZone: string, epochMs: number): string {
  return formatOffset(offsetMinutesAt(timeZone, epochMs))
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`
}

/**
 * An instant given as microseconds since the epoch, rendered as ISO 8601 in `timeZone`,
 * e.g. `2024-01-01T09:00:00+09:00` (fractional seconds only when present).
 */
export function formatInstant(epochMicros: bigint, timeZone: string): string {
  const ms = Number(epochMicros / 1000n) - (epochMicros % 1000n < 0n ? 1 : 0)
  const micros = Number(((epochMicros % 1_000_000n) + 1_000_000n) % 1_000_000n)
  const secondMs = Math.floor(ms / 1000) * 1000
  const offset = offsetMinutesAt(timeZone, secondMs)
  const local = new Date(secondMs + offset * 60_000)
  const year = local.getUTCFullYear()
  const y = year < 0 ? `-${pad(-year, 6)}` : year > 9999 ? `+${year}` : pad(year, 4)
  const date = `${y}-${pad(local.getUTCMonth() + 1, 2)}-${pad(local.getUTCDate(), 2)}`
  const time = `${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}:${pad(local.getUTCSeconds(), 2)}`
  const fraction = micros === 0 ? '' : `.${pad(micros, 6).replace(/0+$/, '')}`
  return `${date}T${time}${fraction}${formatOffset(offset)}`
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0')
}

/** True when the two names denote the same zone (UTC has many aliases). */
export function sameTimeZone(a: string, b: string): boolean {
  const utc = new Set([
    'UTC',
    'Etc/UTC',
    'UCT',
    'Etc/UCT',
    'Etc/Universal',
    'Universal',
    'Zulu',
    'Etc/Zulu',
    'GMT',
    'Etc/GMT',
    'Etc/GMT0',
    'GMT0',
    'Etc/Greenwich',
    'Greenwich',
  ])
  if (a === b) return true
  if (utc.has(a) && utc.has(b)) return true
  try {
    const ra = new Intl.DateTimeFormat('en-US', { timeZone: a }).resolvedOptions().timeZone
    const rb = new Intl.DateTimeFormat('en-US', { timeZone: b }).resolvedOptions().timeZone
    return ra === rb
  } catch {
    return false
  }
}

/** Bytes as base64, the one JSON-safe rendering of binary values. */
export function bytesToJson(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
}
