import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresDatabase } from '../helpers/app.js'
import { bootstrapOver, removeDir, request, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { REDIS_URL, requireService } from '../helpers/services.js'

/**
 * The rate limits (docs/operations.md#rate-limits) with REDIS_URL: the count is per client across every instance. Two
 * server processes share one PostgreSQL database and one Redis; requests from one client
 * alternate between them. Client addresses are random per run, so the Redis keys
 * (`strata:rl:<group>:<client>`) never collide with another run's, and are deleted after.
 */
const available =
  (await requireService('PostgreSQL', '127.0.0.1', 5432)) && (await requireService('Redis', '127.0.0.1', 6379))

const randomIp = () => `10.${[...randomBytes(3)].join('.')}`

describe.runIf(available)('rate limit shared through Redis by two instances', () => {
  const limited = randomIp()
  const other = randomIp()
  const setup = randomIp()
  const cleanups: (() => Promise<void> | void)[] = []
  let a: ServerProcess
  let b: ServerProcess
  let serviceToken: string

  beforeAll(async () => {
    const database = await createPostgresDatabase()
    cleanups.push(database.drop)
    const env = (dataDir: string) => ({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      REDIS_URL,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      RATE_LIMIT: '6',
    })
    const dirs = [tempDataDir(), tempDataDir()]
    cleanups.push(() => dirs.forEach(removeDir))
    // one after the other: the first applies the migrations
    a = await startServer({ env: env(dirs[0]!) })
    cleanups.push(async () => void (await a.stop()))
    b = await startServer({ env: env(dirs[1]!) })
    cleanups.push(async () => void (await b.stop()))
    ;({ serviceToken } = await bootstrapOver(a.url, { 'x-client-ip': setup }))
  })

  afterAll(async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true })
    await redis.connect()
    await redis.del(...[limited, other, setup].flatMap((ip) => [`strata:rl:global:${ip}`, `strata:rl:auth:${ip}`]))
    redis.disconnect()
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  const list = (server: ServerProcess, ip: string) =>
    request(server.url, 'GET', '/api/v2/data-app', { token: serviceToken, headers: { 'x-client-ip': ip } })

  it('counts one client across both instances: the 7th request overall is 429', async () => {
    const seen: string[] = []
    for (let i = 0; i < 6; i++) {
      const server = i % 2 === 0 ? a : b
      const res = await list(server, limited)
      expect(res.status, `request ${i + 1} on instance ${i % 2 === 0 ? 'A' : 'B'}`).toBe(200)
      // the remaining count falls with every request, whichever instance served it
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^limit=6, remaining=${5 - i}, reset=\\d+$`))
      seen.push(`${i % 2 === 0 ? 'A' : 'B'}:${res.status}`)
    }
    const seventh = await list(a, limited)
    expect(seventh.status).toBe(429)
    expect(seventh.body.error.code).toBe('RATE_LIMIT_EXCEEDED')
    const retryAfter = Number(seventh.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(120)
    const eighth = await list(b, limited)
    expect(eighth.status).toBe(429)

    // another client is still served, by either instance
    expect((await list(a, other)).status).toBe(200)
    expect((await list(b, other)).status).toBe(200)
    console.log(
      `[rate-limit/redis] RATE_LIMIT=6 over two instances: ${seen.join(' ')} A:${seventh.status} (Retry-After ${retryAfter} s) B:${eighth.status}; another client: 200 on both`,
    )
  })

  it('gives every counter key an expiry within its window', async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true })
    await redis.connect()
    try {
      // the counters of the two clients the test above used, in their 2-minute global window
      for (const key of [limited, other].map((ip) => `strata:rl:global:${ip}`)) {
        const ttl = await redis.pttl(key)
        expect(ttl, key).toBeGreaterThan(0) // -1 would be a key that never expires, -2 a missing one
        expect(ttl, key).toBeLessThanOrEqual(120_000)
      }
    } finally {
      redis.disconnect()
    }
  })

  it('reports Redis in readiness on both instances', async () => {
    for (const server of [a, b]) {
      const ready = await request(server.url, 'GET', '/health/ready')
      expect(ready.status).toBe(200)
      expect(ready.body.checks.redis).toEqual({ status: 'UP' })
    }
  })
})
