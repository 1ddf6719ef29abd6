import type { LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { expiredToken } from '../helpers/expired-token.js'
import { requireService } from '../helpers/services.js'
import { type Cleanup, useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

/**
 * The embed runtime's CORS on every answer, not only the 200s: a page on another origin reads
 * nothing without Access-Control-Allow-Origin, so a 401 without it is a "network error" to the
 * web component and the token refresh (strata-token-expired) never starts.
 */
const ALLOWED = 'https://app.example.com'
const OTHER_APPS = 'https://shop.partner.org'
const REFUSED = 'https://evil.example.org'

/** The CORS headers an allowed origin must get on this answer. */
function expectCors(res: LightMyRequestResponse, origin: string): void {
  expect(res.headers['access-control-allow-origin'], `${res.statusCode} ${res.body}`).toBe(origin)
  expect(String(res.headers.vary).toLowerCase()).toContain('origin')
  expect(String(res.headers['access-control-expose-headers'])).toContain('strata-truncated')
  expect(String(res.headers['access-control-expose-headers'])).toContain('retry-after')
}

function expectNoCors(res: LightMyRequestResponse): void {
  expect(res.headers['access-control-allow-origin'], `${res.statusCode} ${res.body}`).toBeUndefined()
  expect(res.headers['access-control-expose-headers']).toBeUndefined()
  expect(String(res.headers.vary).toLowerCase()).toContain('origin')
}

const warnings = (t: TestContext) =>
  t.logs.filter((l) => l.level === 40 && String(l.msg).startsWith('CORS')).map((l) => String(l.msg))

describe.skipIf(!hasPg).each(storeKinds)('embed runtime CORS on %s', (store) => {
  const { t, a } = useAnalytics(store)

  const mint = async (body: object = {}, key = a.dataAppKey): Promise<string> => {
    const res = await a.call('POST', '/api/v2/guest-token/create', key, {
      dataAppName: 'salesapp',
      clientId: 'acme',
      ...body,
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().token as string
  }
  const runtime = (
    origin: string,
    token: string | undefined,
    path = '',
    method: 'GET' | 'POST' = 'GET',
    payload?: object,
  ) =>
    t.app.inject({
      method,
      url: `/api/v2/embed/runtime/${a.embedId}${path}`,
      ...(payload ? { payload } : {}),
      headers: { origin, ...(token ? bearer(token) : {}) },
    })
  const whitelist = (domains: string[], key = a.dataAppKey) =>
    a.ok('PUT', '/api/v2/data-app/whitelist-domains', key, { domains })

  it('carries the CORS headers on every answer to a whitelisted origin: 200, 401, 403, 400, 404', async () => {
    await whitelist(['app.example.com', '*.customer.com'])
    const token = await mint()

    const ok = await runtime(ALLOWED, token)
    expect(ok.statusCode).toBe(200)
    expectCors(ok, ALLOWED)

    // expired: the web component must read this 401 to fire strata-token-expired
    const shortLived = await expiredToken(t.app, await mint())
    const expired = await runtime(ALLOWED, shortLived, '/query', 'POST', { metricId: 'revenue' })
    expectError(expired, 401, 'AUTHENTICATION_ERROR')
    expectCors(expired, ALLOWED)

    // revoked: the key that minted it is revoked
    const created = await a.ok('POST', '/api/v2/data-app/api-tokens', a.serviceToken, {
      dataAppName: 'salesapp',
      name: 'revoked-later',
    })
    const revokedToken = await mint({}, created.key as string)
    expect((await runtime(ALLOWED, revokedToken)).statusCode).toBe(200)
    const keyId = (created.key as string).split('_').slice(0, 2).join('_')
    await a.ok('DELETE', `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${keyId}`, a.serviceToken)
    const revoked = await runtime(ALLOWED, revokedToken)
    expectError(revoked, 401, 'AUTHENTICATION_ERROR')
    expectCors(revoked, ALLOWED)

    // no token at all, a garbled one
    for (const bad of [undefined, 'gt_1.garbled']) {
      const res = await runtime(ALLOWED, bad)
      expectError(res, 401, 'AUTHENTICATION_ERROR')
      expectCors(res, ALLOWED)
    }

    // 403: a permission the token turns off, an embed outside allowedEmbeds
    const noRows = await mint({ permissions: { isEnableUnderlyingData: false } })
    const forbidden = await runtime(ALLOWED, noRows, '/underlying', 'POST', { metricId: 'revenue' })
    expectError(forbidden, 403, 'UNAUTHORIZED')
    expectCors(forbidden, ALLOWED)
    const another = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'dashboard',
      workspaceName: 'main',
      name: 'Another',
      accessSettings: ACCESS,
    })
    const outside = await runtime(ALLOWED, await mint({ params: { allowedEmbeds: [another.id] } }))
    expectError(outside, 403, 'UNAUTHORIZED')
    expectCors(outside, ALLOWED)

    // 400: validation (before any handler) and the service's own
    const invalid = await runtime(ALLOWED, token, '/query', 'POST', { metricId: 'revenue', clientId: 'globex' })
    expectError(invalid, 400, 'INVALID_REQUEST_BODY')
    expectCors(invalid, ALLOWED)
    const unknownMetric = await runtime(ALLOWED, token, '/query', 'POST', { metricId: 'nope' })
    expectError(unknownMetric, 400, 'EMBED_PARAM_ERROR')
    expectCors(unknownMetric, ALLOWED)
    const badJson = await t.app.inject({
      method: 'POST',
      url: `/api/v2/embed/runtime/${a.embedId}/query`,
      payload: '{"metricId":',
      headers: { origin: ALLOWED, 'content-type': 'application/json', ...bearer(token) },
    })
    expectError(badJson, 400, 'INVALID_REQUEST_BODY')
    expectCors(badJson, ALLOWED)

    // 404: a runtime path that does not exist, with and without a token
    for (const tok of [token, undefined]) {
      const missing = await runtime(ALLOWED, tok, '/no/such/route')
      expectError(missing, 404, 'NOT_FOUND')
      expectCors(missing, ALLOWED)
    }

    // a wildcard entry, and a preflight, which carries no token
    const sub = await runtime('https://x.customer.com', shortLived)
    expectError(sub, 401, 'AUTHENTICATION_ERROR')
    expectCors(sub, 'https://x.customer.com')
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `/api/v2/embed/runtime/${a.embedId}/query`,
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST' },
    })
    expect(preflight.statusCode).toBe(204)
    expectCors(preflight, ALLOWED)
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type')
    expect(warnings(t)).toEqual([])
  })

  it('sends no CORS headers to an origin no whitelist admits, and logs why at warn', async () => {
    await whitelist(['app.example.com', 'localhost:3000'])
    const token = await mint()
    const expired = await expiredToken(t.app, await mint())

    // a valid token: refused (403) and the log names the origin and the data app's whitelist
    const refused = await runtime(REFUSED, token)
    expectError(refused, 403, 'UNAUTHORIZED', /whitelist/)
    expectNoCors(refused)
    const [line, ...more] = warnings(t)
    expect(line).toContain(REFUSED)
    expect(line).toContain('salesapp')
    expect(line).toContain('app.example.com, localhost:3000')
    expect(more).toEqual([])
    const entry = t.logs.find((l) => l.level === 40 && String(l.msg).startsWith('CORS'))
    expect(entry).toMatchObject({
      origin: REFUSED,
      dataApp: 'salesapp',
      whitelist: ['app.example.com', 'localhost:3000'],
    })

    // no valid token: no data app to ask, and none whitelists it
    for (const res of [
      await runtime(REFUSED, expired),
      await runtime(REFUSED, undefined, '/no/such/route'),
      await t.app.inject({
        method: 'OPTIONS',
        url: `/api/v2/embed/runtime/${a.embedId}/query`,
        headers: { origin: REFUSED, 'access-control-request-method': 'POST' },
      }),
    ]) {
      expectNoCors(res)
    }
    expect(warnings(t).slice(1)).toEqual([
      `CORS: origin ${REFUSED} refused: no data app whitelists it (PUT /api/v2/data-app/whitelist-domains)`,
    ]) // once a minute per origin and data app, not once per request
    // a port is part of the origin
    expectNoCors(await runtime('http://localhost:3001', token))
    expectCors(await runtime('http://localhost:3000', token), 'http://localhost:3000')
  })

  it('checks a valid token against its own data app only; without one, any data app’s whitelist counts', async () => {
    await whitelist(['app.example.com'])
    const other = await a.ok('POST', '/api/v2/data-app', a.serviceToken, { name: 'partner' })
    await whitelist(['shop.partner.org'], other.key as string)
    const token = await mint()
    const expired = await expiredToken(t.app, await mint())
    // salesapp's token from partner's origin: refused, no headers
    const refused = await runtime(OTHER_APPS, token)
    expectError(refused, 403, 'UNAUTHORIZED')
    expectNoCors(refused)
    expect(warnings(t)[0]).toContain('salesapp whitelists app.example.com')
    // an expired token names no data app: the origin is one some data app admits
    const stale = await runtime(OTHER_APPS, expired)
    expectError(stale, 401, 'AUTHENTICATION_ERROR')
    expectCors(stale, OTHER_APPS)
    // same-origin requests need no whitelist and get no CORS headers
    const same = await t.app.inject({
      method: 'GET',
      url: `/api/v2/embed/runtime/${a.embedId}`,
      headers: { origin: 'http://strata.internal:8080', host: 'strata.internal:8080', ...bearer(token) },
    })
    expect(same.statusCode).toBe(200)
    expect(same.headers['access-control-allow-origin']).toBeUndefined()
  })
})

