/**
 * The mssql connector through mssql/tedious against the SQL Server stand-in (standin/: TDS 7.4
 * from [MS-TDS], executing on the local PostgreSQL through a translation of the T-SQL our
 * dialect emits). It proves the wire — login, sp_executesql with typed parameters, result
 * types, errors — and that the queries we generate for introspection and for a metric with a
 * tenant filter, a date filter and a time-zone-converted column return the right rows with
 * SQL Server's rules for AT TIME ZONE (Windows names only). It is not SQL Server's engine.
 * TLS and login are in tls.standin.test.ts.
 */
import { randomBytes } from 'node:crypto'
import sql from 'mssql'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { POSTGRES_URL, requireService } from '../../../test/helpers/services.js'
import { ApiError } from '../../errors.js'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import type { ConnectorOptions, MssqlCredentials } from '../types.js'
import { MssqlConnector } from './connector.js'
import { mssqlConfig } from './request.js'
import { MssqlStandIn } from './standin/server.js'

const up = await requireService('PostgreSQL', '127.0.0.1', 5432)
const schema = `strata_mssql_${randomBytes(4).toString('hex')}`
const OPTIONS: ConnectorOptions = { connectTimeoutMs: 3000, poolMax: 2 }
const BASE = { params: [] as unknown[], timeoutMs: 10_000, maxRows: 1000 }

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

