import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { ADMIN, bearer, bootstrap } from '../helpers/bootstrap.js'

describe.each(storeKinds)('admin bootstrap on %s', (store) => {
  let t: TestContext
  beforeEach(async () => {
    t = await createTestApp(store)
  })
  afterEach(async () => t.close())

  const post = (url: string, payload: object, token?: string) =>
    t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} })

  it('creates the admin account once; a second attempt is INVALID_REQUEST', async () => {
    const first = await post('/api/v2/admin-account', ADMIN)
    expect(first.statusCode).toBe(200)
    expect(first.json().data.accessToken).toMatch(/^ey/)
    const again = await post('/api/v2/admin-account', { ...ADMIN, email: 'bob@example.com' })
    expect(again.statusCode).toBe(400)
    expect(again.json().error.code).toBe('INVALID_REQUEST')
    expect(again.json().error.message).toMatch(/already created, please sign in/)
  })

  it('validates the admin account fields', async () => {
    for (const bad of [
      { ...ADMIN, firstName: 'Al' },
      { ...ADMIN, firstName: 'A'.repeat(31) },
      { ...ADMIN, email: 'not-an-email' },
      { ...ADMIN, password: 'weakpass' },
      { firstName: 'Alice', email: ADMIN.email, password: ADMIN.password },
    ]) {
      const res = await post('/api/v2/admin-account', bad)
      expect(res.statusCode, JSON.stringify(bad)).toBe(400)
      expect(res.json().error.code).toBe('INVALID_REQUEST_BODY')
    }
  })

  it('signs in, refreshes once, and refuses a spent or unknown refresh token', async () => {
    await post('/api/v2/admin-account', ADMIN)
    const unknown = await post('/api/v2/admin-account/jwt', { email: 'nobody@example.com', password: 'x' })
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([400, 'USER_NOT_FOUND'])
    const wrong = await post('/api/v2/admin-account/jwt', { email: ADMIN.email, password: 'Wr0ng!pass' })
    expect([wrong.statusCode, wrong.json().error.code]).toEqual([400, 'INVALID_CREDENTIALS'])

    const signIn = await post('/api/v2/admin-account/jwt', {
      email: ADMIN.email.toUpperCase(),
      password: ADMIN.password,
    })
    expect(signIn.statusCode).toBe(200)
    const session = signIn.json().data
    expect(session).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 3600 })

    const refreshed = await post('/api/v2/admin-account/jwt/refresh', { refreshToken: session.refreshToken })
    expect(refreshed.statusCode).toBe(200)
    expect(refreshed.json().data.refreshToken).not.toBe(session.refreshToken)
    const reused = await post('/api/v2/admin-account/jwt/refresh', { refreshToken: session.refreshToken })
    expect([reused.statusCode, reused.json().error.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
    // the refreshed access token works on an admin endpoint
    const token = await post('/api/v2/service-token', {}, refreshed.json().data.accessToken)
    expect(token.statusCode).toBe(200)
  })

  it('creates, replaces and rotates the service token with a grace period', async () => {
    const { data } = (await post('/api/v2/admin-account', ADMIN)).json()
    const guid = '3f2504e0-4f89-41d3-9a0c-0305e82c3301'
    const first = await post('/api/v2/service-token', { token: guid }, data.accessToken)
    expect(first.json()).toEqual({ key: guid })
    const useToken = (token: string) => t.app.inject({ method: 'GET', url: '/api/v2/data-app', headers: bearer(token) })
    expect((await useToken(guid)).statusCode).toBe(200)

    const second = (await post('/api/v2/service-token', {}, data.accessToken)).json().key as string
    expect(second).toMatch(/^[0-9a-f-]{36}$/)
    expect((await useToken(guid)).statusCode).toBe(401) // replaced at once
    expect((await useToken(second)).statusCode).toBe(200)

    const graced = (await post('/api/v2/service-token/rotate', { expireAt: 3600 }, data.accessToken)).json().key
    expect((await useToken(second)).statusCode).toBe(200) // still in its grace period
    expect((await useToken(graced)).statusCode).toBe(200)
    const now = (await post('/api/v2/service-token/rotate', { expireAt: 0 }, data.accessToken)).json().key
    expect((await useToken(graced)).statusCode).toBe(401) // revoked now
    expect((await useToken(second)).statusCode).toBe(401)
    expect((await useToken(now)).statusCode).toBe(200)

    const badGuid = await post('/api/v2/service-token', { token: 'not-a-guid' }, data.accessToken)
    expect(badGuid.json().error.code).toBe('INVALID_REQUEST_BODY')
    const missingExpiry = await post('/api/v2/service-token/rotate', {}, data.accessToken)
    expect(missingExpiry.json().error.code).toBe('INVALID_REQUEST_BODY')
  })

  it('refuses service-token routes without a valid admin access token', async () => {
    const { serviceToken } = await bootstrap(t.app)
    for (const token of [undefined, 'garbage', serviceToken]) {
      const res = await post('/api/v2/service-token', {}, token)
      expect([res.statusCode, res.json().error.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
    }
  })

  it('resets the password by the documented rules and retires old sessions', async () => {
    const { accessToken } = await bootstrap(t.app)
    const reset = (currentPassword: string, password: string, token = accessToken) =>
      post('/api/v2/service-token/reset-password', { currentPassword, password }, token)
    const cases: [string, RegExp][] = [
      ['Short1!', /at least 8/],
      ['NoDigits!!', /digit/],
      ['nouppercase1!', /uppercase/],
      ['NOLOWERCASE1!', /lowercase/],
      ['NoSpecial11', /special/],
      ['Has Space1!', /spaces/],
    ]
    for (const [password, message] of cases) {
      const res = await reset(ADMIN.password, password)
      expect([res.statusCode, res.json().error.code]).toEqual([400, 'RESET_PASSWORD_ERROR'])
      expect(res.json().error.message).toMatch(message)
    }
    const wrongCurrent = await reset('Wr0ng!pass', 'N3w!Password')
    expect([wrongCurrent.statusCode, wrongCurrent.json().error.code]).toEqual([400, 'RESET_PASSWORD_ERROR'])

    const ok = await reset(ADMIN.password, 'N3w!Password')
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ data: { success: true } })
    // the access token issued before the reset no longer works
    const stale = await reset('N3w!Password', 'An0ther!Pass')
    expect([stale.statusCode, stale.json().error.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
    const signIn = await post('/api/v2/admin-account/jwt', { email: ADMIN.email, password: 'N3w!Password' })
    expect(signIn.statusCode).toBe(200)
  })
})

describe('SELF_HOSTED=false', () => {
  it('answers SELFHOSTED_APP_ERROR 500 on admin creation and password reset', async () => {
    const t = await createTestApp('sqlite', { SELF_HOSTED: 'false' })
    try {
      for (const url of ['/api/v2/admin-account', '/api/v2/service-token/reset-password']) {
        const res = await t.app.inject({ method: 'POST', url, payload: ADMIN })
        expect([res.statusCode, res.json().error.code], url).toEqual([500, 'SELFHOSTED_APP_ERROR'])
      }
    } finally {
      await t.close()
    }
  })
})
