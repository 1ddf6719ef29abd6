import type { DrillGrain } from '../api/types.js'

/** The grain a click on a bucket of `grain` drills to; undefined at the bottom (a day, an hour). */
export function nextGrain(grain: string | undefined): DrillGrain | undefined {
  switch (grain) {
    case 'year':
    case 'quarter':
      return 'month'
    case 'month':
    case 'week':
      return 'day'
    default:
      return undefined
  }
}

const pad = (n: number) => String(n).padStart(2, '0')
const day = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`

/**
 * The days a time bucket covers, from the bucket's value as a row carries it (`2026-03-01`,
 * `2026-03-01T00:00:00`, `2026-03-01 00:00:00+00`): its first day to its last, inclusive.
 * Undefined when the value is not a date.
 */
export function periodOf(value: unknown, grain: string): { startDate: string; endDate: string } | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value ?? ''))
  if (!m) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])]
  const start = new Date(Date.UTC(y, mo, d))
  const end = (() => {
    switch (grain) {
      case 'year':
        return new Date(Date.UTC(y, 11, 31))
      case 'quarter':
        return new Date(Date.UTC(y, mo + 3, 0))
      case 'month':
        return new Date(Date.UTC(y, mo + 1, 0))
      case 'week':
        return new Date(Date.UTC(y, mo, d + 6))
      default:
        return start
    }
  })()
  return { startDate: day(start), endDate: day(end) }
}

/** How the breadcrumb and the menu name what a grain lists ("months", "days"). */
export const GRAIN_PLURAL: Readonly<Record<DrillGrain, string>> = {
  year: 'years',
  quarter: 'quarters',
  month: 'months',
  week: 'weeks',
  day: 'days',
}
