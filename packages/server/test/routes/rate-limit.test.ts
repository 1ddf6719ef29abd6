import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'

describe('rate limits (spec: Limits)', () => {
  let t: TestContext | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })

  const get = (url: string, ip: string, headerName = 'x-client-ip') =>
    t!.app.inject({ method: 'GET', url, headers: { [headerName]: ip } })
  const signIn = (ip: string) =>
    t!.app.inject({
      method: 'POST',
      url: '/api/v2/admin-account/jwt',
      payload: { email: 'a@b.co', password: 'x' },
      headers: { 'x-client-ip': ip },
    })

  it('applies RATE_LIMIT per client over 2 minutes, with RateLimit headers and a 429 in the error shape', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '3' })
    const first = await get('/api/v2/data-app', '10.0.0.1')
    expect(first.headers.ratelimit).toBe('limit=3, remaining=2, reset=120')
    expect(first.headers['ratelimit-policy']).toBe('3;w=120')
    expect(first.headers['retry-after']).toBeUndefined()
    await get('/api/v2/data-app', '10.0.0.1')
    const third = await get('/api/v2/data-app', '10.0.0.1')
    expect(third.statusCode).toBe(401) // allowed through to auth
    expect(third.headers.ratelimit).toMatch(/^limit=3, remaining=0, reset=\d+$/)
    const fourth = await get('/api/v2/data-app', '10.0.0.1')
    expect(fourth.statusCode).toBe(429)
    expect(fourth.json().error.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(fourth.json().error.message).toMatch(/Too many requests/)
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(120)
    // another client is unaffected
    expect((await get('/api/v2/data-app', '10.0.0.2')).statusCode).toBe(401)
  })

  it('identifies the client by X-Client-IP first, then X-Forwarded-For', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '1' })
    expect((await get('/api/v2/data-app', '10.1.1.1, 10.9.9.9', 'x-forwarded-for')).statusCode).toBe(401)
    expect((await get('/api/v2/data-app', '10.1.1.1', 'x-forwarded-for')).statusCode).toBe(429)
    // X-Client-IP wins over X-Forwarded-For
    const both = await t.app.inject({
      method: 'GET',
      url: '/api/v2/data-app',
      headers: { 'x-client-ip': '10.2.2.2', 'x-forwarded-for': '10.1.1.1' },
    })
    expect(both.statusCode).toBe(401)
  })

  it('stacks a route group limit on top of the global one', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '5', AUTH_ROUTE_RATE_LIMIT: '2' })
    const a = await signIn('10.3.3.3')
    expect(a.headers['ratelimit-policy']).toBe('5;w=120, 2;w=60')
    expect(a.headers.ratelimit).toBe('limit=2, remaining=1, reset=60')
    await signIn('10.3.3.3')
    const third = await signIn('10.3.3.3')
    expect(third.statusCode).toBe(429)
    expect(third.json().error.message).toMatch(/auth/)
    // the global window (3 of 5 used) still has room for this client on other routes …
    expect((await get('/api/v2/data-app', '10.3.3.3')).statusCode).toBe(401)
    expect((await get('/api/v2/data-app', '10.3.3.3')).statusCode).toBe(401)
    // … until the global count runs out too
    expect((await get('/api/v2/data-app', '10.3.3.3')).statusCode).toBe(429)
  })

  it('puts token refresh under REFRESH_ROUTE_RATE_LIMIT', async () => {
    t = await createTestApp('sqlite', { REFRESH_ROUTE_RATE_LIMIT: '1' })
    const refresh = () =>
      t!.app.inject({
        method: 'POST',
        url: '/api/v2/admin-account/jwt/refresh',
        payload: { refreshToken: 'nope' },
        headers: { 'x-client-ip': '10.4.4.4' },
      })
    expect((await refresh()).statusCode).toBe(401)
    expect((await refresh()).statusCode).toBe(429)
    expect((await signIn('10.4.4.4')).statusCode).toBe(400) // other groups untouched
  })

  it('does not limit health probes or the API document', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '1' })
    for (let i = 0; i < 3; i++) {
      expect((await get('/health/live', '10.5.5.5')).statusCode).toBe(200)
      expect((await get('/openapi.json', '10.5.5.5')).statusCode).toBe(200)
    }
  })

  it('RATE_LIMIT=0 turns the global limit off', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '0' })
    for (let i = 0; i < 5; i++) expect((await get('/api/v2/data-app', '10.6.6.6')).statusCode).toBe(401)
  })
})
