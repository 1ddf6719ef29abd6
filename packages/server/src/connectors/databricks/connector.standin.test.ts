/**
 * The databricks connector against a LOCAL STAND-IN of the SQL Statement Execution API
 * (src/connectors/databricks/standin: the documented REST protocol, statements run on DuckDB). This
 * proves the transport — auth, submit, poll, chunks, row_limit, cancel, errors — never
 * Databricks' engine; connector.live.test.ts runs against a real workspace when configured.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import { createConnector } from '../registry.js'
import type { Connector, DatabricksCredentials, ExecuteOptions } from '../types.js'
import { DatabricksStandIn } from './standin/server.js'

const TOKEN = 'dapi-standin-secret-token'
const WAREHOUSE = '0123456789abcdef'
const OPTIONS = { connectTimeoutMs: 1500, poolMax: 2 }
const BASE: ExecuteOptions = { params: [], timeoutMs: 10_000, maxRows: 1000 }
const HOSTILE = [
  "'; DROP TABLE t; --",
  'it\'s \\\' `back` "quoted" \\\\',
  ':p1 :p0 $1 ? @p0 {p0:String} /* c */',
  'ünïcødé ✓ 𝄞 中文',
]

let standIn: DatabricksStandIn
const credentials = (over: Partial<DatabricksCredentials> = {}): DatabricksCredentials => ({
  name: 'standin',
  serverHostname: standIn.url,
  httpPath: `/sql/1.0/warehouses/${WAREHOUSE}`,
  token: TOKEN,
  ...over,
})
const open = (over: Partial<DatabricksCredentials> = {}, options = OPTIONS): Connector =>
  createConnector('databricks', credentials(over), options)

/** Polls the stand-in (it hears a cancel asynchronously), at most ~3 s. */
async function eventually<T>(read: () => T, want: T): Promise<T> {
  let value = read()
  for (let i = 0; i < 30 && JSON.stringify(value) !== JSON.stringify(want); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    value = read()
  }
  return value
}

/** The stand-in's log entries since `from`. */
const since = (from: number) => standIn.log.slice(from)

beforeAll(async () => {
  // an inline limit of 2 KiB stands for Databricks' 25 MiB: results past it need EXTERNAL_LINKS
  standIn = await DatabricksStandIn.start({
    token: TOKEN,
    warehouseId: WAREHOUSE,
    chunkRows: 3,
    inlineLimitBytes: 2048,
  })
  await standIn.admin('CREATE TABLE "default".t (id INTEGER, label VARCHAR)')
  await standIn.admin("INSERT INTO \"default\".t VALUES (1, 'a'), (2, 'b')")
})
afterAll(async () => {
  await standIn?.close()
})

