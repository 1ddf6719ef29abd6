import { describe, expect, it } from 'vitest'
import { NULL_PARTITION, partitionOf, rebuiltFrom, refreshStart } from './partitions.js'

describe('rollup partitions', () => {
  it('puts a bucket in the month it starts in', () => {
    expect(partitionOf('2026-03-31')).toBe('2026-03')
    expect(partitionOf('2026-04-01T13:00:00.000Z')).toBe('2026-04')
    expect(partitionOf(new Date(Date.UTC(2025, 11, 31, 23)))).toBe('2025-12')
    expect(partitionOf(null)).toBe(NULL_PARTITION)
    expect(partitionOf('n/a')).toBe(NULL_PARTITION)
  })
  it('starts a refresh at the month of the bucket the window starts in', () => {
    const at = new Date(Date.UTC(2026, 4, 3, 15)) // Sunday 3 May 2026
    expect(refreshStart(at, 'day').toISOString()).toBe('2026-05-01T00:00:00.000Z')
    expect(refreshStart(at, 'hour').toISOString()).toBe('2026-05-01T00:00:00.000Z')
    // the week of 3 May began on Monday 27 April
    expect(refreshStart(at, 'week').toISOString()).toBe('2026-04-01T00:00:00.000Z')
    expect(refreshStart(at, 'quarter').toISOString()).toBe('2026-04-01T00:00:00.000Z')
    expect(refreshStart(at, 'year').toISOString()).toBe('2026-01-01T00:00:00.000Z')
  })
  it('rebuilds the months from the start on, never the null bucket of an incremental refresh', () => {
    const start = new Date(Date.UTC(2026, 3, 1))
    expect(rebuiltFrom('2026-04', start)).toBe(true)
    expect(rebuiltFrom('2026-05', start)).toBe(true)
    expect(rebuiltFrom('2026-03', start)).toBe(false)
    expect(rebuiltFrom(NULL_PARTITION, start)).toBe(false)
    expect(rebuiltFrom(NULL_PARTITION, undefined)).toBe(true)
  })
})
