/**
 * The snowflake connector through the real snowflake-sdk against the local STAND-IN of
 * Snowflake's session protocol (src/connectors/snowflake/standin/server.ts, SQL on DuckDB). This proves
 * the transport — logins both ways, binds, polling, chunks, abort requests, error codes — not
 * Snowflake's SQL: it is not a live test (connector.live.test.ts is).
 */
import { generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import type { ExecuteOptions, SnowflakeCredentials } from '../types.js'
import { endpointOf } from './config.js'
import { SnowflakeConnector } from './connector.js'
import { SnowflakeStandIn } from './standin/server.js'

const PASSWORD = 'pw-Secret-42'
const PASSPHRASE = 'key-passphrase-7'
const BASE: ExecuteOptions = { params: [], timeoutMs: 10_000, maxRows: 1000 }
const OPTIONS = { connectTimeoutMs: 3000, poolMax: 2 }

const keyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 })
const good = keyPair()
const other = keyPair()
const publicPem = good.publicKey.export({ type: 'spki', format: 'pem' }).toString()
const plainPem = good.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const encryptedPem = good.privateKey
  .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: PASSPHRASE })
  .toString()
const otherPem = other.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

let standIn: SnowflakeStandIn
const open: SnowflakeConnector[] = []

const base = (): SnowflakeCredentials => ({
  name: 'standin',
  host: standIn.url,
  username: 'reader',
  role: 'ANALYST',
  warehouse: 'WH',
  database: 'SALES',
  schema: 'PUBLIC',
  service: 'username/password',
  password: PASSWORD,
})
const keyCredentials = (privateKey: string, privateKeyPass?: string): SnowflakeCredentials => {
  const { password: _, ...rest } = base()
  return {
    ...rest,
    service: 'Key-pair authentication',
    privateKey,
    ...(privateKeyPass === undefined ? {} : { privateKeyPass }),
  }
}
const connect = (credentials: SnowflakeCredentials = base()) => {
  const c = new SnowflakeConnector(credentials, OPTIONS)
  open.push(c)
  return c
}
const codeOf = (error: unknown) => {
  expect(error).toBeInstanceOf(ApiError)
  return (error as ApiError).code
}

beforeAll(async () => {
  standIn = await SnowflakeStandIn.start({
    users: [{ name: 'reader', password: PASSWORD, publicKeyPem: publicPem }],
    holdMs: 50,
    chunkRows: 50,
  })
  await standIn.createDatabase('SALES', ['PUBLIC'])
  await standIn.createTable(
    'SALES',
    'PUBLIC',
    'orders',
    [
      { name: 'id', type: 'NUMBER', precision: 38, scale: 0 },
      { name: 'client_id', type: 'TEXT' },
      { name: 'amount', type: 'NUMBER', precision: 12, scale: 2 },
      { name: 'ratio', type: 'FLOAT' },
      { name: 'ordered_on', type: 'DATE' },
      { name: 'created_at', type: 'TIMESTAMP_NTZ' },
      { name: 'paid', type: 'BOOLEAN' },
    ],
    [
      [1, 'acme', 10.5, 0.25, '2024-03-04', '2024-03-04 05:06:07.123456', true],
      [2, "o'brien", 20.25, 1.5, '2024-12-31', '2024-12-31 23:59:59', false],
    ],
  )
})

afterAll(async () => {
  for (const c of open) await c.close()
  await standIn?.close()
})

