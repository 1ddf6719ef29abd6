import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught, closedPort, silentServer } from '../../../test/fixtures/net.js'
import { requireService } from '../../../test/helpers/services.js'
import { ApiError } from '../../errors.js'
import type { ConnectorOptions, PostgresCredentials } from '../types.js'
import { PostgresConnector } from './connector.js'

const up = await requireService('PostgreSQL', '127.0.0.1', 5432)
const suffix = randomBytes(4).toString('hex')
const schema = `strata_conn_${suffix}`
const tenantA = `strata_tenant_a_${suffix}`
const tenantB = `strata_tenant_b_${suffix}`
const options: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 4 }
const credentials: PostgresCredentials = {
  name: 'pg',
  host: '127.0.0.1',
  port: 5432,
  username: 'postgres',
  password: '',
  database: 'test',
  schema,
}
const base = { params: [], timeoutMs: 5000, maxRows: 1000 }

async function admin<T>(database: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

function expectCode(error: unknown, code: string): ApiError {
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).code, (error as Error).message).toBe(code)
  expect((error as ApiError).status).toBe(400)
  return error as ApiError
}

describe.skipIf(!up)('postgres connector (live, 127.0.0.1:5432)', () => {
  const connector = new PostgresConnector(credentials, options)

  beforeAll(async () => {
    await admin('test', async (c) => {
      await c.query(`create schema ${schema}`)
      await c.query(`create table ${schema}.orders (
        id integer primary key, name text not null, amount numeric(10,2), created_at timestamptz,
        big bigint, payload jsonb, day date, tags text[])`)
      await c.query(`insert into ${schema}.orders values
        (1, 'alpha', 10.50, '2024-01-01 00:00:00+00', 9007199254740993, '{"a":1}', '2024-01-01', '{x,y}'),
        (2, 'beta', 20.25, '2024-06-01 12:00:00+00', 42, null, '2024-06-01', null)`)
      await c.query(`create sequence ${schema}.seq`)
      await c.query(`create database ${tenantA}`)
      await c.query(`create database ${tenantB}`)
    })
    for (const [db, label] of [
      [tenantA, 'tenant a'],
      [tenantB, 'tenant b'],
    ] as const) {
      await admin(db, async (c) => {
        await c.query(`create schema ${schema}`)
        await c.query(`create table ${schema}.accounts (label text)`)
        await c.query(`insert into ${schema}.accounts values ($1)`, [label])
      })
    }
  })

  afterAll(async () => {
    await connector.close()
    await admin('test', async (c) => {
      await c.query(`drop schema if exists ${schema} cascade`)
      await c.query(`drop database if exists ${tenantA} with (force)`)
      await c.query(`drop database if exists ${tenantB} with (force)`)
    })
  })

  it('an unknown role, a missing database, a closed port → DATASOURCE_CONNECTION_ERROR within the timeout', async () => {
    // This server trusts 127.0.0.1 (pg_hba), so a wrong password cannot fail here; an unknown
    // role is the credential error it does report (28P01 is covered by errors.test.ts).
    const cases: PostgresCredentials[] = [
      { ...credentials, username: `nobody_${suffix}`, password: 'secret-password' },
      { ...credentials, database: `missing_${suffix}` },
      { ...credentials, port: await closedPort() },
    ]
    for (const creds of cases) {
      const c = new PostgresConnector(creds, options)
      const { error, ms } = await caught(c.test())
      const e = expectCode(error, 'DATASOURCE_CONNECTION_ERROR')
      expect(e.message).not.toContain('secret-password')
      expect(ms).toBeLessThan(options.connectTimeoutMs + 500)
      await c.close()
    }
  })

  it('a host that accepts but never answers → DATASOURCE_CONNECTION_ERROR after connectTimeoutMs', async () => {
    const silent = await silentServer()
    const c = new PostgresConnector({ ...credentials, port: silent.port }, { ...options, connectTimeoutMs: 800 })
    const { error, ms } = await caught(c.test())
    expectCode(error, 'DATASOURCE_CONNECTION_ERROR')
    expect(ms).toBeGreaterThanOrEqual(700)
    expect(ms).toBeLessThan(2000)
    await c.close()
    await silent.close()
  })

  it('introspect() lists tables and columns with mapped types', async () => {
    const tables = await connector.introspect()
    const orders = tables.find((t) => t.schema === schema && t.name === 'orders')
    expect(orders?.columns.map((c) => [c.name, c.dataType, c.nativeType, c.nullable])).toEqual([
      ['id', 'integer', 'integer', false],
      ['name', 'string', 'text', false],
      ['amount', 'number', 'numeric', true],
      ['created_at', 'datetime', 'timestamp with time zone', true],
      ['big', 'integer', 'bigint', true],
      ['payload', 'json', 'jsonb', true],
      ['day', 'date', 'date', true],
      ['tags', 'json', '_text', true],
    ])
    expect(tables.some((t) => t.schema === 'pg_catalog' || t.schema === 'information_schema')).toBe(false)
  })

  it('databases() lists the databases the role may connect to', async () => {
    const dbs = await connector.databases()
    expect(dbs).toEqual(expect.arrayContaining(['test', tenantA, tenantB]))
    expect(dbs).not.toContain('template0')
  })

  it('execute() returns JSON-safe values and column types', async () => {
    const result = await connector.execute(
      'select id, amount, big, payload, day, created_at, tags from orders order by id',
      { ...base, timezone: 'UTC' },
    )
    expect(result.columns).toEqual([
      { name: 'id', dataType: 'integer' },
      { name: 'amount', dataType: 'number' },
      { name: 'big', dataType: 'integer' },
      { name: 'payload', dataType: 'json' },
      { name: 'day', dataType: 'date' },
      { name: 'created_at', dataType: 'datetime' },
      { name: 'tags', dataType: 'json' },
    ])
    expect(result.rows[0]).toEqual({
      id: 1,
      amount: 10.5,
      big: '9007199254740993', // beyond 2^53: a string, never a rounded number
      payload: { a: 1 },
      day: '2024-01-01',
      created_at: '2024-01-01T00:00:00+00:00',
      tags: ['x', 'y'],
    })
    expect(result.rows[1]?.big).toBe(42)
    expect(result.truncated).toBe(false)
  })

  it('execute() caps rows at maxRows and says truncated', async () => {
    const capped = await connector.execute('select g from generate_series(1, 100) g order by g', {
      ...base,
      maxRows: 10,
    })
    expect(capped.rows).toHaveLength(10)
    expect(capped.rows[9]).toEqual({ g: 10 })
    expect(capped.truncated).toBe(true)
    const exact = await connector.execute('select g from generate_series(1, 10) g;', { ...base, maxRows: 10 })
    expect(exact.truncated).toBe(false)
  })

  it("stream() hands execute()'s values over as rows of values in the columns' order, in batches, capped alike", async () => {
    const sql = 'select id, amount, big, payload, day, created_at, tags from orders order by id'
    const whole = await connector.execute(sql, { ...base, timezone: 'UTC' })
    const batches: { columns: unknown; rows: readonly (readonly unknown[])[] }[] = []
    const ended = await connector.stream(sql, { ...base, timezone: 'UTC', batchRows: 1 }, async (batch) => {
      batches.push(batch)
    })
    expect(batches.map((b) => b.rows.length)).toEqual([1, 1])
    expect(batches[0]?.columns).toEqual(whole.columns)
    const names = whole.columns.map((c) => c.name)
    expect(batches.flatMap((b) => b.rows)).toEqual(whole.rows.map((row) => names.map((n) => row[n])))
    expect(ended).toEqual({ columns: whole.columns, rows: 2, truncated: false })

    const seen: unknown[][] = []
    const capped = await connector.stream(
      'select g, g * 2 as twice from generate_series(1, 100) g order by g',
      { ...base, maxRows: 10, batchRows: 4 },
      async (batch) => {
        seen.push(batch.rows.map((r) => [...r]))
      },
    )
    expect(seen.map((rows) => rows.length)).toEqual([4, 4, 2])
    expect(seen.flat()).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, 2 * (i + 1)]))
    expect(capped).toMatchObject({ rows: 10, truncated: true })
  })

  it('the session time zone changes how a timestamptz is rendered', async () => {
    const sql = "select timestamptz '2024-01-01 00:00:00+00' as t, current_setting('TimeZone') as zone"
    const tokyo = await connector.execute(sql, { ...base, timezone: 'Asia/Tokyo' })
    expect(tokyo.rows).toEqual([{ t: '2024-01-01T09:00:00+09:00', zone: 'Asia/Tokyo' }])
    const ny = await connector.execute(sql, { ...base, timezone: 'America/New_York' })
    expect(ny.rows).toEqual([{ t: '2023-12-31T19:00:00-05:00', zone: 'America/New_York' }])
    // Set per connection, re-set when it changes: the next query on the same pool does not inherit it.
    const plain = await connector.execute("select current_setting('TimeZone') as zone", base)
    expect(plain.rows[0]?.zone).not.toBe('America/New_York')
    expectCode((await caught(connector.execute(sql, { ...base, timezone: 'Mars/Olympus' }))).error, 'QUERY_ERROR')
  })

  it('a query past timeoutMs → QUERY_TIMEOUT, cancelled by the server (statement_timeout)', async () => {
    const marker = `strata_sleep_${suffix}`
    const { error, ms } = await caught(
      connector.execute(`select pg_sleep(5) as s, '${marker}' as m`, { ...base, timeoutMs: 400 }),
    )
    expectCode(error, 'QUERY_TIMEOUT')
    expect(ms).toBeLessThan(1500)
    const running = await admin('test', (c) =>
      c.query(
        "select count(*)::int as n from pg_stat_activity where state = 'active' and query like $1 and pid <> pg_backend_pid()",
        [`%${marker}%`],
      ),
    )
    expect(running.rows[0].n).toBe(0)
    // The pooled connection is still usable afterwards.
    expect((await connector.execute('select 1 as one', base)).rows).toEqual([{ one: 1 }])
  })

  it('a failing query → QUERY_ERROR with the server message; read-only transaction', async () => {
    const missing = expectCode(
      (await caught(connector.execute('select * from no_such_table', base))).error,
      'QUERY_ERROR',
    )
    expect(missing.message).toMatch(/no_such_table/)
    expect(missing.cause).toBeDefined()
    const write = expectCode((await caught(connector.execute("select nextval('seq') as n", base))).error, 'QUERY_ERROR')
    expect(write.message).toMatch(/read-only transaction/)
  })

  it('runs one statement only: a `;` batch cannot switch the session out of read-only', async () => {
    const breakout = 'select 1 as n) t; set default_transaction_read_only = off; select * from (select 1 as n'
    expectCode((await caught(connector.execute(breakout, base))).error, 'QUERY_ERROR')
    const write = expectCode((await caught(connector.execute("select nextval('seq') as n", base))).error, 'QUERY_ERROR')
    expect(write.message).toMatch(/read-only transaction/)
  })

  it('a statement that switches the session to read-write (set_config) does not hand it to the next caller', async () => {
    // Issue 12: a SQL metric calling set_config(…, false) turned read-only off for that pooled
    // connection and later tenants' queries inherited it. One connection, so the next statement
    // would run on the same session if it went back to the pool.
    const single = new PostgresConnector(credentials, { ...options, poolMax: 1 })
    try {
      for (const attack of [
        "select set_config('default_transaction_read_only', 'off', false) as x",
        "select set_config('TimeZone', 'Asia/Tokyo', false) as x, set_config('default_transaction_read_only', 'off', false) as y",
      ]) {
        await single.execute(attack, base)
        const write = expectCode(
          (await caught(single.execute("select nextval('seq') as n", base))).error,
          'QUERY_ERROR',
        )
        expect(write.message).toMatch(/read-only transaction/)
        const state = await single.execute(
          "select current_setting('default_transaction_read_only') as ro, current_setting('TimeZone') as tz",
          base,
        )
        expect(state.rows[0]?.ro).toBe('on')
        expect(state.rows[0]?.tz).not.toBe('Asia/Tokyo')
      }
      // The time zone alone, changed behind the connector's back, also retires the connection.
      await single.execute("select set_config('TimeZone', 'Asia/Tokyo', false) as x", base)
      const tz = await single.execute("select current_setting('TimeZone') as tz", base)
      expect(tz.rows[0]?.tz).not.toBe('Asia/Tokyo')
    } finally {
      await single.close()
    }
  })

  it('DATABASE tenancy: execute({ database }) runs in that database through its own bounded pool', async () => {
    const tenants = new PostgresConnector(credentials, { ...options, maxTenantPools: 1 })
    try {
      const a = await tenants.execute('select label from accounts', { ...base, database: tenantA })
      expect(a.rows).toEqual([{ label: 'tenant a' }])
      const b = await tenants.execute('select label from accounts', { ...base, database: tenantB })
      expect(b.rows).toEqual([{ label: 'tenant b' }])
      // One tenant pool plus the configured database's: using the configured database now
      // evicts the least recently used pool (tenant a's), which closes its connections.
      await tenants.execute('select 1', base)
      const connections = async (db: string) =>
        admin('test', (c) =>
          c.query(
            "select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'strata'",
            [db],
          ),
        )
      let open = 1
      for (let i = 0; i < 20 && open > 0; i++) {
        open = (await connections(tenantA)).rows[0].n
        if (open > 0) await new Promise((r) => setTimeout(r, 100))
      }
      expect(open).toBe(0)
      expect((await tenants.introspect(tenantA)).map((t) => t.name)).toEqual(['accounts']) // reopened on demand
      const unknown = await caught(tenants.execute('select 1', { ...base, database: `missing_${suffix}` }))
      expectCode(unknown.error, 'DATASOURCE_CONNECTION_ERROR')
    } finally {
      await tenants.close()
    }
  })

  it('a tenant database dropped WITH (FORCE) mid-query and while pooled idle: the query fails, nothing is unhandled, the next use reconnects or fails cleanly', async () => {
    const doomed = `strata_tenant_gone_${suffix}`
    const sessions = async (db: string) =>
      (
        await admin('test', (c) =>
          c.query(
            "select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'strata'",
            [db],
          ),
        )
      ).rows[0].n as number
    const tenants = new PostgresConnector(credentials, options)
    try {
      await admin('test', (c) => c.query(`create database ${doomed}`))
      // two pooled sessions: one busy in pg_sleep, one idle in the pool (opened while the other was busy)
      const busy = caught(tenants.execute('select pg_sleep(4)', { ...base, database: doomed }))
      for (let i = 0; i < 50 && (await sessions(doomed)) < 1; i++) await new Promise((r) => setTimeout(r, 50))
      const idle = await tenants.execute('select 1 as one', { ...base, database: doomed })
      expect(idle.rows).toEqual([{ one: 1 }])
      expect(await sessions(doomed)).toBe(2)
      await admin('test', (c) => c.query(`drop database ${doomed} with (force)`))
      const failed = (await busy).error
      expect(failed).toBeInstanceOf(ApiError)
      // the pool heard its idle session's end; the database is gone: a clear connection error
      await new Promise((r) => setTimeout(r, 200))
      expectCode(
        (await caught(tenants.execute('select 1', { ...base, database: doomed }))).error,
        'DATASOURCE_CONNECTION_ERROR',
      )
      // created again under the same name: a fresh pool serves it
      await admin('test', (c) => c.query(`create database ${doomed}`))
      expect((await tenants.execute('select 2 as two', { ...base, database: doomed })).rows).toEqual([{ two: 2 }])
    } finally {
      await tenants.close()
      await admin('test', (c) => c.query(`drop database if exists ${doomed} with (force)`))
    }
  })
})
