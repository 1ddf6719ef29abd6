/**
 * Elasticsearch and OpenSearch over https with a certificate from a private CA made for this
 * run: a TLS front (test/standins/tls-front.ts) terminates TLS before the search stand-in, as a
 * cluster's https listener does. An `https://` server_url verifies the chain (`tlsCaCertificate`,
 * else the public roots) and the host name; `isIgnoreVerifyCert` encrypts without checking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { createPrivateCa, type PrivateCa } from '../../../test/standins/private-ca.js'
import { startTlsFront, type TlsFront } from '../../../test/standins/tls-front.js'
import { ApiError } from '../../errors.js'
import type { CredentialsByType } from '../credentials/schemas.js'
import { SearchConnector } from './connector.js'
import { SearchStandIn } from './standin/server.js'

describe.each(['elasticsearch', 'opensearch'] as const)(
  '%s over https, private CA (stand-in behind a TLS front)',
  (flavour) => {
    const standIn = new SearchStandIn({
      flavour,
      users: { u: 'pw' },
      ...(flavour === 'elasticsearch' ? { version: '8.15.0' } : {}),
    })
    let ca: PrivateCa
    let front: TlsFront
    beforeAll(async () => {
      standIn.createIndex('orders', { id: { type: 'integer' } }, [{ id: 1 }])
      await standIn.start()
      ca = createPrivateCa()
      front = await startTlsFront(ca.issueServer('search', ['IP:127.0.0.1']), Number(new URL(standIn.url).port))
    })
    afterAll(async () => {
      await front?.close()
      standIn.stop()
      ca?.close()
    })

    type Credentials = CredentialsByType['elasticsearch']
    const run = async (extra: Partial<Credentials>, host = '127.0.0.1') => {
      const c = new SearchConnector(
        {
          name: 's',
          server_type: 'self-managed',
          server_url: `https://${host}:${front.port}`,
          username: 'u',
          password: 'pw',
          ...extra,
        },
        { connectTimeoutMs: 3000, poolMax: 2 },
        flavour,
      )
      try {
        await c.test()
        return (await c.introspect()).map((t) => t.name)
      } finally {
        await c.close()
      }
    }
    const failure = async (extra: Partial<Credentials>, host?: string) => {
      const { error } = await caught(run(extra, host))
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).code, (error as Error).message).toBe('DATASOURCE_CONNECTION_ERROR')
      expect((error as ApiError).status).toBe(400)
      return error as ApiError
    }

    it('with the CA it connects, through TLS', async () => {
      const before = front.handshakes
      expect(await run({ tlsCaCertificate: ca.cert })).toContain('orders')
      expect(front.handshakes).toBeGreaterThan(before)
    })

    it('without the CA the certificate fails verification, naming it', async () => {
      expect((await failure({})).message).toMatch(
        /TLS certificate verification failed: unable to verify the first certificate/,
      )
    })

    it('a host the certificate does not name fails verification', async () => {
      expect((await failure({ tlsCaCertificate: ca.cert }, 'localhost')).message).toMatch(
        /TLS certificate verification failed: Hostname\/IP does not match certificate's altnames/,
      )
    })

    it('isIgnoreVerifyCert encrypts without checking the certificate', async () => {
      const before = front.handshakes
      expect(await run({ isIgnoreVerifyCert: true })).toContain('orders')
      expect(front.handshakes).toBeGreaterThan(before)
    })
  },
)
