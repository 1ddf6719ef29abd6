import { randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught, closedPort } from '../../../test/fixtures/net.js'
import { expectConnectionFailures, expectSilentHostFails } from '../../../test/helpers/connector-failures.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import { requireService } from '../../../test/helpers/services.js'
import { offsetAt } from '../shared/values.js'
import type { ConnectorOptions, MysqlCredentials } from '../types.js'
import { MysqlConnector } from './connector.js'

const up = await requireService('MariaDB', '127.0.0.1', 3306)
const suffix = randomBytes(4).toString('hex')
const table = `strata_orders_${suffix}`
const tenantA = `strata_tenant_a_${suffix}`
const tenantB = `strata_tenant_b_${suffix}`
const options: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 4 }
const credentials: MysqlCredentials = {
  name: 'mariadb',
  host: '127.0.0.1',
  port: 3306,
  user: 'root',
  password: '',
  database: 'test',
}
const base = { params: [], timeoutMs: 5000, maxRows: 1000 }

async function admin<T>(work: (c: mysql.Connection) => Promise<T>): Promise<T> {
  const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' })
  try {
    return await work(c)
  } finally {
    await c.end()
  }
}

describe.skipIf(!up)('mysql connector (live MariaDB, 127.0.0.1:3306)', () => {
  const connector = new MysqlConnector(credentials, options)

  beforeAll(async () => {
    await admin(async (c) => {
      await c.query(`create table test.${table} (
        id int not null primary key, name varchar(50) not null, amount decimal(10,2), created_at datetime,
        seen_at timestamp null, big bigint, flag tinyint(1), day date, doc json)`)
      await c.query(`insert into test.${table} values
        (1, 'alpha', 10.50, '2024-01-01 10:00:00', null, 9007199254740993, 1, '2024-01-01', '{"a":1}'),
        (2, 'beta', 20.25, '2024-06-01 12:00:00', null, 42, 0, '2024-06-01', null)`)
      for (const [db, label] of [
        [tenantA, 'tenant a'],
        [tenantB, 'tenant b'],
      ] as const) {
        await c.query(`create database ${db}`)
        await c.query(`create table ${db}.accounts (label varchar(20))`)
        await c.query(`insert into ${db}.accounts values (?)`, [label])
      }
    })
  })

  afterAll(async () => {
    await connector.close()
    await admin(async (c) => {
      await c.query(`drop table if exists test.${table}`)
      await c.query(`drop database if exists ${tenantA}`)
      await c.query(`drop database if exists ${tenantB}`)
    })
  })

  it('wrong password, missing database, closed port → DATASOURCE_CONNECTION_ERROR within the timeout', async () => {
    const cases: [MysqlCredentials, RegExp][] = [
      [{ ...credentials, password: 'wrong-password' }, /Access denied/],
      [{ ...credentials, database: `missing_${suffix}` }, /Unknown database/],
      [{ ...credentials, port: await closedPort() }, /connection refused/],
    ]
    await expectConnectionFailures(
      (creds: MysqlCredentials) => new MysqlConnector(creds, options),
      cases,
      options.connectTimeoutMs,
    )
  })

  it('a host that accepts but never answers → DATASOURCE_CONNECTION_ERROR after connectTimeoutMs', async () => {
    await expectSilentHostFails(
      (port, connectTimeoutMs) => new MysqlConnector({ ...credentials, port }, { ...options, connectTimeoutMs }),
    )
  })

  it('introspect() lists the tables of the database with mapped types', async () => {
    const tables = await connector.introspect()
    const orders = tables.find((t) => t.name === table)
    expect(orders?.schema).toBe('test')
    expect(orders?.columns.map((c) => [c.name, c.dataType, c.nullable])).toEqual([
      ['id', 'integer', false],
      ['name', 'string', false],
      ['amount', 'number', true],
      ['created_at', 'datetime', true],
      ['seen_at', 'datetime', true],
      ['big', 'integer', true],
      ['flag', 'boolean', true],
      ['day', 'date', true],
      ['doc', 'string', true], // MariaDB's JSON is an alias of LONGTEXT
    ])
    expect(tables.every((t) => t.schema === 'test')).toBe(true)
    expect((await connector.introspect(tenantA)).map((t) => [t.schema, t.name])).toEqual([[tenantA, 'accounts']])
  })

  it('databases() is SHOW DATABASES minus the system schemas', async () => {
    const dbs = await connector.databases()
    expect(dbs).toEqual(expect.arrayContaining(['test', tenantA, tenantB]))
    for (const system of ['mysql', 'information_schema', 'performance_schema', 'sys']) expect(dbs).not.toContain(system)
  })

  it('execute() returns JSON-safe values and column types', async () => {
    const result = await connector.execute(`select id, amount, big, created_at, day from ${table} order by id`, base)
    expect(result.columns).toEqual([
      { name: 'id', dataType: 'integer' },
      { name: 'amount', dataType: 'number' },
      { name: 'big', dataType: 'integer' },
      { name: 'created_at', dataType: 'datetime' },
      { name: 'day', dataType: 'date' },
    ])
    expect(result.rows).toEqual([
      { id: 1, amount: 10.5, big: '9007199254740993', created_at: '2024-01-01T10:00:00', day: '2024-01-01' },
      { id: 2, amount: 20.25, big: 42, created_at: '2024-06-01T12:00:00', day: '2024-06-01' },
    ])
  })

  it('execute() caps rows (sql_select_limit: top-level only, aggregates stay whole)', async () => {
    const capped = await connector.execute('select seq from seq_1_to_100', { ...base, maxRows: 10 })
    expect(capped.rows).toHaveLength(10)
    expect(capped.truncated).toBe(true)
    const exact = await connector.execute('select seq from seq_1_to_10', { ...base, maxRows: 10 })
    expect(exact.truncated).toBe(false)
    const total = await connector.execute('select count(*) as c from (select seq from seq_1_to_100) s', {
      ...base,
      maxRows: 5,
    })
    expect(total.rows).toEqual([{ c: 100 }])
    // The next statement on the pooled connection is not capped by the previous one's limit.
    expect((await connector.execute('select seq from seq_1_to_50', base)).rows).toHaveLength(50)
  })

  it('the session time zone changes how a TIMESTAMP renders (numeric offset without tz tables)', async () => {
    const sql = 'select @@session.time_zone as zone, from_unixtime(0) as t'
    const tokyo = await connector.execute(sql, { ...base, timezone: 'Asia/Tokyo' })
    // This MariaDB has no time zone tables: the zone becomes its offset at this instant.
    expect(tokyo.rows).toEqual([{ zone: expect.stringMatching(/^(Asia\/Tokyo|\+09:00)$/), t: '1970-01-01T09:00:00' }])
    const ny = await connector.execute(sql, { ...base, timezone: 'America/New_York' })
    expect([offsetAt('America/New_York', Date.now()), 'America/New_York']).toContain(ny.rows[0]?.zone)
    const plain = await connector.execute(sql, base)
    expect(plain.rows[0]?.zone).toBe('SYSTEM')
  })

  it('a query past timeoutMs → QUERY_TIMEOUT, stopped by the server (max_statement_time)', async () => {
    const marker = `strata_sleep_${suffix}`
    const { error, ms } = await caught(
      connector.execute(`select sleep(5) as s, '${marker}' as m`, { ...base, timeoutMs: 400 }),
    )
    expectCode(error, 'QUERY_TIMEOUT')
    expect(ms).toBeLessThan(1500)
    const running = await admin((c) =>
      c.query<mysql.RowDataPacket[]>(
        "select count(*) as n from information_schema.processlist where info like ? and info not like '%processlist%'",
        [`%${marker}%`],
      ),
    )
    expect(Number(running[0][0]?.n)).toBe(0)
    expect((await connector.execute('select 1 as one', base)).rows).toEqual([{ one: 1 }])
  })

  it('a failing query → QUERY_ERROR with the server message', async () => {
    const e = expectCode((await caught(connector.execute('select * from no_such_table', base))).error, 'QUERY_ERROR')
    expect(e.message).toMatch(/no_such_table/)
    expect(e.cause).toBeDefined()
  })

  it('every statement runs read only: UPDATE and CREATE TABLE … AS fail, and the next statement on the pool is read only too', async () => {
    // The attacks of issue 12 (a SQL metric that rewrote other tenants' rows), run directly.
    const attacks = [
      `update test.${table} set name = 'pwned' where id <> 1`,
      `create table test.${table}_stolen as select * from test.${table}`,
      `insert into test.${table} (id, name) values (99, 'x')`,
      'set session tx_read_only = 0',
    ]
    // One connection in the pool, so the statement after each attack runs on the same session.
    const single = new MysqlConnector(credentials, { ...options, poolMax: 1 })
    try {
      for (const sql of attacks.slice(0, 3)) {
        expectCode((await caught(single.execute(sql, base))).error, 'QUERY_ERROR')
      }
      await single.execute(attacks[3] as string, base).catch(() => undefined)
      const after = await caught(single.execute(attacks[0] as string, base))
      expect(expectCode(after.error, 'QUERY_ERROR').message).toMatch(/READ ONLY/i)
      const state = await single.execute('select @@session.tx_read_only as ro', base)
      expect(Number(state.rows[0]?.ro)).toBe(1)
    } finally {
      await single.close()
    }
    const rows = await admin(async (c) => (await c.query(`select name from test.${table} order by id`))[0])
    expect(rows).toEqual([{ name: 'alpha' }, { name: 'beta' }])
    const stolen = await admin(async (c) => (await c.query(`show tables from test like '${table}_stolen'`))[0])
    expect(stolen).toEqual([])
  })

  it('DATABASE tenancy: execute({ database }) uses a pool for that database', async () => {
    const a = await connector.execute('select label from accounts', { ...base, database: tenantA })
    expect(a.rows).toEqual([{ label: 'tenant a' }])
    const b = await connector.execute('select label from accounts', { ...base, database: tenantB })
    expect(b.rows).toEqual([{ label: 'tenant b' }])
    const missing = await caught(connector.execute('select 1', { ...base, database: `missing_${suffix}` }))
    expectCode(missing.error, 'DATASOURCE_CONNECTION_ERROR')
  })
})
