/**
 * `ClickhouseConnector.stream` on a current ClickHouse engine (chdb behind its HTTP front,
 * src/connectors/clickhouse/standin): results larger than one batch handed over batch by batch
 * with `execute`'s values, the row cap with `truncated`, the session time zone and the tenant
 * database, a caller slower than the deadline, an abort, an engine error; after each failure
 * the connector still answers. The front computes a whole result before sending it, so an
 * engine error arrives before the first row here, never in the middle of the response.
 * Skipped loudly without chdb (and fails under CI=true).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { expectCode } from '../../../test/helpers/expect-error.js'
import { asArrays } from '../shared/stream.js'
import type { RowBatch } from '../types.js'
import { ClickhouseConnector } from './connector.js'
import { type ChdbFront, requireChdb, startChdbFront } from './standin/process.js'

const hasChdb = requireChdb('the clickhouse connector stream on a current ClickHouse (chdb)')
const base = { params: [] as unknown[], timeoutMs: 10_000, maxRows: 1_000_000, batchRows: 1000 }
const tenant = `strata_stream_${randomBytes(4).toString('hex')}`

/** `n` rows numbered from 0: an integer, a text and a DateTime per row. */
const series = (n: number) =>
  `SELECT number AS n, concat('row ', toString(number)) AS label, toDateTime(1704067200 + number * 60, 'UTC') AS at
     FROM system.numbers LIMIT ${n}`

describe.skipIf(!hasChdb)('clickhouse connector stream on a current ClickHouse engine (chdb)', () => {
  let front: ChdbFront
  let connector: ClickhouseConnector
  const collect = async (sql: string, extra: object = {}) => {
    const batches: RowBatch[] = []
    const result = await connector.stream(sql, { ...base, ...extra }, async (b) => {
      batches.push(b)
    })
    return { result, batches }
  }
  const stillAnswers = async () => expect((await connector.execute('SELECT 1 AS one', base)).rows).toEqual([{ one: 1 }])

  beforeAll(async () => {
    front = await startChdbFront()
    await front.admin(`CREATE DATABASE ${tenant}`)
    await front.admin(`CREATE TABLE ${tenant}.accounts (label String) ENGINE = MergeTree ORDER BY label`)
    await front.admin(`INSERT INTO ${tenant}.accounts VALUES ('tenant row')`)
    connector = new ClickhouseConnector(
      { name: 'chdb', host: '127.0.0.1', port: front.port, user: 'default', password: '' },
      { connectTimeoutMs: 5000, poolMax: 2 },
    )
  }, 120_000)
  afterAll(async () => {
    await connector?.close()
    await front?.admin(`DROP DATABASE IF EXISTS ${tenant}`).catch(() => undefined)
    await front?.stop()
  })

  it('hands a result larger than one batch over in batches, with the values and columns of execute()', async () => {
    const sql = series(12_345)
    const { result, batches } = await collect(sql)
    const whole = await connector.execute(sql, base)
    expect(batches.map((b) => b.rows.length)).toEqual([...Array.from({ length: 12 }, () => 1000), 345])
    expect(batches.flatMap((b) => b.rows)).toEqual(asArrays(whole.columns, whole.rows))
    expect(batches[0]?.columns).toEqual(whole.columns)
    expect(result).toEqual({ columns: whole.columns, rows: 12_345, truncated: false })
    expect(whole.rows[1]).toEqual({ n: 1, label: 'row 1', at: '2024-01-01T00:01:00' })
  })

  it('the row cap: maxRows rows handed over, truncated; exactly maxRows is not truncated; none: no batch', async () => {
    const capped = await collect(series(5000), { maxRows: 2500 })
    expect(capped.batches.map((b) => b.rows.length)).toEqual([1000, 1000, 500])
    expect(capped.result).toMatchObject({ rows: 2500, truncated: true })
    expect((await collect(series(2500), { maxRows: 2500 })).result).toMatchObject({ rows: 2500, truncated: false })
    const none = await collect(series(0))
    expect(none.batches).toEqual([])
    expect(none.result).toMatchObject({ rows: 0, truncated: false })
  })

  it("runs with execute()'s settings: the session time zone, the tenant's database", async () => {
    const sql = 'SELECT toDateTime(1704067200) AS t, timezone() AS tz, currentDatabase() AS db'
    const streamed = await collect(sql, { timezone: 'Asia/Tokyo' })
    const executed = await connector.execute(sql, { ...base, timezone: 'Asia/Tokyo' })
    expect(streamed.batches[0]?.rows).toEqual(asArrays(executed.columns, executed.rows))
    expect(executed.rows[0]).toMatchObject({ t: '2024-01-01T09:00:00', db: 'default' })
    const own = await collect('SELECT label FROM accounts', { database: tenant })
    expect(own.batches[0]?.rows).toEqual([['tenant row']])
  })

  it('a caller slower than timeoutMs: QUERY_TIMEOUT between batches, the rest never handed over', async () => {
    let handled = 0
    const { error, ms } = await caught(
      connector.stream(series(100_000), { ...base, timeoutMs: 300 }, async () => {
        handled++
        await new Promise((resolve) => setTimeout(resolve, 200))
      }),
    )
    expectCode(error, 'QUERY_TIMEOUT')
    // our deadline: timeoutMs and the grace for the server's whole seconds (1.5 s), checked after the batch in hand
    expect(ms).toBeLessThan(4000)
    expect(handled).toBeGreaterThan(0)
    expect(handled).toBeLessThan(100)
    await stillAnswers()
  })

  it('an abort mid-stream: the query is cancelled, nothing more is handed over', async () => {
    const abort = new AbortController()
    let handled = 0
    const { error } = await caught(
      connector.stream(series(100_000), { ...base, signal: abort.signal }, async () => {
        if (++handled === 2) abort.abort()
      }),
    )
    expectCode(error, 'QUERY_ERROR')
    expect(handled).toBe(2)
    await stillAnswers()
  })

  it("an engine error: QUERY_ERROR with the engine's message, no batch handed over", async () => {
    let handled = 0
    const { error } = await caught(
      connector.stream(
        `SELECT number, throwIf(number = 15000, 'stopped at 15000') AS x FROM system.numbers LIMIT 20000`,
        base,
        async (b) => {
          handled += b.rows.length
        },
      ),
    )
    expect(expectCode(error, 'QUERY_ERROR').message).toMatch(/stopped at 15000/)
    expect(handled).toBe(0)
    await stillAnswers()
  })

  it('a handler that fails: its own error, and the download is closed', async () => {
    const failure = new Error('the engine refused the batch')
    const { error } = await caught(
      connector.stream(series(100_000), base, async () => {
        throw failure
      }),
    )
    expect(expectCode(error, 'QUERY_ERROR').cause).toBe(failure)
    await stillAnswers()
  })
})
