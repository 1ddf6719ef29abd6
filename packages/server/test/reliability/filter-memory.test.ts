import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapMb = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

/**
 * Found by an attacker with a guest token: runtime queries whose dashboardFilter carried 1,000
 * strings of ~900 characters, different on each request, grew the heap by ~4 MB a request and
 * never gave it back (the compiled-SQL cache was keyed by the end user's values and bounded by
 * entries only). Values are now bound into one statement compiled per query shape, every cache
 * is bounded by bytes, and filter values are capped (one such request is now a 400). This
 * sends thousands of distinct filters as large as the caps allow and checks the heap stays flat.
 */
describe.skipIf(!hasPg)('memory under distinct large filter values', () => {
  const { t, a } = useAnalytics('sqlite', { app: 'suite', env: { RATE_LIMIT: '100000' } })

  it('keeps the heap flat and one compiled statement, however many distinct values arrive', async () => {
    const token = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId: 'acme',
        params: { accessPermissions: { isAllowEndUserDashboardFilter: true } },
      })
    ).token as string
    // 100 strings of 900 characters (~90 KB), just under the per-request cap, new on every request
    const send = async (i: number) => {
      const country = Array.from({ length: 100 }, (_, j) => `${i}:${j}:`.padEnd(900, 'x'))
      const res = await a.call('POST', `/api/v2/embed/runtime/${a.embedId}/query`, token, {
        metricId: 'revenue_by_country',
        dashboardFilter: { country },
      })
      expect(res.statusCode, res.body).toBe(200)
    }
    // warm up: caches fill to their byte budgets (the result cache keys results by values)
    for (let i = 0; i < 400; i++) await send(i)
    const before = heapMb()
    for (let i = 400; i < 1600; i++) await send(i)
    const after = heapMb()
    // before the fix: ~360 KB retained per request here, ~430 MB over these 1,200 requests
    expect(after - before, `heap ${before.toFixed(1)} → ${after.toFixed(1)} MB`).toBeLessThan(24)
    expect(t.app.services.metricQueries.compiledShapes).toBe(1)
  }, 240_000)
})
