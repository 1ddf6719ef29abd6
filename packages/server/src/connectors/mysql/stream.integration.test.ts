/**
 * `MysqlConnector.stream` against the live MariaDB: results larger than one batch handed over
 * batch by batch with `execute`'s values, the row cap with `truncated`, the session (time zone,
 * read only, tenant database), the deadline while the caller is slow and the server's own time
 * limit, an abort, an error the server sends mid-stream, and the connection killed mid-stream;
 * after each failure the connector still answers.
 */
import { randomBytes } from 'node:crypto'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import { requireService } from '../../../test/helpers/services.js'
import { asArrays } from '../shared/stream.js'
import type { ConnectorOptions, MysqlCredentials, RowBatch, StreamOptions } from '../types.js'
import { MysqlConnector } from './connector.js'

const up = await requireService('MariaDB', '127.0.0.1', 3306)
const suffix = randomBytes(4).toString('hex')
const tenant = `strata_stream_${suffix}`
const options: ConnectorOptions = { connectTimeoutMs: 1500, poolMax: 2 }
const credentials: MysqlCredentials = {
  name: 'mariadb',
  host: '127.0.0.1',
  port: 3306,
  user: 'root',
  password: '',
  database: 'test',
}
const base = { params: [] as unknown[], timeoutMs: 10_000, maxRows: 1_000_000, batchRows: 1000 }

/**
 * `n` rows numbered from 1: an int, a text, a DATETIME and a DECIMAL per row, from MariaDB's
 * Sequence engine (`seq_1_to_<n>`, no table to fill; a recursive CTE stops at
 * max_recursive_iterations, 1000 here).
 */
const series = (n: number, marker = 'series') =>
  `select seq as n, concat('${marker} ', seq) as label, timestamp('2024-01-01 00:00:00') + interval seq minute as at,
          cast(seq / 4 as decimal(10, 2)) as amount
     from seq_1_to_${n}`

async function admin<T>(work: (c: mysql.Connection) => Promise<T>): Promise<T> {
  const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '' })
  try {
    return await work(c)
  } finally {
    await c.end()
  }
}

/** Runs the stream, collecting every batch handed over. */
async function collect(connector: MysqlConnector, sql: string, extra: Partial<StreamOptions> = {}) {
  const batches: RowBatch[] = []
  const result = await connector.stream(sql, { ...base, ...extra }, async (b) => {
    batches.push(b)
  })
  return { result, batches }
}

