/**
 * Opt-in live suite against real Amazon Athena: runs when STRATA_LIVE_ATHENA_REGION,
 * _ACCESS_KEY_ID, _SECRET_ACCESS_KEY, _OUTPUT_LOCATION and _DATABASE are set (optional
 * _WORKGROUP), skipped loudly otherwise. Each query is billed by Athena (the minimum per query).
 */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import type { ExecuteOptions } from '../types.js'
import { AthenaConnector } from './connector.js'

const env = process.env
const REQUIRED = [
  'STRATA_LIVE_ATHENA_REGION',
  'STRATA_LIVE_ATHENA_ACCESS_KEY_ID',
  'STRATA_LIVE_ATHENA_SECRET_ACCESS_KEY',
  'STRATA_LIVE_ATHENA_OUTPUT_LOCATION',
  'STRATA_LIVE_ATHENA_DATABASE',
]
const missing = REQUIRED.filter((name) => !env[name])
if (missing.length > 0) {
  console.warn(
    `athena live suite SKIPPED: set ${REQUIRED.join(', ')} (optional STRATA_LIVE_ATHENA_WORKGROUP); missing ${missing.join(', ')}`,
  )
}

const BASE: ExecuteOptions = { params: [], timeoutMs: 120_000, maxRows: 1000 }
const HOSTILE = ["'; drop table t; --", "it's \\' \\\\ ''", "a', 'b", '/* x */ -- y ? $1', 'ünïcødé ✓ 𝄞 中文']

describe.skipIf(missing.length > 0)('athena live', () => {
  const connector = () =>
    new AthenaConnector(
      {
        name: 'live',
        region: env.STRATA_LIVE_ATHENA_REGION ?? '',
        accessKeyId: env.STRATA_LIVE_ATHENA_ACCESS_KEY_ID ?? '',
        secretAccessKey: env.STRATA_LIVE_ATHENA_SECRET_ACCESS_KEY ?? '',
        s3OutputLocation: env.STRATA_LIVE_ATHENA_OUTPUT_LOCATION ?? '',
        database: env.STRATA_LIVE_ATHENA_DATABASE ?? '',
        ...(env.STRATA_LIVE_ATHENA_WORKGROUP ? { workgroup: env.STRATA_LIVE_ATHENA_WORKGROUP } : {}),
      },
      { connectTimeoutMs: 10_000, poolMax: 2 },
    )

  it('connects, lists databases and introspects', async () => {
    const c = connector()
    await c.test()
    expect(await c.databases()).toContain(env.STRATA_LIVE_ATHENA_DATABASE)
    await c.introspect()
  })

  it('returns hostile values as data (ExecutionParameters as typed literals)', async () => {
    const sql = `SELECT ${HOSTILE.map((_, i) => `? AS v${i}`).join(', ')}, ? AS n`
    const result = await connector().execute(sql, { ...BASE, params: [...HOSTILE, 7] })
    expect(result.rows).toEqual([{ ...Object.fromEntries(HOSTILE.map((v, i) => [`v${i}`, v])), n: 7 }])
  })

  it('caps rows', async () => {
    const result = await connector().execute('SELECT g FROM UNNEST(sequence(1, 3000)) AS t(g)', {
      ...BASE,
      maxRows: 10,
    })
    expect([result.rows.length, result.truncated]).toEqual([10, true])
  })

  it("matches the dialect's documented choices (engine v3)", async () => {
    const result = await connector().execute(
      "SELECT CAST(date_trunc('week', DATE '2024-01-03') AS DATE) AS w, CAST(at_timezone(with_timezone(TIMESTAMP '2024-01-01 00:00:00', 'UTC'), ?) AS timestamp) AS t",
      { ...BASE, params: ['Asia/Tokyo'] },
    )
    expect(result.rows).toEqual([{ w: '2024-01-01', t: '2024-01-01T09:00:00.000' }])
  })

  it('a failing statement is QUERY_ERROR', async () => {
    const error = await connector()
      .execute('SELECT * FROM strata_no_such_table', BASE)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('QUERY_ERROR')
  })
})
