/**
 * Live tests against the local ClickHouse (scripts/start-clickhouse.sh; Debian's 18.16 here).
 * Features the server may lack (query parameters < 19.11, session_timezone < 23.6) are tested
 * live when it has them, else as the clear DATASOURCE_NOT_SUPPORTED it must answer; their wire
 * format is covered by request.test.ts and connector.test.ts.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught, closedPort } from '../../../test/fixtures/net.js'
import { expectConnectionFailures, expectSilentHostFails } from '../../../test/helpers/connector-failures.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import { requireService } from '../../../test/helpers/services.js'
import type { ApiError } from '../../errors.js'
import type { ClickhouseCredentials, ConnectorOptions } from '../types.js'
import { ClickhouseConnector } from './connector.js'
import type { ServerInfo } from './request.js'

const up = await requireService('ClickHouse', '127.0.0.1', 8123)
const suffix = randomBytes(4).toString('hex')
const db = `strata_ch_${suffix}`
const tenant = `strata_ch_tenant_${suffix}`
const options: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 4 }
const credentials: ClickhouseCredentials = {
  name: 'ch',
  host: '127.0.0.1',
  port: 8123,
  user: 'default',
  password: '',
  database: db,
}
const base = { params: [], timeoutMs: 5000, maxRows: 1000 }

/** DDL through the plain HTTP interface, as an operator would. */
async function admin(sql: string): Promise<void> {
  const res = await fetch('http://127.0.0.1:8123/', { method: 'POST', body: sql })
  if (!res.ok) throw new Error(`${sql}: ${await res.text()}`)
}

