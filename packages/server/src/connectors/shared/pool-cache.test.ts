import { describe, expect, it } from 'vitest'
import { PoolCache } from './pool-cache.js'

interface FakePool {
  readonly key: string
  closed: boolean
}

function cacheOf(max: number, created: string[] = []) {
  return new PoolCache<FakePool>({
    max,
    create: (key) => {
      created.push(key)
      return { key, closed: false }
    },
    close: async (pool) => {
      pool.closed = true
    },
  })
}

const take = (cache: PoolCache<FakePool>, key: string) => cache.use(key, async (pool) => pool)

describe('PoolCache (DATABASE tenancy pools)', () => {
  it('creates a pool per key once, keeps at most `max`, and closes the least recently used', async () => {
    const created: string[] = []
    const cache = cacheOf(2, created)
    const a = await take(cache, 'a')
    expect(await take(cache, 'a')).toBe(a)
    const b = await take(cache, 'b')
    await take(cache, 'a') // a is now the most recent
    await take(cache, 'c') // evicts b
    await new Promise((r) => setImmediate(r))
    expect(created).toEqual(['a', 'b', 'c'])
    expect(b.closed).toBe(true)
    expect(a.closed).toBe(false)
    expect(cache.keys().sort()).toEqual(['a', 'c'])
    cache.delete('a')
    await new Promise((r) => setImmediate(r))
    expect(a.closed).toBe(true)
    await cache.closeAll()
    expect(cache.size).toBe(0)
    await expect(take(cache, 'd')).rejects.toThrow(/closed/)
  })

  it('an evicted pool in use is closed only after its running work finishes', async () => {
    const cache = cacheOf(1)
    let release!: () => void
    let held: FakePool | undefined
    const running = cache.use('a', async (pool) => {
      held = pool
      await new Promise<void>((r) => {
        release = r
      })
    })
    await take(cache, 'b') // evicts a while a query still uses it
    await new Promise((r) => setTimeout(r, 10))
    expect(held?.closed).toBe(false)
    release()
    await running
    await new Promise((r) => setImmediate(r))
    expect(held?.closed).toBe(true)
    await cache.closeAll()
  })

  it('closeAll() waits for every close, and a failing close does not break it', async () => {
    let finished = 0
    const cache = new PoolCache<FakePool>({
      max: 5,
      create: (key) => ({ key, closed: false }),
      close: async (pool) => {
        await new Promise((r) => setTimeout(r, 20))
        finished++
        if (pool.key === 'bad') throw new Error('end failed')
      },
    })
    await take(cache, 'ok')
    await take(cache, 'bad')
    await cache.closeAll()
    expect(finished).toBe(2)
  })
})
