/**
 * Elasticsearch 7.x, 8.x and 9.x speak different media types: the client of 9.x asks for
 * compatible-with=9, which 8.x and 7.x refuse. The connector reads the version once and speaks
 * what that version accepts (transport.ts); the stand-in imitates each version's check
 * (src/connectors/elasticsearch/standin/media-types.ts). The golden metric set runs on each version in
 * golden.standin.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SearchConnector } from './connector.js'
import { SearchStandIn } from './standin/server.js'
import { mediaTypesFor } from './transport.js'

const V9 = 'application/vnd.elasticsearch+json; compatible-with=9'

describe('media types per Elasticsearch version', () => {
  it('plain JSON for 7.x and unknown versions, compatible-with=8 for 8.x, 9 from 9.x on', () => {
    expect(mediaTypesFor('7.17.25')).toEqual({ accept: 'application/json', 'content-type': 'application/json' })
    expect(mediaTypesFor(undefined)).toEqual({ accept: 'application/json', 'content-type': 'application/json' })
    expect(mediaTypesFor('8.15.0').accept).toBe('application/vnd.elasticsearch+json; compatible-with=8')
    expect(mediaTypesFor('9.1.0')['content-type']).toBe(V9)
    expect(mediaTypesFor('10.0.0').accept).toBe(V9)
  })
})

describe.each(['7.17.0', '8.15.0', '9.0.0'])('Elasticsearch %s stand-in', (version) => {
  const standIn = new SearchStandIn({ flavour: 'elasticsearch', users: { u: 'pw' }, version })
  beforeAll(async () => {
    standIn.createIndex('orders', { id: { type: 'integer' }, status: { type: 'keyword' } }, [{ id: 1, status: 'a' }])
    await standIn.start()
  })
  afterAll(() => standIn.stop())

  it(`${version.startsWith('9') ? 'accepts' : 'refuses'} the 9.x client's own media types`, async () => {
    const res = await fetch(`${standIn.url}/_mapping`, {
      headers: { accept: `${V9},text/plain`, authorization: `Basic ${Buffer.from('u:pw').toString('base64')}` },
    })
    if (version.startsWith('9')) {
      expect(res.status).toBe(200)
      return
    }
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { type: string; caused_by: { reason: string } } }
    expect(body.error.type).toBe('media_type_header_exception')
    expect(body.error.caused_by.reason).toMatch(/but found 9/)
  })

  it('connects, introspects and searches through the connector', async () => {
    const c = new SearchConnector(
      { name: 'e', server_type: 'self-managed', server_url: standIn.url, username: 'u', password: 'pw' },
      { connectTimeoutMs: 5000, poolMax: 2 },
      'elasticsearch',
    )
    try {
      await c.test()
      const tables = await c.introspect()
      expect(tables.map((t) => t.name)).toContain('orders')
      expect(await c.databases()).toContain('orders')
    } finally {
      await c.close()
    }
  })
})
