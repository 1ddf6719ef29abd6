/**
 * The athena connector through the official SDK against the local stand-in of Athena's API
 * (src/connectors/athena/standin: AWS JSON 1.1, SigV4 verified, SQL on DuckDB): a transport test (start,
 * poll, page with NextToken, stop, errors), never a test of Athena's SQL. The conformance suite
 * runs the common cases; these are the ones particular to Athena's API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import type { CredentialsByType } from '../credentials/schemas.js'
import type { ConnectorOptions, ExecuteOptions } from '../types.js'
import { AthenaConnector } from './connector.js'
import { type AthenaStandIn, CATALOG, startAthenaStandIn } from './standin/server.js'

const OPTIONS: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 2 }
const BASE: ExecuteOptions = { params: [], timeoutMs: 10_000, maxRows: 1000 }
const KEY_ID = 'AKIATESTSTANDIN00002'
const SECRET = 'test/secret/key/for/the/athena/standin00'
const HOSTILE = ["'; drop table t; --", "it's \\' \\\\ ''", "a', 'b", '/* x */ -- y ? $1', 'ünïcødé ✓ 𝄞 中文']

describe('athena through the SDK (stand-in)', () => {
  let standIn: AthenaStandIn
  const creds = (extra: Partial<CredentialsByType['athena']> = {}): CredentialsByType['athena'] => ({
    name: 'a',
    region: 'us-east-2',
    accessKeyId: KEY_ID,
    secretAccessKey: SECRET,
    s3OutputLocation: 's3://results-bucket/strata/',
    workgroup: 'analytics',
    database: 'shop',
    endpoint: standIn.url,
    ...extra,
  })
  const calls = (target: string) => standIn.calls.filter((c) => c.target === target)

  beforeAll(async () => {
    standIn = await startAthenaStandIn({ keys: { [KEY_ID]: SECRET }, workGroups: ['analytics'], pageSize: 3 })
    await standIn.engine.exec(
      "CREATE SCHEMA shop; CREATE TABLE shop.items (id BIGINT, price DECIMAL(12, 3), day DATE, \"at\" TIMESTAMP, label VARCHAR); INSERT INTO shop.items SELECT range, range * 1.5, DATE '2024-01-01' + range::INTEGER, TIMESTAMP '2024-01-01 10:00:00' + INTERVAL (range) HOUR, 'item ' || range FROM range(10)",
    )
  })
  afterAll(() => standIn?.close())

  it('signs every call with the credentials (SigV4, verified) and aims at the endpoint override', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    await c.test()
    const [workGroup] = calls('GetWorkGroup').slice(-1)
    expect(workGroup).toMatchObject({ accessKeyId: KEY_ID, body: { WorkGroup: 'analytics' } })
    expect(calls('GetDatabase').at(-1)?.body).toEqual({ CatalogName: CATALOG, DatabaseName: 'shop' })
    await c.close()
  })

  it('starts the query with catalog, database, workgroup, output location and literal parameters', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const result = await c.execute('select ? as s, ? as n, ? as b', { ...BASE, params: ["o'clock", 7, true] })
    expect(result.rows).toEqual([{ s: "o'clock", n: 7, b: true }])
    const start = calls('StartQueryExecution').at(-1)?.body
    expect(start).toMatchObject({
      QueryString: 'select ? as s, ? as n, ? as b',
      QueryExecutionContext: { Catalog: CATALOG, Database: 'shop' },
      WorkGroup: 'analytics',
      ResultConfiguration: { OutputLocation: 's3://results-bucket/strata/' },
      ExecutionParameters: ["'o''clock'", '7', 'TRUE'],
    })
    expect(typeof start?.ClientRequestToken).toBe('string')
    await c.close()
  })

  it('hostile values come back as data, each one literal (a value cannot become two)', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const sql = `select ${HOSTILE.map((_, i) => `? as v${i}`).join(', ')}`
    const result = await c.execute(sql, { ...BASE, params: HOSTILE })
    expect(result.rows).toEqual([Object.fromEntries(HOSTILE.map((v, i) => [`v${i}`, v]))])
    const count = await c.execute('select count(*) as n from items where label = ?', {
      ...BASE,
      params: ["item 1' OR '1'='1"],
    })
    expect(count.rows).toEqual([{ n: 0 }])
    await c.close()
  })

  it('pages GetQueryResults with NextToken, skipping the header row, and converts values', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const before = calls('GetQueryResults').length
    const result = await c.execute('select id, price, day, "at", label from items order by id', BASE)
    expect(result.rows).toHaveLength(10)
    expect(result.rows[0]).toEqual({
      id: 0,
      price: 0,
      day: '2024-01-01',
      at: '2024-01-01T10:00:00.000',
      label: 'item 0',
    })
    expect(result.rows[9]).toEqual({
      id: 9,
      price: 13.5,
      day: '2024-01-10',
      at: '2024-01-01T19:00:00.000',
      label: 'item 9',
    })
    expect(result.columns.map((col) => col.dataType)).toEqual(['integer', 'number', 'date', 'datetime', 'string'])
    // header + 10 rows in pages of 3: four pages
    expect(calls('GetQueryResults').length - before).toBe(4)
    expect(calls('GetQueryResults').at(-1)?.body.NextToken).toBe('9')
    await c.close()
  })

  it('reads no further page once maxRows + 1 rows were seen', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const before = calls('GetQueryResults').length
    const result = await c.execute('select id from items order by id', { ...BASE, maxRows: 4 })
    expect(result.rows.map((r) => r.id)).toEqual([0, 1, 2, 3])
    expect(result.truncated).toBe(true)
    expect(calls('GetQueryResults').length - before).toBe(2) // header + 0..1, then 2..4
    await c.close()
  })

  it('a FAILED query is QUERY_ERROR with Athena’s StateChangeReason', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const e = expectCode((await caught(c.execute('select * from no_such_table', BASE))).error, 'QUERY_ERROR')
    expect(e.message).toMatch(/no_such_table/)
    await c.close()
  })

  it('our deadline stops the query on the service (StopQueryExecution): QUERY_TIMEOUT', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const stops = calls('StopQueryExecution').length
    const slow = "select count(*) as c, 'athena_slow' as m from range(100000000) a, range(100000000) b"
    expectCode((await caught(c.execute(slow, { ...BASE, timeoutMs: 300 }))).error, 'QUERY_TIMEOUT')
    expect(calls('StopQueryExecution').length).toBe(stops + 1)
    await c.close()
  })

  it('refuses a NUL in a value with a 400 before anything is started', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const starts = calls('StartQueryExecution').length
    const e = expectCode(
      (await caught(c.execute('select ? as v', { ...BASE, params: ['a\u0000'] }))).error,
      'QUERY_ERROR',
    )
    expect(e.status).toBe(400)
    expect(calls('StartQueryExecution').length).toBe(starts)
    await c.close()
  })

  it.each([
    ['an unknown access key id', { accessKeyId: 'AKIAUNKNOWN000000000' }, /UnrecognizedClientException/],
    ['a wrong secret', { secretAccessKey: 'wrong-secret-xyz-123' }, /InvalidSignatureException/],
    ['an unknown workgroup', { workgroup: 'nope' }, /WorkGroup nope/],
    ['an unknown database', { database: 'nope' }, /MetadataException/],
  ])('%s is DATASOURCE_CONNECTION_ERROR', async (_name, extra, reason) => {
    const c = new AthenaConnector(creds(extra), OPTIONS)
    const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(reason)
    expect(e.message).not.toContain(SECRET)
    expect(e.message).not.toContain('wrong-secret-xyz-123')
    await c.close()
  })

  it('introspects with ListTableMetadata and lists databases with ListDatabases', async () => {
    const c = new AthenaConnector(creds(), OPTIONS)
    const tables = await c.introspect()
    expect(tables.map((t) => [t.schema, t.name])).toEqual([['shop', 'items']])
    expect(tables[0]?.columns.map((col) => [col.name, col.nativeType, col.dataType])).toEqual([
      ['id', 'bigint', 'integer'],
      ['price', 'decimal(12,3)', 'number'],
      ['day', 'date', 'date'],
      ['at', 'timestamp', 'datetime'],
      ['label', 'string', 'string'],
    ])
    expect(await c.databases()).toContain('shop')
    await c.close()
  })
})
