/**
 * The mongodb connector through the official driver against the local MongoDB STAND-IN
 * (src/connectors/mongodb/standin: the wire protocol, SCRAM-SHA-256, cursors, maxTimeMS, killCursors,
 * over mingo). A stand-in proves the transport and our pipelines' meaning as mingo evaluates
 * them, not MongoDB itself (see connector.live.test.ts for a real server).
 */
import { Decimal128, Long, ObjectId } from 'bson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { ApiError } from '../../errors.js'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import { createConnector } from '../registry.js'
import type { Connector, ExecuteOptions, MongodbCredentials } from '../types.js'
import { HOLD_COLLECTION, MongoStandIn } from './standin/server.js'

const PASSWORD = 's3cret:@/?#[]%p'
const BASE: ExecuteOptions = { params: [], timeoutMs: 10_000, maxRows: 1000 }
let standIn: MongoStandIn
let credentials: MongodbCredentials
let connector: Connector

const request = (collection: string, pipeline: unknown[], columns?: string[]) =>
  JSON.stringify({ database: 'shop', collection, pipeline, ...(columns ? { columns } : {}) })

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

beforeAll(async () => {
  standIn = new MongoStandIn({ users: { analyst: PASSWORD } })
  const port = await standIn.start()
  standIn.insert('shop', 'orders', [
    {
      _id: new ObjectId(),
      n: 1,
      amount: 10.5,
      big: Long.fromString('9007199254740993'),
      price: Decimal128.fromString('1.25'),
      status: 'paid',
      at: new Date('2024-01-01T00:00:00Z'),
      tags: ['a'],
      meta: { k: 1 },
      paid: true,
    },
    {
      _id: new ObjectId(),
      n: 2,
      amount: 20,
      big: Long.fromNumber(5),
      price: Decimal128.fromString('2.50'),
      status: 'a.*b',
      at: new Date('2024-06-01T12:00:00Z'),
      tags: [],
      meta: { k: 2 },
      paid: false,
    },
    { _id: new ObjectId(), n: 3, amount: null, status: '$status', at: new Date('2024-06-02T00:00:00Z'), paid: false },
  ])
  standIn.insert(
    'shop',
    'many',
    Array.from({ length: 250 }, (_, i) => ({ i })),
  )
  standIn.insert('tenant_b', 'accounts', [{ label: 'b' }])
  credentials = { name: 'm', host: '127.0.0.1', port, user: 'analyst', password: PASSWORD }
  connector = createConnector('mongodb', credentials, { connectTimeoutMs: 2000, poolMax: 4 })
})

afterAll(async () => {
  await connector?.close()
  await standIn?.stop()
})