describe('databricks connector (against the Statement Execution API stand-in)', () => {
  it('authenticates with the bearer token and submits to the warehouse of the HTTP path', async () => {
    const c = open()
    const from = standIn.log.length
    await c.test()
    const submit = since(from).find((l) => l.method === 'POST' && l.path === '/api/2.0/sql/statements')
    expect(submit?.body).toMatchObject({
      warehouse_id: WAREHOUSE,
      format: 'JSON_ARRAY',
      disposition: 'EXTERNAL_LINKS',
      wait_timeout: '0s',
      on_wait_timeout: 'CONTINUE',
    })
    await c.close()
  })

  it('a result past the inline limit arrives whole through EXTERNAL_LINKS, downloaded without the token', async () => {
    const c = open()
    const from = standIn.log.length
    const result = await c.execute("SELECT range AS n, repeat('x', 40) AS pad FROM range(100)", BASE)
    expect(result.rows).toHaveLength(100)
    expect(result.rows[99]).toEqual({ n: 99, pad: 'x'.repeat(40) })
    expect(result.truncated).toBe(false)
    const downloads = since(from).filter((l) => l.path.startsWith('/presigned/'))
    expect(downloads).toHaveLength(34) // 100 rows in chunks of 3, one presigned link each
    await c.close()
  })

  it('a result larger than the row limit stops fetching: no chunk or link past the limit', async () => {
    const c = open()
    const from = standIn.log.length
    const result = await c.execute("SELECT range AS n, repeat('x', 40) AS pad FROM range(100)", { ...BASE, maxRows: 7 })
    expect(result.rows.map((r) => r.n)).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(result.truncated).toBe(true)
    const log = since(from)
    // 8 rows (the limit and one to know it is truncated) are chunks 0, 1 and 2 of 3 rows each
    expect(log.filter((l) => l.path.startsWith('/presigned/'))).toHaveLength(3)
    const chunkReads = log
      .filter((l) => /\/result\/chunks\/\d+$/.test(l.path))
      .map((l) => Number(l.path.split('/').at(-1)))
    expect(Math.max(...chunkReads)).toBeLessThanOrEqual(2)
    await c.close()
  })

  it('a wrong token is DATASOURCE_CONNECTION_ERROR naming the refusal, never the token', async () => {
    const c = open({ token: 'wrong-token-xyz' })
    const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(/access token was refused \(HTTP 401/)
    expect(e.message).not.toContain('wrong-token-xyz')
    await c.close()
  })

  it('binds hostile strings as typed named parameters, never in the statement text', async () => {
    const c = open()
    const from = standIn.log.length
    const at = new Date('2024-03-04T05:06:07.000Z')
    const result = await c.execute(
      'SELECT :p0 AS v0, :p1 AS v1, :p2 AS v2, :p3 AS v3, :p4 AS n, :p5 AS b, :p6 AS z, :p7 AS at, :p0 AS again',
      { ...BASE, params: [...HOSTILE, 42, true, null, at] },
    )
    expect(result.rows).toEqual([
      {
        ...Object.fromEntries(HOSTILE.map((v, i) => [`v${i}`, v])),
        n: 42,
        b: true,
        z: null,
        at: '2024-03-04T05:06:07.000Z',
        again: HOSTILE[0],
      },
    ])
    const body = since(from).find((l) => l.path === '/api/2.0/sql/statements')?.body as {
      statement: string
      parameters: unknown[]
    }
    for (const value of HOSTILE) expect(body.statement).not.toContain(value)
    expect(body.parameters).toEqual([
      ...HOSTILE.map((value, i) => ({ name: `p${i}`, value, type: 'STRING' })),
      { name: 'p4', value: '42', type: 'BIGINT' },
      { name: 'p5', value: 'true', type: 'BOOLEAN' },
      { name: 'p6' },
      { name: 'p7', value: '2024-03-04T05:06:07.000Z', type: 'TIMESTAMP' },
    ])
    // the hostile values compare as data: no row matches, the table is still there
    for (const value of HOSTILE) {
      const n = await c.execute('SELECT count(*) AS n FROM t WHERE label = :p0', { ...BASE, params: [value] })
      expect(n.rows).toEqual([{ n: 0 }])
    }
    expect((await c.execute('SELECT count(*) AS n FROM t', BASE)).rows).toEqual([{ n: 2 }])
    await c.close()
  })

  it('reads a result across chunks by next_chunk_internal_link', async () => {
    const c = open()
    const from = standIn.log.length
    const result = await c.execute('SELECT range AS g FROM range(10) ORDER BY g', BASE)
    expect(result.rows.map((r) => r.g)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(result.truncated).toBe(false)
    const chunks = since(from).filter((l) => /\/result\/chunks\/\d+$/.test(l.path))
    expect(chunks.map((l) => l.path.replace(/^.*\/chunks\//, ''))).toEqual(['1', '2', '3'])
    await c.close()
  })

  it('caps rows with row_limit = maxRows + 1 and reads no chunk it does not need', async () => {
    const c = open()
    const from = standIn.log.length
    const capped = await c.execute('SELECT range AS g FROM range(100)', { ...BASE, maxRows: 4 })
    expect([capped.rows.length, capped.truncated]).toEqual([4, true])
    const log = since(from)
    expect(log.find((l) => l.path === '/api/2.0/sql/statements')?.body).toMatchObject({ row_limit: 5 })
    // chunks of 3: chunk 0 and 1 hold the 5 rows; there is no chunk 2 to read
    expect(log.filter((l) => /\/result\/chunks\//.test(l.path)).map((l) => l.path.slice(-1))).toEqual(['1'])
    const exact = await c.execute('SELECT range AS g FROM range(4)', { ...BASE, maxRows: 4 })
    expect([exact.rows.length, exact.truncated]).toEqual([4, false])
    await c.close()
  })

  it('a timeout cancels the statement on the service (CANCELED) and is QUERY_TIMEOUT', async () => {
    const c = open()
    const marker = `slow_${Date.now()}`
    const from = standIn.log.length
    const { error } = await caught(
      c.execute(`SELECT count(*) AS c, '${marker}' AS m FROM range(1000000000000)`, { ...BASE, timeoutMs: 300 }),
    )
    expectCode(error, 'QUERY_TIMEOUT')
    expect(await eventually(() => standIn.states(marker), ['CANCELED'])).toEqual(['CANCELED'])
    expect(since(from).some((l) => l.method === 'POST' && l.path.endsWith('/cancel'))).toBe(true)
    await c.close()
  })

  it('JSON_ARRAY strings become JSON-safe values by the manifest types', async () => {
    const c = open()
    const result = await c.execute(
      `SELECT CAST(9007199254740993 AS BIGINT) AS big, CAST(7 AS INTEGER) AS small, CAST(10.25 AS DECIMAL(10, 2)) AS dec,
              CAST(1.5 AS DOUBLE) AS dbl, DATE '2024-01-02' AS d, TIMESTAMP '2024-01-02 03:04:05' AS ntz,
              CAST('2024-01-02 03:04:05+00' AS TIMESTAMPTZ) AS ts, false AS b, CAST(NULL AS VARCHAR) AS n`,
      BASE,
    )
    expect(result.rows).toEqual([
      {
        big: '9007199254740993',
        small: 7,
        dec: 10.25,
        dbl: 1.5,
        d: '2024-01-02',
        ntz: '2024-01-02T03:04:05',
        ts: '2024-01-02T03:04:05.000Z',
        b: false,
        n: null,
      },
    ])
    expect(result.columns.map((col) => col.dataType)).toEqual([
      'integer',
      'integer',
      'number',
      'number',
      'date',
      'datetime',
      'datetime',
      'boolean',
      'string',
    ])
    await c.close()
  })

  it('a statement that FAILED is QUERY_ERROR with the service message', async () => {
    const c = open()
    const e = expectCode((await caught(c.execute('SELECT * FROM no_such_table', BASE))).error, 'QUERY_ERROR')
    expect(e.message).toMatch(/no_such_table/)
    await c.close()
  })

  it('an unknown warehouse, an all-purpose cluster path and an unknown tenant schema are DATASOURCE_CONNECTION_ERROR', async () => {
    const unknown = open({ httpPath: '/sql/1.0/warehouses/ffffffffffffffff' })
    expect(expectCode((await caught(unknown.test())).error, 'DATASOURCE_CONNECTION_ERROR').message).toMatch(/HTTP 404/)
    await unknown.close()
    const from = standIn.log.length
    const cluster = open({ httpPath: 'sql/protocolv1/o/1234567890/0123-456789-abcdefgh' })
    const e = expectCode((await caught(cluster.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    expect(e.message).toMatch(/all-purpose cluster.*SQL warehouse/)
    expect(since(from)).toEqual([]) // refused before anything is sent
    await cluster.close()
    const c = open()
    const tenant = await caught(c.execute('SELECT 1 AS x', { ...BASE, database: 'no_such_schema' }))
    expect(expectCode(tenant.error, 'DATASOURCE_CONNECTION_ERROR').message).toMatch(/no schema "no_such_schema"/)
    await c.close()
  })

  it('a warehouse still starting (PENDING) is polled through, and test() accepts it within the connect timeout', async () => {
    const slow = await DatabricksStandIn.start({ token: TOKEN, warehouseId: WAREHOUSE, pendingMs: 400 })
    try {
      const c = createConnector('databricks', credentials({ serverHostname: slow.url }), OPTIONS)
      expect((await c.execute('SELECT 1 AS x', BASE)).rows).toEqual([{ x: 1 }])
      const starting = await DatabricksStandIn.start({ token: TOKEN, warehouseId: WAREHOUSE, pendingMs: 60_000 })
      try {
        const s = createConnector('databricks', credentials({ serverHostname: starting.url }), {
          ...OPTIONS,
          connectTimeoutMs: 600,
        })
        await expect(s.test()).resolves.toBeUndefined()
        expect(await eventually(() => starting.states('SELECT 1 AS one'), ['CANCELED'])).toEqual(['CANCELED'])
        await s.close()
      } finally {
        await starting.close()
      }
      await c.close()
    } finally {
      await slow.close()
    }
  })

  it('an address that is not the API is DATASOURCE_CONNECTION_ERROR without repeating its page', async () => {
    const pages: Server[] = []
    try {
      for (const status of [200, 401, 500]) {
        const server = createServer((_req, res) => {
          res.writeHead(status, { 'Content-Type': 'text/html' })
          res.end('<html><body>internal admin page SECRET-BODY</body></html>')
        })
        pages.push(server)
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
        const port = (server.address() as AddressInfo).port
        const c = open({ serverHostname: `http://127.0.0.1:${port}` })
        const e = expectCode((await caught(c.test())).error, 'DATASOURCE_CONNECTION_ERROR')
        expect(e.message).not.toMatch(/SECRET-BODY|<html/)
        expect(e.message).not.toContain(TOKEN)
        await c.close()
      }
    } finally {
      for (const server of pages) server.close()
    }
  })
})
