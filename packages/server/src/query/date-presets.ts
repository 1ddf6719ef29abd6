import { type DatePreset, matchPreset } from '@strata/contract/date-presets'
import { addDays, addMonths, fromWall, midnight, toWall, type WallTime } from './zoned-time.js'

// The names are the web component's contract too (@strata/contract); their evaluation is here.
export { DATE_PRESETS, type DatePreset, matchPreset } from '@strata/contract/date-presets'

/** A half-open range of wall-clock calendar days [start, end) in some zone. */
export interface WallRange {
  readonly start: WallTime
  readonly end: WallTime
}

/**
 * The calendar days a preset covers, relative to `today`. Weeks start on Monday; "Last N
 * days" and "Last 12 months" include the current day/month; "This …" is the whole period.
 */
export function presetWallRange(preset: DatePreset, today: WallTime): WallRange | null {
  const day = midnight(today)
  const weekday = (new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay() + 6) % 7 // Monday = 0
  const monday = addDays(day, -weekday)
  const quarterStart = addMonths({ ...day, month: day.month - ((day.month - 1) % 3) }, 0)
  const yearStart: WallTime = { ...day, month: 1, day: 1 }
  const lastDays = (n: number): WallRange => ({ start: addDays(day, -(n - 1)), end: addDays(day, 1) })
  switch (preset) {
    case 'Today':
      return { start: day, end: addDays(day, 1) }
    case 'Yesterday':
      return { start: addDays(day, -1), end: day }
    case 'This week':
      return { start: monday, end: addDays(monday, 7) }
    case 'Last week':
      return { start: addDays(monday, -7), end: monday }
    case 'Last 7 days':
      return lastDays(7)
    case 'Last 14 days':
      return lastDays(14)
    case 'Last 30 days':
      return lastDays(30)
    case 'Last 90 days':
      return lastDays(90)
    case 'This month':
      return { start: addMonths(day, 0), end: addMonths(day, 1) }
    case 'Last month':
      return { start: addMonths(day, -1), end: addMonths(day, 0) }
    case 'This quarter':
      return { start: quarterStart, end: addMonths(quarterStart, 3) }
    case 'Last quarter':
      return { start: addMonths(quarterStart, -3), end: quarterStart }
    case 'This year':
      return { start: yearStart, end: addMonths(yearStart, 12) }
    case 'Last year':
      return { start: addMonths(yearStart, -12), end: yearStart }
    case 'Last 12 months':
      return { start: addMonths(day, -11), end: addMonths(day, 1) }
    case 'All time':
      return null
  }
}

/**
 * The instants a date preset covers, evaluated in `timezone` at `now`: a half-open
 * [start, end). null for "All time" (no condition); undefined when `label` is not a preset.
 */
export function presetRange(label: string, timezone: string, now: Date): { start: Date; end: Date } | null | undefined {
  const preset = matchPreset(label)
  if (preset === undefined) return undefined
  const range = presetWallRange(preset, toWall(now, timezone))
  if (range === null) return null
  return { start: fromWall(range.start, timezone), end: fromWall(range.end, timezone) }
}
