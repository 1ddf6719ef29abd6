import { describe, expect, it } from 'vitest'
import { durationMs } from './duration.js'

describe('rollup durations', () => {
  it('reads a number and a unit, short or long', () => {
    expect(durationMs('30m')).toBe(30 * 60_000)
    expect(durationMs('5 minutes')).toBe(5 * 60_000)
    expect(durationMs('1h')).toBe(3_600_000)
    expect(durationMs('12 hours')).toBe(12 * 3_600_000)
    expect(durationMs('7 days')).toBe(7 * 86_400_000)
    expect(durationMs('1 day')).toBe(86_400_000)
    expect(durationMs('2w')).toBe(14 * 86_400_000)
  })
  it('refuses anything else', () => {
    for (const bad of ['', '0h', 'h', '1 fortnight', '1.5h', '-1h', '1hh', ' 1h', '1  h'])
      expect(durationMs(bad)).toBeUndefined()
  })
})
