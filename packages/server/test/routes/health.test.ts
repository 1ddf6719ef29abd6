import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'

describe('health probes', () => {
  let t: TestContext | undefined
  let server: Server | undefined
  afterEach(async () => {
    await t?.close()
    server?.close()
    t = server = undefined
  })

  /** A local HTTP server answering `status` (or never answering when status is 0). */
  async function upstream(status: number): Promise<string> {
    server = createServer((_req, res) => {
      if (status === 0) return // hang
      res.statusCode = status
      res.end('{}')
    })
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  it.each(storeKinds)('live and ready with no configuration on %s', async (store) => {
    t = await createTestApp(store)
    const live = await t.app.inject({ method: 'GET', url: '/health/live' })
    expect([live.statusCode, live.json()]).toEqual([200, { status: 'live' }])
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({ status: 'ready', checks: { postgres: { status: 'UP' }, hasura: { status: 'UP' } } })
  })

  it('serves the probes under BASE_PATH, and only there', async () => {
    t = await createTestApp('sqlite', { BASE_PATH: '/analytics/' })
    expect((await t.app.inject({ method: 'GET', url: '/analytics/health/live' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/analytics/health/ready' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/analytics/openapi.json' })).statusCode).toBe(200)
  })

  it('probes GRAPHQL_ENGINE_ENDPOINT and IDENTITY_SERVER_URL with statusCode when they answer', async () => {
    const up = await upstream(200)
    t = await createTestApp('sqlite', { GRAPHQL_ENGINE_ENDPOINT: up, IDENTITY_SERVER_URL: up })
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json().checks).toEqual({
      postgres: { status: 'UP' },
      hasura: { status: 'UP', statusCode: 200 },
      keycloak: { status: 'UP', statusCode: 200 },
    })
  })

  it('answers 503 not_ready when a dependency answers an error', async () => {
    const down = await upstream(500)
    t = await createTestApp('sqlite', { IDENTITY_SERVER_URL: down })
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json().status).toBe('not_ready')
    expect(ready.json().checks.keycloak).toEqual({ status: 'DOWN', statusCode: 500, error: 'HTTP 500' })
  })

  it('bounds each probe by 3 s: a hanging dependency is DOWN without statusCode', async () => {
    const hanging = await upstream(0)
    t = await createTestApp('sqlite', { GRAPHQL_ENGINE_ENDPOINT: hanging })
    const started = Date.now()
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' })
    const elapsed = Date.now() - started
    expect(ready.statusCode).toBe(503)
    expect(ready.json().checks.hasura.status).toBe('DOWN')
    expect(ready.json().checks.hasura.statusCode).toBeUndefined()
    expect(ready.json().checks.hasura.error).toMatch(/3000 ms/)
    expect(elapsed).toBeGreaterThanOrEqual(2900) // it did wait for the bound …
    expect(elapsed).toBeLessThan(10_000) // … and not for the dependency
  })

  it('reports an unreachable Redis as DOWN (503) without hanging', async () => {
    t = await createTestApp('sqlite', { REDIS_URL: 'redis://127.0.0.1:1' })
    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json().checks.redis.status).toBe('DOWN')
    expect(ready.json().checks.redis.error).toEqual(expect.any(String))
  })
})
