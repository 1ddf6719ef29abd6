import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hashSecret, verifyPassword } from '../../src/security/secrets.js'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { ADMIN, bearer } from '../helpers/bootstrap.js'

/**
 * docs/administration.md#what-is-stored-and-what-is-shown: keys, service tokens and refresh tokens are stored hashed, passwords with
 * scrypt; no secret ever appears in a log line, nor in any response but the one that
 * created it. Every secret the administration flow creates is collected, then searched
 * for in every log line (at LOG_LEVEL=debug), every response body and every stored row.
 */
const TABLES = ['organizations', 'admins', 'refresh_tokens', 'service_tokens', 'data_apps', 'api_keys'] as const
const NEW_PASSWORD = 'N3w!Passw0rd'
const CHOSEN_GUID = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff'

type Kind = 'password' | 'accessToken' | 'refreshToken' | 'serviceToken' | 'dataAppKey'

interface Secret {
  readonly kind: Kind
  readonly value: string
  /**
   * Indexes of the responses that issued it: none for passwords (the caller chose them);
   * several for an access token when signed twice within one second with the same claims
   * (a JWT is a pure function of its claims, so those are the same token).
   */
  readonly createdBy: number[]
}

describe.each(storeKinds)('secrets on %s', (store) => {
  let t: TestContext
  beforeEach(async () => {
    t = await createTestApp(store, { LOG_LEVEL: 'debug' })
  })
  afterEach(async () => t.close())

  it('are never logged, never echoed, and stored only as hashes', async () => {
    const bodies: string[] = []
    const secrets: Secret[] = [
      { kind: 'password', value: ADMIN.password, createdBy: [] },
      { kind: 'password', value: NEW_PASSWORD, createdBy: [] },
    ]
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token?: string) => {
      const res = await t.app.inject({ method, url, payload, headers: token ? bearer(token) : {} })
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
      bodies.push(res.body)
      return { index: bodies.length - 1, body: res.json() }
    }
    const keep = (kind: Kind, value: unknown, createdBy: number) => {
      expect(typeof value === 'string' && value.length >= 16, `${kind} ${String(value)}`).toBe(true)
      const known = secrets.find((s) => s.value === value)
      if (known) known.createdBy.push(createdBy)
      else secrets.push({ kind, value: value as string, createdBy: [createdBy] })
      return value as string
    }

    // bootstrap: admin account, service token, data app (+ its first key)
    const created = await call('POST', '/api/v2/admin-account', ADMIN)
    const bootAccess = keep('accessToken', created.body.data.accessToken, created.index)
    const st = await call('POST', '/api/v2/service-token', {}, bootAccess)
    const serviceToken = keep('serviceToken', st.body.key, st.index)
    const app = await call('POST', '/api/v2/data-app', { name: 'salesapp' }, serviceToken)
    const dataAppKey = keep('dataAppKey', app.body.key, app.index)

    // sign-in and refresh
    const signIn = await call('POST', '/api/v2/admin-account/jwt', { email: ADMIN.email, password: ADMIN.password })
    const access = keep('accessToken', signIn.body.data.accessToken, signIn.index)
    const spentRefresh = keep('refreshToken', signIn.body.data.refreshToken, signIn.index)
    const refreshed = await call('POST', '/api/v2/admin-account/jwt/refresh', { refreshToken: spentRefresh })
    keep('accessToken', refreshed.body.data.accessToken, refreshed.index)
    const liveRefresh = keep('refreshToken', refreshed.body.data.refreshToken, refreshed.index)

    // service token: create with a chosen GUID, replace, rotate with grace
    const chosen = await call('POST', '/api/v2/service-token', { token: CHOSEN_GUID }, access)
    keep('serviceToken', chosen.body.key, chosen.index)
    const replaced = await call('POST', '/api/v2/service-token', {}, access)
    const graced = keep('serviceToken', replaced.body.key, replaced.index)
    const rotated = await call('POST', '/api/v2/service-token/rotate', { expireAt: 3600 }, access)
    const currentToken = keep('serviceToken', rotated.body.key, rotated.index)

    // data app + API keys; the secrets in use as bearers along the way
    const second = await call('POST', '/api/v2/data-app', { name: 'otherapp' }, currentToken)
    keep('dataAppKey', second.body.key, second.index)
    const extra = await call(
      'POST',
      '/api/v2/data-app/api-tokens',
      { dataAppName: 'salesapp', name: 'ci', description: 'for CI' },
      graced,
    )
    const extraKey = keep('dataAppKey', extra.body.key, extra.index)
    await call('GET', '/api/v2/data-app/api-tokens?dataAppName=salesapp', undefined, currentToken)
    await call('GET', '/api/v2/data-app', undefined, currentToken)
    await call('PUT', '/api/v2/data-app/whitelist-domains', { domains: ['app.example.com'] }, extraKey)
    await call('GET', '/api/v2/data-app/whitelist-domains', undefined, dataAppKey)

    // password reset, then a session with the new password
    await call(
      'POST',
      '/api/v2/service-token/reset-password',
      { currentPassword: ADMIN.password, password: NEW_PASSWORD },
      access,
    )
    const after = await call('POST', '/api/v2/admin-account/jwt', { email: ADMIN.email, password: NEW_PASSWORD })
    keep('accessToken', after.body.data.accessToken, after.index)
    const lastRefresh = keep('refreshToken', after.body.data.refreshToken, after.index)

    // failed attempts carry secrets too: a wrong password, a bad bearer, a spent refresh token
    for (const [url, payload] of [
      ['/api/v2/admin-account/jwt', { email: ADMIN.email, password: ADMIN.password }],
      ['/api/v2/admin-account/jwt/refresh', { refreshToken: spentRefresh }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, payload })
      expect(res.statusCode).toBeGreaterThanOrEqual(400)
      bodies.push(res.body)
    }
    const secretInQuery = await t.app.inject({
      method: 'GET',
      url: `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${encodeURIComponent(dataAppKey)}`,
      headers: bearer(currentToken),
    })
    bodies.push(secretInQuery.body)

    expect(secrets.filter((s) => s.kind !== 'accessToken').length).toBe(12)
    expect(t.rawLogs.length).toBeGreaterThan(15) // one line per request at least

    // 1. no secret in any log line
    const log = t.rawLogs.join('\n')
    for (const secret of secrets) {
      expect(log.includes(secret.value), `${secret.kind} ${secret.value} appears in the logs`).toBe(false)
    }
    // 2. no secret in any response but the one that created it
    for (const secret of secrets) {
      const echoed = bodies.flatMap((body, i) => (body.includes(secret.value) ? [i] : []))
      expect(echoed, `${secret.kind} ${secret.value} in responses`).toEqual(secret.createdBy)
    }

    // 3. the store holds hashes only
    const { db } = t.app.services.store
    const rows: Record<string, unknown[]> = {}
    for (const table of TABLES) rows[table] = await db.selectFrom(table).selectAll().execute()
    const stored = JSON.stringify(rows)
    for (const secret of secrets) {
      expect(stored.includes(secret.value), `${secret.kind} stored in plain`).toBe(false)
    }
    const hashes = (table: 'api_keys' | 'service_tokens' | 'refresh_tokens', column: string) =>
      new Set((rows[table] as Record<string, string>[]).map((r) => r[column]))
    for (const key of secrets.filter((s) => s.kind === 'dataAppKey')) {
      expect(hashes('api_keys', 'key_hash').has(hashSecret(key.value)), 'data app key hash').toBe(true)
    }
    for (const token of [graced, currentToken]) {
      expect(hashes('service_tokens', 'token_hash').has(hashSecret(token)), 'service token hash').toBe(true)
    }
    // the reset retired every session; the one opened after it is stored as a hash
    expect([...hashes('refresh_tokens', 'token_hash')]).toEqual([hashSecret(lastRefresh)])
    expect(hashes('refresh_tokens', 'token_hash').has(hashSecret(liveRefresh))).toBe(false)
    const [admin] = rows.admins as { password_hash: string }[]
    expect(admin?.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{86}$/)
    expect(await verifyPassword(NEW_PASSWORD, admin!.password_hash)).toBe(true)
    expect(await verifyPassword(ADMIN.password, admin!.password_hash)).toBe(false)

    // 4. SQLite: not in the database files either (main file and write-ahead log)
    if (store === 'sqlite') {
      const files = readdirSync(t.config.dataDir).filter((f) => f.startsWith('strata.db'))
      expect(files).toContain('strata.db')
      const bytes = files.map((f) => readFileSync(join(t.config.dataDir, f)).toString('latin1')).join('')
      for (const secret of secrets) {
        expect(bytes.includes(secret.value), `${secret.kind} in ${files.join(', ')}`).toBe(false)
      }
    }
  })
})
