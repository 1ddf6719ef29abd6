import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { salesTables } from '../helpers/analytics.js'
import { createPostgresDatabase } from '../helpers/app.js'
import {
  bootstrapOver,
  type JsonResponse,
  removeDir,
  request,
  type ServerProcess,
  startServer,
  tempDataDir,
} from '../helpers/process.js'
import { POSTGRES_URL, REDIS_URL, requireService } from '../helpers/services.js'
import { useAnalytics, useCleanups } from '../helpers/suite.js'
import { createSlowOrders } from '../helpers/warehouse.js'
import { sleep } from './live.js'
import { TcpProxy } from './tcp-proxy.js'

/**
 * Dependencies failing under a running server. The customer's warehouse stalls mid-query:
 * QUERY_TIMEOUT within the timeout and the statement cancelled on the database too. The
 * metadata PostgreSQL and Redis are partitioned away (through a TCP proxy the test controls;
 * the shared servers are never stopped): readiness turns 503 within its 3 s bound, API calls
 * answer a clear error quickly instead of hanging, and once the network heals the server
 * recovers by itself.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const hasRedis = await requireService('Redis', '127.0.0.1', 6379)

/** One request with the time it took; a request that gets no answer in `limitMs` is a failure. */
async function timed(
  base: string,
  method: string,
  path: string,
  options: Parameters<typeof request>[3] = {},
): Promise<JsonResponse & { ms: number }> {
  const started = performance.now()
  const res = await request(base, method, path, options)
  return { ...res, ms: Math.round(performance.now() - started) }
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const value = await probe().catch(() => undefined)
    if (value !== undefined) return value
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await sleep(100)
  }
}

describe.skipIf(!hasPg)('customer database stalls mid-query', () => {
  const TIMEOUT_MS = 1_000
  const { wh, a } = useAnalytics('sqlite', {
    app: 'suite',
    env: { LOG_LEVEL: 'silent', QUERY_TIMEOUT_MS: String(TIMEOUT_MS) },
    // a view whose every read sleeps for a minute: the statement the server must cancel
    prepare: (wh) => createSlowOrders(wh, 60),
  })

  beforeAll(async () => {
    await a.ok('PUT', '/api/v2/data-app/datamarts', a.serviceToken, {
      datamartName: 'sales',
      tableList: salesTables(wh.schema, 'slow_orders'),
    })
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'slow',
      importDashboardData: {
        name: 'Slow',
        metrics: [
          {
            metricId: 'slow_revenue',
            name: 'Slow revenue',
            chart: { type: 'single-value', y: ['revenue'] },
            query: {
              from: `${wh.schema}.slow_orders`,
              measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
            },
          },
        ],
      },
    })
  })

  it('answers QUERY_TIMEOUT within the timeout and cancels the statement on the database', async () => {
    const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'slow',
      embedType: 'metric',
      metricId: 'slow_revenue',
      workspaceName: 'main',
    })
    const started = performance.now()
    const res = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
      embedId: embed.id,
      metricId: 'slow_revenue',
      clientId: 'acme',
    })
    const ms = Math.round(performance.now() - started)
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400)
    expect(res.statusCode).toBeLessThan(600)
    expect(res.json().error.code, res.body).toBe('QUERY_TIMEOUT')
    expect(ms).toBeLessThan(TIMEOUT_MS + 1_500)
    // the database is not left running it: no backend still sleeping on our view
    const admin = new pg.Client({ connectionString: POSTGRES_URL })
    await admin.connect()
    try {
      const running = await until('the statement is cancelled on the database', 3_000, async () => {
        const { rows } = await admin.query(
          `select pid, state, query from pg_stat_activity where query like $1 and pid <> pg_backend_pid()`,
          [`%${wh.schema}%slow_orders%`],
        )
        return rows.filter((r) => r.state === 'active').length === 0 ? rows : undefined
      })
      console.log(
        `[faults/warehouse] QUERY_TIMEOUT_MS=${TIMEOUT_MS}: answered ${res.statusCode} QUERY_TIMEOUT after ${ms} ms; ` +
          `pg_stat_activity afterwards: ${running.filter((r) => r.state === 'active').length} active statements on the slow view`,
      )
    } finally {
      await admin.end()
    }
  })
})

