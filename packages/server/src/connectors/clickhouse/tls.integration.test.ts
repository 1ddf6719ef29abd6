/**
 * ClickHouse over https with a certificate from a private CA made for this run: a TLS front
 * (test/standins/tls-front.ts) terminates TLS in front of the local ClickHouse's HTTP interface,
 * as a managed ClickHouse or its load balancer does. The connector verifies the chain (the
 * `tlsCaCertificate` field, else the public roots) and the host name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { requireService } from '../../../test/helpers/services.js'
import { createPrivateCa, type PrivateCa } from '../../../test/standins/private-ca.js'
import { startTlsFront, type TlsFront } from '../../../test/standins/tls-front.js'
import { ApiError } from '../../errors.js'
import type { ClickhouseCredentials, ConnectorOptions } from '../types.js'
import { ClickhouseConnector } from './connector.js'

const up = await requireService('ClickHouse', '127.0.0.1', 8123)
const options: ConnectorOptions = { connectTimeoutMs: 3000, poolMax: 2 }

describe.skipIf(!up)('clickhouse over https, private CA (a TLS front before the local ClickHouse)', () => {
  let ca: PrivateCa
  let front: TlsFront
  beforeAll(async () => {
    ca = createPrivateCa()
    front = await startTlsFront(ca.issueServer('clickhouse', ['IP:127.0.0.1']), 8123)
  })
  afterAll(async () => {
    await front?.close()
    ca?.close()
  })

  const run = async (extra: Partial<ClickhouseCredentials>) => {
    const credentials: ClickhouseCredentials = {
      name: 'ch',
      host: '127.0.0.1',
      port: front.port,
      user: 'default',
      password: '',
      database: 'default',
      ssl: true,
      ...extra,
    }
    const connector = new ClickhouseConnector(credentials, options)
    try {
      return await connector.execute('SELECT 42 AS x', { params: [], timeoutMs: 5000, maxRows: 10 })
    } finally {
      await connector.close()
    }
  }
  const failure = async (extra: Partial<ClickhouseCredentials>) => {
    const { error } = await caught(run(extra))
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code, (error as Error).message).toBe('DATASOURCE_CONNECTION_ERROR')
    expect((error as ApiError).status).toBe(400)
    return error as ApiError
  }

  it('with the CA it connects, through TLS', async () => {
    const before = front.handshakes
    expect((await run({ tlsCaCertificate: ca.cert })).rows).toEqual([{ x: 42 }])
    expect(front.handshakes).toBeGreaterThan(before)
  })

  it('without the CA the certificate fails verification, naming it', async () => {
    const error = await failure({})
    expect(error.message).toMatch(/TLS certificate verification failed \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/)
  })

  it('a CA that did not sign the certificate fails verification', async () => {
    const other = createPrivateCa('Another CA')
    try {
      expect((await failure({ tlsCaCertificate: other.cert })).message).toMatch(/TLS certificate verification failed/)
    } finally {
      other.close()
    }
  })

  it('a host the certificate does not name fails verification', async () => {
    const error = await failure({ host: 'localhost', tlsCaCertificate: ca.cert })
    expect(error.message).toMatch(/TLS certificate verification failed \(ERR_TLS_CERT_ALTNAME_INVALID\)/)
  })
})