describe('snowflake connector against the stand-in', () => {
  it('logs in with a password and answers a query with bound values', async () => {
    const c = connect()
    await c.test()
    const result = await c.execute('SELECT count(*) AS "n" FROM "PUBLIC"."orders" WHERE "client_id" = :1', {
      ...BASE,
      params: ["o'brien"],
    })
    expect(result.rows).toEqual([{ n: 1 }])
    expect(standIn.logins.at(-1)).toEqual({ user: 'reader', authenticator: 'SNOWFLAKE' })
  })

  it('logs in with a key pair: plain and encrypted PEM (the JWT is verified against the public key)', async () => {
    await connect(keyCredentials(plainPem)).test()
    expect(standIn.logins.at(-1)).toEqual({ user: 'reader', authenticator: 'SNOWFLAKE_JWT' })
    await connect(keyCredentials(encryptedPem, PASSPHRASE)).test()
    expect(standIn.logins.at(-1)).toEqual({ user: 'reader', authenticator: 'SNOWFLAKE_JWT' })
  })

  it('refuses a key that is not the user’s, and a wrong passphrase, as connection errors without the key', async () => {
    const wrongKey = (await caught(connect(keyCredentials(otherPem)).test())).error as ApiError
    expect(codeOf(wrongKey)).toBe('DATASOURCE_CONNECTION_ERROR')
    expect(wrongKey.message).toMatch(/JWT token is invalid/)
    const wrongPass = (await caught(connect(keyCredentials(encryptedPem, 'not-the-passphrase')).test()))
      .error as ApiError
    expect(codeOf(wrongPass)).toBe('DATASOURCE_CONNECTION_ERROR')
    for (const e of [wrongKey, wrongPass]) {
      expect(e.message).not.toContain('PRIVATE KEY')
      expect(e.message).not.toContain(PASSPHRASE)
    }
  })

  it('refuses a private key that is not PEM as a connection error (the SDK throws on it before login)', async () => {
    for (const [key, pass] of [
      ['+^j', '{I/4'],
      ['not a key', undefined],
    ] as const) {
      const e = (await caught(connect(keyCredentials(key, pass)).test())).error as ApiError
      expect(codeOf(e)).toBe('DATASOURCE_CONNECTION_ERROR')
      expect(e.message).toMatch(/PEM-formatted private key/)
      if (pass !== undefined) expect(e.message).not.toContain(pass)
    }
  })

  it('refuses a wrong password with Snowflake’s reason, never the password', async () => {
    const e = (await caught(connect({ ...base(), password: 'wrong-password-xyz' }).test())).error as ApiError
    expect(codeOf(e)).toBe('DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(/Incorrect username or password/)
    expect(e.message).not.toContain('wrong-password-xyz')
  })

  it('returns hostile strings as data, bound in the query request and never spliced', async () => {
    const hostile = [
      "'; DROP TABLE orders; --",
      "back\\slash \\' quote",
      ':1 ? $1 {p0:String} @p0',
      '/* c */ -- d ; SELECT 1',
      'ünïcødé ✓ 𝄞',
    ]
    const c = connect()
    const sql = `SELECT ${hostile.map((_, i) => `:${i + 1} AS "v${i}"`).join(', ')}`
    const { rows } = await c.execute(sql, { ...BASE, params: hostile })
    expect(rows).toEqual([Object.fromEntries(hostile.map((v, i) => [`v${i}`, v]))])
    const sent = standIn.statements.at(-1) ?? ''
    for (const v of hostile) expect(sent).not.toContain(v)
    const count = await c.execute('SELECT count(*) AS "n" FROM "PUBLIC"."orders"', BASE)
    expect(count.rows).toEqual([{ n: 2 }])
  })

  it('refuses two statements in one request (000008) as a query error', async () => {
    const { error } = await caught(connect().execute('SELECT 1; SELECT 2', BASE))
    expect(codeOf(error)).toBe('QUERY_ERROR')
    expect((error as Error).message).toMatch(/statement count 2/)
  })

  it('reports a bad statement as QUERY_ERROR with Snowflake’s message', async () => {
    const { error } = await caught(connect().execute('SELECT nope FROM "PUBLIC"."missing"', BASE))
    expect(codeOf(error)).toBe('QUERY_ERROR')
    expect((error as Error).message).toMatch(/SQL compilation error/)
  })

  it('caps rows where they are read: later result chunks are never fetched', async () => {
    const c = connect()
    const before = standIn.chunkDownloads
    const capped = await c.execute('SELECT range AS "g" FROM range(5000)', { ...BASE, maxRows: 10 })
    expect([capped.rows.length, capped.truncated]).toEqual([10, true])
    expect(standIn.chunkDownloads - before).toBe(0) // the 10 rows came inline
    const more = await c.execute('SELECT range AS "g" FROM range(5000)', { ...BASE, maxRows: 120 })
    expect([more.rows.length, more.truncated, more.rows.at(-1)]).toEqual([120, true, { g: 119 }])
    expect(standIn.chunkDownloads - before).toBe(2) // rows 50–119: two chunks of 50 of 99
    const all = await c.execute('SELECT range AS "g" FROM range(120)', { ...BASE, maxRows: 120 })
    expect([all.rows.length, all.truncated]).toEqual([120, false])
  })

  it('polls for a result the server answers as in progress', async () => {
    const polling = await SnowflakeStandIn.start({ users: [{ name: 'reader', password: PASSWORD }], alwaysPoll: true })
    try {
      await polling.createDatabase('SALES', ['PUBLIC'])
      const c = new SnowflakeConnector({ ...base(), host: polling.url }, OPTIONS)
      try {
        const { rows } = await c.execute('SELECT :1 AS "v"', { ...BASE, params: ['polled'] })
        expect(rows).toEqual([{ v: 'polled' }])
        expect(polling.polls).toBeGreaterThan(0)
      } finally {
        await c.close()
      }
    } finally {
      await polling.close()
    }
  })

  it('times out through STATEMENT_TIMEOUT_IN_SECONDS (000630) as QUERY_TIMEOUT', async () => {
    const c = connect()
    const marker = 'marker_timeout_server'
    const { error } = await caught(
      c.execute(`SELECT count(*) AS "c", '${marker}' AS "m" FROM range(1000000000000)`, { ...BASE, timeoutMs: 1000 }),
    )
    expect(codeOf(error)).toBe('QUERY_TIMEOUT')
    expect(standIn.running(marker)).toBe(0)
    expect(standIn.statements).toContain('ALTER SESSION SET STATEMENT_TIMEOUT_IN_SECONDS = 1')
  })

  it('sends an abort request when the server’s own limit does not answer, and for an aborted signal', async () => {
    const deaf = await SnowflakeStandIn.start({
      users: [{ name: 'reader', password: PASSWORD }],
      holdMs: 50,
      honourStatementTimeout: false,
    })
    try {
      await deaf.createDatabase('SALES', ['PUBLIC'])
      const c = new SnowflakeConnector({ ...base(), host: deaf.url }, OPTIONS)
      try {
        const slow = (m: string) => `SELECT count(*) AS "c", '${m}' AS "m" FROM range(1000000000000)`
        const timedOut = await caught(c.execute(slow('marker_deadline'), { ...BASE, timeoutMs: 1000 }))
        expect(codeOf(timedOut.error)).toBe('QUERY_TIMEOUT')
        expect(deaf.aborts.some((s) => s.includes('marker_deadline'))).toBe(true)
        expect(deaf.running('marker_deadline')).toBe(0)

        const controller = new AbortController()
        const running = c.execute(slow('marker_signal'), { ...BASE, timeoutMs: 30_000, signal: controller.signal })
        setTimeout(() => controller.abort(), 300)
        const aborted = await caught(running)
        expect(codeOf(aborted.error)).toBe('QUERY_ERROR')
        expect((aborted.error as Error).message).toMatch(/cancelled/)
        expect(deaf.aborts.some((s) => s.includes('marker_signal'))).toBe(true)
        expect((await c.execute('SELECT 1 AS "one"', BASE)).rows).toEqual([{ one: 1 }])
      } finally {
        await c.close()
      }
    } finally {
      await deaf.close()
    }
  })

  it('introspects the schema with mapped types and returns JSON-safe values', async () => {
    const c = connect()
    const tables = await c.introspect()
    expect(tables.map((t) => [t.schema, t.name])).toEqual([['PUBLIC', 'orders']])
    expect(tables[0]?.columns.map((col) => [col.name, col.nativeType, col.dataType])).toEqual([
      ['id', 'NUMBER', 'integer'],
      ['client_id', 'TEXT', 'string'],
      ['amount', 'NUMBER', 'number'],
      ['ratio', 'FLOAT', 'number'],
      ['ordered_on', 'DATE', 'date'],
      ['created_at', 'TIMESTAMP_NTZ', 'datetime'],
      ['paid', 'BOOLEAN', 'boolean'],
    ])
    const { rows, columns } = await c.execute(
      'SELECT *, CAST(9007199254740993 AS BIGINT) AS "big" FROM "PUBLIC"."orders" ORDER BY "id"',
      BASE,
    )
    expect(columns.map((col) => col.dataType)).toEqual([
      'integer',
      'string',
      'number',
      'number',
      'date',
      'datetime',
      'boolean',
      'integer',
    ])
    expect(rows[0]).toEqual({
      id: 1,
      client_id: 'acme',
      amount: 10.5,
      ratio: 0.25,
      ordered_on: '2024-03-04',
      created_at: '2024-03-04T05:06:07.123456',
      paid: true,
      big: '9007199254740993',
    })
  })
})

describe('snowflake host (the endpoint override)', () => {
  it('takes an account host, host:port or an http(s) URL', () => {
    expect(endpointOf('xy12345.eu-west-1.snowflakecomputing.com')).toEqual({
      accessUrl: 'https://xy12345.eu-west-1.snowflakecomputing.com',
      host: 'xy12345.eu-west-1.snowflakecomputing.com',
      account: 'xy12345',
    })
    expect(endpointOf('acme-prod.privatelink.snowflakecomputing.com:8443').accessUrl).toBe(
      'https://acme-prod.privatelink.snowflakecomputing.com:8443',
    )
    expect(endpointOf('http://127.0.0.1:4444/').accessUrl).toBe('http://127.0.0.1:4444')
    expect(() => endpointOf('https://user:pw@host')).toThrow(expect.objectContaining({ status: 400 }))
  })
})
