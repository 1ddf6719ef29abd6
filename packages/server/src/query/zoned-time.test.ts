import { describe, expect, it } from 'vitest'
import { fromWall, toWall } from './zoned-time.js'

/** The wall-clock time as Intl gives it (what toWall answers in every other zone). */
function intlWall(instant: Date, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  })
  const parts = Object.fromEntries(
    f
      .formatToParts(instant)
      .filter((p) => p.type !== 'literal')
      .map((p) => [p.type, Number(p.value)]),
  )
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  }
}

describe('toWall in UTC (without Intl)', () => {
  it("gives Intl's wall-clock time for instants from year 1 to 9999, month and year ends included", () => {
    const first = new Date('0001-01-01T00:00:00Z').getTime()
    const instants = [
      Date.UTC(2026, 0, 1, 0, 0, 0),
      Date.UTC(2025, 11, 31, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29, 12, 30, 15, 500),
      Date.UTC(2026, 2, 29, 1, 0, 0), // Europe's DST start: nothing happens in UTC
      Date.UTC(1970, 0, 1),
      Date.UTC(1969, 11, 31, 23, 0, 0),
      Date.UTC(9999, 11, 31, 23, 59, 59),
      first,
      new Date('1582-10-04T12:00:00Z').getTime(), // Intl's Julian calendar before the reform
      new Date('1600-01-01T00:00:00Z').getTime(),
    ]
    // and a seeded spread over the whole range
    let seed = 7
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
      instants.push(Math.floor(first + (seed / 2_147_483_648) * (Date.UTC(9999, 11, 31) - first)))
    }
    for (const zone of ['UTC', 'Etc/UTC']) {
      for (const at of instants) expect(toWall(new Date(at), zone)).toEqual(intlWall(new Date(at), zone))
    }
  })

  it('round-trips through fromWall, and other zones still follow their offsets', () => {
    const wall = { year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 0 }
    expect(fromWall(wall, 'UTC').toISOString()).toBe('2026-03-29T02:30:00.000Z')
    expect(toWall(new Date('2026-07-01T12:00:00Z'), 'Europe/Paris').hour).toBe(14)
    expect(() => toWall(new Date(Number.NaN), 'UTC')).toThrow(RangeError)
  })
})
