import type { TimeGrain } from '../ast.js'
import type { WallRange } from '../date-presets.js'
import type { WallTime } from '../zoned-time.js'

/**
 * Which coarser grains a rollup's buckets add up to exactly: every bucket of the coarser grain
 * is a whole number of the rollup's. Weeks start on Monday and straddle months, so a week
 * rollup answers weeks only; nothing but hours answers hours.
 */
const COARSER: Readonly<Record<TimeGrain, readonly TimeGrain[]>> = {
  hour: ['hour', 'day', 'week', 'month', 'quarter', 'year'],
  day: ['day', 'week', 'month', 'quarter', 'year'],
  week: ['week'],
  month: ['month', 'quarter', 'year'],
  quarter: ['quarter', 'year'],
  year: ['year'],
}

/** Whether a query grouped by `requested` can be answered from buckets of `stored`. */
export function grainAnswers(stored: TimeGrain, requested: TimeGrain): boolean {
  return COARSER[stored].includes(requested)
}

/** Whether a wall-clock instant is the start of a bucket of the grain (weeks start on Monday). */
export function onBucket(w: WallTime, g: TimeGrain): boolean {
  if (w.minute !== 0 || w.second !== 0) return false
  if (g === 'hour') return true
  if (w.hour !== 0) return false
  switch (g) {
    case 'day':
      return true
    case 'week':
      return new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() === 1
    case 'month':
      return w.day === 1
    case 'quarter':
      return w.day === 1 && (w.month - 1) % 3 === 0
    case 'year':
      return w.day === 1 && w.month === 1
  }
}

/**
 * Whether `start <= t < end` selects whole buckets of the grain: each bound that restricts
 * (open ends are years 1 and 9999, see conditions.ts) is the start of a bucket.
 */
export function rangeOnBuckets(range: WallRange, g: TimeGrain): boolean {
  return (range.start.year <= 1 || onBucket(range.start, g)) && (range.end.year >= 9999 || onBucket(range.end, g))
}

/** Zones that are UTC under another name: the rollup's buckets are made in UTC. */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu'])
export const isUtc = (zone: string): boolean => UTC_NAMES.has(zone)
