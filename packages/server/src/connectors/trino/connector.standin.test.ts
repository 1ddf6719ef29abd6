/**
 * The trino connector against the local stand-in of Trino's client REST protocol
 * (src/connectors/trino/standin), which executes on DuckDB: a transport test (submit, nextUri paging,
 * DELETE cancel, errors, X-Trino-* headers), never a test of Trino's SQL. The conformance suite
 * runs the common cases; these are the ones particular to Trino's protocol.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { rootCertificates } from 'node:tls'
import { Agent, buildConnector, getGlobalDispatcher, setGlobalDispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import { TLS, trustStandInCertificate } from '../../../test/standins/tls.js'
import type { CredentialsByType } from '../credentials/schemas.js'
import type { ConnectorOptions, ExecuteOptions } from '../types.js'
import { parseTrinoJson, sameOrigin } from './client.js'
import { TrinoConnector } from './connector.js'
import { CATALOG, startTrinoStandIn, type TrinoStandIn } from './standin/server.js'
import { convertValue, dataTypeOf } from './type-mapping.js'

const OPTIONS: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 2 }
const BASE: ExecuteOptions = { params: [], timeoutMs: 10_000, maxRows: 1000 }
const HOSTILE = [
  "'; drop table t; --",
  "it's \\' \\\\ ''",
  '/* x */ -- y ? $1 :n @p0',
  'ünïcødé ✓ 𝄞 中文',
  "EXECUTE IMMEDIATE 'x' USING 'y'",
  'line\nbreak',
]

type Credentials = CredentialsByType['trino']

