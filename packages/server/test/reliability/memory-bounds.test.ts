import { describe, expect, it } from 'vitest'
import { ResultCache, type ResultKey } from '../../src/services/query/result-cache.js'

/**
 * Found by the soak: the metric result cache was bounded by entries (5,000) only, so its memory
 * depended on how big the cached results were. A tenant paging through many filter
 * combinations of a wide metric (up to QUERY_ROW_LIMIT rows each) could hold gigabytes. It is
 * bounded by bytes as well.
 */
const key = (i: number): ResultKey => ({
  datasourceId: 'ds',
  schemaVersion: 1,
  database: undefined,
  timezone: 'UTC',
  sql: 'select * from t where x = $1',
  params: [i],
})

describe('metric result cache memory', () => {
  it('keeps at most its byte budget, however large the results', async () => {
    const budget = 4 * 1024 * 1024
    const cache = new ResultCache<{ rows: string[] }>(60_000, undefined, 5000, budget)
    const big = () => ({ rows: Array.from({ length: 1000 }, (_, i) => `row ${i} ${'x'.repeat(200)}`) }) // ~200 KB
    for (let i = 0; i < 200; i++) await cache.get(key(i), async () => big())
    expect(cache.retainedBytes).toBeGreaterThan(0)
    expect(cache.retainedBytes).toBeLessThanOrEqual(budget)
    // the most recent results are still served from memory
    let recomputed = false
    const again = await cache.get(key(199), async () => {
      recomputed = true
      return big()
    })
    expect(again.hit).toBe(true)
    expect(recomputed).toBe(false)
    // a single result over the whole budget is answered, just not kept
    const huge = await cache.get(key(1000), async () => ({ rows: ['y'.repeat(budget)] }))
    expect(huge.value.rows[0]?.length).toBe(budget)
    expect(cache.retainedBytes).toBeLessThanOrEqual(budget)
  })
})
