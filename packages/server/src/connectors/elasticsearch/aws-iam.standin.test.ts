/**
 * OpenSearch on AWS with IAM: the connector signs every request with SigV4 through the OpenSearch
 * client's own signer, for an OpenSearch Service domain (`es`) and a Serverless collection
 * (`aoss`). The search stand-in recomputes each signature (test/standins/sigv4.ts) and
 * refuses unsigned, wrongly signed or wrongly scoped requests with 403, as AWS does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { ApiError } from '../../errors.js'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import { validateCredentials } from '../credentials/validate.js'
import { SearchConnector } from './connector.js'
import { SearchStandIn } from './standin/server.js'

const KEY_ID = 'AKIASTANDIN000000001'
const SECRET = 'standin/secret+key-0123456789abcdefghijkl'

describe.each(['es', 'aoss'] as const)('OpenSearch on AWS, SigV4 for the service %s', (service) => {
  const standIn = new SearchStandIn({
    flavour: 'opensearch',
    sigv4: { service, region: 'eu-west-1', keys: { [KEY_ID]: SECRET } },
  })
  beforeAll(async () => {
    standIn.createIndex('orders', { id: { type: 'integer' }, status: { type: 'keyword' } }, [
      { id: 1, status: 'paid' },
      { id: 2, status: 'open' },
    ])
    await standIn.start()
  })
  afterAll(() => standIn.stop())

  const connector = (extra: Record<string, unknown> = {}) =>
    new SearchConnector(
      validateCredentials('opensearch', {
        name: 'os',
        server_type: 'self-managed',
        server_url: standIn.url,
        awsRegion: 'eu-west-1',
        awsService: service,
        awsAccessKeyId: KEY_ID,
        awsSecretAccessKey: SECRET,
        ...extra,
      }),
      { connectTimeoutMs: 5000, poolMax: 2 },
      'opensearch',
    )

  it('signs every request: connects, introspects, searches', async () => {
    const c = connector()
    try {
      await c.test()
      expect((await c.introspect()).map((t) => t.name)).toContain('orders')
      expect(await c.databases()).toContain('orders')
      // a search: a POST whose body the signature covers
      const compiled = compileMetric({
        metric: metric({
          from: 'orders',
          measures: [{ name: 'n', aggregate: 'count' }],
          dimensions: [{ name: 'status', column: 'status' }],
        }),
        model: buildModel(await c.introspect()),
        dialect: getDialect('elasticsearch'),
        context: ctx(),
      })
      const { rows } = await c.execute(compiled.sql, { params: compiled.params, timeoutMs: 10_000, maxRows: 100 })
      expect(rows).toEqual(expect.arrayContaining([expect.objectContaining({ status: 'paid', n: 1 })]))
    } finally {
      await c.close()
    }
  })

  it('an unsigned request is refused with 403', async () => {
    const res = await fetch(`${standIn.url}/_cat/indices?format=json`)
    expect(res.status).toBe(403)
  })

  it('a wrong secret is DATASOURCE_CONNECTION_ERROR, never repeating the secret', async () => {
    const c = connector({ awsSecretAccessKey: 'wrong-secret-value-xyz' })
    try {
      const error = await c.test().then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
      expect((error as ApiError).message).toMatch(/403|signature/i)
      expect((error as ApiError).message).not.toContain('wrong-secret-value-xyz')
    } finally {
      await c.close()
    }
  })

  it('the other service name is refused (a signature is scoped to one service)', async () => {
    const c = connector({ awsService: service === 'es' ? 'aoss' : 'es' })
    try {
      await expect(c.test()).rejects.toBeInstanceOf(ApiError)
    } finally {
      await c.close()
    }
  })
})

describe('validation of the AWS IAM fields', () => {
  const base = { name: 'os', server_type: 'self-managed', server_url: 'https://search-x.eu-west-1.es.amazonaws.com' }
  const message = (credentials: unknown): string => {
    try {
      validateCredentials('opensearch', credentials)
    } catch (e) {
      return (e as Error).message
    }
    return 'accepted'
  }

  it('awsRegion needs the key pair, refuses basic auth, and is self-managed only', () => {
    expect(message({ ...base, awsRegion: 'eu-west-1', awsAccessKeyId: 'A' })).toBe(
      'credentials.awsSecretAccessKey is required with awsRegion',
    )
    expect(
      message({ ...base, awsRegion: 'eu-west-1', awsAccessKeyId: 'A', awsSecretAccessKey: 'S', username: 'u' }),
    ).toBe('credentials.username is not allowed with awsRegion (AWS IAM signs the requests)')
    expect(message({ ...base, awsAccessKeyId: 'A', username: 'u', password: 'p' })).toBe(
      'credentials.awsAccessKeyId is only valid with awsRegion',
    )
    expect(message({ ...base, awsRegion: 'eu-west-1', awsAccessKeyId: 'A', awsSecretAccessKey: 'S' })).toBe('accepted')
  })
})
