/**
 * Opt-in LIVE suite against a real MongoDB (5.0+): set STRATA_LIVE_MONGODB_URL to
 * `mongodb://user:password@host:port` of a server this test may write to (it creates and drops
 * a database `strata_live_<random>`). Skipped loudly otherwise. Runs the connector through the
 * registry (test, introspect by sampling, databases, a compiled metric with a time grain and a
 * tenant, hostile values as data, maxTimeMS as QUERY_TIMEOUT).
 */
import { randomBytes } from 'node:crypto'
import { MongoClient } from 'mongodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import { createConnector } from '../registry.js'
import type { Connector } from '../types.js'

const URL_VAR = 'STRATA_LIVE_MONGODB_URL'
const url = process.env[URL_VAR]
if (!url) console.warn(`mongodb live suite skipped: set ${URL_VAR}=mongodb://user:password@host:port to run it`)

describe.skipIf(!url)('mongodb connector (LIVE MongoDB)', () => {
  const database = `strata_live_${randomBytes(4).toString('hex')}`
  let admin: MongoClient
  let connector: Connector

  beforeAll(async () => {
    admin = new MongoClient(url as string)
    await admin
      .db(database)
      .collection('orders')
      .insertMany([
        { client_id: 'acme', status: 'paid', amount: 10, at: new Date('2024-01-01T23:30:00Z') },
        { client_id: 'acme', status: '$status', amount: 5, at: new Date('2024-01-02T01:00:00Z') },
        { client_id: 'globex', status: 'paid', amount: 99, at: new Date('2024-01-01T10:00:00Z') },
      ])
    const u = new URL(url as string)
    connector = createConnector(
      'mongodb',
      {
        name: 'live',
        host: u.hostname,
        port: Number(u.port || 27017),
        user: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
      },
      { connectTimeoutMs: 5000, poolMax: 2 },
    )
  })

  afterAll(async () => {
    await connector?.close()
    await admin?.db(database).dropDatabase()
    await admin?.close()
  })

  it('connects, lists the database and introspects the collection by sampling', async () => {
    await connector.test()
    expect(await connector.databases()).toContain(database)
    const [orders] = await connector.introspect(database)
    expect(orders?.columns.map((c) => [c.name, c.dataType])).toEqual([
      ['client_id', 'string'],
      ['status', 'string'],
      ['amount', 'integer'],
      ['at', 'datetime'],
    ])
  })

  it('runs a compiled metric: tenant first, day grain in the session zone, hostile value as data', async () => {
    const model = buildModel(await connector.introspect(database), {
      tableList: [{ schemaName: database, name: 'orders', clientColumn: 'client_id' }],
      relationships: [],
    })
    const compiled = compileMetric({
      metric: metric({
        from: `${database}.orders`,
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'day', column: 'at', timeGrain: 'day' }],
      }),
      model,
      dialect: getDialect('mongodb'),
      context: ctx({ tenancy: { kind: 'table', clientId: 'acme' } }),
    })
    const run = (timezone: string) =>
      connector.execute(compiled.sql, { params: compiled.params, timeoutMs: 10_000, maxRows: 100, timezone })
    expect((await run('UTC')).rows).toEqual(
      expect.arrayContaining([
        { day: '2024-01-01', revenue: 10 },
        { day: '2024-01-02', revenue: 5 },
      ]),
    )
    expect((await run('Asia/Tokyo')).rows).toEqual([{ day: '2024-01-02', revenue: 15 }])
  })
})
