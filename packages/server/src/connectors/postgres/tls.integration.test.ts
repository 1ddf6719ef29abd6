/**
 * TLS of the postgres connector against a real PostgreSQL that requires TLS, its certificate
 * issued by a private CA made for this run (test/standins/tls-postgres.ts): the modes off,
 * required and verify, the CA field, host-name checking, and client-certificate authentication.
 */
import { describe, expect, it } from 'vitest'
import { connectionFailure, tlsServerRun } from '../../../test/helpers/tls-server.js'
import { CERT_USER, startTlsPostgres, tlsPostgresAvailable } from '../../../test/standins/tls-postgres.js'
import type { ApiError } from '../../errors.js'
import type { ConnectorOptions, PostgresCredentials } from '../types.js'
import { PostgresConnector } from './connector.js'

const required = process.env.CI === 'true'
const options: ConnectorOptions = { connectTimeoutMs: 5000, poolMax: 2 }

if (!tlsPostgresAvailable) {
  if (required) throw new Error('CI=true: PostgreSQL server binaries are required for the TLS tests')
  console.warn('SKIPPED: no PostgreSQL server binaries (initdb) for the TLS tests')
}

describe.skipIf(!tlsPostgresAvailable)('postgres connector over TLS (a private CA, a real PostgreSQL)', () => {
  const run = tlsServerRun('pg-server', startTlsPostgres, 60_000)

  const credentials = (extra: Partial<PostgresCredentials>): PostgresCredentials => ({
    name: 'pg-tls',
    host: '127.0.0.1',
    port: run.server.port,
    username: 'postgres',
    password: '',
    database: 'postgres',
    schema: 'public',
    ...extra,
  })

  async function connect(extra: Partial<PostgresCredentials>): Promise<unknown> {
    const connector = new PostgresConnector(credentials(extra), options)
    try {
      const result = await connector.execute('select ssl from pg_stat_ssl where pid = pg_backend_pid()', {
        params: [],
        timeoutMs: 5000,
        maxRows: 10,
      })
      return result.rows[0]?.ssl
    } finally {
      await connector.close()
    }
  }

  const failure = (extra: Partial<PostgresCredentials>): Promise<ApiError> => connectionFailure(connect(extra))

  it('verify with the private CA connects, encrypted', async () => {
    expect(await connect({ tlsMode: 'verify', tlsCaCertificate: run.ca.cert })).toBe(true)
  })

  it('sslMode true means verify: with the CA it connects', async () => {
    expect(await connect({ sslMode: true, tlsCaCertificate: run.ca.cert })).toBe(true)
  })

  it('verify without the CA fails, naming certificate verification', async () => {
    const error = await failure({ tlsMode: 'verify' })
    expect(error.message).toMatch(/TLS certificate verification failed/)
    // sslMode true alone verifies too (it used to accept any certificate)
    expect((await failure({ sslMode: true })).message).toMatch(/TLS certificate verification failed/)
  })

  it('verify with a CA that did not sign the certificate fails', async () => {
    const error = await failure({ tlsMode: 'verify', tlsCaCertificate: run.otherCa.cert })
    expect(error.message).toMatch(/TLS certificate verification failed/)
  })

  it('verify fails when the certificate does not name the host', async () => {
    const error = await failure({ host: 'localhost', tlsMode: 'verify', tlsCaCertificate: run.ca.cert })
    expect(error.message).toMatch(/TLS certificate verification failed \(ERR_TLS_CERT_ALTNAME_INVALID\)/)
    expect(error.message).toMatch(/localhost/)
  })

  it('required encrypts without verification (no CA, wrong host name)', async () => {
    expect(await connect({ tlsMode: 'required' })).toBe(true)
    expect(await connect({ host: 'localhost', sslMode: true, tlsMode: 'required' })).toBe(true)
  })

  it('off against a server that requires TLS fails clearly', async () => {
    const error = await failure({ tlsMode: 'off' })
    expect(error.message).toMatch(/no encryption|SSL off/i)
    expect((await failure({ sslMode: false })).message).toMatch(/no encryption|SSL off/i)
    // credentials that name no TLS field stay plain on a loopback host (elsewhere they verify: test/routes/datasource-tls-default.integration.test.ts)
    expect((await failure({})).message).toMatch(/no encryption|SSL off/i)
  })

  it('a client certificate authenticates (cert authentication)', async () => {
    const client = run.ca.issueClient('pg-client', CERT_USER)
    const cert = { tlsCaCertificate: run.ca.cert, tlsClientCertificate: client.cert, tlsClientKey: client.key }
    expect(await connect({ username: CERT_USER, ...cert })).toBe(true)
    // without the client certificate the same user is refused
    const error = await failure({ username: CERT_USER, tlsCaCertificate: run.ca.cert })
    expect(error.message).toMatch(/certificate/i)
  })
})
