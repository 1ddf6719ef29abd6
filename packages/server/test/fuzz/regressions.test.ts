import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'

/**
 * Inputs the fuzzer (test/fuzz/fuzz.test.ts) found answered outside the error shape, each
 * kept here as a plain example so that it stays fixed whatever the fuzzer's seed.
 */
describe('fuzzer findings', () => {
  let t: TestContext
  let guest: string
  let dataAppKey: string
  beforeAll(async () => {
    t = await createTestApp('sqlite', { LOG_LEVEL: 'silent' })
    const creds = await bootstrap(t.app)
    dataAppKey = creds.dataAppKey
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/guest-token/create',
      payload: { dataAppName: 'salesapp', clientId: 'acme' },
      headers: bearer(creds.dataAppKey),
    })
    guest = res.json().token
  })
  afterAll(async () => t.close())

  const expectErrorShape = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400)
    expect(res.statusCode, res.body).toBeLessThan(500)
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/)
    const body = JSON.parse(res.body)
    expect(Object.keys(body), res.body).toEqual(['error'])
    expect(typeof body.error.code, res.body).toBe('string')
    expect(body.error.code, res.body).not.toMatch(/^FST_/)
    expect(typeof body.error.message).toBe('string')
    expect(body.error.message.length).toBeLessThanOrEqual(1000)
  }

  it('a malformed percent-escape in the path answers the error shape (was Fastify’s FST_ERR_BAD_URL body)', async () => {
    for (const url of ['/api/v2/embed/runtime/emb_x%/query', '/api/v2/embed/runtime/a%E0%A4%A', '/%ZZ']) {
      const res = await t.app.inject({
        method: url.endsWith('query') ? 'POST' : 'GET',
        url,
        headers: { ...bearer(guest), 'content-type': 'application/json' },
        payload: url.endsWith('query') ? '{"metricId":"revenue"}' : undefined,
      })
      expectErrorShape(res)
      expect(res.json().error.code).toBe('INVALID_REQUEST_BODY')
    }
  })

  it('a path parameter over the router’s length limit answers the error shape (was FST_ERR_MAX_PARAM_LENGTH, 414)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/embed/runtime/${'x'.repeat(5_000)}`,
      headers: bearer(guest),
    })
    expectErrorShape(res)
  })

  it('a JSON string or number as the body of POST /api/v2/data-app/embeds is a 400 (was a 500: `in` on a primitive)', async () => {
    for (const payload of ['"abc"', '1', 'true', '"embedId"']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/data-app/embeds?isDeleteDashboard=false',
        payload,
        headers: { ...bearer(dataAppKey), 'content-type': 'application/json' },
      })
      expectErrorShape(res)
      expect(res.json().error.code).toBe('INVALID_REQUEST_BODY')
    }
  })
})
