import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { REDIS_URL, requireService } from '../../../test/helpers/services.js'
import { ResultCache, type ResultKey } from './result-cache.js'

const key = (over: Partial<ResultKey> = {}): ResultKey => ({
  datasourceId: 'ds1',
  schemaVersion: 1,
  database: undefined,
  timezone: undefined,
  sql: 'select sum(x) from t where tenant = $1',
  params: ['acme'],
  ...over,
})

describe('result cache', () => {
  it('runs a cold key once however many ask at the same moment (single flight)', async () => {
    const cache = new ResultCache<{ n: number }>(60_000, undefined)
    let runs = 0
    const compute = async () => {
      runs++
      await new Promise((r) => setTimeout(r, 30))
      return { n: runs }
    }
    const results = await Promise.all(Array.from({ length: 20 }, () => cache.get(key(), compute)))
    expect(runs).toBe(1)
    expect(results.map((r) => r.value.n)).toEqual(Array(20).fill(1))
    expect((await cache.get(key(), compute)).hit).toBe(true)
  })

  it('keys by the whole tenant context: params, database, timezone, schema version, datasource', async () => {
    const cache = new ResultCache<{ who: string }>(60_000, undefined)
    const variants: ResultKey[] = [
      key(),
      key({ params: ['globex'] }),
      key({ database: 'tenant_a' }),
      key({ database: 'tenant_b' }),
      key({ timezone: 'Europe/Berlin' }),
      key({ schemaVersion: 2 }),
      key({ datasourceId: 'ds2' }),
      key({ sql: 'select sum(y) from t where tenant = $1' }),
      // values as the drivers bind them: a date is not its ISO text, a number not its digits
      key({ params: [new Date('2026-01-01T00:00:00Z')] }),
      key({ params: ['2026-01-01T00:00:00.000Z'] }),
      key({ params: [[new Date('2026-01-01T00:00:00Z')], null] }),
      key({ params: [1] }),
      key({ params: ['1'] }),
      key({ params: [['acme', 'globex']] }),
    ]
    const ids = new Set(variants.map((v) => ResultCache.key(v)))
    expect(ids.size).toBe(variants.length)
    // the same values in other objects are the same key
    expect(ResultCache.key(key({ params: [[new Date('2026-01-01T00:00:00Z')], null] }))).toBe(
      ResultCache.key(key({ params: [[new Date(Date.UTC(2026, 0, 1))], null] })),
    )
    expect(ResultCache.key(key({ params: [5n] }))).toBe(ResultCache.key(key({ params: ['5'] })))
    for (const [i, v] of variants.entries()) await cache.get(v, async () => ({ who: `v${i}` }))
    for (const [i, v] of variants.entries()) {
      expect((await cache.get(v, async () => ({ who: 'recomputed' }))).value.who).toBe(`v${i}`)
    }
  })

  it('does not cache with TTL 0, and a failed computation is not cached', async () => {
    const off = new ResultCache<{ n: number }>(0, undefined)
    let runs = 0
    await off.get(key(), async () => ({ n: ++runs }))
    await off.get(key(), async () => ({ n: ++runs }))
    expect(runs).toBe(2)
    const on = new ResultCache<{ n: number }>(60_000, undefined)
    await expect(on.get(key(), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect((await on.get(key(), async () => ({ n: 7 }))).value.n).toBe(7)
  })

  describe('shared through Redis', async () => {
    const hasRedis = await requireService('Redis', '127.0.0.1', 6379)
    const redis = hasRedis ? new Redis(REDIS_URL) : undefined
    afterAll(() => redis?.disconnect())
    it.skipIf(!hasRedis)('a second instance reads what the first computed', async () => {
      const a = new ResultCache<{ n: number }>(60_000, redis)
      const b = new ResultCache<{ n: number }>(60_000, redis)
      const k = key({ sql: `select ${randomBytes(6).toString('hex')}` })
      await a.get(k, async () => ({ n: 42 }))
      await new Promise((r) => setTimeout(r, 50))
      const fromB = await b.get(k, async () => ({ n: -1 }))
      expect(fromB).toEqual({ value: { n: 42 }, hit: true })
    })
  })
})
