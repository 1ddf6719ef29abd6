import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { ADMIN, bearer } from '../helpers/bootstrap.js'

/**
 * What the studio relies on besides the documented routes: whether the admin account exists,
 * the admin's access token on the organization routes, each type's credential form, and the
 * studio page's headers.
 */
describe('routes for the studio', () => {
  let t: TestContext
  beforeEach(async () => {
    t = await createTestApp('sqlite')
  })
  afterEach(async () => t.close())

  const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token ? bearer(token) : {} })

  it('says whether the admin account exists (no token)', async () => {
    expect((await call('GET', '/api/v2/admin-account')).json()).toEqual({ data: { created: false } })
    await call('POST', '/api/v2/admin-account', undefined, ADMIN)
    expect((await call('GET', '/api/v2/admin-account')).json()).toEqual({ data: { created: true } })
  })

  it("takes the admin's access token on the organization routes, and says when it has expired", async () => {
    const { accessToken } = (await call('POST', '/api/v2/admin-account', undefined, ADMIN)).json().data
    const created = await call('POST', '/api/v2/data-app', accessToken, { name: 'salesapp' })
    expect(created.statusCode).toBe(200)
    expect((await call('GET', '/api/v2/data-app', accessToken)).json().data[0].name).toBe('salesapp')
    // a token of the right form that does not verify (signature changed): refresh or sign in
    const forged = `${accessToken.slice(0, -4)}AAAA`
    const refused = await call('GET', '/api/v2/datasource', forged)
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error).toEqual({
      code: 'AUTHENTICATION_ERROR',
      message: expect.stringMatching(/^The admin access token is invalid or expired: refresh it/),
    })
  })

  it('publishes the credential form of every type from its schema, secrets marked', async () => {
    const { accessToken } = (await call('POST', '/api/v2/admin-account', undefined, ADMIN)).json().data
    const { data } = (await call('GET', '/api/v2/datasource/types', accessToken)).json()
    const postgres = data.find((d: { datasourceType: string }) => d.datasourceType === 'postgres')
    expect(postgres.supported).toBe(true)
    // whether a relationship may be a FULL JOIN, from the type's capabilities
    expect(postgres.fullJoin).toBe(true)
    expect(data.find((d: { datasourceType: string }) => d.datasourceType === 'mysql').fullJoin).toBe(false)
    const fields = new Map(postgres.fields.map((f: { name: string }) => [f.name, f]))
    expect(fields.get('host')).toMatchObject({ label: 'Host', kind: 'text', required: true, secret: false })
    expect(fields.get('port')).toMatchObject({ kind: 'integer', minimum: 1, maximum: 65535 })
    expect(fields.get('password')).toMatchObject({ kind: 'text', secret: true })
    expect(fields.get('sshPrivateKey')).toMatchObject({ kind: 'longText', secret: true, required: false })
    expect(fields.get('sshTunnel')).toMatchObject({ kind: 'choice', options: ['enable', 'disable'] })
    expect(fields.get('sslMode')).toMatchObject({ kind: 'boolean' })
    // no token: refused like every organization route
    expect((await call('GET', '/api/v2/datasource/types')).statusCode).toBe(401)
  })

  it('answers the tables of an unknown datasource with INVALID_DATASOURCE_NAME', async () => {
    const { accessToken } = (await call('POST', '/api/v2/admin-account', undefined, ADMIN)).json().data
    const res = await call('GET', '/api/v2/datasource/tables?name=nope', accessToken)
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'INVALID_DATASOURCE_NAME'])
  })
})