describe.skipIf(!up)('mysql connector stream (live MariaDB, 127.0.0.1:3306)', () => {
  const connector = new MysqlConnector(credentials, options)
  const stillAnswers = async () => expect((await connector.execute('select 1 as one', base)).rows).toEqual([{ one: 1 }])

  beforeAll(async () => {
    await admin(async (c) => {
      await c.query(`create database ${tenant}`)
      await c.query(`create table ${tenant}.accounts (label varchar(20))`)
      await c.query(`insert into ${tenant}.accounts values ('tenant row')`)
    })
  })

  afterAll(async () => {
    await connector.close()
    await admin((c) => c.query(`drop database if exists ${tenant}`))
  })

  it('hands a result larger than one batch over in batches, with the values and columns of execute()', async () => {
    const sql = series(12_345)
    const { result, batches } = await collect(connector, sql)
    const whole = await connector.execute(sql, base)
    expect(batches.map((b) => b.rows.length)).toEqual([...Array.from({ length: 12 }, () => 1000), 345])
    expect(batches.flatMap((b) => b.rows)).toEqual(asArrays(whole.columns, whole.rows))
    expect(batches[0]?.columns).toEqual(whole.columns)
    expect(result).toEqual({ columns: whole.columns, rows: 12_345, truncated: false })
    // DATETIME as ISO text, DECIMAL as a number, as execute converts them
    expect(whole.rows[0]).toEqual({ n: 1, label: 'series 1', at: '2024-01-01T00:01:00', amount: 0.25 })
  })

  it('the row cap: maxRows rows handed over, truncated; exactly maxRows is not truncated; none: no batch', async () => {
    const capped = await collect(connector, series(5000), { maxRows: 2500 })
    expect(capped.batches.map((b) => b.rows.length)).toEqual([1000, 1000, 500])
    expect(capped.result).toMatchObject({ rows: 2500, truncated: true })
    const exact = await collect(connector, series(2500), { maxRows: 2500 })
    expect(exact.result).toMatchObject({ rows: 2500, truncated: false })
    const none = await collect(connector, `${series(10)} where seq > 10`)
    expect(none.batches).toEqual([])
    expect(none.result).toEqual({
      columns: [
        { name: 'n', dataType: expect.any(String) },
        { name: 'label', dataType: 'string' },
        { name: 'at', dataType: 'datetime' },
        { name: 'amount', dataType: 'number' },
      ],
      rows: 0,
      truncated: false,
    })
  })

  it("runs in the session execute() sets: the request's time zone, read only, the tenant's database", async () => {
    const session = 'select @@session.time_zone as tz, @@session.tx_read_only as ro, database() as db'
    const streamed = await collect(connector, session, { timezone: 'Asia/Tokyo' })
    const executed = await connector.execute(session, { ...base, timezone: 'Asia/Tokyo' })
    expect(streamed.batches[0]?.rows).toEqual(asArrays(executed.columns, executed.rows))
    expect(executed.rows[0]).toMatchObject({ ro: 1, db: 'test' })
    expect(String(executed.rows[0]?.tz)).toMatch(/^(Asia\/Tokyo|\+09:00)$/)
    const own = await collect(connector, 'select label from accounts', { database: tenant })
    expect(own.batches[0]?.rows).toEqual([['tenant row']])
  })

  it('a caller slower than timeoutMs: QUERY_TIMEOUT between batches, the rest never handed over', async () => {
    let handled = 0
    const { error, ms } = await caught(
      connector.stream(series(50_000), { ...base, timeoutMs: 300 }, async () => {
        handled++
        await new Promise((resolve) => setTimeout(resolve, 200))
      }),
    )
    expectCode(error, 'QUERY_TIMEOUT')
    // our deadline: timeoutMs and the cancel grace (1 s), checked after the batch in hand
    expect(ms).toBeLessThan(3000)
    expect(handled).toBeGreaterThan(0)
    expect(handled).toBeLessThan(50)
    await stillAnswers()
  })

  it("a statement past timeoutMs on the server: QUERY_TIMEOUT by the server's own limit", async () => {
    const { error, ms } = await caught(collect(connector, 'select sleep(5) as s', { timeoutMs: 400 }))
    expectCode(error, 'QUERY_TIMEOUT')
    expect(ms).toBeLessThan(1500)
    await stillAnswers()
  })

  it('an abort mid-stream: the query is cancelled, nothing more is handed over', async () => {
    const abort = new AbortController()
    let handled = 0
    const { error } = await caught(
      connector.stream(series(50_000), { ...base, signal: abort.signal }, async () => {
        if (++handled === 2) abort.abort()
      }),
    )
    expectCode(error, 'QUERY_ERROR')
    expect(handled).toBe(2)
    await stillAnswers()
  })

  it('an error the server sends mid-stream: QUERY_ERROR with its message, after the rows before it', async () => {
    // the correlated subquery returns two rows at n = 15000 only: the rows before it are sent first
    const sql = 'select s.seq, (select 1 union all select 2 from dual where s.seq = 15000) as x from seq_1_to_20000 s'
    let handled = 0
    const { error } = await caught(
      connector.stream(sql, base, async (b) => {
        handled += b.rows.length
      }),
    )
    expect(expectCode(error, 'QUERY_ERROR').message).toMatch(/more than 1 row/)
    expect(handled).toBeGreaterThan(0)
    expect(handled).toBeLessThan(15_000)
    await stillAnswers()
  })

  it('a handler that fails: its own error, and the connection is not reused', async () => {
    const failure = new Error('the engine refused the batch')
    const { error } = await caught(
      connector.stream(series(50_000), base, async () => {
        throw failure
      }),
    )
    expect(expectCode(error, 'QUERY_ERROR').cause).toBe(failure)
    await stillAnswers()
  })

  it('the server waits while a batch is handled; the connection killed mid-stream: DATASOURCE_CONNECTION_ERROR', async () => {
    const marker = `strata_killed_${suffix}`
    let handled = 0
    let running = 0
    const { error } = await caught(
      // about 20 MB: the server is still sending when the connection is killed
      connector.stream(
        `${series(200_000, marker).replace('as label', "as label, repeat('x', 100) as pad")}`,
        base,
        async () => {
          if (++handled !== 2) return
          await admin(async (c) => {
            const [rows] = await c.query<mysql.RowDataPacket[]>(
              "select id from information_schema.processlist where info like ? and info not like '%processlist%'",
              [`%${marker}%`],
            )
            // still running at the second batch of about 20 MB: the server waits for our reads
            running = rows.length
            for (const r of rows) await c.query(`kill ${Number(r.id)}`)
          })
        },
      ),
    )
    expectCode(error, 'DATASOURCE_CONNECTION_ERROR')
    expect(running).toBe(1)
    expect(handled).toBeLessThan(200)
    await stillAnswers()
  })
})
