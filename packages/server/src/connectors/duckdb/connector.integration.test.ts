import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { DuckDBInstance, quotedString } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import type { ConnectorOptions } from '../types.js'
import { DuckdbConnector } from './connector.js'

let options: ConnectorOptions
const base = { params: [], timeoutMs: 5000, maxRows: 1000 }

function expectCode(error: unknown, code: string): ApiError {
  expect(error).toBeInstanceOf(ApiError)
  expect((error as ApiError).code, (error as Error).message).toBe(code)
  return error as ApiError
}

describe('duckdb connector (csv, awss3 file:// mirror; live DuckDB in the engine process)', () => {
  /** FILES_ROOT */
  let dir: string
  /** a directory beside FILES_ROOT, outside it */
  let away: string
  let csv: DuckdbConnector

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'strata-duckdb-'))
    away = await mkdtemp(path.join(tmpdir(), 'strata-duckdb-away-'))
    await writeFile(path.join(away, 'secret.csv'), 'secret\nhunter2\n')
    options = { connectTimeoutMs: 1500, poolMax: 4, filesRoot: dir }
    const data = path.join(dir, 'data')
    await mkdir(data)
    await writeFile(
      path.join(data, 'orders.csv'),
      'id,name,amount,created_at,big\n1,alpha,10.50,2024-01-01 10:00:00,9007199254740993\n2,beta,20.25,2024-06-01 12:00:00,42\n',
    )
    // A hostile file name: the path is a value and must reach DuckDB as a quoted literal.
    await writeFile(path.join(data, "o'rders; drop table x.csv"), 'k\nv\n')
    await writeFile(path.join(data, 'events.json'), '[{"kind":"click","n":1},{"kind":"view","n":2}]')
    await writeFile(path.join(data, 'notes.md'), '# not a table\n')
    const maker = await DuckDBInstance.create(':memory:')
    const conn = await maker.connect()
    await conn.run(
      `COPY (SELECT range AS n, range % 3 AS bucket FROM range(5000)) TO ${quotedString(path.join(data, '2024 Sales.parquet'))} (FORMAT parquet)`,
    )
    conn.closeSync()
    maker.closeSync()
    const bucket = path.join(dir, 's3', 'my-bucket', 'exports', '2024')
    await mkdir(bucket, { recursive: true })
    await writeFile(path.join(bucket, 'jan.csv'), 'm,v\njan,1\n')
    await writeFile(path.join(dir, 's3', 'my-bucket', 'exports', 'other.csv'), 'm,v\nother,2\n')
    csv = new DuckdbConnector({ kind: 'csv', credentials: { name: 'files', path: 'data' } }, options)
  })

  afterAll(async () => {
    await csv.close()
    await rm(dir, { recursive: true, force: true })
    await rm(away, { recursive: true, force: true })
  })

  it('test() opens the files; a missing path → DATASOURCE_CONNECTION_ERROR', async () => {
    await expect(csv.test()).resolves.toBeUndefined()
    const missing = new DuckdbConnector({ kind: 'csv', credentials: { name: 'x', path: 'nope' } }, options)
    expectCode((await caught(missing.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    await missing.close()
  })

  it('introspect(): one view per data file in schema main, named after the sanitised stem', async () => {
    const tables = await csv.introspect()
    expect(tables.map((t) => `${t.schema}.${t.name}`).sort()).toEqual([
      'main._2024_Sales',
      'main.events',
      'main.o_rders_drop_table_x',
      'main.orders',
    ])
    const orders = tables.find((t) => t.name === 'orders')
    expect(orders?.columns.map((c) => [c.name, c.dataType, c.nativeType])).toEqual([
      ['id', 'integer', 'BIGINT'],
      ['name', 'string', 'VARCHAR'],
      ['amount', 'number', 'DOUBLE'],
      ['created_at', 'datetime', 'TIMESTAMP'],
      ['big', 'integer', 'BIGINT'],
    ])
    expect(await csv.databases()).toEqual(['main'])
  })

  it('execute() binds $n parameters (hostile strings come back as data)', async () => {
    const hostile = "'; drop table orders; --"
    const echoed = await csv.execute('select $1 as v, $2 as n, $3 as l', { ...base, params: [hostile, 7, ['a', 'b']] })
    expect(echoed.rows).toEqual([{ v: hostile, n: 7, l: ['a', 'b'] }])
    const none = await csv.execute('select count(*) as c from orders where name = $1', { ...base, params: [hostile] })
    expect(none.rows).toEqual([{ c: 0 }])
    const quoted = await csv.execute('select k from "o_rders_drop_table_x"', base)
    expect(quoted.rows).toEqual([{ k: 'v' }])
  })

  it('execute() returns JSON-safe values: bigint, decimal, dates, nested', async () => {
    const result = await csv.execute(
      `select id, big, 1.25::decimal(10,2) as d, date '2024-01-02' as day, created_at, {'a': 1} as s
         from orders order by id`,
      base,
    )
    expect(result.columns.map((c) => c.dataType)).toEqual(['integer', 'integer', 'number', 'date', 'datetime', 'json'])
    expect(result.rows[0]).toEqual({
      id: 1,
      big: '9007199254740993',
      d: 1.25,
      day: '2024-01-02',
      created_at: '2024-01-01T10:00:00',
      s: { a: 1 },
    })
    expect(result.rows[1]?.big).toBe(42)
  })

  it('execute() caps rows and says truncated (reading stops at maxRows + 1)', async () => {
    const capped = await csv.execute('select n from "_2024_Sales" order by n', { ...base, maxRows: 10 })
    expect(capped.rows).toHaveLength(10)
    expect(capped.truncated).toBe(true)
    const grouped = await csv.execute(
      'select bucket, count(*) as c from "_2024_Sales" group by bucket order by bucket',
      base,
    )
    expect(grouped.rows).toEqual([
      { bucket: 0, c: 1667 },
      { bucket: 1, c: 1667 },
      { bucket: 2, c: 1666 },
    ])
    expect(grouped.truncated).toBe(false)
  })

  it('the session time zone changes how a TIMESTAMPTZ is rendered (default UTC)', async () => {
    const sql = "select timestamptz '2024-01-01 00:00:00+00' as t, current_setting('TimeZone') as zone"
    expect((await csv.execute(sql, { ...base, timezone: 'Asia/Tokyo' })).rows).toEqual([
      { t: '2024-01-01T09:00:00+09:00', zone: 'Asia/Tokyo' },
    ])
    expect((await csv.execute(sql, { ...base, timezone: 'America/New_York' })).rows).toEqual([
      { t: '2023-12-31T19:00:00-05:00', zone: 'America/New_York' },
    ])
    expect((await csv.execute(sql, base)).rows).toEqual([{ t: '2024-01-01T00:00:00+00:00', zone: 'UTC' }])
    // connections are reused between queries: concurrent queries in different zones each see their own
    const zones = Array.from({ length: 12 }, (_, i) => ['Asia/Tokyo', 'UTC', 'America/New_York'][i % 3] as string)
    const seen = await Promise.all(zones.map((timezone) => csv.execute(sql, { ...base, timezone })))
    expect(seen.map((r) => r.rows[0]?.zone)).toEqual(zones)
    // date_trunc on a timestamptz follows the session zone too.
    const day = await csv.execute("select date_trunc('day', timestamptz '2024-01-01 20:00:00+00')::date as d", {
      ...base,
      timezone: 'Asia/Tokyo',
    })
    expect(day.rows).toEqual([{ d: '2024-01-02' }])
  })

  it('bounds the instance memory (DUCKDB_MEMORY_LIMIT_MB): a query past it is a QUERY_ERROR, the datasource keeps working', async () => {
    const data = 'data'
    const small = new DuckdbConnector(
      { kind: 'csv', credentials: { name: 'files', path: data } },
      {
        ...options,
        duckdbMemoryLimitMb: 64,
      },
    )
    try {
      const limit = await small.execute("select current_setting('memory_limit') as m", base)
      expect(String(limit.rows[0]?.m)).toMatch(/^6[0-9](\.\d+)? ?Mi?B$/)
      const hungry =
        "select count(*) as n from (select distinct i::varchar || repeat('x', 40) from range(20000000) t(i))"
      const { error } = await caught(small.execute(hungry, { ...base, timeoutMs: 60_000 }))
      expectCode(error, 'QUERY_ERROR')
      expect((error as Error).message).toMatch(/memory/i)
      expect((await small.execute('select 1 as one', base)).rows).toEqual([{ one: 1 }])
    } finally {
      await small.close()
    }
    expect(
      () =>
        new DuckdbConnector(
          { kind: 'csv', credentials: { name: 'x', path: data } },
          { ...options, duckdbMemoryLimitMb: 1 },
        ),
    ).toThrow(RangeError)
  })

  it('the sandbox: no other file can be read, only SELECT statements run', async () => {
    const other = expectCode(
      (await caught(csv.execute("select * from read_csv_auto('/etc/passwd')", base))).error,
      'QUERY_ERROR',
    )
    expect(other.message).toMatch(/disabled by configuration|Permission/)
    expectCode((await caught(csv.execute('create table t (x int)', base))).error, 'QUERY_ERROR')
    expectCode((await caught(csv.execute('set enable_external_access = true', base))).error, 'QUERY_ERROR')
    expectCode((await caught(csv.execute('select * from no_such_table', base))).error, 'QUERY_ERROR')
  })

  it('DATABASE tenancy: only "main" exists; another database → DATASOURCE_CONNECTION_ERROR', async () => {
    expect((await csv.execute('select count(*) as c from orders', { ...base, database: 'main' })).rows).toEqual([
      { c: 2 },
    ])
    expectCode(
      (await caught(csv.execute('select 1', { ...base, database: 'tenant_x' }))).error,
      'DATASOURCE_CONNECTION_ERROR',
    )
  })

  it('awss3 with a file:/// endpoint reads dir/bucket/prefix (recursively, S3-style prefixes)', async () => {
    const endpoint = pathToFileURL(path.join(dir, 's3')).href
    const s3 = (prefix?: string) =>
      new DuckdbConnector(
        {
          kind: 'awss3',
          credentials: {
            name: 's3',
            bucket: 'my-bucket',
            region: 'local',
            accessKeyId: 'a',
            secretAccessKey: 'b',
            endpoint,
            prefix,
          },
        },
        options,
      )
    const all = s3('exports/')
    expect((await all.introspect()).map((t) => t.name).sort()).toEqual(['jan', 'other'])
    expect((await all.execute('select m from jan', base)).rows).toEqual([{ m: 'jan' }])
    await all.close()
    const partial = s3('exports/20')
    expect((await partial.introspect()).map((t) => t.name)).toEqual(['jan'])
    await partial.close()
    const outside = new DuckdbConnector(
      {
        kind: 'awss3',
        credentials: { name: 's3', bucket: '..', region: 'x', accessKeyId: 'a', secretAccessKey: 'b', endpoint },
      },
      options,
    )
    expectCode((await caught(outside.test())).error, 'DATASOURCE_CONNECTION_ERROR')
    const traversal = s3('../../')
    expectCode((await caught(traversal.test())).error, 'INVALID_REQUEST_BODY')
  })

  describe('FILES_ROOT confinement (regression: any path, /etc and /proc/self/cwd came back as rows)', () => {
    const csvAt = (where: string, filesRoot: { filesRoot?: string } = { filesRoot: dir }) =>
      new DuckdbConnector({ kind: 'csv', credentials: { name: 'x', path: where } }, { ...options, ...filesRoot })
    const s3At = (endpoint: string, bucket = 'my-bucket') =>
      new DuckdbConnector(
        {
          kind: 'awss3',
          credentials: { name: 's3', bucket, region: 'x', accessKeyId: 'a', secretAccessKey: 'b', endpoint },
        },
        options,
      )
    const refused = async (connector: DuckdbConnector, code = 'INVALID_REQUEST_BODY') => {
      const error = expectCode((await caught(connector.test())).error, code)
      await connector.close()
      return error
    }

    it.each([
      ['an absolute path', '/etc/passwd'],
      ['the process working directory', '/proc/self/cwd/package.json'],
      ['..', '../strata-duckdb-away/secret.csv'],
      ['.. inside', 'data/../../x'],
      ['a glob', '../*.csv'],
    ])('%s is refused: %s', async (_what, where) => {
      await refused(csvAt(where))
    })

    it('a link inside FILES_ROOT leading out is refused (file and directory)', async () => {
      await symlink(path.join(away, 'secret.csv'), path.join(dir, 'link.csv'))
      await symlink(away, path.join(dir, 'linkdir'))
      expect((await refused(csvAt('link.csv'))).message).toMatch(/resolves outside FILES_ROOT/)
      await refused(csvAt('linkdir'))
      await refused(csvAt('linkdir/secret.csv'))
    })

    it('a directory of FILES_ROOT skips the links in it (they are not tables)', async () => {
      await mkdir(path.join(dir, 'mixed'))
      await writeFile(path.join(dir, 'mixed', 'own.csv'), 'a\n1\n')
      await symlink(path.join(away, 'secret.csv'), path.join(dir, 'mixed', 'secret.csv'))
      const mixed = csvAt('mixed')
      expect((await mixed.introspect()).map((t) => t.name)).toEqual(['own'])
      await mixed.close()
    })

    it('without a FILES_ROOT no file is read', async () => {
      await refused(csvAt('data', { filesRoot: undefined }), 'DATASOURCE_CONNECTION_ERROR')
    })

    it('awss3: a file:/// endpoint outside FILES_ROOT is refused; a bucket that is a link out too', async () => {
      await refused(s3At('file:///etc', 'ssl'))
      await refused(s3At(pathToFileURL(path.dirname(away)).href, path.basename(away)))
      await symlink(away, path.join(dir, 's3', 'escape'))
      await refused(s3At(pathToFileURL(path.join(dir, 's3')).href, 'escape'))
    })

    // Parquet is read on every query. DuckDB's allowed_paths refuses the swapped file too (a
    // QUERY_ERROR about its sandbox); our check runs first and names the cause.
    it('a file turned into a link after the datasource opened is refused on the next query, as outside FILES_ROOT', async () => {
      const later = path.join(dir, 'later')
      await mkdir(later)
      const maker = await DuckDBInstance.create(':memory:')
      const conn = await maker.connect()
      await conn.run(`COPY (SELECT 1 AS mine) TO ${quotedString(path.join(later, 't.parquet'))} (FORMAT parquet)`)
      await conn.run(`COPY (SELECT 'stolen' AS mine) TO ${quotedString(path.join(away, 't.parquet'))} (FORMAT parquet)`)
      conn.closeSync()
      maker.closeSync()
      const connector = csvAt('later')
      expect((await connector.execute('select mine from t', base)).rows).toEqual([{ mine: 1 }])
      // swapped atomically for a link to a file outside FILES_ROOT
      await symlink(path.join(away, 't.parquet'), path.join(later, 'swap'))
      await rename(path.join(later, 'swap'), path.join(later, 't.parquet'))
      const error = expectCode(
        (await caught(connector.execute('select mine from t', base))).error,
        'INVALID_REQUEST_BODY',
      )
      expect(error.message).toMatch(/resolves outside FILES_ROOT/)
      await connector.close()
    })
  })
})
