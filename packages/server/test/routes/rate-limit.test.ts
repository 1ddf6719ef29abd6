import http from 'node:http'
import Fastify from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../../src/config.js'
import { proxyTrust } from '../../src/plugins/app/rate-limit/client.js'
import rateLimit from '../../src/plugins/app/rate-limit/plugin.js'
import { MemoryRateLimitStore } from '../../src/plugins/app/rate-limit/stores.js'
import { createTestApp, type TestContext } from '../helpers/app.js'

describe('rate limits (docs/operations.md#rate-limits)', () => {
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

  // Regression (issue 12): the limiter matched the raw URL with startsWith('/api/') while the
  // router decodes percent-escapes, so `/%61pi/v2/admin-account/jwt` reached sign-in uncounted.
  it('counts every spelling that reaches the sign-in route against its group', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '100', AUTH_ROUTE_RATE_LIMIT: '7' })
    const spellings = [
      '/%61pi/v2/admin-account/jwt',
      '/%61%70%69/v2/admin-account/jwt',
      '/api/v2/admin%2Daccount/jwt',
      '/api/v2/admin-account/jw%74',
      '/api/v2/admin-account/jwt/',
      '/%61pi/v2/admin-account/jwt/?x=1',
      '/api/v2/admin-account/jwt',
    ]
    for (const [i, url] of spellings.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: { email: 'a@b.co', password: 'x' },
        headers: { 'x-client-ip': '10.7.0.1' },
      })
      expect(res.json().error.code, url).toBe('USER_NOT_FOUND') // it reached sign-in …
      expect(res.headers.ratelimit, url).toBe(`limit=7, remaining=${6 - i}, reset=60`) // … and was counted
    }
    const over = await t.app.inject({
      method: 'POST',
      url: '/%61pi/v2/admin-account/jwt',
      payload: { email: 'a@b.co', password: 'x' },
      headers: { 'x-client-ip': '10.7.0.1' },
    })
    expect(over.statusCode).toBe(429)
    expect(over.json().error.message).toMatch(/auth/)
  })

  it('counts HEAD like GET, and requests that match no route against the global limit', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '6' })
    const send = (method: 'GET' | 'HEAD' | 'POST', url: string) =>
      t!.app.inject({ method, url, headers: { 'x-client-ip': '10.7.0.2' } })
    const answers = [
      await send('HEAD', '/api/v2/data-app'),
      // a different case, doubled slashes, a `;` parameter: these match no route today (the
      // router is case-sensitive and keeps slashes and semicolons); routed or not, they count
      await send('POST', '/API/v2/admin-account/jwt'),
      await send('POST', '//api/v2/admin-account/jwt'),
      await send('POST', '/api//v2/admin-account/jwt'),
      await send('POST', '/api/v2/admin-account/jwt;x=1'),
      await send('GET', '/no/such/route'),
    ]
    for (const [i, res] of answers.entries()) {
      expect([400, 401, 404], `request ${i + 1}`).toContain(res.statusCode)
      expect(res.headers.ratelimit, `request ${i + 1}`).toBe(`limit=6, remaining=${5 - i}, reset=120`)
    }
    expect((await send('POST', '/API/v2/admin-account/jwt')).statusCode).toBe(429)
    expect((await send('GET', '/api/v2/data-app')).statusCode).toBe(429)
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

  // Regression (issue 12): X-Client-IP / X-Forwarded-For were believed from anyone, so a
  // client picked a new identity per request. app.inject comes from 127.0.0.1 unless told.
  it('ignores X-Client-IP and X-Forwarded-For from a peer outside TRUST_PROXY', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '2', TRUST_PROXY: '192.0.2.0/24' })
    const spoof = (headers: Record<string, string>) =>
      t!.app.inject({ method: 'GET', url: '/api/v2/data-app', headers })
    expect((await spoof({ 'x-client-ip': '10.8.0.1' })).statusCode).toBe(401)
    expect((await spoof({ 'x-forwarded-for': '10.8.0.2' })).statusCode).toBe(401)
    // a third identity changes nothing: all three were counted for 127.0.0.1
    const third = await spoof({ 'x-client-ip': '10.8.0.3', 'x-forwarded-for': '10.8.0.4' })
    expect(third.statusCode).toBe(429)
    // while a trusted proxy still names its clients
    const viaProxy = await t.app.inject({
      method: 'GET',
      url: '/api/v2/data-app',
      remoteAddress: '192.0.2.10',
      headers: { 'x-client-ip': '10.8.0.3' },
    })
    expect(viaProxy.statusCode).toBe(401)
  })

  it('believes a trusted proxy: X-Client-IP first, then the nearest untrusted X-Forwarded-For hop', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '1', TRUST_PROXY: '192.0.2.0/24, 2001:db8::/32' })
    const viaProxy = (headers: Record<string, string>, remoteAddress = '192.0.2.10') =>
      t!.app.inject({ method: 'GET', url: '/api/v2/data-app', remoteAddress, headers })
    // X-Client-IP wins over X-Forwarded-For
    expect((await viaProxy({ 'x-client-ip': '198.51.100.1', 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(401)
    expect((await viaProxy({ 'x-client-ip': '198.51.100.1' })).statusCode).toBe(429)
    // X-Forwarded-For: the proxy appended the address it saw, 198.51.100.2 (a trusted hop in
    // between is skipped); what the client wrote to the left of it is not believed
    expect((await viaProxy({ 'x-forwarded-for': '203.0.113.1, 198.51.100.2, 192.0.2.99' })).statusCode).toBe(401)
    expect((await viaProxy({ 'x-forwarded-for': '203.0.113.2, 198.51.100.2' })).statusCode).toBe(429)
    // an IPv6 proxy, and a port some proxies append, name the same client
    expect((await viaProxy({ 'x-forwarded-for': '198.51.100.2:51234' }, '2001:db8::7')).statusCode).toBe(429)
    // with no header, a trusted proxy's own requests count for the proxy
    expect((await viaProxy({})).statusCode).toBe(401)
    expect((await viaProxy({})).statusCode).toBe(429)
  })

  it('TRUST_PROXY=none counts the socket address only', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '1', TRUST_PROXY: 'none' })
    expect((await get('/api/v2/data-app', '10.9.0.1')).statusCode).toBe(401)
    expect((await get('/api/v2/data-app', '10.9.0.2')).statusCode).toBe(429)
    expect((await get('/api/v2/data-app', '10.9.0.3', 'x-forwarded-for')).statusCode).toBe(429)
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

  it('limits the API under BASE_PATH, and still not the probes', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '1', BASE_PATH: '/analytics' })
    for (let i = 0; i < 2; i++) expect((await get('/analytics/health/live', '10.5.5.6')).statusCode).toBe(200)
    expect((await get('/analytics/%61pi/v2/data-app', '10.5.5.6')).statusCode).toBe(401)
    expect((await get('/analytics/api/v2/data-app', '10.5.5.6')).statusCode).toBe(429)
  })

  it('RATE_LIMIT=0 turns the global limit off', async () => {
    t = await createTestApp('sqlite', { RATE_LIMIT: '0' })
    for (let i = 0; i < 5; i++) expect((await get('/api/v2/data-app', '10.6.6.6')).statusCode).toBe(401)
  })

  // The client's key is remembered per connection where it cannot change (an untrusted peer:
  // its socket address); from a trusted proxy every request on a kept-alive connection is read anew.
  it('on one kept-alive connection, counts per X-Client-IP from a trusted proxy and per socket otherwise', async () => {
    const remaining = async (trustProxy: string) => {
      t = await createTestApp('sqlite', { RATE_LIMIT: '5', TRUST_PROXY: trustProxy })
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      const sockets = new Set<unknown>()
      const seen: string[] = []
      try {
        for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.1', '10.0.0.3']) {
          seen.push(
            await new Promise<string>((resolve, reject) => {
              const req = http.get(`${address}/api/v2/data-app`, { agent, headers: { 'x-client-ip': ip } }, (res) => {
                sockets.add(req.socket)
                res.resume()
                res.on('end', () => resolve(String(res.headers.ratelimit)))
              })
              req.on('error', reject)
            }),
          )
        }
      } finally {
        agent.destroy()
        await t.close()
        t = undefined
      }
      expect(sockets.size).toBe(1)
      return seen.map((header) => /remaining=(\d+)/.exec(header)?.[1])
    }
    // loopback is trusted by default: each named client has its own count
    expect(await remaining('loopback')).toEqual(['4', '4', '3', '4'])
    // nothing trusted: the socket's address counts, whatever the header says
    expect(await remaining('none')).toEqual(['4', '3', '2', '1'])
  })

  it('keeps at most maxEntries counters however many clients come', async () => {
    const store = new MemoryRateLimitStore(50)
    const app = Fastify({ trustProxy: proxyTrust(parseConfig({}).trustProxy) })
    const rules = parseConfig({ RATE_LIMIT: '3' }).rateLimits
    await app.register(rateLimit, { rules, store, apiPrefix: '/api/', trusts: proxyTrust(parseConfig({}).trustProxy) })
    app.get('/api/x', async () => ({ ok: true }))
    try {
      const hit = (ip: string) => app.inject({ method: 'GET', url: '/api/x', headers: { 'x-client-ip': ip } })
      for (let i = 0; i < 1000; i++) {
        expect((await hit(`10.10.${i >> 8}.${i & 255}`)).statusCode).toBe(200)
        // a client that keeps coming is recently used, so it is never the one evicted
        if (i % 20 === 0) await hit('10.11.0.1')
        expect(store.size).toBeLessThanOrEqual(50)
      }
      expect(store.size).toBe(50)
      expect((await hit('10.11.0.1')).statusCode).toBe(429)
      // the oldest were evicted: their count starts again
      expect((await hit('10.10.0.0')).headers.ratelimit).toBe('limit=3, remaining=2, reset=120')
    } finally {
      await app.close()
    }
  })
})
