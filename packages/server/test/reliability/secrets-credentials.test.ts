import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hashSecret } from '../../src/security/secrets.js'
import { setupAnalytics } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { bearer } from '../helpers/bootstrap.js'
import { requireService } from '../helpers/services.js'
import { useWarehouseApp } from '../helpers/suite.js'

/**
 * docs/reliability.md (secrets) for what test/routes/secrets.test.ts leaves out: datasource credentials and
 * guest tokens. At LOG_LEVEL=debug, datasource create and update (and failed attempts that
 * carry credentials), guest-token mints and runtime queries: no password, private key or
 * token appears in any log line, nor any response but the one that minted it; credentials
 * are sealed in the store (no plain password, host or user in the datasources row, nor in the
 * SQLite files), guest tokens are sealed or, when stored, stored as their hashes only.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

// the local PostgreSQL trusts 127.0.0.1, so any password connects: distinctive ones are free
const secret = (label: string) => `${label}-${randomBytes(12).toString('hex')}`
const FAKE_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${randomBytes(48).toString('base64')}\n-----END OPENSSH PRIVATE KEY-----`

describe.skipIf(!hasPg).each(storeKinds)('datasource credentials and guest tokens on %s', (store) => {
  const { wh, t } = useWarehouseApp(store, { env: { LOG_LEVEL: 'debug' } })

  it('never logs or echoes them, and stores credentials sealed and tokens hashed', async () => {
    const a = await setupAnalytics(t.app, wh)
    const bodies: { what: string; body: string }[] = []
    const call = async (what: string, method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) => {
      const res = await t.app.inject({ method, url, payload, headers: bearer(token) })
      bodies.push({ what, body: res.body })
      return res
    }
    const passwords = [secret('pw-create'), secret('pw-update'), secret('pw-wrong-port'), secret('pw-ssh')]
    const [createPw, updatePw, wrongPortPw, sshPw] = passwords as [string, string, string, string]
    const credentials = (password: string, extra: object = {}) => ({
      name: 'secretsource',
      ...wh.credentials,
      password,
      ...extra,
    })

    // create, update (whole credentials, a new password), list, sync
    const created = await call('create', 'POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: credentials(createPw),
    })
    expect(created.statusCode, created.body).toBe(200)
    const datasourceId = created.json().data.id as string
    const updated = await call('update', 'PUT', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: credentials(updatePw),
    })
    expect(updated.statusCode, updated.body).toBe(200)
    expect((await call('list', 'GET', '/api/v2/datasource', a.serviceToken)).statusCode).toBe(200)
    expect(
      (await call('sync', 'POST', '/api/v2/datasource/sync', a.serviceToken, { input: { datasourceId } })).statusCode,
    ).toBe(200)
    // failed attempts carry credentials too: a port nothing listens on, an SSH tunnel that cannot open
    const refused = await call('wrong port', 'POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: { ...credentials(wrongPortPw), name: 'refused', port: 1 },
    })
    expect(refused.statusCode, refused.body).toBe(400)
    const tunnel = await call('ssh', 'POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: {
        ...credentials(sshPw),
        name: 'tunnelled',
        sshTunnel: 'enable',
        sshHost: '127.0.0.1',
        sshPort: 1,
        sshUsername: 'bastion',
        sshPrivateKey: FAKE_KEY,
      },
    })
    expect(tunnel.statusCode, tunnel.body).toBe(400)
    const badUpdate = await call('bad update', 'PUT', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: { ...credentials(wrongPortPw), port: 1 },
    })
    expect(badUpdate.statusCode, badUpdate.body).toBe(400)

    // guest tokens: minted, used by the browser (load, query, download), used wrongly
    // (sealed, and one whose claims are too large to seal, so stored)
    const tokens: { token: string; mintedBy: number; stored: boolean }[] = []
    for (const [clientId, hidden] of [
      ['acme', []],
      ['globex', []],
      ['acme', Array(300).fill('filter-name-to-hide')],
    ] as const) {
      const res = await call('mint', 'POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        permissions: { isEnableDownloadMetrics: true },
        params: {
          rlsSettings: [],
          appFilters: [{ metricId: 'revenue_by_country', values: { paid: ['paid'] } }],
          hideDashboardFilters: hidden,
        },
      })
      expect(res.statusCode, res.body).toBe(200)
      const { token } = res.json() as { token: string }
      tokens.push({ token, mintedBy: bodies.length - 1, stored: !token.startsWith('gt_1.') })
    }
    expect(tokens.map((x) => x.stored)).toEqual([false, false, true])
    for (const { token } of tokens) {
      expect((await call('runtime', 'GET', `/api/v2/embed/runtime/${a.embedId}`, token)).statusCode).toBe(200)
      const q = await call('runtime query', 'POST', `/api/v2/embed/runtime/${a.embedId}/query`, token, {
        metricId: 'revenue_by_country',
      })
      expect(q.statusCode, q.body).toBe(200)
      const csv = await call('download', 'GET', `/api/v2/embed/runtime/${a.embedId}/metrics/revenue/download`, token)
      expect(csv.statusCode, csv.body).toBe(200)
      // a token in the wrong place: the query string, a data-app route
      await call('token in url', 'GET', `/api/v2/embed/runtime/${a.embedId}?token=${encodeURIComponent(token)}`, token)
      expect((await call('wrong kind', 'GET', '/api/v2/data-app/embeds', token)).statusCode).toBe(400)
    }
    expect(
      (
        await call('backend query', 'POST', '/api/v2/data-app/query', a.dataAppKey, {
          embedId: a.embedId,
          metricId: 'revenue',
          clientId: 'acme',
        })
      ).statusCode,
    ).toBe(200)

    const log = t.rawLogs.join('\n')
    expect(t.config.logLevel).toBe('debug') // whatever the app writes at debug is in rawLogs
    // 1. no credential value, no token, in any log line
    for (const value of [...passwords, FAKE_KEY, FAKE_KEY.split('\n')[1] as string]) {
      expect(log.includes(value), `${value.slice(0, 30)} in the logs`).toBe(false)
    }
    for (const { token } of tokens) expect(log.includes(token), 'a guest token in the logs').toBe(false)
    // 2. no credential value in any response; a token only in the response that minted it
    for (const { what, body } of bodies) {
      for (const value of [...passwords, FAKE_KEY.split('\n')[1] as string]) {
        expect(body.includes(value), `${what} answered a credential`).toBe(false)
      }
      expect(body, `${what} answered a credential field`).not.toMatch(/"(password|sshPrivateKey|host|username)"/)
    }
    for (const { token, mintedBy } of tokens) {
      const echoed = bodies.flatMap((b, i) => (b.body.includes(token) ? [i] : []))
      expect(echoed, 'a guest token in a response other than its mint').toEqual([mintedBy])
    }

    // 3. the store: credentials sealed (nothing readable in the row), stored tokens hashed
    const { db } = t.app.services.store
    const row = await db.selectFrom('datasources').selectAll().where('id', '=', datasourceId).executeTakeFirstOrThrow()
    const stored = JSON.stringify(row)
    for (const value of [createPw, updatePw, wh.credentials.host]) {
      expect(stored.includes(value), `${value} readable in the datasources row`).toBe(false)
    }
    expect(row.credentials.includes(wh.credentials.username)).toBe(false)
    expect(row.credentials).not.toMatch(/password|host|username|port/i)
    expect(t.app.services.keyring.decrypt(row.credentials, row.id)).toContain(updatePw) // sealed, not lost
    const failed = await db
      .selectFrom('datasources')
      .select('name')
      .where('name', 'in', ['refused', 'tunnelled'])
      .execute()
    expect(failed, 'a datasource whose test failed was saved').toEqual([])
    const tokenRows = await db.selectFrom('guest_tokens').selectAll().execute()
    const everything = JSON.stringify(tokenRows)
    for (const { token, stored } of tokens) {
      expect(everything.includes(token), 'a guest token stored in plain').toBe(false)
      expect(tokenRows.some((r) => r.token_hash === hashSecret(token))).toBe(stored)
    }
    // 4. SQLite: not in the database files either (main file and write-ahead log)
    if (store === 'sqlite') {
      const files = readdirSync(t.config.dataDir).filter((f) => f.startsWith('strata.db'))
      const bytes = files.map((f) => readFileSync(join(t.config.dataDir, f)).toString('latin1')).join('')
      for (const value of [...passwords, ...tokens.map((x) => x.token)]) {
        expect(bytes.includes(value), `${value.slice(0, 12)}… in ${files.join(', ')}`).toBe(false)
      }
    }
    console.log(
      `[secrets/${store}] ${bodies.length} responses and ${t.rawLogs.length} log lines at debug: ` +
        `0 of ${passwords.length} passwords, the SSH key and ${tokens.length} guest tokens leaked; datasources row sealed, large-claim tokens stored as SHA-256, the others sealed`,
    )
  })
})
