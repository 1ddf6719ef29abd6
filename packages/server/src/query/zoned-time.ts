import { badRequest } from '../errors.js'

/**
 * Wall-clock arithmetic in IANA time zones with nothing but Intl: zone offsets come from
 * `Intl.DateTimeFormat`, so DST transitions are whatever the runtime's tz database says.
 */

export interface WallTime {
  readonly year: number
  readonly month: number // 1-12
  readonly day: number
  readonly hour: number
  readonly minute: number
  readonly second: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      })
    } catch {
      throw badRequest(`Unknown time zone "${timeZone}": use an IANA name such as Europe/Paris`)
    }
    if (formatters.size > 1000) formatters.clear()
    formatters.set(timeZone, f)
  }
  return f
}

/** Throws a 400 unless `timeZone` is an IANA zone name this runtime knows. */
export function assertTimeZone(timeZone: string): void {
  formatter(timeZone)
}

/** Zones that are UTC at every instant: their wall-clock time is the instant's UTC fields, without Intl. */
const UTC_ZONES: ReadonlySet<string> = new Set(['UTC', 'Etc/UTC'])

/** The wall-clock time of an instant in a zone (milliseconds dropped). */
export function toWall(instant: Date, timeZone: string): WallTime {
  // the default zone of every request: Intl's formatToParts costs tens of µs per call, and a plan
  // with a date range calls this a dozen times (fromWall probes three offsets per bound). From
  // 1600 on: before the Gregorian reform Intl counts in the Julian calendar, and it stays the judge
  if (UTC_ZONES.has(timeZone) && instant.getUTCFullYear() >= 1600) {
    return {
      year: instant.getUTCFullYear(),
      month: instant.getUTCMonth() + 1,
      day: instant.getUTCDate(),
      hour: instant.getUTCHours(),
      minute: instant.getUTCMinutes(),
      second: instant.getUTCSeconds(),
    }
  }
  const parts: Record<string, number> = {}
  for (const p of formatter(timeZone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  }
}

const wallMs = (w: WallTime) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)

/** Offset of the zone from UTC at an instant, in ms (Paris in winter: +3 600 000). */
export function zoneOffset(instant: number, timeZone: string): number {
  const whole = instant - (((instant % 1000) + 1000) % 1000)
  return wallMs(toWall(new Date(whole), timeZone)) - whole
}

/**
 * The instant a wall-clock time names in a zone. Inside a DST overlap the earlier instant;
 * inside a DST gap (a time that does not exist) the first instant after the gap.
 */
export function fromWall(wall: WallTime, timeZone: string): Date {
  const local = wallMs(wall)
  const candidates = new Set<number>()
  for (const probe of [local - 86_400_000, local, local + 86_400_000]) {
    candidates.add(local - zoneOffset(probe, timeZone))
  }
  const exact = [...candidates].filter((t) => t + zoneOffset(t, timeZone) === local).sort((a, b) => a - b)
  if (exact.length > 0) return new Date(exact[0] as number)
  return new Date(Math.max(...candidates))
}

/** The date `days` after a calendar date (negative: before), normalising overflow. */
export function addDays(w: WallTime, days: number): WallTime {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day + days))
  return { ...midnight(w), year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

/** The first day of the month `months` after the month of `w`. */
export function addMonths(w: WallTime, months: number): WallTime {
  const d = new Date(Date.UTC(w.year, w.month - 1 + months, 1))
  return { ...midnight(w), year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: 1 }
}

export const midnight = (w: WallTime): WallTime => ({ ...w, hour: 0, minute: 0, second: 0 })

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

export const dateString = (w: WallTime): string => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`
export const wallString = (w: WallTime): string => `${dateString(w)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`

/** Parses `YYYY-MM-DD` (a real calendar date) or returns null. */
export function parseDate(text: string): WallTime | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (m === null) return null
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const d = new Date(Date.UTC(year, month - 1, day))
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null
  return { year, month, day, hour: 0, minute: 0, second: 0 }
}
