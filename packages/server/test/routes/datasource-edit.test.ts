import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { createPasswordDatabase, type PasswordDatabase } from '../helpers/mariadb-user.js'
import { requireService } from '../helpers/services.js'

/**
 * Editing a datasource without re-typing its secrets: the stored settings are read without any
 * secret, an update that leaves the password out keeps it (the datasource still connects, on a
 * MariaDB user that has a password), a wrong password is refused, and a stored secret is never
 * reused once the host or port changed.
 */
const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)

describe.skipIf(!hasMaria).each(storeKinds)('editing a datasource on %s', (store) => {
  let db: PasswordDatabase
  let t: TestContext
  let token: string
  beforeAll(async () => {
    db = await createPasswordDatabase()
  })
  afterAll(async () => db?.drop())
  beforeEach(async () => {
    t = await createTestApp(store)
    token = (await bootstrap(t.app)).serviceToken
  })
  afterEach(async () => t.close())

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: bearer(token) })
  const source = (credentials: object) => ({ datasourceType: 'mysql', credentials: { name: 'shop', ...credentials } })

  it('answers the stored settings without the secret, naming which secrets are stored', async () => {
    expect((await call('POST', '/api/v2/datasource', source(db.credentials))).statusCode).toBe(200)
    const res = await call('GET', '/api/v2/datasource/credentials?name=shop')
    expect(res.statusCode, res.body).toBe(200)
    const { password: _password, ...open } = db.credentials
    expect(res.json()).toEqual({
      data: {
        name: 'shop',
        datasourceType: 'mysql',
        credentials: { name: 'shop', ...open },
        storedSecrets: ['password'],
        tenancySettings: null,
        updatedAt: expect.any(String),
      },
      error: null,
    })
    expect(res.body).not.toContain(db.credentials.password)
    expectError(await call('GET', '/api/v2/datasource/credentials?name=nope'), 400, 'INVALID_DATASOURCE_NAME')
    expect((await t.app.inject({ method: 'GET', url: '/api/v2/datasource/credentials?name=shop' })).statusCode).toBe(
      401,
    )
  })

  it('keeps the stored password when an update leaves it out: the datasource still connects', async () => {
    expect((await call('POST', '/api/v2/datasource', source(db.credentials))).statusCode).toBe(200)
    const { password: _password, ...open } = db.credentials
    // a wrong password is really refused by this server, so the next success is the stored one
    expectError(
      await call('PUT', '/api/v2/datasource', source({ ...db.credentials, password: 'wrong' })),
      400,
      'DATASOURCE_CONNECTION_ERROR',
    )
    const kept = await call('PUT', '/api/v2/datasource', source(open))
    expect(kept.statusCode, kept.body).toBe(200)
    expect(kept.json().data.tables).toBe(1)
    expect(kept.body).not.toContain(db.credentials.password)
    // the kept password is what the datasource uses from now on: a sync connects with it
    const synced = await call('POST', '/api/v2/datasource/sync', { input: { datasourceId: 'shop' } })
    expect(synced.json()).toEqual({ data: { message: 'Synced datasource shop: 1 tables' } })
    expect((await call('GET', '/api/v2/datasource/credentials?name=shop')).json().data.storedSecrets).toEqual([
      'password',
    ])
    expect(t.rawLogs.join('\n')).not.toContain(db.credentials.password)
  })

  it('never reuses a stored secret once the host or port changed; the answer names the field', async () => {
    expect((await call('POST', '/api/v2/datasource', source(db.credentials))).statusCode).toBe(200)
    const { password: _password, ...open } = db.credentials
    const moved = await call('PUT', '/api/v2/datasource', source({ ...open, host: 'localhost' }))
    expectError(moved, 400, 'INVALID_REQUEST_BODY', /^credentials\.password is required when credentials\.host changes/)
    const port = await call('PUT', '/api/v2/datasource', source({ ...open, port: 3307 }))
    expectError(port, 400, 'INVALID_REQUEST_BODY', /credentials\.password is required when credentials\.port changes/)
    // with the password given again, the new host is fine (localhost is the same server here)
    const given = await call('PUT', '/api/v2/datasource', source({ ...db.credentials, host: 'localhost' }))
    expect(given.statusCode, given.body).toBe(200)
  })
})
