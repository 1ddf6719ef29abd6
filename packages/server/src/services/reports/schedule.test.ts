import { describe, expect, it } from 'vitest'
import { nextRun, retryDelay } from './schedule.js'

const at = (iso: string) => new Date(iso)
const next = (schedule: Parameters<typeof nextRun>[0], zone: string, after: string) =>
  nextRun(schedule, zone, at(after)).toISOString()

describe('nextRun', () => {
  it('daily: today at the time when it is still ahead, else tomorrow', () => {
    const daily = { frequency: 'daily', time: '08:30' } as const
    expect(next(daily, 'UTC', '2026-03-10T08:00:00Z')).toBe('2026-03-10T08:30:00.000Z')
    expect(next(daily, 'UTC', '2026-03-10T08:30:00Z')).toBe('2026-03-11T08:30:00.000Z')
    // Tokyo (UTC+9, no DST): 08:30 local is 23:30 UTC the day before
    expect(next(daily, 'Asia/Tokyo', '2026-03-10T00:00:00Z')).toBe('2026-03-10T23:30:00.000Z')
  })

  it('keeps the wall time across DST in Europe/Paris (spring forward and fall back)', () => {
    const daily = { frequency: 'daily', time: '08:00' } as const
    // 2026-03-29: Paris goes from +01:00 to +02:00
    expect(next(daily, 'Europe/Paris', '2026-03-28T07:00:00Z')).toBe('2026-03-29T06:00:00.000Z')
    expect(next(daily, 'Europe/Paris', '2026-03-28T06:00:00Z')).toBe('2026-03-28T07:00:00.000Z')
    // 2026-10-25: back to +01:00
    expect(next(daily, 'Europe/Paris', '2026-10-24T07:00:00Z')).toBe('2026-10-25T07:00:00.000Z')
  })

  it('a time the spring-forward skips sends once, moved forward by the gap (02:30 → 03:30)', () => {
    const daily = { frequency: 'daily', time: '02:30' } as const
    // America/New_York 2026-03-08: 02:00 → 03:00 local (07:00 UTC); 03:30 EDT is 07:30 UTC
    expect(next(daily, 'America/New_York', '2026-03-08T05:00:00Z')).toBe('2026-03-08T07:30:00.000Z')
    expect(next(daily, 'America/New_York', '2026-03-08T07:30:00Z')).toBe('2026-03-09T06:30:00.000Z')
  })

  it('a time the fall-back repeats sends once, at the earlier instant', () => {
    const daily = { frequency: 'daily', time: '01:30' } as const
    // America/New_York 2026-11-01: 01:00–02:00 happens twice (EDT 05:xx UTC, then EST 06:xx UTC)
    expect(next(daily, 'America/New_York', '2026-11-01T04:00:00Z')).toBe('2026-11-01T05:30:00.000Z')
    expect(next(daily, 'America/New_York', '2026-11-01T05:30:00Z')).toBe('2026-11-02T06:30:00.000Z')
  })

  it('weekly: the next such weekday (Monday by default)', () => {
    // 2026-03-11 is a Wednesday
    expect(next({ frequency: 'weekly', time: '09:00' }, 'UTC', '2026-03-11T12:00:00Z')).toBe('2026-03-16T09:00:00.000Z')
    expect(next({ frequency: 'weekly', time: '09:00', dayOfWeek: 3 }, 'UTC', '2026-03-11T08:00:00Z')).toBe(
      '2026-03-11T09:00:00.000Z',
    )
    expect(next({ frequency: 'weekly', time: '09:00', dayOfWeek: 3 }, 'UTC', '2026-03-11T09:00:00Z')).toBe(
      '2026-03-18T09:00:00.000Z',
    )
    // Sunday 2026-05-31 23:00 in Los Angeles (PDT) is Monday 06:00 UTC; at 2026-06-01T00:00Z it is still Sunday there
    expect(
      next({ frequency: 'weekly', time: '23:00', dayOfWeek: 0 }, 'America/Los_Angeles', '2026-06-01T00:00:00Z'),
    ).toBe('2026-06-01T06:00:00.000Z')
    expect(
      next({ frequency: 'weekly', time: '23:00', dayOfWeek: 0 }, 'America/Los_Angeles', '2026-06-01T06:00:00Z'),
    ).toBe('2026-06-08T06:00:00.000Z')
  })

  it('monthly: the day of the month, the last day of a shorter month', () => {
    const on31 = { frequency: 'monthly', time: '06:00', dayOfMonth: 31 } as const
    expect(next(on31, 'UTC', '2026-01-31T07:00:00Z')).toBe('2026-02-28T06:00:00.000Z')
    expect(next(on31, 'UTC', '2026-02-28T07:00:00Z')).toBe('2026-03-31T06:00:00.000Z')
    expect(next(on31, 'UTC', '2028-02-01T00:00:00Z')).toBe('2028-02-29T06:00:00.000Z')
    expect(next({ frequency: 'monthly', time: '06:00' }, 'UTC', '2026-12-15T00:00:00Z')).toBe(
      '2027-01-01T06:00:00.000Z',
    )
  })
})

describe('retryDelay', () => {
  it('doubles from the base, at most an hour', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 60_000))).toEqual([60_000, 120_000, 240_000, 480_000])
    expect(retryDelay(20, 60_000)).toBe(3_600_000)
  })
})
