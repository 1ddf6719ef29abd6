/**
 * TLS verified by default, through the API on both stores: credentials that name no TLS mode
 * verify the server's certificate when the host is not loopback (a real PostgreSQL with a
 * private CA, reached by this machine's own non-loopback address), stay plain on a loopback host,
 * and a datasource stored before the default changed (store migration 008) keeps connecting in
 * plain text until its credentials name a mode.
 */
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { newId } from '../../src/security/secrets.js'
import { silentTls } from '../../src/store/migrations/008-silent-tls.js'
import { now } from '../../src/store/store.js'
import { type Forwarder, forward, outsideAddress } from '../fixtures/outside-address.js'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { isCI, POSTGRES_URL, requireService } from '../helpers/services.js'
import { createPrivateCa, type PrivateCa } from '../standins/private-ca.js'
import { startTlsPostgres, type TlsPostgres, tlsPostgresAvailable } from '../standins/tls-postgres.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const address = outsideAddress()
if (!tlsPostgresAvailable || address === undefined) {
  const why = !tlsPostgresAvailable ? 'no PostgreSQL server binaries (initdb)' : 'no non-loopback IPv4 address'
  if (isCI) throw new Error(`CI=true: the TLS default tests need ${why}`)
  console.warn(`SKIPPED: the TLS default tests: ${why}`)
}
const local = new URL(POSTGRES_URL)

describe.skipIf(!hasPg || !tlsPostgresAvailable || address === undefined).each(storeKinds)(
  'TLS verified by default (%s store)',
  (store) => {
    let ca: PrivateCa
    let server: TlsPostgres
    let toTls: Forwarder
    let toPlain: Forwarder
    beforeAll(async () => {
      ca = createPrivateCa()
      // the certificate names the outside address and 127.0.0.1
      server = await startTlsPostgres(ca, ca.issueServer('pg-server', [`IP:${address}`, 'IP:127.0.0.1']))
      toTls = await forward(address ?? '', server.port)
      toPlain = await forward(address ?? '', Number(local.port || 5432))
    }, 60_000)
    afterAll(async () => {
      await toTls?.close()
      await toPlain?.close()
      server?.stop()
      ca?.close()
    })

    let t: TestContext
    let token: string
    beforeEach(async () => {
      t = await createTestApp(store)
      token = (await bootstrap(t.app)).serviceToken
    })
    afterEach(async () => t?.close())

    const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
      t.app.inject({ method, url, payload, headers: bearer(token) })
    const tlsServer = (name: string, host: string, port: number, extra: object = {}) => ({
      datasourceType: 'postgres',
      credentials: {
        name,
        host,
        port,
        username: 'postgres',
        password: '',
        database: 'postgres',
        schema: 'public',
        ...extra,
      },
    })
    const plainServer = (name: string, extra: object = {}) => ({
      datasourceType: 'postgres',
      credentials: {
        name,
        host: address,
        port: toPlain.port,
        username: decodeURIComponent(local.username || 'postgres'),
        password: decodeURIComponent(local.password || 'unused'),
        database: local.pathname.slice(1) || 'test',
        schema: 'public',
        ...extra,
      },
    })

    it('silent credentials to a non-loopback host verify: an untrusted certificate is refused, the CA is accepted', async () => {
      const refused = await call('POST', '/api/v2/datasource', tlsServer('remote', address ?? '', toTls.port))
      expectError(refused, 400, 'DATASOURCE_CONNECTION_ERROR', /TLS certificate verification failed/)
      const trusted = await call(
        'POST',
        '/api/v2/datasource',
        tlsServer('remote', address ?? '', toTls.port, { tlsCaCertificate: ca.cert }),
      )
      expect(trusted.statusCode, trusted.body).toBe(200)
      const row = await t.app.services.store.db.selectFrom('datasources').selectAll().executeTakeFirstOrThrow()
      expect(row.silent_tls).toBe('verify')
      // the hosted API's sslMode false stays plain text: this server refuses it
      const plain = await call(
        'POST',
        '/api/v2/datasource',
        tlsServer('plain', address ?? '', toTls.port, { sslMode: false }),
      )
      expectError(plain, 400, 'DATASOURCE_CONNECTION_ERROR', /no encryption|SSL off/i)
    })

    it('silent credentials to a loopback host stay plain (the server that requires TLS refuses them)', async () => {
      for (const host of ['127.0.0.1', 'localhost']) {
        const res = await call('POST', '/api/v2/datasource', tlsServer(`loop-${host}`, host, server.port))
        expectError(res, 400, 'DATASOURCE_CONNECTION_ERROR', /no encryption|SSL off/i)
      }
    })

    it('a datasource stored before the migration keeps connecting in plain text until it names a mode', async () => {
      const { store: metadata, keyring } = t.app.services
      const db = metadata.db
      const organizationId = (await db.selectFrom('organizations').select('id').executeTakeFirstOrThrow()).id
      // the store as it was before: no silent_tls column, a datasource whose credentials name no TLS field
      await silentTls.down?.(db)
      const id = newId()
      const legacy = plainServer('legacy').credentials
      const sealed = keyring.encrypt(JSON.stringify(legacy), id)
      const at = now()
      await sql`insert into datasources (id, organization_id, name, type, credentials, tenancy_settings, schema_cache, schema_version, created_at, updated_at)
        values (${id}, ${organizationId}, ${'legacy'}, ${'postgres'}, ${sealed}, ${null}, ${'[]'}, ${1}, ${at}, ${at})`.execute(
        db,
      )
      await silentTls.up(db)
      const row = await db.selectFrom('datasources').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
      expect(row.silent_tls).toBe('off')

      // it still connects (plain) and an update that still says nothing keeps that
      const synced = await call('POST', '/api/v2/datasource/sync', { input: { datasourceId: id } })
      expect(synced.statusCode, synced.body).toBe(200)
      const updated = await call('PUT', '/api/v2/datasource', plainServer('legacy'))
      expect(updated.statusCode, updated.body).toBe(200)

      // the same silent credentials on a new datasource verify, and this server speaks no TLS
      const fresh = await call('POST', '/api/v2/datasource', plainServer('fresh'))
      expectError(fresh, 400, 'DATASOURCE_CONNECTION_ERROR', /TLS|SSL/)

      // naming a mode moves it: verify is refused by this plain server, off is kept explicitly
      const verify = await call('PUT', '/api/v2/datasource', plainServer('legacy', { tlsMode: 'verify' }))
      expectError(verify, 400, 'DATASOURCE_CONNECTION_ERROR', /TLS|SSL/)
      const off = await call('PUT', '/api/v2/datasource', plainServer('legacy', { tlsMode: 'off' }))
      expect(off.statusCode, off.body).toBe(200)
      const moved = await db.selectFrom('datasources').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
      expect(moved.silent_tls).toBe('verify')
      // silent again: now the current default (verify), refused by the plain server
      const silent = await call('PUT', '/api/v2/datasource', plainServer('legacy'))
      expectError(silent, 400, 'DATASOURCE_CONNECTION_ERROR', /TLS|SSL/)
    })
  },
)
