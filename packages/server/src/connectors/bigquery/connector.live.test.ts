/**
 * Opt-in live suite against a real BigQuery project, for maintainers. It runs when
 * STRATA_LIVE_BIGQUERY_CREDENTIALS_JSON (a service account key, JSON), STRATA_LIVE_BIGQUERY_PROJECT_ID,
 * STRATA_LIVE_BIGQUERY_LOCATION and STRATA_LIVE_BIGQUERY_DATASET (an existing dataset the account
 * may read) are set, and is skipped loudly otherwise. It creates nothing: every query reads
 * constants or UNNEST, so it costs no bytes scanned (the account needs bigquery.jobs.create and
 * dataset read access).
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { ApiError } from '../../errors.js'
import { createConnector } from '../registry.js'
import type { BigqueryCredentials } from '../types.js'

const env = {
  credentials: process.env.STRATA_LIVE_BIGQUERY_CREDENTIALS_JSON,
  project: process.env.STRATA_LIVE_BIGQUERY_PROJECT_ID,
  location: process.env.STRATA_LIVE_BIGQUERY_LOCATION,
  dataset: process.env.STRATA_LIVE_BIGQUERY_DATASET,
}
const configured = Object.values(env).every((v) => v !== undefined && v !== '')
if (!configured) {
  console.warn(
    'SKIPPED bigquery live suite: set STRATA_LIVE_BIGQUERY_CREDENTIALS_JSON, STRATA_LIVE_BIGQUERY_PROJECT_ID, STRATA_LIVE_BIGQUERY_LOCATION and STRATA_LIVE_BIGQUERY_DATASET to run it against a real project',
  )
}

const BASE = { params: [] as unknown[], timeoutMs: 60_000, maxRows: 1000 }

describe.skipIf(!configured)('bigquery connector, live against a real BigQuery project', () => {
  const credentials: BigqueryCredentials = {
    name: 'live',
    credentials_json: env.credentials ?? '',
    project_id: env.project ?? '',
    dataset_location: env.location ?? '',
    dataset_id: env.dataset,
  }
  const connector = createConnector('bigquery', credentials, { connectTimeoutMs: 10_000, poolMax: 4 })
  afterAll(() => connector.close())

  it('connects, lists its dataset and introspects it', async () => {
    await connector.test()
    expect(await connector.databases()).toContain(env.dataset)
    expect(Array.isArray(await connector.introspect())).toBe(true)
  }, 60_000)

  it('binds hostile values as parameters and returns them as data', async () => {
    const hostile = ["'; DROP TABLE x; --", 'a\\b `c` "d"', '@p1 ? $1', 'ünï ✓ 𝄞']
    const sql = `SELECT ${hostile.map((_, i) => `@p${i} AS v${i}`).join(', ')}, @p4 AS n`
    const result = await connector.execute(sql, { ...BASE, params: [...hostile, 7] })
    expect(result.rows).toEqual([{ ...Object.fromEntries(hostile.map((v, i) => [`v${i}`, v])), n: 7 }])
  }, 60_000)

  it('caps rows across pages, renders instants in the session zone, and applies it to date functions', async () => {
    const capped = await connector.execute('SELECT x FROM UNNEST(GENERATE_ARRAY(1, 50000)) AS x', {
      ...BASE,
      maxRows: 20_000,
    })
    expect([capped.rows.length, capped.truncated]).toEqual([20_000, true])
    const zoned = await connector.execute(
      "SELECT TIMESTAMP '2024-01-01 00:00:00+00' AS t, CAST(TIMESTAMP '2024-01-01 20:00:00+00' AS DATE) AS d",
      { ...BASE, timezone: 'Asia/Tokyo' },
    )
    expect(zoned.rows).toEqual([{ t: '2024-01-01T09:00:00+09:00', d: '2024-01-02' }])
  }, 120_000)

  it('a bad statement is QUERY_ERROR; a timeout cancels the job and is QUERY_TIMEOUT', async () => {
    const bad = await connector.execute('SELECT FROM nothing', BASE).catch((e: unknown) => e)
    expect((bad as ApiError).code).toBe('QUERY_ERROR')
    const slow = await connector
      .execute(
        'SELECT COUNT(*) FROM UNNEST(GENERATE_ARRAY(1, 1000000)) a CROSS JOIN UNNEST(GENERATE_ARRAY(1, 100000)) b',
        {
          ...BASE,
          timeoutMs: 1500,
        },
      )
      .catch((e: unknown) => e)
    expect((slow as ApiError).code).toBe('QUERY_TIMEOUT')
  }, 120_000)

  it('a wrong key is DATASOURCE_CONNECTION_ERROR with the reason', async () => {
    const key = JSON.parse(env.credentials ?? '{}') as Record<string, unknown>
    const { generateKeyPairSync } = await import('node:crypto')
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    })
    const wrong = createConnector(
      'bigquery',
      { ...credentials, credentials_json: JSON.stringify({ ...key, private_key: other.toString() }) },
      { connectTimeoutMs: 10_000, poolMax: 1 },
    )
    const e = (await wrong.test().catch((err: unknown) => err)) as ApiError
    expect(e.code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(/invalid_grant/)
    await wrong.close()
  }, 60_000)
})