describe.skipIf(!up)('clickhouse connector (live, 127.0.0.1:8123)', () => {
  const connector = new ClickhouseConnector(credentials, options)
  let server: ServerInfo

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${db}`)
    await admin(`CREATE TABLE ${db}.events (
      id UInt32, name String, amount Decimal(10, 2), big UInt64, at DateTime, day Date,
      note Nullable(String), tags Array(String)) ENGINE = Memory`)
    await admin(`INSERT INTO ${db}.events VALUES
      (1, 'alpha', 10.50, 18446744073709551615, '2024-01-01 10:00:00', '2024-01-01', NULL, ['x']),
      (2, 'beta', 20.25, 42, '2024-06-01 12:00:00', '2024-06-01', 'n', []),
      (3, 'alpha', 1.00, 7, '2024-06-02 12:00:00', '2024-06-02', NULL, [])`)
    await admin(`CREATE DATABASE ${tenant}`)
    await admin(`CREATE TABLE ${tenant}.accounts (label String) ENGINE = Memory`)
    await admin(`INSERT INTO ${tenant}.accounts VALUES ('tenant a')`)
    await connector.test()
    server = await connector.server()
  })

  afterAll(async () => {
    await connector.close()
    await admin(`DROP DATABASE IF EXISTS ${db}`)
    await admin(`DROP DATABASE IF EXISTS ${tenant}`)
  })

  it('test() probes the server: version and capabilities', () => {
    expect(server.version).toMatch(/^\d+\.\d+/)
    expect(typeof server.timezone).toBe('string')
  })

  it('wrong password, unknown database, closed port → DATASOURCE_CONNECTION_ERROR within the timeout', async () => {
    const cases: [ClickhouseCredentials, RegExp][] = [
      [{ ...credentials, password: 'wrong-password' }, /password|Authentication/i],
      [{ ...credentials, database: `missing_${suffix}` }, /doesn't exist|does not exist/],
      [{ ...credentials, port: await closedPort() }, /connection refused/],
    ]
    await expectConnectionFailures(
      (creds: ClickhouseCredentials) => new ClickhouseConnector(creds, options),
      cases,
      options.connectTimeoutMs,
    )
  })

  it('a host that accepts but never answers → DATASOURCE_CONNECTION_ERROR after connectTimeoutMs', async () => {
    await expectSilentHostFails(
      (port, connectTimeoutMs) => new ClickhouseConnector({ ...credentials, port }, { ...options, connectTimeoutMs }),
    )
  })

  it('introspect() reads system.columns of the database, with mapped types', async () => {
    const tables = await connector.introspect()
    expect(tables.map((t) => [t.schema, t.name])).toEqual([[db, 'events']])
    expect(tables[0]?.columns.map((c) => [c.name, c.dataType, c.nativeType, c.nullable])).toEqual([
      ['id', 'integer', 'UInt32', false],
      ['name', 'string', 'String', false],
      ['amount', 'number', 'Decimal(10, 2)', false],
      ['big', 'integer', 'UInt64', false],
      ['at', 'datetime', 'DateTime', false],
      ['day', 'date', 'Date', false],
      ['note', 'string', 'Nullable(String)', true],
      ['tags', 'json', 'Array(String)', false],
    ])
  })

  it('databases() reads system.databases minus system', async () => {
    const dbs = await connector.databases()
    expect(dbs).toEqual(expect.arrayContaining([db, tenant, 'default']))
    expect(dbs).not.toContain('system')
  })

  it('execute() without params: JSON-safe values, GROUP BY, column types', async () => {
    const rows = await connector.execute('SELECT id, amount, big, at, day, note, tags FROM events ORDER BY id', base)
    expect(rows.columns.map((c) => c.dataType)).toEqual([
      'integer',
      'number',
      'integer',
      'datetime',
      'date',
      'string',
      'json',
    ])
    expect(rows.rows[0]).toEqual({
      id: 1,
      amount: 10.5,
      big: '18446744073709551615',
      at: '2024-01-01T10:00:00',
      day: '2024-01-01',
      note: null,
      tags: ['x'],
    })
    expect(rows.rows[1]?.big).toBe(42)
    const grouped = await connector.execute(
      'SELECT name, count() AS n, sum(amount) AS total FROM events GROUP BY name ORDER BY name;',
      base,
    )
    expect(grouped.rows).toEqual([
      { name: 'alpha', n: 2, total: 11.5 },
      { name: 'beta', n: 1, total: 20.25 },
    ])
    const empty = await connector.execute('SELECT id FROM events WHERE id > 100', base)
    expect(empty).toEqual({ columns: [{ name: 'id', dataType: 'integer' }], rows: [], truncated: false })
  })

  it('execute() stops reading after maxRows and says truncated', async () => {
    const capped = await connector.execute('SELECT number FROM system.numbers LIMIT 100000', { ...base, maxRows: 10 })
    expect(capped.rows).toHaveLength(10)
    expect(capped.rows[9]).toEqual({ number: 9 })
    expect(capped.truncated).toBe(true)
    const exact = await connector.execute('SELECT number FROM system.numbers LIMIT 10', { ...base, maxRows: 10 })
    expect(exact.truncated).toBe(false)
  })

  it('query parameters: bound server-side when the server has them, else a clear error (never spliced)', async () => {
    const hostile = "'; DROP TABLE events; --"
    const run = connector.execute('SELECT count() AS n FROM events WHERE name = {p0:String}', {
      ...base,
      params: [hostile],
    })
    if (server.queryParams) {
      expect((await run).rows).toEqual([{ n: 0 }])
    } else {
      const e = expectCode((await caught(run)).error, 'DATASOURCE_NOT_SUPPORTED')
      expect(e.message).toMatch(/cannot bind query parameters .*19\.11/)
    }
    expect((await connector.execute('SELECT count() AS n FROM events', base)).rows).toEqual([{ n: 3 }])
  })

  it('session time zone: rendered in the zone asked for, or a clear error on servers without session_timezone', async () => {
    const sql =
      "SELECT toDateTime('2024-01-01 00:00:00', 'UTC') AS utc, toDateTime(toDateTime('2024-01-01 00:00:00', 'UTC')) AS t"
    if (server.sessionTimezone) {
      const tokyo = await connector.execute(sql, { ...base, timezone: 'Asia/Tokyo' })
      expect(tokyo.rows[0]?.t).toBe('2024-01-01T09:00:00')
    } else {
      const e = expectCode(
        (await caught(connector.execute(sql, { ...base, timezone: 'Asia/Tokyo' }))).error,
        'DATASOURCE_NOT_SUPPORTED',
      )
      expect(e.message).toMatch(/session time zone .*23\.6/)
      // The server's own zone needs no setting and works.
      const own = await connector.execute(sql, { ...base, timezone: server.timezone })
      expect(own.rows[0]?.utc).toBe('2024-01-01T00:00:00')
    }
  })

  it('a query past timeoutMs → QUERY_TIMEOUT, stopped by the server (max_execution_time)', async () => {
    const marker = `strata_${suffix}`
    const { error, ms } = await caught(
      connector.execute(`SELECT count() AS c, '${marker}' AS m FROM system.numbers`, { ...base, timeoutMs: 1000 }),
    )
    expectCode(error, 'QUERY_TIMEOUT')
    expect(ms).toBeLessThan(2800)
    const res = await fetch('http://127.0.0.1:8123/', {
      method: 'POST',
      body: `SELECT count() FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`,
    })
    expect((await res.text()).trim()).toBe('0')
  })

  it('runs reads only: INSERT, CREATE, DROP and ALTER fail, the data and tables are unchanged', async () => {
    // every query runs with readonly=2 (what the server refuses writes by; on 18.16 the
    // statements below fail earlier still, as the connector reads result types through DESCRIBE)
    const setting = await connector.execute(`SELECT value FROM system.settings WHERE name = 'readonly'`, base)
    expect(setting.rows).toEqual([{ value: '2' }])
    for (const sql of [
      `INSERT INTO ${db}.events (id, name) SELECT 99, 'written'`,
      `CREATE TABLE ${db}.planted (x UInt8) ENGINE = Memory`,
      `DROP TABLE ${db}.events`,
      `ALTER TABLE ${db}.events DELETE WHERE 1 = 1`,
      `SET readonly = 0`,
    ]) {
      const { error } = await caught(connector.execute(sql, base))
      expect((error as ApiError).code, sql).toBe('QUERY_ERROR')
    }
    const rows = await connector.execute(`SELECT count() AS n FROM ${db}.events`, base)
    expect(Number(rows.rows[0]?.n)).toBe(3)
    expect((await connector.introspect()).map((t) => t.name)).not.toContain('planted')
  })

  it('a failing query → QUERY_ERROR with the server message', async () => {
    const e = expectCode((await caught(connector.execute('SELECT * FROM no_such_table', base))).error, 'QUERY_ERROR')
    expect(e.message).toMatch(/no_such_table/)
    expect(e.message).not.toMatch(/e\.what\(\)/)
  })

  it('DATABASE tenancy: execute({ database }) runs in that database (its own HTTP client)', async () => {
    const a = await connector.execute('SELECT label FROM accounts', { ...base, database: tenant })
    expect(a.rows).toEqual([{ label: 'tenant a' }])
    expect((await connector.introspect(tenant)).map((t) => t.name)).toEqual(['accounts'])
    const missing = await caught(connector.execute('SELECT 1', { ...base, database: `missing_${suffix}` }))
    expectCode(missing.error, 'DATASOURCE_CONNECTION_ERROR')
  })
})