describe('mongodb connector (stand-in)', () => {
  it('connects with SCRAM-SHA-256 (a password with URL characters)', async () => {
    await expect(connector.test()).resolves.toBeUndefined()
  })

  it('a wrong password is DATASOURCE_CONNECTION_ERROR with the reason, never the password', async () => {
    const wrong = createConnector(
      'mongodb',
      { ...credentials, password: 'wrong-password-xyz' },
      { connectTimeoutMs: 2000, poolMax: 1 },
    )
    try {
      const e = await failure(wrong.test())
      expect(e.code).toBe('DATASOURCE_CONNECTION_ERROR')
      expect(e.message).toMatch(/authentication failed/i)
      expect(e.message).not.toContain('wrong-password-xyz')
    } finally {
      await wrong.close()
    }
  })

  it('introspects by sampling: BSON types → portable types, an ObjectId _id left out', async () => {
    const tables = await connector.introspect('shop')
    const orders = tables.find((t) => t.name === 'orders')
    expect(orders?.schema).toBe('shop')
    expect(orders?.columns.map((c) => [c.name, c.dataType, c.nativeType, c.nullable])).toEqual([
      ['n', 'integer', 'int', false],
      ['amount', 'number', 'double|int', true],
      ['big', 'integer', 'long', true],
      ['price', 'number', 'decimal', true],
      ['status', 'string', 'string', false],
      ['at', 'datetime', 'date', false],
      ['tags', 'json', 'array', true],
      ['meta', 'json', 'object', true],
      ['paid', 'boolean', 'bool', false],
    ])
    expect(await connector.databases()).toEqual(['shop', 'tenant_b'])
  })

  it('returns JSON-safe values: Long beyond 2^53 as a string, Decimal128 as a number, dates in the session zone', async () => {
    const out = await connector.execute(
      request('orders', [{ $match: { n: 1 } }, { $project: { _id: 0, big: 1, price: 1, at: 1, meta: 1, tags: 1 } }]),
      { ...BASE, timezone: 'Asia/Tokyo' },
    )
    expect(out.rows).toEqual([
      { big: '9007199254740993', price: 1.25, at: '2024-01-01T09:00:00+09:00', meta: { k: 1 }, tags: ['a'] },
    ])
    expect(Object.fromEntries(out.columns.map((c) => [c.name, c.dataType]))).toEqual({
      big: 'integer',
      price: 'number',
      at: 'datetime',
      meta: 'json',
      tags: 'json',
    })
  })

  it('binds hostile values as BSON values: never operators, never field paths', async () => {
    const hostile = ['$status', '$$ROOT', "'; db.dropDatabase(); //", '{"$gt": ""}', 'a.*b']
    const echo = request('orders', [
      { $limit: 1 },
      { $project: { _id: 0, ...Object.fromEntries(hostile.map((_, i) => [`v${i}`, { $literal: { $param: i } }])) } },
    ])
    expect((await connector.execute(echo, { ...BASE, params: hostile })).rows).toEqual([
      Object.fromEntries(hostile.map((v, i) => [`v${i}`, v])),
    ])
    const byStatus = request('orders', [{ $match: { status: { $eq: { $param: 0 } } } }, { $count: 'n' }])
    expect((await connector.execute(byStatus, { ...BASE, params: ['$status'] })).rows).toEqual([{ n: 1 }])
    expect((await connector.execute(byStatus, { ...BASE, params: [{ $ne: null }] }).catch((e) => e)).code).toBe(
      'QUERY_ERROR',
    )
  })

  it('a compiled contains filter matches regex metacharacters literally', async () => {
    const model = buildModel(await connector.introspect('shop'))
    const run = async (value: string) => {
      const compiled = compileMetric({
        metric: metric({ from: 'shop.orders', measures: [{ name: 'n', aggregate: 'count' }] }),
        model,
        dialect: getDialect('mongodb'),
        context: ctx({
          filters: [{ table: 'shop.orders', column: 'status', value, type: 'text', source: 'dashboard' }],
        }),
      })
      return (await connector.execute(compiled.sql, { ...BASE, params: compiled.params })).rows
    }
    expect(await run('A.*B')).toEqual([{ n: 1 }]) // the literal text, case-insensitively
    expect(await run('.*')).toEqual([{ n: 1 }]) // not "anything"
    expect(await run('p.i')).toEqual([{ n: 0 }])
    expect(await run('$')).toEqual([{ n: 1 }])
  })

  it('a dry run (validate-dashboard) runs the compiled pipeline behind a $match no document passes', async () => {
    const dialect = getDialect('mongodb')
    const compiled = compileMetric({
      metric: metric({
        from: 'shop.orders',
        measures: [{ name: 'n', aggregate: 'count' }],
        dimensions: [{ name: 'status', column: 'status' }],
      }),
      model: buildModel(await connector.introspect('shop')),
      dialect,
      context: ctx(),
    })
    const options = { ...BASE, params: compiled.params }
    expect((await connector.execute(compiled.sql, options)).rows.length).toBeGreaterThan(0)
    const [dry, second] = dialect.dryRun(compiled.sql)
    expect(second).toBeUndefined()
    expect((await connector.execute(dry, options)).rows).toEqual([])
  })

  it('caps rows at maxRows across getMore batches and closes the cursor', async () => {
    const all = request('many', [{ $project: { _id: 0, i: 1 } }])
    const capped = await connector.execute(all, { ...BASE, maxRows: 120 })
    expect([capped.rows.length, capped.truncated]).toEqual([120, true])
    const whole = await connector.execute(all, { ...BASE, maxRows: 250 })
    expect([whole.rows.length, whole.truncated, whole.rows[249]]).toEqual([250, false, { i: 249 }])
  })

  it('stops a statement at maxTimeMS on the server (QUERY_TIMEOUT) and on abort (QUERY_ERROR)', async () => {
    const hold = (marker: string) =>
      JSON.stringify({ database: 'shop', collection: HOLD_COLLECTION, pipeline: [{ $match: { m: marker } }] })
    const e = await failure(connector.execute(hold('t1'), { ...BASE, timeoutMs: 300 }))
    expect(e.code).toBe('QUERY_TIMEOUT')
    expect(standIn.held('t1')).toBe(0)
    const controller = new AbortController()
    const running = connector.execute(hold('t2'), { ...BASE, timeoutMs: 30_000, signal: controller.signal })
    await new Promise((r) => setTimeout(r, 200))
    expect(standIn.held('t2')).toBe(1)
    controller.abort()
    const a = await failure(running)
    expect([a.code, a.message]).toEqual(['QUERY_ERROR', expect.stringMatching(/cancelled/)])
    for (let i = 0; i < 50 && standIn.held('t2') > 0; i++) await new Promise((r) => setTimeout(r, 50))
    expect(standIn.held('t2')).toBe(0)
  })

  it('a command error is QUERY_ERROR with the server message; a statement that is not a request too', async () => {
    const bad = await failure(connector.execute(request('orders', [{ $bogus: 1 }]), BASE))
    expect(bad.code).toBe('QUERY_ERROR')
    expect(bad.message).toMatch(/bogus/)
    expect((await failure(connector.execute('SELECT 1', BASE))).code).toBe('QUERY_ERROR')
  })

  it('a statement nested deeper than any request is QUERY_ERROR before it is bound (no stack overflow)', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`
    const text = `{"collection":"orders","pipeline":[{"$match":${deep}}]}`
    const refused = await failure(connector.execute(text, BASE))
    expect([refused.code, refused.message]).toEqual(['QUERY_ERROR', expect.stringMatching(/nests deeper than 32/)])
  })

  it('DATABASE tenancy: runs in the named database; an unknown one is DATASOURCE_CONNECTION_ERROR', async () => {
    const accounts = JSON.stringify({ collection: 'accounts', pipeline: [{ $project: { _id: 0, label: 1 } }] })
    expect((await connector.execute(accounts, { ...BASE, database: 'tenant_b' })).rows).toEqual([{ label: 'b' }])
    const e = await failure(connector.execute(accounts, { ...BASE, database: 'nope' }))
    expect(e.code).toBe('DATASOURCE_CONNECTION_ERROR')
  })
})
