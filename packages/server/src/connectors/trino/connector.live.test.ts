/**
 * Opt-in live suite against a real Trino: runs when STRATA_LIVE_TRINO_HOST, _PORT, _USER and
 * _CATALOG are set (optional: _PASSWORD, which implies https, and _SCHEMA), skipped loudly
 * otherwise. Besides the transport it checks the dialect's documented choices on the engine itself
 * (date_trunc week = Monday, at_timezone/with_timezone, OFFSET before LIMIT, exact equality).
 */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import type { ExecuteOptions } from '../types.js'
import { TrinoConnector } from './connector.js'

const env = process.env
const REQUIRED = [
  'STRATA_LIVE_TRINO_HOST',
  'STRATA_LIVE_TRINO_PORT',
  'STRATA_LIVE_TRINO_USER',
  'STRATA_LIVE_TRINO_CATALOG',
]
const missing = REQUIRED.filter((name) => !env[name])
if (missing.length > 0) {
  console.warn(
    `trino live suite SKIPPED: set ${REQUIRED.join(', ')} (optional STRATA_LIVE_TRINO_PASSWORD, STRATA_LIVE_TRINO_SCHEMA); missing ${missing.join(', ')}`,
  )
}

const BASE: ExecuteOptions = { params: [], timeoutMs: 60_000, maxRows: 1000 }
const HOSTILE = ["'; drop table t; --", "it's \\' \\\\ ''", '/* x */ -- y ? $1 :n @p0', 'ünïcødé ✓ 𝄞 中文']

describe.skipIf(missing.length > 0)('trino live', () => {
  const connector = () =>
    new TrinoConnector(
      {
        name: 'live',
        host: env.STRATA_LIVE_TRINO_HOST ?? '',
        port: Number(env.STRATA_LIVE_TRINO_PORT),
        user: env.STRATA_LIVE_TRINO_USER ?? '',
        catalog: env.STRATA_LIVE_TRINO_CATALOG ?? '',
        ...(env.STRATA_LIVE_TRINO_PASSWORD ? { password: env.STRATA_LIVE_TRINO_PASSWORD, ssl: true } : {}),
        ...(env.STRATA_LIVE_TRINO_SCHEMA ? { schema: env.STRATA_LIVE_TRINO_SCHEMA } : {}),
      },
      { connectTimeoutMs: 10_000, poolMax: 2 },
    )

  it('connects, lists schemas and introspects', async () => {
    const c = connector()
    await c.test()
    const schemas = await c.databases()
    expect(schemas.length).toBeGreaterThan(0)
    if (env.STRATA_LIVE_TRINO_SCHEMA) {
      expect(schemas).toContain(env.STRATA_LIVE_TRINO_SCHEMA)
      await c.introspect()
    }
  })

  it('returns hostile values as data', async () => {
    const c = connector()
    const sql = `SELECT ${HOSTILE.map((_, i) => `? AS v${i}`).join(', ')}, ? AS n, ? AS d`
    const result = await c.execute(sql, { ...BASE, params: [...HOSTILE, 7, 2.5] })
    expect(result.rows).toEqual([{ ...Object.fromEntries(HOSTILE.map((v, i) => [`v${i}`, v])), n: 7, d: 2.5 }])
  })

  it('caps rows and cancels the rest', async () => {
    const c = connector()
    const result = await c.execute('SELECT g FROM UNNEST(sequence(1, 5000)) AS t(g)', { ...BASE, maxRows: 10 })
    expect([result.rows.length, result.truncated]).toEqual([10, true])
  })

  it('times out on the server: QUERY_TIMEOUT', async () => {
    const c = connector()
    const slow =
      'SELECT count(*) AS c FROM UNNEST(sequence(1, 10000)) a(x) CROSS JOIN UNNEST(sequence(1, 10000)) b(y) CROSS JOIN UNNEST(sequence(1, 10000)) c(z)'
    const error = await c.execute(slow, { ...BASE, timeoutMs: 2000 }).catch((e: unknown) => e)
    expect((error as ApiError).code).toBe('QUERY_TIMEOUT')
  })

  it('applies the session time zone (X-Trino-Time-Zone)', async () => {
    const c = connector()
    const result = await c.execute('SELECT current_timezone() AS z', { ...BASE, timezone: 'Asia/Tokyo' })
    expect(result.rows).toEqual([{ z: 'Asia/Tokyo' }])
  })

  it("matches the dialect's documented choices", async () => {
    const c = connector()
    const result = await c.execute(
      "SELECT CAST(date_trunc('week', DATE '2024-01-03') AS DATE) AS w, CAST(at_timezone(with_timezone(TIMESTAMP '2024-01-01 00:00:00', 'UTC'), ?) AS timestamp) AS t, 'a' = 'A' AS folded, 'a' = 'a ' AS padded",
      { ...BASE, params: ['Asia/Tokyo'] },
    )
    expect(result.rows).toEqual([{ w: '2024-01-01', t: '2024-01-01T09:00:00.000', folded: false, padded: false }])
    const paged = await c.execute('SELECT g FROM UNNEST(sequence(1, 10)) AS t(g) ORDER BY g OFFSET 2 LIMIT 3', BASE)
    expect(paged.rows.map((r) => r.g)).toEqual([3, 4, 5])
  })

  it('a failing statement is QUERY_ERROR', async () => {
    const error = await connector()
      .execute('SELECT * FROM strata_no_such_table', BASE)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('QUERY_ERROR')
  })
})
