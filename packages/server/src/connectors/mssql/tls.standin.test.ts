/**
 * TLS and login of the mssql connector against the SQL Server stand-in (standin/server.ts),
 * with a certificate from a private CA made for this run. TLS goes as SQL Server carries it
 * in TDS 7.x: the handshake inside PRELOGIN packets, then the whole connection encrypted. The
 * stand-in plays three servers: one that encrypts when asked (`optional`), one that requires
 * it and answers ENCRYPT_REQ as Azure SQL does (`required`), and one without a certificate
 * (`unsupported`, ENCRYPT_NOT_SUP).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { requireService } from '../../../test/helpers/services.js'
import { createPrivateCa, type IssuedCertificate, type PrivateCa } from '../../../test/standins/private-ca.js'
import { ApiError } from '../../errors.js'
import type { ConnectorOptions, MssqlCredentials } from '../types.js'
import { MssqlConnector } from './connector.js'
import type { EncryptionPolicy } from './standin/prelogin.js'
import { MssqlStandIn } from './standin/server.js'

const up = await requireService('PostgreSQL', '127.0.0.1', 5432)
const OPTIONS: ConnectorOptions = { connectTimeoutMs: 3000, poolMax: 1 }
const PASSWORD = 'Reader-Passw0rd'

describe.skipIf(!up)('mssql TLS and login against the SQL Server stand-in', () => {
  let ca: PrivateCa
  let certificate: IssuedCertificate
  const standIns = new Map<EncryptionPolicy, MssqlStandIn>()

  beforeAll(async () => {
    ca = createPrivateCa()
    certificate = ca.issueServer('mssql', ['IP:127.0.0.1'])
    for (const encryption of ['optional', 'required', 'unsupported'] as const) {
      const standIn = new MssqlStandIn({
        logins: { reader: PASSWORD },
        databases: { sales: 'public' },
        defaultDatabase: 'sales',
        encryption,
        ...(encryption === 'unsupported' ? {} : { certificate }),
      })
      await standIn.start()
      standIns.set(encryption, standIn)
    }
  })
  afterAll(async () => {
    for (const s of standIns.values()) await s.close()
    ca?.close()
  })

  const server = (policy: EncryptionPolicy) => standIns.get(policy) as MssqlStandIn
  const credentials = (policy: EncryptionPolicy, extra: Partial<MssqlCredentials> = {}): MssqlCredentials => ({
    name: 'mssql',
    server: '127.0.0.1',
    port: server(policy).port,
    user: 'reader',
    password: PASSWORD,
    database: 'sales',
    ...extra,
  })
  const rows = async (c: MssqlCredentials) => {
    const connector = new MssqlConnector(c, OPTIONS)
    try {
      await connector.test()
      return (await connector.execute('SELECT DB_NAME() AS db', { params: [], timeoutMs: 5000, maxRows: 10 })).rows
    } finally {
      await connector.close()
    }
  }
  const failure = async (c: MssqlCredentials) => {
    const { error } = await caught(rows(c))
    expect(error).toBeInstanceOf(ApiError)
    expect([(error as ApiError).code, (error as ApiError).status], (error as Error).message).toEqual([
      'DATASOURCE_CONNECTION_ERROR',
      400,
    ])
    expect((error as Error).message).not.toContain(PASSWORD)
    return error as ApiError
  }
  /** What the stand-in saw while `work` ran. */
  const seen = async (policy: EncryptionPolicy, work: () => Promise<unknown>) => {
    const log = server(policy).log
    const before = { ...log }
    await work()
    return {
      handshakes: log.handshakes - before.handshakes,
      encryptedLogins: log.encryptedLogins - before.encryptedLogins,
      cleartextLogins: log.cleartextLogins - before.cleartextLogins,
    }
  }

  it('verified by default with the private CA of the credentials: the login travels inside TLS', async () => {
    const saw = await seen('optional', async () => {
      expect(await rows(credentials('optional', { tlsCaCertificate: ca.cert }))).toEqual([{ db: 'sales' }])
    })
    expect(saw.handshakes).toBeGreaterThan(0)
    expect(saw.encryptedLogins).toBeGreaterThan(0)
    expect(saw.cleartextLogins).toBe(0)
  })

  it('without the CA the certificate fails verification, before any login is sent', async () => {
    const saw = await seen('optional', async () => {
      expect((await failure(credentials('optional'))).message).toMatch(/TLS certificate verification failed/)
    })
    // Node checks the certificate once the handshake is over, then closes: no login either way
    expect([saw.encryptedLogins, saw.cleartextLogins]).toEqual([0, 0])
  })

  it('a CA that did not sign the certificate, or a host the certificate does not name, fails verification', async () => {
    const other = createPrivateCa('Another CA')
    try {
      const error = await failure(credentials('optional', { tlsCaCertificate: other.cert }))
      expect(error.message).toMatch(/TLS certificate verification failed/)
    } finally {
      other.close()
    }
    const mismatch = await failure(credentials('optional', { server: 'localhost', tlsCaCertificate: ca.cert }))
    expect(mismatch.message).toMatch(/TLS certificate verification failed \(ERR_TLS_CERT_ALTNAME_INVALID\)/)
  })

  it('tlsMode required encrypts without checking the certificate', async () => {
    const saw = await seen('optional', async () => {
      expect(await rows(credentials('optional', { tlsMode: 'required' }))).toEqual([{ db: 'sales' }])
    })
    expect(saw.encryptedLogins).toBeGreaterThan(0)
  })

  it('a server that requires encryption (ENCRYPT_REQ, as Azure SQL answers): verified TLS connects', async () => {
    const saw = await seen('required', async () => {
      expect(await rows(credentials('required', { tlsCaCertificate: ca.cert }))).toEqual([{ db: 'sales' }])
    })
    expect(saw.encryptedLogins).toBeGreaterThan(0)
    expect(saw.cleartextLogins).toBe(0)
  })

  it('tlsMode off against a server that requires encryption: a clear error naming the setting', async () => {
    const error = await failure(credentials('required', { tlsMode: 'off' }))
    expect(error.message).toBe(
      'Could not connect to the datasource: the server requires encryption: set tlsMode to verify (or required)',
    )
  })

  it('tlsMode off against a server that encrypts on request: connects in clear text (the login too)', async () => {
    const saw = await seen('optional', async () => {
      expect(await rows(credentials('optional', { tlsMode: 'off' }))).toEqual([{ db: 'sales' }])
    })
    expect(saw).toEqual({ handshakes: 0, encryptedLogins: 0, cleartextLogins: saw.cleartextLogins })
    expect(saw.cleartextLogins).toBeGreaterThan(0)
  })

  it('a server without encryption (ENCRYPT_NOT_SUP) when TLS is asked for: refused before the password leaves', async () => {
    for (const tlsMode of ['verify', 'required'] as const) {
      const saw = await seen('unsupported', async () => {
        const error = await failure(credentials('unsupported', { tlsMode, tlsCaCertificate: ca.cert }))
        expect(error.message).toMatch(/the server does not support encryption/)
      })
      expect(saw.cleartextLogins).toBe(0)
    }
  })

  it('a wrong password: Msg 18456 surfaces as our connection error, without the password', async () => {
    const error = await failure(credentials('optional', { tlsCaCertificate: ca.cert, password: 'wrong-password' }))
    expect(error.message).toBe("Could not connect to the datasource: Login failed for user 'reader'.")
    expect(error.message).not.toContain('wrong-password')
  })

  it('an unknown database: Msg 4060 surfaces as our connection error', async () => {
    const error = await failure(credentials('optional', { tlsCaCertificate: ca.cert, database: 'nope' }))
    expect(error.message).toMatch(/Cannot open database "nope" requested by the login|Login failed for user 'reader'/)
  })
})
