import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'

describe.each(storeKinds)('data apps, API keys and token kinds on %s', (store) => {
  let t: TestContext
  let creds: Awaited<ReturnType<typeof bootstrap>>
  beforeEach(async () => {
    t = await createTestApp(store)
    creds = await bootstrap(t.app)
  })
  afterEach(async () => t.close())

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: token ? bearer(token) : {} })

  it('creates a data app with its first key, lists it, and refuses a duplicate or bad name', async () => {
    const created = await call('POST', '/api/v2/data-app', creds.serviceToken, { name: 'marketing2' })
    expect(created.statusCode).toBe(200)
    expect(created.json()).toEqual({ name: 'marketing2', key: expect.stringMatching(/^sk_[0-9a-f]{12}_/) })
    const dup = await call('POST', '/api/v2/data-app', creds.serviceToken, { name: 'marketing2' })
    expect([dup.statusCode, dup.json().error.code]).toEqual([400, 'DATA_APP_ALREADY_EXISTS'])
    const bad = await call('POST', '/api/v2/data-app', creds.serviceToken, { name: 'has space' })
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'INVALID_REQUEST_BODY'])

    const list = await call('GET', '/api/v2/data-app', creds.serviceToken)
    expect(list.statusCode).toBe(200)
    expect(list.json().data.map((a: { name: string }) => a.name)).toEqual(['salesapp', 'marketing2'])
    expect(list.json().data[0]).toEqual({
      name: 'salesapp',
      type: 'embedded',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      embedCount: 0,
      embeds: [],
    })
  })

  it('creates, lists (identifiers only) and revokes API keys at once', async () => {
    const created = await call('POST', '/api/v2/data-app/api-tokens', creds.serviceToken, {
      dataAppName: 'salesapp',
      name: 'ci',
      description: 'for CI',
    })
    expect(created.statusCode).toBe(200)
    const secret = created.json().key as string
    const keyId = secret.split('_').slice(0, 2).join('_')
    expect((await call('GET', '/api/v2/data-app/whitelist-domains', secret)).statusCode).toBe(200)

    const list = await call('GET', '/api/v2/data-app/api-tokens?dataAppName=salesapp', creds.serviceToken)
    expect(list.statusCode).toBe(200)
    const items = list.json().data as { key: string; name: string; description: string; createdAt: string }[]
    expect(items.map((i) => i.name)).toEqual(['default', 'ci'])
    expect(items[1]).toEqual({ key: keyId, name: 'ci', description: 'for CI', createdAt: expect.any(String) })
    expect(list.body).not.toContain(secret)
    expect(list.body).not.toContain(creds.dataAppKey)

    const revoked = await call(
      'DELETE',
      `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${keyId}`,
      creds.serviceToken,
    )
    expect(revoked.json()).toEqual({ key: keyId })
    const after = await call('GET', '/api/v2/data-app/whitelist-domains', secret)
    expect([after.statusCode, after.json().error.code]).toEqual([401, 'INVALID_DATA_APP_API_KEY'])
    const again = await call(
      'DELETE',
      `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${keyId}`,
      creds.serviceToken,
    )
    expect([again.statusCode, again.json().error.code]).toEqual([400, 'INVALID_REQUEST_BODY'])
  })

  it('pages API keys by 10 when isPagination is true', async () => {
    for (let i = 0; i < 11; i++) {
      await call('POST', '/api/v2/data-app/api-tokens', creds.serviceToken, { dataAppName: 'salesapp', name: `k${i}` })
    }
    const page = (n: string) =>
      call(
        'GET',
        `/api/v2/data-app/api-tokens?dataAppName=salesapp&isPagination=true&pageNumber=${n}`,
        creds.serviceToken,
      )
    expect((await page('1')).json().data).toHaveLength(10)
    expect((await page('2')).json().data).toHaveLength(2)
    expect((await page('3')).json().data).toHaveLength(0)
    const all = await call('GET', '/api/v2/data-app/api-tokens?dataAppName=salesapp', creds.serviceToken)
    expect(all.json().data).toHaveLength(12)
    const bad = await page('abc')
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'INVALID_REQUEST_BODY'])
  })

  it('answers DATA_APP_NOT_FOUND for an unknown data app on api-tokens', async () => {
    const res = await call('GET', '/api/v2/data-app/api-tokens?dataAppName=ghost', creds.serviceToken)
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'DATA_APP_NOT_FOUND'])
  })

  it('answers each endpoint family with its own auth error code and status', async () => {
    const cases: [string, 'GET' | 'POST', string, number, string][] = [
      ['/api/v2/data-app', 'GET', 'service', 401, 'AUTHENTICATION_ERROR'],
      ['/api/v2/data-app/api-tokens?dataAppName=salesapp', 'GET', 'service', 400, 'AUTHENTICATION_ERROR'],
      ['/api/v2/data-app/whitelist-domains', 'GET', 'dataApp', 401, 'INVALID_DATA_APP_API_KEY'],
      ['/api/v2/service-token', 'POST', 'admin', 401, 'AUTHENTICATION_ERROR'],
    ]
    // the service-token routes also take the signed-in admin's access token (the studio's session)
    const wrongKinds: Record<string, string[]> = {
      service: [creds.dataAppKey],
      dataApp: [creds.serviceToken, creds.accessToken],
      admin: [creds.serviceToken, creds.dataAppKey],
    }
    for (const [url, method, kind, status, code] of cases) {
      for (const token of [undefined, 'garbage', 'x'.repeat(600), ...(wrongKinds[kind] ?? [])]) {
        const res = await call(method, url, token, method === 'POST' ? {} : undefined)
        expect([res.statusCode, res.json().error.code], `${url} with ${token?.slice(0, 8)}`).toEqual([status, code])
      }
    }
    const asAdmin = await call('GET', '/api/v2/data-app', creds.accessToken)
    expect(asAdmin.statusCode).toBe(200)
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/v2/data-app',
      headers: { authorization: 'Basic abc' },
    })
    expect(malformed.json().error.code).toBe('AUTHENTICATION_ERROR')
  })

  it('keeps whitelist domains per data app; [] clears', async () => {
    const other = (await call('POST', '/api/v2/data-app', creds.serviceToken, { name: 'other' })).json().key
    const put = await call('PUT', '/api/v2/data-app/whitelist-domains', creds.dataAppKey, {
      domains: ['App.Example.com', '*.customer.com', 'localhost:3000'],
    })
    expect(put.json()).toEqual({ data: ['app.example.com', '*.customer.com', 'localhost:3000'] })
    expect((await call('GET', '/api/v2/data-app/whitelist-domains', other)).json()).toEqual({ data: [] })
    // a URL instead of a host: the 400 says what to send, not the regular expression
    for (const domains of [['http://x.com/'], ['app.example.com', 'https://app.example.com'], ['x.com/path']]) {
      const bad = await call('PUT', '/api/v2/data-app/whitelist-domains', creds.dataAppKey, { domains })
      expect(bad.statusCode).toBe(400)
      expect(bad.json().error.code).toBe('INVALID_REQUEST_BODY')
      expect(bad.json().error.message).toBe(
        `domains[${domains.length - 1}] must be host[:port], without a scheme or path (app.example.com, *.customer.com, localhost:3000)`,
      )
    }
    await call('PUT', '/api/v2/data-app/whitelist-domains', creds.dataAppKey, { domains: [] })
    expect((await call('GET', '/api/v2/data-app/whitelist-domains', creds.dataAppKey)).json()).toEqual({ data: [] })
  })
})
