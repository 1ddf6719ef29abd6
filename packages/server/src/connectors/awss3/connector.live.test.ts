/**
 * Opt-in live suite against real Amazon S3, for maintainers: runs only when
 * STRATA_LIVE_S3_BUCKET, STRATA_LIVE_S3_REGION, STRATA_LIVE_S3_ACCESS_KEY_ID and
 * STRATA_LIVE_S3_SECRET_ACCESS_KEY are set (optionally STRATA_LIVE_S3_PREFIX, and
 * STRATA_LIVE_S3_ENDPOINT for an S3-compatible service), and is skipped loudly otherwise. The
 * bucket/prefix should hold at least one small .csv, .parquet or .json file; nothing is written
 * to the bucket. See connectors/awss3/README.md.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import { getDialect } from '../../query/dialects/registry.js'
import { createConnector } from '../registry.js'
import type { AwsS3Credentials, Connector } from '../types.js'

const REQUIRED = [
  'STRATA_LIVE_S3_BUCKET',
  'STRATA_LIVE_S3_REGION',
  'STRATA_LIVE_S3_ACCESS_KEY_ID',
  'STRATA_LIVE_S3_SECRET_ACCESS_KEY',
] as const
const env = process.env
const missing = REQUIRED.filter((name) => !env[name])
if (missing.length > 0) {
  console.warn(`awss3 live suite SKIPPED: set ${missing.join(', ')} to run it against real S3`)
}

describe.skipIf(missing.length > 0)('awss3 live against Amazon S3 (opt-in)', () => {
  let cacheDir: string
  const opened: Connector[] = []
  const credentials = (extra: Partial<AwsS3Credentials> = {}): AwsS3Credentials => ({
    name: 'live',
    bucket: env.STRATA_LIVE_S3_BUCKET ?? '',
    region: env.STRATA_LIVE_S3_REGION ?? '',
    accessKeyId: env.STRATA_LIVE_S3_ACCESS_KEY_ID ?? '',
    secretAccessKey: env.STRATA_LIVE_S3_SECRET_ACCESS_KEY ?? '',
    ...(env.STRATA_LIVE_S3_PREFIX ? { prefix: env.STRATA_LIVE_S3_PREFIX } : {}),
    ...(env.STRATA_LIVE_S3_ENDPOINT ? { endpoint: env.STRATA_LIVE_S3_ENDPOINT } : {}),
    ...extra,
  })
  const connect = (c: AwsS3Credentials) => {
    const connector = createConnector('awss3', c, { connectTimeoutMs: 8000, poolMax: 2, cacheDir })
    opened.push(connector)
    return connector
  }
  const refusal = async (c: Connector) => {
    const { error } = await caught(c.test())
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect((error as ApiError).message).not.toContain(credentials().secretAccessKey)
    return (error as ApiError).message
  }

  beforeAll(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'strata-live-s3-'))
  })
  afterAll(async () => {
    await Promise.allSettled(opened.map((c) => c.close()))
    await rm(cacheDir, { recursive: true, force: true })
  })

  it('connects, caches the prefix, introspects and queries every table', async () => {
    const c = connect(credentials())
    await c.test()
    const tables = await c.introspect()
    expect(tables.length, 'put at least one data file under the bucket/prefix').toBeGreaterThan(0)
    for (const table of tables) {
      const duckdb = getDialect('duckdb')
      const name = `${duckdb.quoteIdentifier(table.schema)}.${duckdb.quoteIdentifier(table.name)}`
      const result = await c.execute(`select count(*) as n from ${name}`, {
        params: [],
        timeoutMs: 30_000,
        maxRows: 1,
      })
      expect(Number(result.rows[0]?.n)).toBeGreaterThanOrEqual(0)
    }
    await c.introspect() // a second refresh: unchanged ETags, nothing fetched again
  })

  it('a wrong secret is SignatureDoesNotMatch, an unknown key InvalidAccessKeyId, a missing bucket NoSuchBucket', async () => {
    expect(await refusal(connect(credentials({ secretAccessKey: 'wrong-secret-for-strata-live-test' })))).toMatch(
      /SignatureDoesNotMatch/,
    )
    expect(await refusal(connect(credentials({ accessKeyId: 'AKIASTRATANOSUCHKEY0' })))).toMatch(/InvalidAccessKeyId/)
    const bucket = `strata-no-such-bucket-${Date.now().toString(36)}`
    expect(await refusal(connect(credentials({ bucket })))).toMatch(/NoSuchBucket|AccessDenied|PermanentRedirect/)
  })
})
