/**
 * What is particular to the bigquery connector, through the real @google-cloud/bigquery SDK
 * against the local stand-in (src/connectors/bigquery/standin: BigQuery's REST API v2 and OAuth token
 * endpoint, executing on DuckDB). A stand-in proves the transport — login, submit, poll, page,
 * cancel, errors — never BigQuery's SQL (the dialect's goldens and ZetaSQL do that). The common
 * cases (connect, wrong key, unreachable, timeout, abort, tenancy …) are in the conformance suite.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../errors.js'
import { createConnector } from '../registry.js'
import type { BigqueryCredentials, Connector, ConnectorOptions } from '../types.js'
import { makeKey } from './standin/oauth.js'
import { type BigqueryStandIn, startBigqueryStandIn } from './standin/server.js'

const OPTIONS: ConnectorOptions = { connectTimeoutMs: 2000, poolMax: 4 }
const BASE = { params: [] as unknown[], timeoutMs: 10_000, maxRows: 1000 }

async function failure(run: Promise<unknown>): Promise<ApiError> {
  const error = await run.then(
    () => expect.unreachable('resolved'),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('bigquery connector, through the SDK against the BigQuery stand-in', () => {
  let standIn: BigqueryStandIn
  let credentials: BigqueryCredentials
  let connector: Connector

  beforeAll(async () => {
    standIn = await startBigqueryStandIn({ maxPageRows: 7 })
    await standIn.admin('CREATE SCHEMA sales')
    await standIn.admin('CREATE SCHEMA tenant_b')
    await standIn.admin(
      `CREATE TABLE sales.kinds (big BIGINT, price DECIMAL(12, 3), ratio DOUBLE, on_day DATE, wall TIMESTAMP,
        "at" TIMESTAMPTZ, ok BOOLEAN, note VARCHAR)`,
    )
    await standIn.admin(
      `INSERT INTO sales.kinds VALUES (9007199254740993, 12.345, 0.5, DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:58.5',
        TIMESTAMPTZ '2024-01-01 00:00:00+00', true, 'x'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
    )
    credentials = {
      name: 'bq',
      credentials_json: standIn.key.json,
      project_id: standIn.projectId,
      dataset_location: standIn.location,
      dataset_id: 'sales',
      apiEndpoint: standIn.url,
    }
    connector = createConnector('bigquery', credentials, OPTIONS)
  })
  afterAll(async () => {
    await connector?.close()
    await standIn?.close()
  })

  it('signs in once with the service account key (JWT verified by the token endpoint) and reuses the token', async () => {
    const before = standIn.tokenRequests
    await connector.test()
    await connector.execute('SELECT 1 AS one', BASE)
    await connector.databases()
    expect(standIn.tokenRequests - before).toBeLessThanOrEqual(1)
    expect(standIn.tokenRequests).toBe(1)
  })

  it('sends a query job: standard SQL, typed named parameters, jobTimeoutMs, default dataset, time_zone property', async () => {
    const at = new Date('2024-01-01T00:00:00Z')
    const result = await connector.execute('SELECT @p0 AS s, @p1 AS n, @p2 AS f, @p3 AS b, @p4 AS z, @p5 AS t', {
      ...BASE,
      params: ["it's \\ @p1 `x`", 42, 2.5, true, null, at],
      timezone: 'Asia/Tokyo',
      timeoutMs: 4321,
    })
    expect(result.rows).toEqual([
      { s: "it's \\ @p1 `x`", n: 42, f: 2.5, b: true, z: null, t: '2024-01-01T09:00:00+09:00' },
    ])
    const job = standIn.jobs.at(-1)!
    expect(job.query.useLegacySql).toBe(false)
    expect(job.jobTimeoutMs).toBe('4321')
    expect(job.query.defaultDataset).toEqual({ projectId: standIn.projectId, datasetId: 'sales' })
    expect(job.query.connectionProperties).toEqual([{ key: 'time_zone', value: 'Asia/Tokyo' }])
    expect(job.query.query).not.toContain('it') // values travel as parameters only
    expect(job.query.queryParameters?.map((p) => [p.name, p.parameterType.type])).toEqual([
      ['p0', 'STRING'],
      ['p1', 'INT64'],
      ['p2', 'FLOAT64'],
      ['p3', 'BOOL'],
      ['p4', 'STRING'],
      ['p5', 'TIMESTAMP'],
    ])
  })

  it('binds a list as an ARRAY parameter', async () => {
    const result = await connector.execute(
      'SELECT COUNT(*) AS n FROM kinds WHERE note IN (SELECT * FROM UNNEST(@p0))',
      {
        ...BASE,
        params: [['x', 'y']],
      },
    )
    expect(result.rows).toEqual([{ n: 1 }])
    expect(standIn.jobs.at(-1)?.query.queryParameters?.[0]?.parameterType).toEqual({
      type: 'ARRAY',
      arrayType: { type: 'STRING' },
    })
  })

  it('returns JSON-safe values: INT64 past 2^53 as text, NUMERIC numbers, DATE, DATETIME without and TIMESTAMP with an offset', async () => {
    const result = await connector.execute('SELECT * FROM kinds ORDER BY `big` NULLS LAST', {
      ...BASE,
      timezone: 'Asia/Kolkata',
    })
    expect(result.columns).toEqual([
      { name: 'big', dataType: 'integer' },
      { name: 'price', dataType: 'number' },
      { name: 'ratio', dataType: 'number' },
      { name: 'on_day', dataType: 'date' },
      { name: 'wall', dataType: 'datetime' },
      { name: 'at', dataType: 'datetime' },
      { name: 'ok', dataType: 'boolean' },
      { name: 'note', dataType: 'string' },
    ])
    expect(result.rows).toEqual([
      {
        big: '9007199254740993',
        price: 12.345,
        ratio: 0.5,
        on_day: '2024-02-29',
        wall: '2024-02-29T23:59:58.5',
        at: '2024-01-01T05:30:00+05:30',
        ok: true,
        note: 'x',
      },
      { big: null, price: null, ratio: null, on_day: null, wall: null, at: null, ok: null, note: null },
    ])
  })

  it('follows pageToken until maxRows + 1 rows (pages of 7 here) and says truncated', async () => {
    const before = standIn.pagesServed
    const capped = await connector.execute('SELECT * FROM UNNEST(GENERATE_ARRAY(1, 100)) ORDER BY 1', {
      ...BASE,
      maxRows: 20,
    })
    expect(capped.rows).toHaveLength(20)
    expect(capped.truncated).toBe(true)
    expect(standIn.pagesServed - before).toBe(3) // 7 + 7 + 7 ≥ 21
    const exact = await connector.execute('SELECT * FROM UNNEST(GENERATE_ARRAY(1, 14))', { ...BASE, maxRows: 14 })
    expect([exact.rows.length, exact.truncated]).toEqual([14, false])
  })

  it('introspects through tables.list/get with BigQuery types mapped', async () => {
    const tables = await connector.introspect()
    expect(tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['sales.kinds'])
    expect(tables[0]?.columns.map((c) => [c.name, c.nativeType, c.dataType])).toEqual([
      ['big', 'INTEGER', 'integer'],
      ['price', 'NUMERIC', 'number'],
      ['ratio', 'FLOAT', 'number'],
      ['on_day', 'DATE', 'date'],
      ['wall', 'DATETIME', 'datetime'],
      ['at', 'TIMESTAMP', 'datetime'],
      ['ok', 'BOOLEAN', 'boolean'],
      ['note', 'STRING', 'string'],
    ])
    expect(await connector.databases()).toEqual(['main', 'sales', 'tenant_b'])
  })

  it('a tenant dataset replaces the default dataset; an unknown one is a connection error naming it', async () => {
    await standIn.admin("CREATE TABLE tenant_b.kinds AS SELECT 'b' AS note")
    const tenant = await connector.execute('SELECT note FROM kinds', { ...BASE, database: 'tenant_b' })
    expect(tenant.rows).toEqual([{ note: 'b' }])
    expect(standIn.jobs.at(-1)?.query.defaultDataset?.datasetId).toBe('tenant_b')
    const e = await failure(connector.execute('SELECT 1', { ...BASE, database: 'nope' }))
    expect([e.code, e.message]).toEqual([
      'DATASOURCE_CONNECTION_ERROR',
      `Could not connect to the datasource: dataset "nope" not found in project ${standIn.projectId}`,
    ])
  })

  it('an invalid query is QUERY_ERROR with the engine’s message; the key never appears in an error', async () => {
    const e = await failure(connector.execute('SELECT * FROM no_such_table', BASE))
    expect(e.code).toBe('QUERY_ERROR')
    expect(e.message).toMatch(/no_such_table/)
    const privateKey = JSON.parse(standIn.key.json).private_key as string
    expect(e.message).not.toContain(privateKey.slice(40, 80))
  })

  it('a key that is not a service account key, and a project the account cannot use, are connection errors', async () => {
    const bad = createConnector('bigquery', { ...credentials, credentials_json: '{"type":"service_account"}' }, OPTIONS)
    const noKey = await failure(bad.test())
    expect([noKey.code, noKey.message]).toEqual([
      'DATASOURCE_CONNECTION_ERROR',
      'Could not connect to the datasource: the service account key has no client_email',
    ])
    await bad.close()
    const other = createConnector(
      'bigquery',
      { ...credentials, project_id: 'someone-else', dataset_id: undefined },
      OPTIONS,
    )
    const denied = await failure(other.test())
    expect(denied.code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect(denied.message).toMatch(/Access Denied/)
    await other.close()
  })

  it('an endpoint that is not the BigQuery API: a connection error that never repeats its body', async () => {
    const foreign = http.createServer((req, res) => {
      if (req.url === '/token') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ access_token: 'x', expires_in: 3600, token_type: 'Bearer' }))
        return
      }
      res.writeHead(404, { 'content-type': 'text/html' })
      res.end('<html><body>internal admin secret-page</body></html>')
    })
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`
    const c = createConnector(
      'bigquery',
      { ...credentials, apiEndpoint: url, credentials_json: makeKey('p', `${url}/token`).json },
      OPTIONS,
    )
    try {
      const e = await failure(c.test())
      expect([e.code, e.message]).toEqual([
        'DATASOURCE_CONNECTION_ERROR',
        'Could not connect to the datasource: the endpoint did not answer as the BigQuery API (HTTP 404)',
      ])
    } finally {
      await c.close()
      await new Promise<void>((resolve) => foreign.close(() => resolve()))
    }
  })
})
