/**
 * Values through the connector on a current ClickHouse engine (chdb behind its HTTP front,
 * src/connectors/clickhouse/standin): what the engine's JSON output and parameter binding do to our types,
 * which a stand-in answering canned rows cannot show. Skipped loudly without chdb (and fails
 * under CI=true).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickhouseDialect } from '../../query/dialects/clickhouse.js'
import { ClickhouseConnector } from './connector.js'
import { type ChdbFront, requireChdb, startChdbFront } from './standin/process.js'

const hasChdb = requireChdb('the clickhouse connector on a current ClickHouse (chdb)')

describe.skipIf(!hasChdb)('clickhouse connector on a current ClickHouse engine (chdb)', () => {
  let front: ChdbFront
  let connector: ClickhouseConnector
  const run = (sql: string, params: unknown[] = [], timezone?: string) =>
    connector.execute(sql, { params, timeoutMs: 5000, maxRows: 10, ...(timezone ? { timezone } : {}) })

  beforeAll(async () => {
    front = await startChdbFront()
    connector = new ClickhouseConnector(
      { name: 'chdb', host: '127.0.0.1', port: front.port, user: 'default', password: '' },
      { connectTimeoutMs: 5000, poolMax: 2 },
    )
  })
  afterAll(async () => {
    await connector?.close()
    await front?.stop()
  })

  it('reads 64-bit integers exactly: numbers when safe, else their digits (the engine no longer quotes them by default)', async () => {
    const { rows, columns } = await run(
      'SELECT toUInt64(18446744073709551615) AS big, toInt64(-9007199254740993) AS past, toInt64(9007199254740991) AS safe, toInt128(5) AS small, count() AS n FROM system.one',
    )
    expect(rows).toEqual([
      { big: '18446744073709551615', past: '-9007199254740993', safe: 9007199254740991, small: 5, n: 1 },
    ])
    expect(columns.map((c) => c.dataType)).toEqual(['integer', 'integer', 'integer', 'integer', 'integer'])
  })

  it('binds every kind of value the dialect sends, and reads it back', async () => {
    const at = new Date('2024-03-01T10:20:30.456Z')
    const { rows } = await run(
      'SELECT {p0:DateTime64(3)} AS t, {p1:Int64} AS i, {p2:Float64} AS f, {p3:UInt8} AS b, {p4:Array(String)} AS a, {p5:Nullable(String)} AS n, {p6:Array(Float64)} AS af',
      [at, -9007199254740991, 1.25, 1, ["it's", 'back\\slash', 'tab\there'], null, [1, 2.5]],
      'UTC',
    )
    expect(rows).toEqual([
      {
        t: '2024-03-01T10:20:30.456',
        i: -9007199254740991,
        f: 1.25,
        b: 1,
        a: ["it's", 'back\\slash', 'tab\there'],
        n: null,
        af: [1, 2.5],
      },
    ])
  })

  it("the dialect's contains: LIKE wildcards in the needle are literal, case folds beyond ASCII", async () => {
    const dialect = new ClickhouseDialect()
    const values = ['axb', 'a_b', '50%', '500', 'x\\y', 'xy', "it''s", 'äb', 'ÄB']
    const matches = async (needle: string) =>
      (
        await run(
          `SELECT s FROM (SELECT arrayJoin([${values.map((v) => `'${v}'`).join(', ')}]) AS s) WHERE ${dialect.contains('s', '{p0:String}')}`,
          [dialect.containsPattern(needle)],
        )
      ).rows.map((r) => r.s)
    expect(await matches('a_b')).toEqual(['a_b'])
    expect(await matches('50%')).toEqual(['50%'])
    expect(await matches('x\\y')).toEqual(['x\\y'])
    expect(await matches("it's")).toEqual(["it's"])
    expect(await matches('ÄB')).toEqual(['äb', 'ÄB'])
  })

  it('renders a zone-less DateTime in the session time zone', async () => {
    const sql = 'SELECT toDateTime(1704067200) AS t'
    expect((await run(sql, [], 'Asia/Kolkata')).rows).toEqual([{ t: '2024-01-01T05:30:00' }])
    expect((await run(sql, [], 'UTC')).rows).toEqual([{ t: '2024-01-01T00:00:00' }])
  })
})