describe.skipIf(!up)('mssql connector against the SQL Server stand-in (TDS, PostgreSQL behind)', () => {
  let standIn: MssqlStandIn
  let credentials: MssqlCredentials
  let connector: MssqlConnector

  beforeAll(async () => {
    await admin(`CREATE SCHEMA ${schema};
      CREATE TABLE ${schema}.orders (id int NOT NULL, client_id varchar(20) NOT NULL, amount numeric(10, 2),
        created_at timestamp NOT NULL, paid boolean, ratio double precision, big bigint, ordered_on date, seen_at timestamptz);
      CREATE TABLE ${schema}.customers (id int NOT NULL, name text);
      INSERT INTO ${schema}.orders VALUES
        (1, 'acme', 10.50, '2024-02-29 23:30:00', true, 0.5, 9007199254740993, '2024-03-01', '2024-03-01 00:00:00+00'),
        (2, 'acme', 20.00, '2024-03-15 12:00:00', false, 1.25, 1, '2024-03-15', NULL),
        (3, 'acme', 40.00, '2024-03-31 22:30:00', NULL, NULL, NULL, NULL, NULL),
        (4, 'other', 80.00, '2024-03-10 10:00:00', true, 2, 2, '2024-03-10', NULL),
        (5, 'acme', 160.00, '2024-02-29 22:30:00', true, 2, 2, '2024-02-29', NULL),
        (6, 'acme ', 320.00, '2024-03-12 09:00:00', true, 2, 2, '2024-03-12', NULL);`)
    standIn = new MssqlStandIn({
      logins: { reader: 'Reader-Passw0rd' },
      databases: { sales: schema, master: 'public' },
      defaultDatabase: 'master',
      encryption: 'unsupported',
    })
    await standIn.start()
    credentials = {
      name: 'mssql',
      server: '127.0.0.1',
      port: standIn.port,
      user: 'reader',
      password: 'Reader-Passw0rd',
      database: 'sales',
      tlsMode: 'off',
    }
    connector = new MssqlConnector(credentials, OPTIONS)
  })
  afterAll(async () => {
    await connector?.close()
    await standIn?.close()
    await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  })

  it('test() and databases() run their real statements', async () => {
    await connector.test()
    expect(standIn.log.statements).toContain('SELECT 1 AS ok')
    expect(await connector.databases()).toEqual(['master', 'sales'])
  })

  it('introspection lists the tables and columns with SQL Server type names', async () => {
    const tables = await connector.introspect()
    expect(tables.map((t) => `${t.schema}.${t.name}`)).toEqual(['dbo.customers', 'dbo.orders'])
    const orders = tables.find((t) => t.name === 'orders')
    expect(orders?.columns.map((c) => [c.name, c.nativeType, c.dataType, c.nullable])).toEqual([
      ['id', 'int', 'integer', false],
      ['client_id', 'nvarchar', 'string', false],
      ['amount', 'decimal', 'number', true],
      ['created_at', 'datetime2', 'datetime', false],
      ['paid', 'bit', 'boolean', true],
      ['ratio', 'float', 'number', true],
      ['big', 'bigint', 'integer', true],
      ['ordered_on', 'date', 'date', true],
      ['seen_at', 'datetimeoffset', 'datetime', true],
    ])
  })

  it('result types: int, bigint beyond 2^53, decimal, bit, float, date, datetime2, datetimeoffset, nvarchar, NULL', async () => {
    const r = await connector.execute(
      'SELECT [id], [client_id], [amount], [paid], [ratio], [big], [ordered_on], [created_at], [seen_at] FROM [dbo].[orders] WHERE [id] IN (@p0, @p1) ORDER BY [id]',
      { ...BASE, params: [1, 3] },
    )
    expect(r.columns).toEqual([
      { name: 'id', dataType: 'integer' },
      { name: 'client_id', dataType: 'string' },
      { name: 'amount', dataType: 'number' },
      { name: 'paid', dataType: 'boolean' },
      { name: 'ratio', dataType: 'number' },
      { name: 'big', dataType: 'integer' },
      { name: 'ordered_on', dataType: 'date' },
      { name: 'created_at', dataType: 'datetime' },
      { name: 'seen_at', dataType: 'datetime' },
    ])
    expect(r.rows).toEqual([
      {
        id: 1,
        client_id: 'acme',
        amount: 10.5,
        paid: true,
        ratio: 0.5,
        big: '9007199254740993',
        ordered_on: '2024-03-01',
        created_at: '2024-02-29T23:30:00.000',
        seen_at: '2024-03-01T00:00:00.000Z',
      },
      {
        id: 3,
        client_id: 'acme',
        amount: 40,
        paid: null,
        ratio: null,
        big: null,
        ordered_on: null,
        created_at: '2024-03-31T22:30:00.000',
        seen_at: null,
      },
    ])
  })

  it('typed parameters as tedious sends them come back as bound: int, bigint, nvarchar, decimal, bit, float, datetime2, datetimeoffset', async () => {
    const pool = new sql.ConnectionPool(mssqlConfig(credentials, OPTIONS))
    await pool.connect()
    try {
      const request = pool
        .request()
        .input('i', sql.Int, -7)
        .input('b', sql.BigInt, '9007199254740993')
        .input('s', sql.NVarChar(sql.MAX), "it's ☃ — ok")
        .input('d', sql.Decimal(10, 2), 12.34)
        .input('t', sql.Bit, true)
        .input('f', sql.Float, 0.1)
        .input('w', sql.DateTime2(7), new Date('2024-02-29T23:59:58.123Z'))
        .input('o', sql.DateTimeOffset(7), new Date('2024-01-01T00:00:00.5Z'))
        .input('n', sql.Int, null)
      const result = await request.query(
        'SELECT @i AS i, @b AS b, @s AS s, @d AS d, @t AS t, @f AS f, @w AS w, @o AS o, @n AS n',
      )
      expect(result.recordset[0]).toEqual({
        i: -7,
        b: '9007199254740993',
        s: "it's ☃ — ok",
        d: 12.34,
        t: true,
        f: 0.1,
        w: new Date('2024-02-29T23:59:58.123Z'),
        o: new Date('2024-01-01T00:00:00.5Z'),
        n: null,
      })
      const types = Object.values(result.recordset.columns).map(
        (c) => (c.type as unknown as { declaration: string }).declaration,
      )
      expect(types).toEqual([
        'int',
        'bigint',
        'nvarchar',
        'decimal',
        'bit',
        'float',
        'datetime2',
        'datetimeoffset',
        'int',
      ])
    } finally {
      await pool.close()
    }
  })

  /** The metric of the example: amounts per converted `created_at`, tenant `acme`, March in the token's zone. */
  async function metricQuery(timezone: string) {
    const model = buildModel(await connector.introspect(), {
      tableList: [
        {
          schemaName: 'dbo',
          name: 'orders',
          clientColumn: 'client_id',
          columns: [{ name: 'created_at', isTimezoneConversion: true }],
        },
      ],
      relationships: [],
    })
    const m = metric({
      from: 'dbo.orders',
      dimensions: [{ name: 'at', column: 'created_at' }],
      measures: [{ name: 'total', aggregate: 'sum', column: 'amount' }],
    })
    return compileMetric({
      metric: m,
      model,
      dialect: getDialect('mssql'),
      context: ctx({
        timezone,
        tenancy: { kind: 'table', clientId: 'acme' },
        filters: [
          {
            table: 'dbo.orders',
            column: 'created_at',
            value: { startDate: '2024-03-01', endDate: '2024-03-31' },
            type: 'date-range',
            source: 'dashboard',
          },
        ],
      }),
    })
  }

  it('a metric with a tenant filter, a date filter and a converted column: the IANA zone goes as its Windows name', async () => {
    const compiled = await metricQuery('Europe/Berlin')
    expect(compiled.sql).toContain('AT TIME ZONE @p0')
    // rows first: with the IANA name bound as it is, the stand-in refuses the query (Msg 9820)
    const result = await connector.execute(compiled.sql, { ...BASE, params: compiled.params })
    const rows = [...result.rows].sort((a, b) => String(a.at).localeCompare(String(b.at)))
    // 23:30 UTC on Feb 29 is 00:30 on March 1 in Berlin (CET, +1); 22:30 UTC on March 31 is
    // 00:30 on April 1 (CEST, +2 since that morning): in and out of March only after conversion.
    // Tenant `other` and `acme ` (a trailing space SQL Server's `=` would ignore) are not acme.
    expect(rows).toEqual([
      { at: '2024-03-01T00:30:00.000', total: 10.5 },
      { at: '2024-03-15T13:00:00.000', total: 20 },
    ])
    expect(result.columns).toEqual([
      { name: 'at', dataType: 'datetime' },
      { name: 'total', dataType: 'number' },
    ])
    expect(compiled.params[0]).toBe('W. Europe Standard Time')
  })

  it('the same query in another zone: America/Los_Angeles → Pacific Standard Time', async () => {
    const compiled = await metricQuery('America/Los_Angeles')
    const result = await connector.execute(compiled.sql, { ...BASE, params: compiled.params })
    const rows = [...result.rows].sort((a, b) => String(a.at).localeCompare(String(b.at)))
    // PST (−8) until March 10, PDT (−7) after: Feb 29 22:30 UTC is Feb 29 14:30 (out), March 31
    // 22:30 UTC is March 31 15:30 (in), March 15 12:00 UTC is 05:00.
    expect(rows).toEqual([
      { at: '2024-03-15T05:00:00.000', total: 20 },
      { at: '2024-03-31T15:30:00.000', total: 40 },
    ])
    expect(compiled.params[0]).toBe('Pacific Standard Time')
  })

  it('AT TIME ZONE with an IANA name fails as on SQL Server (Msg 9820): the mapping is what makes it run', async () => {
    const compiled = await metricQuery('Europe/Berlin')
    const bypassed = ['Europe/Berlin', ...compiled.params.slice(1)]
    const error = await connector.execute(compiled.sql, { ...BASE, params: bypassed }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect([(error as ApiError).code, (error as ApiError).message]).toEqual([
      'QUERY_ERROR',
      "The query failed: The time zone parameter 'Europe/Berlin' provided to AT TIME ZONE clause is invalid.",
    ])
    expect(((error as ApiError).cause as { number?: number }).number).toBe(9820)
  })

  it('a week grain runs (DATEADD, DATEPART(weekday) from Sunday = 1, @@DATEFIRST 7): weeks start on Monday', async () => {
    const model = buildModel(await connector.introspect())
    const m = metric({
      from: 'dbo.orders',
      dimensions: [{ name: 'week', column: 'ordered_on', timeGrain: 'week' }],
      measures: [{ name: 'n', aggregate: 'count' }],
    })
    const compiled = compileMetric({ metric: m, model, dialect: getDialect('mssql'), context: ctx() })
    const result = await connector.execute(compiled.sql, { ...BASE, params: compiled.params })
    const rows = [...result.rows].sort((a, b) => String(a.week).localeCompare(String(b.week)))
    expect(rows).toEqual([
      { week: '2024-02-26', n: 2 }, // Thu Feb 29 and Fri Mar 1
      { week: '2024-03-04', n: 1 }, // Sun Mar 10 ends the week of Monday Mar 4
      { week: '2024-03-11', n: 2 }, // Tue Mar 12 and Fri Mar 15
      { week: null, n: 1 },
    ])
  })

  it('server errors keep SQL Server numbers: 208 for an unknown table is a QUERY_ERROR', async () => {
    const error = await connector.execute('SELECT * FROM [dbo].[nope]', BASE).catch((e: unknown) => e)
    expect((error as ApiError).code).toBe('QUERY_ERROR')
    expect(((error as ApiError).cause as { number?: number }).number).toBe(208)
  })

  it('maxRows: the stream is cut after maxRows + 1 rows and the request cancelled (DONE with attention)', async () => {
    const r = await connector.execute('SELECT [id] FROM [dbo].[orders] ORDER BY [id]', { ...BASE, maxRows: 2 })
    expect(r.rows).toEqual([{ id: 1 }, { id: 2 }])
    expect(r.truncated).toBe(true)
    expect((await connector.execute('SELECT COUNT(*) AS n FROM [dbo].[orders]', BASE)).rows).toEqual([{ n: 6 }])
  })
})