describe('trino over HTTP (stand-in, no authentication)', () => {
  let standIn: TrinoStandIn
  let legacy: TrinoStandIn
  const creds = (s: TrinoStandIn, extra: Partial<Credentials> = {}): Credentials => ({
    name: 't',
    host: '127.0.0.1',
    port: s.port,
    user: 'analyst',
    catalog: CATALOG,
    schema: 'shop',
    ...extra,
  })

  beforeAll(async () => {
    standIn = await startTrinoStandIn({ pageSize: 3 })
    legacy = await startTrinoStandIn({ pageSize: 3, version: '400' })
    for (const s of [standIn, legacy]) {
      await s.engine.exec(
        "CREATE SCHEMA shop; CREATE TABLE shop.items (id BIGINT, price DECIMAL(12, 3), day DATE, \"at\" TIMESTAMP, label VARCHAR); INSERT INTO shop.items SELECT range, range * 1.5, DATE '2024-01-01' + range::INTEGER, TIMESTAMP '2024-01-01 10:00:00' + INTERVAL (range) HOUR, 'item ' || range FROM range(10)",
      )
    }
  })
  afterAll(async () => {
    await standIn?.close()
    await legacy?.close()
  })

  it('follows nextUri across pages and converts the values to JSON-safe ones', async () => {
    const c = new TrinoConnector(creds(standIn), OPTIONS)
    const before = standIn.gets.length
    const result = await c.execute('select id, price, day, "at", label from items order by id', BASE)
    expect(result.rows).toHaveLength(10)
    expect(result.truncated).toBe(false)
    expect(result.rows[9]).toEqual({
      id: 9,
      price: 13.5,
      day: '2024-01-10',
      at: '2024-01-01T19:00:00.000',
      label: 'item 9',
    })
    expect(result.columns.map((col) => col.dataType)).toEqual(['integer', 'number', 'date', 'datetime', 'string'])
    // 10 rows in pages of 3: at least four pages fetched after the POST
    expect(standIn.gets.length - before).toBeGreaterThanOrEqual(4)
  })

  it('stops paging at maxRows + 1 and cancels the rest with DELETE', async () => {
    const c = new TrinoConnector(creds(standIn), OPTIONS)
    const deletes = standIn.deletes.length
    const result = await c.execute('select id from items order by id', { ...BASE, maxRows: 4 })
    expect(result.rows.map((r) => r.id)).toEqual([0, 1, 2, 3])
    expect(result.truncated).toBe(true)
    expect(standIn.deletes.length).toBe(deletes + 1)
  })

  it('sends the session as X-Trino-* headers: user, catalog, schema, time zone, time limit', async () => {
    const c = new TrinoConnector(creds(standIn), OPTIONS)
    await c.execute('select 1 as x', { ...BASE, timezone: 'Asia/Tokyo', timeoutMs: 2500 })
    const headers = standIn.posts.at(-1)?.headers
    expect(headers).toMatchObject({
      'x-trino-user': 'analyst',
      'x-trino-catalog': CATALOG,
      'x-trino-schema': 'shop',
      'x-trino-time-zone': 'Asia/Tokyo',
      'x-trino-session': 'query_max_execution_time=2500ms',
    })
    expect(headers?.authorization).toBeUndefined() // no password: no Authorization header
  })

  it.each([
    ['435 (EXECUTE IMMEDIATE)', () => standIn, /^EXECUTE IMMEDIATE '/],
    ['400 (X-Trino-Prepared-Statement)', () => legacy, /^EXECUTE strata_statement USING /],
  ])('Trino %s: hostile values come back as data', async (_name, server, body) => {
    const s = server()
    const c = new TrinoConnector(creds(s), OPTIONS)
    const sql = `select ${HOSTILE.map((_, i) => `? as v${i}`).join(', ')}, ? as n, ? as f, ? as b, ? as z`
    const result = await c.execute(sql, { ...BASE, params: [...HOSTILE, 7, 2.5, true, null] })
    expect(result.rows).toEqual([
      { ...Object.fromEntries(HOSTILE.map((v, i) => [`v${i}`, v])), n: 7, f: 2.5, b: true, z: null },
    ])
    const post = s.posts.at(-1)
    expect(post?.body).toMatch(body)
    if (s === legacy) {
      expect(decodeURIComponent(String(post?.headers['x-trino-prepared-statement']))).toBe(`strata_statement=${sql}`)
    }
    const count = await c.execute('select count(*) as n from items where label = ?', {
      ...BASE,
      params: ["item 1' OR '1'='1"],
    })
    expect(count.rows).toEqual([{ n: 0 }])
  })

  it('refuses a NUL in a value with a 400 before anything is sent', async () => {
    const c = new TrinoConnector(creds(standIn), OPTIONS)
    const posts = standIn.posts.length
    const e = expectCode(
      (await caught(c.execute('select ? as v', { ...BASE, params: ['a\u0000b'] }))).error,
      'QUERY_ERROR',
    )
    expect(e.status).toBe(400)
    expect(standIn.posts.length).toBe(posts)
  })

  it("a failing statement is QUERY_ERROR with the engine's message", async () => {
    const c = new TrinoConnector(creds(standIn), OPTIONS)
    const e = expectCode((await caught(c.execute('select * from no_such_table', BASE))).error, 'QUERY_ERROR')
    expect(e.message).toMatch(/no_such_table/)
  })

  it('an unknown catalog or schema is DATASOURCE_CONNECTION_ERROR', async () => {
    const c = new TrinoConnector(creds(standIn, { catalog: 'nope' }), OPTIONS)
    expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    const d = new TrinoConnector(creds(standIn, { schema: 'no_such_schema' }), OPTIONS)
    expectCode((await caught(d.test())).error, 'DATASOURCE_CONNECTION_ERROR')
  })

  it('refuses a password over plain http, as Trino does, before sending it', async () => {
    const c = new TrinoConnector(creds(standIn, { password: 'secret-pw-123' }), OPTIONS)
    const posts = standIn.posts.length
    const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(/https only/)
    expect(e.message).not.toContain('secret-pw-123')
    expect(standIn.posts.length).toBe(posts)
  })

  it('introspects information_schema.columns of the schema and lists schemas as databases', async () => {
    const c = new TrinoConnector(creds(standIn), OPTIONS)
    const tables = await c.introspect()
    expect(tables.map((t) => [t.schema, t.name])).toEqual([['shop', 'items']])
    expect(tables[0]?.columns.map((col) => [col.name, col.dataType])).toEqual([
      ['id', 'integer'],
      ['price', 'number'],
      ['day', 'date'],
      ['at', 'datetime'],
      ['label', 'string'],
    ])
    expect(await c.databases()).toContain('shop')
  })
})

describe('trino over HTTPS with a password (stand-in)', () => {
  let standIn: TrinoStandIn
  beforeAll(async () => {
    trustStandInCertificate()
    standIn = await startTrinoStandIn({ users: { analyst: 'right-password' }, tls: TLS })
  })
  afterAll(() => standIn?.close())

  const creds = (password: string): Credentials => ({
    name: 't',
    host: '127.0.0.1',
    port: standIn.port,
    user: 'analyst',
    password,
    catalog: CATALOG,
    ssl: true,
  })

  it('sends Basic credentials and runs', async () => {
    const c = new TrinoConnector(creds('right-password'), OPTIONS)
    expect((await c.execute('select 42 as x', BASE)).rows).toEqual([{ x: 42 }])
    expect(standIn.posts.at(-1)?.headers.authorization).toBe(
      `Basic ${Buffer.from('analyst:right-password').toString('base64')}`,
    )
  })

  it('401 is DATASOURCE_CONNECTION_ERROR without the password', async () => {
    const c = new TrinoConnector(creds('wrong-password-xyz'), OPTIONS)
    const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(/401/)
    expect(e.message).not.toContain('wrong-password-xyz')
  })
})

describe('trino behind TLS on the default port (443)', () => {
  it('follows the nextUri Trino builds from the Host header, which leaves out :443', async () => {
    const standIn = await startTrinoStandIn({ tls: TLS })
    await standIn.engine.exec('CREATE SCHEMA shop')
    // the connector calls https://localhost:443; this process's fetch connects those calls to the
    // stand-in's port (the Host header stays `localhost`, as a client writes it for port 443)
    const connect = buildConnector({ ca: [...rootCertificates, TLS.cert] })
    const previous = getGlobalDispatcher()
    setGlobalDispatcher(
      new Agent({
        connect: (opts, callback) =>
          connect(
            opts.port === '443' || (opts.port === '' && opts.protocol === 'https:')
              ? { ...opts, hostname: '127.0.0.1', port: String(standIn.port), servername: 'localhost' }
              : opts,
            callback,
          ),
      }),
    )
    try {
      const c = new TrinoConnector(
        { name: 't', host: 'localhost', port: 443, user: 'analyst', catalog: CATALOG, schema: 'shop', ssl: true },
        OPTIONS,
      )
      await c.test()
      expect((await c.execute('select 42 as x', BASE)).rows).toEqual([{ x: 42 }])
      expect(standIn.posts.at(-1)?.headers.host).toBe('localhost')
      expect(standIn.gets.length).toBeGreaterThan(0)
      await c.close()
    } finally {
      setGlobalDispatcher(previous)
      await standIn.close()
    }
  })

  it('compares nextUri with the base URL by origin (default ports and case normalised)', () => {
    expect(sameOrigin('https://trino.example:443', 'https://trino.example/v1/statement/executing/q/1')).toBe(true)
    expect(sameOrigin('http://Trino.Example:80', 'http://trino.example/v1/statement/q/1')).toBe(true)
    expect(sameOrigin('https://trino.example:8443', 'https://trino.example:8443/v1/statement/q/1')).toBe(true)
    expect(sameOrigin('https://trino.example:443', 'http://trino.example/v1/statement/q/1')).toBe(false)
    expect(sameOrigin('https://trino.example:443', 'https://trino.example:8443/v1/statement/q/1')).toBe(false)
    expect(sameOrigin('https://trino.example', 'https://trino.example.evil/v1')).toBe(false)
    expect(sameOrigin('https://trino.example', 'https://trino.example@evil.example/v1')).toBe(false)
    expect(sameOrigin('https://trino.example', 'not a url')).toBe(false)
  })
})

describe('trino against something that is not Trino', () => {
  it("is DATASOURCE_CONNECTION_ERROR, never repeating the other service's HTML", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>internal admin secret-page</html>')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const c = new TrinoConnector({ name: 't', host: '127.0.0.1', port, user: 'u', catalog: 'c' }, OPTIONS)
      const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
      expect(e.message).toMatch(/did not answer as Trino/)
      expect(e.message).not.toContain('secret-page')
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('trino against a server sending nextUri elsewhere', () => {
  it('refuses to follow it (the credentials never go to another address)', async () => {
    const seen: string[] = []
    const server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      const body =
        req.url === '/v1/info'
          ? { nodeVersion: { version: '435' } }
          : { id: 'q1', nextUri: 'http://169.254.169.254/latest/meta-data', stats: { state: 'QUEUED' } }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as AddressInfo).port
      const c = new TrinoConnector({ name: 't', host: '127.0.0.1', port, user: 'u', catalog: 'c' }, OPTIONS)
      const e = expectCode((await caught(c.execute('select 1', BASE))).error, 'DATASOURCE_CONNECTION_ERROR')
      expect(e.message).toMatch(/nextUri for another address/)
      expect(seen).toEqual(['GET /v1/info', 'POST /v1/statement'])
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe('Trino values and types', () => {
  it('keeps integers beyond 2^53 exact (as strings), strings untouched', () => {
    expect(
      parseTrinoJson('{"data":[[9007199254740993,"12345678901234567890",-9223372036854775808,1.5e300,12]]}'),
    ).toEqual({
      data: [['9007199254740993', '12345678901234567890', '-9223372036854775808', 1.5e300, 12]],
    })
    expect(convertValue('9007199254740993', 'bigint')).toBe('9007199254740993')
    expect(convertValue('9007199254740991', 'bigint')).toBe(9007199254740991)
  })

  it('renders zoned timestamps with their offset, naive ones without', () => {
    expect(convertValue('2024-07-01 09:00:00.000 Europe/Paris', 'timestamp(3) with time zone')).toBe(
      '2024-07-01T09:00:00.000+02:00',
    )
    expect(convertValue('2024-01-01 09:00:00.000 UTC', 'timestamp(3) with time zone')).toBe(
      '2024-01-01T09:00:00.000+00:00',
    )
    expect(convertValue('2024-01-01 09:00:00.123456', 'timestamp(6)')).toBe('2024-01-01T09:00:00.123456')
    expect(convertValue('10.50', 'decimal(10,2)')).toBe(10.5)
    expect(convertValue('NaN', 'double')).toBe('NaN')
  })

  it('maps Trino, Athena and Glue type names', () => {
    const cases: [string, string][] = [
      ['bigint', 'integer'],
      ['int', 'integer'],
      ['decimal(10,2)', 'number'],
      ['double', 'number'],
      ['varchar(20)', 'string'],
      ['string', 'string'],
      ['timestamp(3) with time zone', 'datetime'],
      ['date', 'date'],
      ['boolean', 'boolean'],
      ['array(integer)', 'json'],
      ['struct<a:int>', 'json'],
      ['row(a integer)', 'json'],
      ['hyperloglog', 'unknown'],
    ]
    for (const [native, type] of cases) expect(dataTypeOf(native), native).toBe(type)
  })
})
