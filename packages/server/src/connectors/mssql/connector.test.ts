import sql from 'mssql'
import { describe, expect, it } from 'vitest'
import { caught, closedPort, silentServer } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import type { ConnectorOptions, MssqlCredentials } from '../types.js'
import { MssqlConnector } from './connector.js'
import { encryptedOnlyConnector } from './encryption-guard.js'
import { translateMssqlError } from './errors.js'
import { buildRequest, inputs, mssqlConfig } from './request.js'
import { convertValue, dataTypeOfName } from './type-mapping.js'

const options: ConnectorOptions = { connectTimeoutMs: 800, poolMax: 3 }
const credentials: MssqlCredentials = {
  name: 'mssql',
  server: '127.0.0.1',
  port: 1433,
  user: 'sa',
  password: 'Secret-Passw0rd',
  database: 'sales',
}

describe('mssql connector (no server: dialect/request building only)', () => {
  it('builds the pool config: encrypted, read-only intent, connect timeout, pool size', () => {
    const config = mssqlConfig({ ...credentials, readOnlyIntent: true }, options)
    expect(config).toMatchObject({
      server: '127.0.0.1',
      port: 1433,
      user: 'sa',
      database: 'sales',
      connectionTimeout: 800,
      pool: { max: 3, min: 0 },
      options: { encrypt: true, trustServerCertificate: false, readOnlyIntent: true, useUTC: true },
    })
    expect(mssqlConfig(credentials, options).options?.readOnlyIntent).toBe(false)
  })

  it('TLS: verify by default, required trusts any certificate, off does not encrypt; CA and client pair passed on', () => {
    const tls = (extra: Partial<typeof credentials>) => mssqlConfig({ ...credentials, ...extra }, options).options ?? {}
    expect(tls({})).toMatchObject({ encrypt: true, trustServerCertificate: false })
    expect(tls({}).cryptoCredentialsDetails).toBeUndefined()
    expect(tls({ tlsMode: 'required' })).toMatchObject({ encrypt: true, trustServerCertificate: true })
    expect(tls({ tlsMode: 'off' })).toMatchObject({ encrypt: false })
    expect(tls({ tlsMode: 'off' }).trustServerCertificate).toBeUndefined()
    // with TLS on, the socket is ours: a PRELOGIN answer that cannot encrypt gets no login
    expect(tls({}).connector).toBe(encryptedOnlyConnector)
    expect(tls({ tlsMode: 'required' }).connector).toBe(encryptedOnlyConnector)
    expect(tls({ tlsMode: 'off' }).connector).toBeUndefined()
    const pem = { tlsCaCertificate: 'CA', tlsClientCertificate: 'CERT', tlsClientKey: 'KEY' }
    expect(tls(pem)).toMatchObject({
      encrypt: true,
      trustServerCertificate: false,
      cryptoCredentialsDetails: { ca: 'CA', cert: 'CERT', key: 'KEY' },
    })
  })

  it('isDisableDatabase leaves the database to the login; a tenant database is always explicit', () => {
    expect(mssqlConfig({ ...credentials, isDisableDatabase: true }, options).database).toBeUndefined()
    expect(mssqlConfig({ ...credentials, isDisableDatabase: true }, options, 'tenant_7').database).toBe('tenant_7')
    expect(mssqlConfig(credentials, options, 'tenant_7').database).toBe('tenant_7')
  })

  it('binds params[i] as @p<i> with an explicit type; values never enter the text', () => {
    const hostile = "'; DROP TABLE orders; --"
    const when = new Date('2024-01-01T00:00:00Z')
    const bound = inputs([hostile, 7, 3_000_000_000, 1.5, true, null, when, 12n, ['a', 'b']])
    expect(bound.map((b) => b.name)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'])
    const typeName = (t: unknown) => (typeof t === 'function' ? (t as () => sql.ISqlType)() : (t as sql.ISqlType))
    expect(
      bound.map((b) => (typeName(b.type) as unknown as { type: { declaration: string } }).type.declaration),
    ).toEqual(['nvarchar', 'int', 'bigint', 'float', 'bit', 'nvarchar', 'datetimeoffset', 'bigint', 'nvarchar'])
    expect(bound.map((b) => b.value)).toEqual([hostile, 7, 3_000_000_000, 1.5, true, null, when, '12', '["a","b"]'])

    const pool = new sql.ConnectionPool(mssqlConfig(credentials, options))
    const request = buildRequest(pool, [hostile, 7])
    expect(request.stream).toBe(true)
    expect(Object.keys(request.parameters)).toEqual(['p0', 'p1'])
    expect(request.parameters.p0?.value).toBe(hostile)
  })

  it('maps SQL Server types and values', () => {
    expect(
      [
        'int',
        'bigint',
        'bit',
        'decimal',
        'money',
        'date',
        'datetime2',
        'datetimeoffset',
        'nvarchar',
        'uniqueidentifier',
        'geography',
      ].map(dataTypeOfName),
    ).toEqual([
      'integer',
      'integer',
      'boolean',
      'number',
      'number',
      'date',
      'datetime',
      'datetime',
      'string',
      'string',
      'unknown',
    ])
    const d = new Date('2024-01-02T03:04:05.678Z')
    expect(convertValue(d, 'date')).toBe('2024-01-02')
    expect(convertValue(d, 'datetime2')).toBe('2024-01-02T03:04:05.678')
    expect(convertValue(d, 'datetimeoffset')).toBe('2024-01-02T03:04:05.678Z')
    expect(convertValue('9007199254740993', 'bigint')).toBe('9007199254740993')
    expect(convertValue('42', 'bigint')).toBe(42)
  })

  it('translates driver errors: login failure and socket errors are connection errors, cancel is a timeout', () => {
    const login = Object.assign(new Error("Login failed for user 'sa'."), { code: 'ELOGIN' })
    const e1 = translateMssqlError(login, { connecting: true, secrets: [credentials.password] })
    expect([e1.code, e1.status]).toEqual(['DATASOURCE_CONNECTION_ERROR', 400])
    expect(e1.cause).toBe(login)
    const cancel = Object.assign(new Error('Canceled.'), { code: 'ECANCEL' })
    expect(translateMssqlError(cancel, { timeoutMs: 500, timedOut: true, secrets: [] }).code).toBe('QUERY_TIMEOUT')
    const bad = Object.assign(new Error("Invalid object name 'x'."), { code: 'EREQUEST', number: 208 })
    const e3 = translateMssqlError(bad, { timeoutMs: 500, secrets: [] })
    expect([e3.code, e3.message]).toEqual(['QUERY_ERROR', "The query failed: Invalid object name 'x'."])
    const leaky = Object.assign(new Error(`bad password ${credentials.password}`), { code: 'ELOGIN' })
    expect(translateMssqlError(leaky, { connecting: true, secrets: [credentials.password] }).message).not.toContain(
      credentials.password,
    )
  })

  it('a closed port and a silent port (local, no SQL Server) → DATASOURCE_CONNECTION_ERROR within the timeout', async () => {
    const silent = await silentServer()
    try {
      for (const port of [await closedPort(), silent.port]) {
        const c = new MssqlConnector({ ...credentials, port }, options)
        const { error, ms } = await caught(c.test())
        expect(error).toBeInstanceOf(ApiError)
        expect((error as ApiError).code, (error as Error).message).toBe('DATASOURCE_CONNECTION_ERROR')
        expect((error as ApiError).message).not.toContain(credentials.password)
        expect(ms).toBeLessThan(options.connectTimeoutMs + 1000)
        await c.close()
      }
    } finally {
      await silent.close()
    }
  })
})