describe.skipIf(!hasPg)('embed runtime CORS on answers decided outside the route: 429, 500', () => {
  const cleanups: Cleanup[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  it('carries the CORS headers on a 429 from the rate limiter', async () => {
    const t = await createTestApp('sqlite', { RATE_LIMIT: '5' })
    cleanups.push(t.close)
    const { dataAppKey } = await bootstrap(t.app)
    await t.app.inject({
      method: 'PUT',
      url: '/api/v2/data-app/whitelist-domains',
      payload: { domains: ['app.example.com'] },
      headers: { ...bearer(dataAppKey), 'x-client-ip': '10.0.0.1' },
    })
    const call = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/v2/embed/runtime/sales',
        headers: { origin: ALLOWED, 'x-client-ip': '10.9.9.9', authorization: 'Bearer gt_1.x' },
      })
    for (let i = 0; i < 5; i++) expect((await call()).statusCode).toBe(401)
    const limited = await call()
    expectError(limited, 429, 'RATE_LIMIT_EXCEEDED')
    expectCors(limited, ALLOWED)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('carries the CORS headers on a 500 from the error handler', async () => {
    const t = await createTestApp('sqlite', { RATE_LIMIT: '0' })
    cleanups.push(t.close)
    const { dataAppKey } = await bootstrap(t.app)
    await t.app.inject({
      method: 'PUT',
      url: '/api/v2/data-app/whitelist-domains',
      payload: { domains: ['app.example.com'] },
      headers: bearer(dataAppKey),
    })
    // the whitelists are read once (then kept in memory for seconds), as any earlier request would
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v2/embed/runtime/sales',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET' },
    })
    expectCors(preflight, ALLOWED)
    // the metadata store fails under the server: a stored token must be looked up there
    await t.app.services.store.db.destroy()
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v2/embed/runtime/sales',
      headers: { origin: ALLOWED, ...bearer('gt_0123456789abcdef') },
    })
    expectError(res, 500, 'INTERNAL_SERVER_ERROR')
    expectCors(res, ALLOWED)
  })
})
