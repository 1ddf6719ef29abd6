import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { REDIS_URL, requireService } from '../../../../test/helpers/services.js'
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from './stores.js'

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

// What EMAIL_RATE_LIMIT counts with (issue 24, item 5): deliveries, a send's recipients at once.
const takes = (name: string, make: () => RateLimitStore) =>
  it(`${name}: take adds an amount only while the sum stays within the bound`, async () => {
    const store = make()
    const key = `take:${randomBytes(6).toString('hex')}`
    expect(await store.take(key, 60_000, 3, 5)).toMatchObject({ taken: true, count: 3 })
    // 3 + 3 > 5: refused, and nothing of it used
    expect(await store.take(key, 60_000, 3, 5)).toMatchObject({ taken: false, count: 3 })
    expect(await store.take(key, 60_000, 2, 5)).toMatchObject({ taken: true, count: 5 })
    const full = await store.take(key, 60_000, 1, 5)
    expect(full).toMatchObject({ taken: false, count: 5 })
    expect(full.resetMs).toBeGreaterThan(50_000)
    expect(full.resetMs).toBeLessThanOrEqual(60_000)
    // more than the bound at once is never taken, even in a fresh window
    expect(await store.take(`${key}:fresh`, 60_000, 6, 5)).toMatchObject({ taken: false, count: 0 })
    store.close?.()
  })

describe('take', async () => {
  takes('memory', () => new MemoryRateLimitStore())
  const hasRedis = await requireService('Redis', '127.0.0.1', 6379)
  const redis = hasRedis ? new Redis(REDIS_URL) : undefined
  afterAll(() => redis?.disconnect())
  if (redis) takes('redis', () => new RedisRateLimitStore(redis, 'strata:test:rl:'))
})
