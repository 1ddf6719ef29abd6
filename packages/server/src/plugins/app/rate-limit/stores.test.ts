import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryRateLimitStore } from './stores.js'

describe('MemoryRateLimitStore', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('evicts the least recently hit counter when full, and only that one', async () => {
    const store = new MemoryRateLimitStore(3)
    await store.hit('a', 60_000)
    await store.hit('b', 60_000)
    await store.hit('c', 60_000)
    await store.hit('a', 60_000) // a is now the most recent; b the least
    await store.hit('d', 60_000)
    expect(store.size).toBe(3)
    expect((await store.hit('a', 60_000)).count).toBe(3)
    expect((await store.hit('b', 60_000)).count).toBe(1) // evicted: its count started again
    expect(store.size).toBe(3)
  })

  it('drops a counter when its window ends: on its next hit, and in the minute sweep', async () => {
    vi.useFakeTimers()
    const store = new MemoryRateLimitStore()
    await store.hit('a', 60_000)
    await store.hit('b', 30_000)
    expect((await store.hit('a', 60_000)).count).toBe(2)
    vi.advanceTimersByTime(60_000) // a's window has ended; b's ended earlier; the sweep ran
    expect(store.size).toBe(0)
    expect(await store.hit('a', 60_000)).toEqual({ count: 1, resetMs: 60_000 })
    store.close()
  })

  it('refuses a bound below one', () => {
    expect(() => new MemoryRateLimitStore(0)).toThrow(RangeError)
  })
})