describe.skipIf(!hasPg)('metadata PostgreSQL partitioned away', () => {
  const cleanups = useCleanups()

  it('readiness 503 within 3 s, API errors fast, recovery by itself (partition, then refusal)', {
    timeout: 60_000,
  }, async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5432 })
    cleanups.push(() => proxy.close())
    const database = await createPostgresDatabase()
    cleanups.push(database.drop)
    const url = new URL(database.url)
    url.host = `127.0.0.1:${proxy.port}`
    const dataDir = tempDataDir()
    cleanups.push(() => removeDir(dataDir))
    const server: ServerProcess = await startServer({
      env: { DATA_DIR: dataDir, DATABASE_URL: url.toString(), RATE_LIMIT: '0' },
    })
    cleanups.push(async () => void (await server.stop(3_000)))
    const creds = await bootstrapOver(server.url)
    expect((await request(server.url, 'GET', '/health/ready')).status).toBe(200)

    for (const mode of ['freeze', 'refuse'] as const) {
      await proxy.cut(mode)
      const cutAt = performance.now()
      // readiness, and reads and writes with each token kind, all at once: a clear error, quickly
      const [ready, ...calls] = await Promise.all([
        timed(server.url, 'GET', '/health/ready'),
        timed(server.url, 'GET', '/api/v2/data-app', { token: creds.serviceToken }),
        timed(server.url, 'POST', '/api/v2/data-app/api-tokens', {
          token: creds.serviceToken,
          body: { dataAppName: 'salesapp', name: `during the outage (${mode})` },
        }),
        timed(server.url, 'POST', '/api/v2/guest-token/create', {
          token: creds.dataAppKey,
          body: { dataAppName: 'salesapp', clientId: 'acme' },
        }),
        timed(server.url, 'GET', '/api/v2/data-app/whitelist-domains', { token: 'sk_000000000000_unknown' }),
      ])
      expect(ready?.status).toBe(503)
      expect(ready?.body.checks.postgres.status).toBe('DOWN')
      expect(ready?.ms).toBeLessThan(3_500)
      for (const call of calls) {
        expect(call.ms, JSON.stringify(call.body)).toBeLessThan(7_000)
        expect([503, 401], JSON.stringify(call.body)).toContain(call.status)
      }
      for (const call of calls.filter((c) => c.status === 503)) expect(call.body.error.code).toBe('SERVICE_UNAVAILABLE')
      expect((await request(server.url, 'GET', '/health/live')).status).toBe(200)

      await proxy.restore()
      const restoredAt = performance.now()
      await until('readiness back to 200', 15_000, async () =>
        (await request(server.url, 'GET', '/health/ready')).status === 200 ? true : undefined,
      )
      const readyAgainMs = Math.round(performance.now() - restoredAt)
      const after = await request(server.url, 'POST', '/api/v2/data-app/api-tokens', {
        token: creds.serviceToken,
        body: { dataAppName: 'salesapp', name: `after the outage (${mode})` },
      })
      expect(after.status, JSON.stringify(after.body)).toBe(200)
      expect(server.child.exitCode).toBeNull()
      console.log(
        `[faults/metadata-pg ${mode}] readiness 503 after ${ready?.ms} ms; API answers during the outage: ` +
          `${calls.map((c) => `${c.status} ${c.body?.error?.code ?? ''} in ${c.ms} ms`).join('; ')}; ` +
          `ready again ${readyAgainMs} ms after the network healed (outage ${Math.round(restoredAt - cutAt)} ms)`,
      )
    }
  })
})

describe.skipIf(!hasRedis)('Redis partitioned away', () => {
  const cleanups = useCleanups()

  it('rate limits fail open, readiness 503 then back (partition, then refusal)', { timeout: 60_000 }, async () => {
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: 6379 })
    cleanups.push(() => proxy.close())
    const dataDir = tempDataDir()
    cleanups.push(() => removeDir(dataDir))
    const clients = [0, 1].map(() => `10.${[...randomBytes(3)].join('.')}`)
    const server = await startServer({
      env: { DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${proxy.port}`, RATE_LIMIT: '20' },
    })
    cleanups.push(async () => void (await server.stop(3_000)))
    cleanups.push(async () => {
      const redis = new Redis(REDIS_URL, { lazyConnect: true })
      await redis.connect()
      await redis.del(...clients.flatMap((c) => [`strata:rl:global:${c}`, `strata:rl:auth:${c}`]))
      redis.disconnect()
    })
    const creds = await bootstrapOver(server.url, { 'x-client-ip': `10.${[...randomBytes(3)].join('.')}` })
    expect((await request(server.url, 'GET', '/health/ready')).body.checks.redis).toEqual({ status: 'UP' })

    for (const [i, mode] of (['freeze', 'refuse'] as const).entries()) {
      const headers = { 'x-client-ip': clients[i] as string }
      const list = () => timed(server.url, 'GET', '/api/v2/data-app', { token: creds.serviceToken, headers })
      expect((await list()).headers.get('ratelimit')).toMatch(/^limit=20, remaining=19/)

      await proxy.cut(mode)
      const ready = await timed(server.url, 'GET', '/health/ready')
      expect(ready.status).toBe(503)
      expect(ready.body.checks.redis.status).toBe('DOWN')
      expect(ready.ms).toBeLessThan(3_500)
      // the limit degrades to allowing: more requests than the limit, all served, none slow
      const during: (JsonResponse & { ms: number })[] = []
      for (let n = 0; n < 25; n++) during.push(await list())
      expect(during.map((r) => r.status)).toEqual(during.map(() => 200))
      const slowest = Math.max(...during.map((r) => r.ms))
      expect(slowest).toBeLessThan(2_500)

      await proxy.restore()
      await until('readiness back to 200', 15_000, async () =>
        (await request(server.url, 'GET', '/health/ready')).status === 200 ? true : undefined,
      )
      // counting again (once the fail-open interval has passed): the limit holds
      await until('rate limit counting again', 5_000, async () =>
        (await list()).headers.get('ratelimit') ? true : undefined,
      )
      const statuses: number[] = []
      for (let n = 0; n < 25; n++) statuses.push((await list()).status)
      expect(statuses).toContain(429)
      console.log(
        `[faults/redis ${mode}] readiness 503 after ${ready.ms} ms; during the outage 25/25 requests over a limit of 20 ` +
          `served (slowest ${slowest} ms); after recovery: ${statuses.filter((s) => s === 200).length} served then 429`,
      )
    }
  })
})
