/**
 * firebolt through the real firebolt-sdk against the local stand-in
 * (src/connectors/firebolt/standin/server.ts: Firebolt's HTTP API over DuckDB — a transport proof, not
 * the engine; connector.live.test.ts runs against a real account). What the conformance suite
 * does not see: what goes over the wire (fb_numeric parameters, settings, SQL without values),
 * the wrong secret's reason, Firebolt's error bodies, names the SDK would splice into SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import type { FireboltCredentials } from '../types.js'
import { FireboltConnector } from './connector.js'
import { FireboltStandIn } from './standin/server.js'

const OPTIONS = { connectTimeoutMs: 2000, poolMax: 2 }
const BASE = { params: [], timeoutMs: 10_000, maxRows: 100 }
const SECRET = 'standin-secret-4711'

let standIn: FireboltStandIn
let credentials: FireboltCredentials

beforeAll(async () => {
  standIn = new FireboltStandIn({
    clientId: 'client-1',
    clientSecret: SECRET,
    account: 'acme',
    engine: 'reporting',
    databases: ['sales', 'tenant_b'],
  })
  await standIn.start()
  await standIn.exec(
    'sales',
    "CREATE TABLE orders (id BIGINT, status VARCHAR, total DECIMAL(12, 2)); INSERT INTO orders VALUES (1, 'paid', 10.50), (2, 'open', 3.25), (9007199254740993, 'big', 0)",
  )
  credentials = {
    name: 'fb',
    client_id: 'client-1',
    client_secret: SECRET,
    account_name: 'acme',
    database: 'sales',
    engine_name: 'reporting',
    apiEndpoint: standIn.url,
  }
})
afterAll(async () => {
  await standIn?.stop()
})

describe('firebolt connector (stand-in, real SDK)', () => {
  it('binds values on the server: fb_numeric query_parameters, the SQL carries none of them', async () => {
    const c = new FireboltConnector(credentials, OPTIONS)
    try {
      const hostile = "x' OR '1'='1 -- $2 ? :name \\ 𝄞"
      const before = standIn.received.length
      const result = await c.execute('SELECT id, status FROM orders WHERE status = $1 OR status = $2 ORDER BY id', {
        ...BASE,
        params: [hostile, 'paid'],
        timezone: 'Asia/Tokyo',
      })
      expect(result.rows).toEqual([{ id: 1, status: 'paid' }])
      const sent = standIn.received.slice(before).at(-1)
      expect(sent?.sql).not.toContain(hostile)
      expect(sent?.sql).toContain('$1')
      expect(JSON.parse(sent?.params.get('query_parameters') ?? 'null')).toEqual([
        { name: '$1', value: hostile },
        { name: '$2', value: 'paid' },
      ])
      expect(sent?.params.get('time_zone')).toBe('Asia/Tokyo')
      expect(sent?.params.get('statement_timeout')).toBe('10000')
      expect(sent?.params.get('database')).toBe('sales')
      expect(sent?.params.get('query_label')).toMatch(/^strata-[0-9a-f-]{36}$/)
    } finally {
      await c.close()
    }
  })

  it('returns JSON-safe values: integers beyond 2^53 as strings, numerics as numbers, typed columns', async () => {
    const c = new FireboltConnector(credentials, OPTIONS)
    try {
      const result = await c.execute('SELECT id, total FROM orders ORDER BY id', BASE)
      expect(result.columns).toEqual([
        { name: 'id', dataType: 'integer' },
        { name: 'total', dataType: 'number' },
      ])
      expect(result.rows).toEqual([
        { id: 1, total: 10.5 },
        { id: 2, total: 3.25 },
        { id: '9007199254740993', total: 0 },
      ])
    } finally {
      await c.close()
    }
  })

  it('caps rows with a LIMIT of maxRows + 1 and says truncated', async () => {
    const c = new FireboltConnector(credentials, OPTIONS)
    try {
      const result = await c.execute('SELECT id FROM orders ORDER BY id;', { ...BASE, maxRows: 2 })
      expect([result.rows.length, result.truncated]).toEqual([2, true])
      expect(standIn.received.at(-1)?.sql).toMatch(/\) AS strata_result LIMIT 3$/)
    } finally {
      await c.close()
    }
  })

  it('a wrong client secret is DATASOURCE_CONNECTION_ERROR with the id endpoint’s reason, never the secret', async () => {
    const c = new FireboltConnector({ ...credentials, client_secret: 'wrong-secret-0815' }, OPTIONS)
    try {
      const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
      expect(e.message).toContain('Wrong client ID or client secret')
      expect(e.message).not.toContain('wrong-secret-0815')
      expect(e.message).not.toContain(SECRET)
    } finally {
      await c.close()
    }
  })

  it('an unknown account, engine or database is DATASOURCE_CONNECTION_ERROR naming it', async () => {
    for (const [patch, named] of [
      [{ account_name: 'nobody' }, 'nobody'],
      [{ engine_name: 'no_engine' }, 'no_engine'],
      [{ database: 'no_db' }, 'no_db'],
    ] as const) {
      const c = new FireboltConnector({ ...credentials, ...patch }, OPTIONS)
      try {
        const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
        expect(e.message).toContain(named)
      } finally {
        await c.close()
      }
    }
  })

  it('refuses a database name the SDK would splice into USE DATABASE "…" unescaped', async () => {
    const c = new FireboltConnector(credentials, OPTIONS)
    try {
      const before = standIn.received.length
      const e = expectCode(
        (await caught(c.execute('SELECT 1', { ...BASE, database: 'sales"; DROP DATABASE sales; --' }))).error,
        'DATASOURCE_CONNECTION_ERROR',
      )
      expect(e.message).toMatch(/cannot be selected/)
      expect(standIn.received.length).toBe(before)
    } finally {
      await c.close()
    }
  })

  it('a SQL error is QUERY_ERROR with the engine’s description', async () => {
    const c = new FireboltConnector(credentials, OPTIONS)
    try {
      const e = expectCode((await caught(c.execute('SELECT nope FROM orders', BASE))).error, 'QUERY_ERROR')
      expect(e.message).toMatch(/nope/)
    } finally {
      await c.close()
    }
  })

  it('a timeout sends statement_timeout, then cancels the labelled query on the server', async () => {
    const c = new FireboltConnector(credentials, OPTIONS)
    try {
      const slow =
        "SELECT count(*) AS n, 'fb_slow_marker' AS m FROM generate_series(1, 100000000) AS a(x), generate_series(1, 100000000) AS b(y) WHERE a.x + b.y < 0"
      expectCode((await caught(c.execute(slow, { ...BASE, timeoutMs: 300 }))).error, 'QUERY_TIMEOUT')
      expect(standIn.running('fb_slow_marker')).toBe(0)
      // The caller's abort: our CANCEL QUERY (found by query_label) stops it.
      const controller = new AbortController()
      const running = c.execute(slow, { ...BASE, timeoutMs: 60_000, signal: controller.signal })
      setTimeout(() => controller.abort(), 200)
      expect(expectCode((await caught(running)).error, 'QUERY_ERROR').message).toMatch(/cancelled/)
      expect(standIn.received.some((r) => /^CANCEL QUERY WHERE query_id = '[0-9a-f-]{36}'$/.test(r.sql))).toBe(true)
      expect(standIn.running('fb_slow_marker')).toBe(0)
    } finally {
      await c.close()
    }
  })
})
