/**
 * Trino over https with a certificate from a private CA made for this run: the connector
 * verifies the certificate (public roots unless `tlsCaCertificate` names the CA) and its host
 * name, through the Trino stand-in served over TLS (src/connectors/trino/standin/server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { createPrivateCa, type PrivateCa } from '../../../test/standins/private-ca.js'
import { ApiError } from '../../errors.js'
import type { CredentialsByType } from '../credentials/schemas.js'
import type { ConnectorOptions } from '../types.js'
import { TrinoConnector } from './connector.js'
import { CATALOG, startTrinoStandIn, type TrinoStandIn } from './standin/server.js'

const OPTIONS: ConnectorOptions = { connectTimeoutMs: 3000, poolMax: 2 }

describe('trino over https, private CA (stand-in)', () => {
  let ca: PrivateCa
  let standIn: TrinoStandIn
  beforeAll(async () => {
    ca = createPrivateCa()
    const server = ca.issueServer('trino', ['IP:127.0.0.1'])
    standIn = await startTrinoStandIn({ tls: { cert: server.cert, key: server.key } })
  })
  afterAll(async () => {
    await standIn?.close()
    ca?.close()
  })

  const run = async (extra: Partial<CredentialsByType['trino']>) => {
    const c = new TrinoConnector(
      { name: 't', host: '127.0.0.1', port: standIn.port, user: 'u', catalog: CATALOG, ssl: true, ...extra },
      OPTIONS,
    )
    try {
      return await c.execute('select 42 as x', { params: [], timeoutMs: 10_000, maxRows: 10 })
    } finally {
      await c.close()
    }
  }
  const failure = async (extra: Partial<CredentialsByType['trino']>) => {
    const { error } = await caught(run(extra))
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code, (error as Error).message).toBe('DATASOURCE_CONNECTION_ERROR')
    return error as ApiError
  }

  it('with the CA it connects', async () => {
    expect((await run({ tlsCaCertificate: ca.cert })).rows).toEqual([{ x: 42 }])
  })

  it('without the CA the certificate fails verification', async () => {
    expect((await failure({})).message).toMatch(/TLS certificate verification failed/)
  })

  it('a host the certificate does not name fails verification', async () => {
    const error = await failure({ host: 'localhost', tlsCaCertificate: ca.cert })
    expect(error.message).toMatch(/TLS certificate verification failed \(ERR_TLS_CERT_ALTNAME_INVALID\)/)
  })
})
