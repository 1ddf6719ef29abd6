import type { ReportSchedule } from '@strata/contract/reports'
import type { Static } from 'typebox'
import { fromWall, toWall, type WallTime } from '../../query/zoned-time.js'

export type Schedule = Static<typeof ReportSchedule>

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate()
const weekday = (w: WallTime) => new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay()

/** Whether a report of this schedule goes out on this calendar date (the zone's). */
function sendsOn(schedule: Schedule, date: WallTime): boolean {
  switch (schedule.frequency) {
    case 'daily':
      return true
    case 'weekly':
      return weekday(date) === (schedule.dayOfWeek ?? 1)
    case 'monthly':
      // the 31st of a 30-day month is its 30th: a monthly report never skips a month
      return date.day === Math.min(schedule.dayOfMonth ?? 1, daysIn(date.year, date.month))
  }
}

/**
 * The first instant strictly after `after` at which the schedule sends: its `time` on a date
 * it sends on, as wall-clock time in `timeZone`. Across DST the wall time holds (08:00 stays
 * 08:00 local); a time a spring-forward skips sends once, moved forward by the
 * gap (02:30 in a 02:00→03:00 jump sends at 03:30); a time an autumn overlap repeats sends
 * once, at the earlier instant.
 */
export function nextRun(schedule: Schedule, timeZone: string, after: Date): Date {
  const [hour = 0, minute = 0] = schedule.time.split(':').map(Number)
  const today = toWall(after, timeZone)
  // a month and a few days covers every schedule (monthly: the next month's day at worst)
  for (let offset = 0; offset < 64; offset++) {
    const d = new Date(Date.UTC(today.year, today.month - 1, today.day + offset))
    const date: WallTime = {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour,
      minute,
      second: 0,
    }
    if (!sendsOn(schedule, date)) continue
    const at = fromWall(date, timeZone)
    if (at.getTime() > after.getTime()) return at
  }
  throw new Error(`No run of ${JSON.stringify(schedule)} within 64 days`)
}

/** Exponential backoff of a failed send: base · 2^(attempt−1), at most an hour. */
export function retryDelay(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 3_600_000)
}
