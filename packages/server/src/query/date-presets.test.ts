import { describe, expect, it } from 'vitest'
import { DATE_PRESETS, presetRange } from './date-presets.js'
import { fromWall, zoneOffset } from './zoned-time.js'

const iso = (r: { start: Date; end: Date } | null | undefined) => (r ? [r.start.toISOString(), r.end.toISOString()] : r)

describe('presetRange in UTC (now: Friday 2024-03-15 10:30Z)', () => {
  const now = new Date('2024-03-15T10:30:00Z')
  const day = (d: string) => `${d}T00:00:00.000Z`
  const cases: Record<string, [string, string] | null> = {
    Today: [day('2024-03-15'), day('2024-03-16')],
    Yesterday: [day('2024-03-14'), day('2024-03-15')],
    'This week': [day('2024-03-11'), day('2024-03-18')],
    'Last week': [day('2024-03-04'), day('2024-03-11')],
    'Last 7 days': [day('2024-03-09'), day('2024-03-16')],
    'Last 14 days': [day('2024-03-02'), day('2024-03-16')],
    'Last 30 days': [day('2024-02-15'), day('2024-03-16')],
    'Last 90 days': [day('2023-12-17'), day('2024-03-16')],
    'This month': [day('2024-03-01'), day('2024-04-01')],
    'Last month': [day('2024-02-01'), day('2024-03-01')],
    'This quarter': [day('2024-01-01'), day('2024-04-01')],
    'Last quarter': [day('2023-10-01'), day('2024-01-01')],
    'This year': [day('2024-01-01'), day('2025-01-01')],
    'Last year': [day('2023-01-01'), day('2024-01-01')],
    'Last 12 months': [day('2023-04-01'), day('2024-04-01')],
    'All time': null,
  }
  it('covers exactly the 16 presets of docs/dashboard-document.md', () => {
    expect(Object.keys(cases).sort()).toEqual([...DATE_PRESETS].sort())
  })
  it.each(Object.entries(cases))('%s', (label, expected) => {
    expect(iso(presetRange(label, 'UTC', now))).toEqual(expected)
  })
  it('matches case-insensitively and ignores extra blanks; anything else is not a preset', () => {
    expect(iso(presetRange('  last   MONTH ', 'UTC', now))).toEqual(cases['Last month'])
    expect(presetRange('Last 8 days', 'UTC', now)).toBeUndefined()
    expect(presetRange('2024-01-01', 'UTC', now)).toBeUndefined()
  })
  it('rolls over year boundaries for Last quarter and Last month in January', () => {
    const jan = new Date('2024-01-10T00:00:00Z')
    expect(iso(presetRange('Last month', 'UTC', jan))).toEqual([day('2023-12-01'), day('2024-01-01')])
    expect(iso(presetRange('Last quarter', 'UTC', jan))).toEqual([day('2023-10-01'), day('2024-01-01')])
  })
})

describe('presetRange in non-UTC zones', () => {
  it('evaluates "today" in the zone, not in UTC (Asia/Tokyo, UTC+9)', () => {
    // 20:00Z on the 15th is already the 16th in Tokyo.
    expect(iso(presetRange('Today', 'Asia/Tokyo', new Date('2024-03-15T20:00:00Z')))).toEqual([
      '2024-03-15T15:00:00.000Z',
      '2024-03-16T15:00:00.000Z',
    ])
  })
  it('a spring-forward day in Europe/Paris lasts 23 hours', () => {
    const r = presetRange('Today', 'Europe/Paris', new Date('2024-03-31T12:00:00Z'))
    expect(iso(r)).toEqual(['2024-03-30T23:00:00.000Z', '2024-03-31T22:00:00.000Z'])
  })
  it('a fall-back day in America/New_York lasts 25 hours', () => {
    const r = presetRange('Yesterday', 'America/New_York', new Date('2024-11-04T12:00:00Z'))
    expect(iso(r)).toEqual(['2024-11-03T04:00:00.000Z', '2024-11-04T05:00:00.000Z'])
  })
  it('a day whose midnight does not exist starts when the gap ends (America/Sao_Paulo, 2018-11-04)', () => {
    const r = presetRange('Today', 'America/Sao_Paulo', new Date('2018-11-04T15:00:00Z'))
    expect(iso(r)).toEqual(['2018-11-04T03:00:00.000Z', '2018-11-05T02:00:00.000Z'])
  })
  it('a month across a DST change (Europe/Paris, March 2024)', () => {
    expect(iso(presetRange('This month', 'Europe/Paris', new Date('2024-03-15T12:00:00Z')))).toEqual([
      '2024-02-29T23:00:00.000Z',
      '2024-03-31T22:00:00.000Z',
    ])
  })
  it('refuses an unknown zone with a 400', () => {
    expect(() => presetRange('Today', 'Not/AZone', new Date())).toThrow(expect.objectContaining({ status: 400 }))
  })
})

describe('zoned time helpers', () => {
  it('offsets follow DST', () => {
    expect(zoneOffset(Date.parse('2024-01-15T12:00:00Z'), 'Europe/Paris')).toBe(3_600_000)
    expect(zoneOffset(Date.parse('2024-07-15T12:00:00Z'), 'Europe/Paris')).toBe(7_200_000)
    expect(zoneOffset(Date.parse('2024-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(19_800_000)
  })
  it('an ambiguous wall time (fall back) maps to its first occurrence', () => {
    const w = { year: 2024, month: 10, day: 27, hour: 2, minute: 30, second: 0 }
    expect(fromWall(w, 'Europe/Paris').toISOString()).toBe('2024-10-27T00:30:00.000Z')
  })
})
