/**
 * TLS of the mysql connector (mysql and singlestore) against a real MariaDB that requires TLS
 * (`--require-secure-transport`), its certificate issued by a private CA made for this run
 * (test/standins/tls-mariadb.ts): the modes off, required and verify, the CA field, host-name
 * checking, and client-certificate authentication (REQUIRE X509).
 */
import { describe, expect, it } from 'vitest'
import { connectionFailure, tlsServerRun } from '../../../test/helpers/tls-server.js'
import { CERT_USER, startTlsMariadb, tlsMariadbAvailable, USER } from '../../../test/standins/tls-mariadb.js'
import type { ApiError } from '../../errors.js'
import type { ConnectorOptions, MysqlCredentials } from '../types.js'
import { MysqlConnector, type MysqlFamily } from './connector.js'

const required = process.env.CI === 'true'
const options: ConnectorOptions = { connectTimeoutMs: 5000, poolMax: 2 }

if (!tlsMariadbAvailable) {
  if (required) throw new Error('CI=true: mariadbd and mariadb-install-db are required for the TLS tests')
  console.warn('SKIPPED: no mariadbd / mariadb-install-db for the TLS tests')
}

describe.skipIf(!tlsMariadbAvailable)('mysql connector over TLS (a private CA, a real MariaDB)', () => {
  const run = tlsServerRun('mariadb-server', startTlsMariadb, 90_000)

  const credentials = (extra: Partial<MysqlCredentials>): MysqlCredentials => ({
    name: 'mariadb-tls',
    host: '127.0.0.1',
    port: run.server.port,
    user: USER,
    password: '',
    ...extra,
  })

  /** The session's TLS cipher as the server reports it ('' on a plain connection). */
  async function connect(extra: Partial<MysqlCredentials>, family: MysqlFamily = 'mysql'): Promise<unknown> {
    const connector = new MysqlConnector(credentials(extra), options, family)
    try {
      const result = await connector.execute(
        "select variable_value as cipher from information_schema.session_status where variable_name = 'SSL_CIPHER'",
        { params: [], timeoutMs: 5000, maxRows: 10 },
      )
      return result.rows[0]?.cipher
    } finally {
      await connector.close()
    }
  }

  const failure = (extra: Partial<MysqlCredentials>): Promise<ApiError> => connectionFailure(connect(extra))

  it('verify with the private CA connects, encrypted', async () => {
    expect(await connect({ tlsMode: 'verify', tlsCaCertificate: run.ca.cert })).toMatch(/\w/)
    // a CA alone asks for verify
    expect(await connect({ tlsCaCertificate: run.ca.cert })).toMatch(/\w/)
  })

  it('verify without the CA fails, naming certificate verification', async () => {
    expect((await failure({ tlsMode: 'verify' })).message).toMatch(/TLS certificate verification failed/)
  })

  it('verify with a CA that did not sign the certificate fails', async () => {
    const error = await failure({ tlsMode: 'verify', tlsCaCertificate: run.otherCa.cert })
    expect(error.message).toMatch(/TLS certificate verification failed/)
  })

  it('verify fails when the certificate does not name the host', async () => {
    const error = await failure({ host: 'localhost', tlsMode: 'verify', tlsCaCertificate: run.ca.cert })
    expect(error.message).toMatch(/TLS certificate verification failed.*altnames/)
  })

  it('required encrypts without verification (no CA, wrong host name)', async () => {
    expect(await connect({ tlsMode: 'required' })).toMatch(/\w/)
    expect(await connect({ host: 'localhost', tlsMode: 'required' })).toMatch(/\w/)
  })

  it('off against a server that requires TLS fails clearly', async () => {
    expect((await failure({ tlsMode: 'off' })).message).toMatch(/not encrypted: a server that requires TLS refuses it/)
    // credentials that name no TLS field stay plain on a loopback host (elsewhere they verify: test/routes/datasource-tls-default.integration.test.ts)
    expect((await failure({})).message).toMatch(/not encrypted: a server that requires TLS refuses it/)
  })

  it('a client certificate authenticates (REQUIRE X509)', async () => {
    const client = run.ca.issueClient('mariadb-client', CERT_USER)
    const cert = { tlsCaCertificate: run.ca.cert, tlsClientCertificate: client.cert, tlsClientKey: client.key }
    expect(await connect({ user: CERT_USER, ...cert })).toMatch(/\w/)
    const error = await failure({ user: CERT_USER, tlsCaCertificate: run.ca.cert })
    expect(error.message).toMatch(/access denied/i)
  })

  it('singlestore speaks the same TLS', async () => {
    expect(
      await connect({ database: 'mysql', tlsMode: 'verify', tlsCaCertificate: run.ca.cert }, 'singlestore'),
    ).toMatch(/\w/)
  })
})
