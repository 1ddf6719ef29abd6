/**
 * Opt-in LIVE suite against a real Databricks SQL warehouse. Runs only when all of
 * STRATA_LIVE_DATABRICKS_HOST (workspace host name or URL), STRATA_LIVE_DATABRICKS_HTTP_PATH
 * (`/sql/1.0/warehouses/<id>`) and STRATA_LIVE_DATABRICKS_TOKEN (a personal access token that
 * may use the warehouse) are set; skipped loudly otherwise. It creates nothing: it reads
 * `information_schema` and runs constant queries (a running warehouse is billed for them).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import { getDialect } from '../../query/dialects/registry.js'
import { createConnector } from '../registry.js'
import type { Connector, ExecuteOptions } from '../types.js'

const VARIABLES = ['STRATA_LIVE_DATABRICKS_HOST', 'STRATA_LIVE_DATABRICKS_HTTP_PATH', 'STRATA_LIVE_DATABRICKS_TOKEN']
const [host, httpPath, token] = VARIABLES.map((name) => process.env[name])
const configured = host !== undefined && httpPath !== undefined && token !== undefined
if (!configured) {
  console.warn(`databricks live suite SKIPPED: set ${VARIABLES.join(', ')} to run it against a real SQL warehouse`)
}

const BASE: ExecuteOptions = { params: [], timeoutMs: 120_000, maxRows: 1000 }
const HOSTILE = ["'; DROP TABLE x; --", 'it\'s \\\' `q` "d"', ':p1 $1 ? @p0', 'ünïcødé ✓ 中文']

describe.skipIf(!configured)('databricks connector LIVE (a real SQL warehouse)', () => {
  const connector: Connector = createConnector(
    'databricks',
    { name: 'live', serverHostname: host ?? '', httpPath: httpPath ?? '', token: token ?? '' },
    { connectTimeoutMs: 10_000, poolMax: 4 },
  )
  afterAll(() => connector.close())

  it('connects (a stopped warehouse is accepted while it starts) and lists schemas', async () => {
    await connector.test()
    const schemas = await connector.databases()
    expect(schemas.length).toBeGreaterThan(0)
    expect(schemas).not.toContain('information_schema')
  }, 180_000)

  it('binds hostile strings as typed parameters and returns them as data', async () => {
    const sql = `SELECT ${HOSTILE.map((_, i) => `:p${i} AS v${i}`).join(', ')}, CAST(:p4 AS INT) AS n`
    const result = await connector.execute(sql, { ...BASE, params: [...HOSTILE, 7] })
    expect(result.rows).toEqual([{ ...Object.fromEntries(HOSTILE.map((v, i) => [`v${i}`, v])), n: 7 }])
  }, 180_000)

  it('caps rows with truncated, across the API row_limit', async () => {
    const capped = await connector.execute('SELECT id FROM range(100)', { ...BASE, maxRows: 10 })
    expect([capped.rows.length, capped.truncated]).toEqual([10, true])
  }, 180_000)

  it('the dialect: week starts on Monday, convert_timezone gives the wall clock, tenant equality is byte-exact', async () => {
    const dialect = getDialect('databricks')
    const week = await connector.execute(
      "SELECT CAST(date_trunc('WEEK', DATE'2024-01-07') AS DATE) AS w, convert_timezone('UTC', :p0, TIMESTAMP_NTZ'2024-01-01 00:00:00') AS t",
      { ...BASE, params: ['Asia/Tokyo'] },
    )
    expect(week.rows).toEqual([{ w: '2024-01-01', t: '2024-01-01T09:00:00' }])
    expect(dialect.quoteIdentifier('a`b')).toBe('`a``b`')
    const exact = await connector.execute(
      "SELECT (x = :p0 AND CAST(CAST(x AS STRING) AS BINARY) = CAST(:p0 AS BINARY)) AS same FROM (SELECT 'Acme' AS x)",
      { ...BASE, params: ['acme'] },
    )
    expect(exact.rows).toEqual([{ same: false }])
  }, 180_000)

  it('a timeout cancels the statement and is QUERY_TIMEOUT', async () => {
    const { error } = await caught(
      connector.execute('SELECT count(*) FROM range(1000000000000) a CROSS JOIN range(1000000) b', {
        ...BASE,
        timeoutMs: 3000,
      }),
    )
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('QUERY_TIMEOUT')
  }, 180_000)

  it('a wrong token is DATASOURCE_CONNECTION_ERROR without the token', async () => {
    const wrong = createConnector(
      'databricks',
      { name: 'live', serverHostname: host ?? '', httpPath: httpPath ?? '', token: 'dapi-wrong-token-xyz' },
      { connectTimeoutMs: 10_000, poolMax: 1 },
    )
    const { error } = await caught(wrong.test())
    expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect((error as ApiError).message).not.toContain('dapi-wrong-token-xyz')
    await wrong.close()
  }, 60_000)
})
