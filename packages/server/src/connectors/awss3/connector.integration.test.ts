/**
 * awss3 over S3, live against s3rver (a real S3-protocol server, npm, started in this process):
 * listing with continuation pages, the ETag cache (unchanged objects are not fetched again,
 * changed ones are, deleted ones disappear), hostile object keys, the size limit, S3's errors,
 * and reading from the cache while S3 is away. Through the registry, as the server does.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { caught } from '../../../test/fixtures/net.js'
import { ApiError } from '../../errors.js'
import { createConnector } from '../registry.js'
import type { AwsS3Credentials, Connector, ConnectorOptions } from '../types.js'
import { cacheDirOf } from './cache.js'
import { type LocalS3, S3RVER_KEYS, S3RVER_REGION, startLocalS3 } from './standin/server.js'

const BUCKET = 'shop'
const BASE = { params: [], timeoutMs: 10_000, maxRows: 1000 }

let s3: LocalS3
let work: string
const connectors: Connector[] = []

const credentials = (extra: Partial<AwsS3Credentials> = {}): AwsS3Credentials => ({
  name: 's3',
  bucket: BUCKET,
  region: S3RVER_REGION,
  ...S3RVER_KEYS,
  prefix: 'exports/',
  endpoint: s3.endpoint,
  ...extra,
})

function connect(c: AwsS3Credentials, options: Partial<ConnectorOptions> = {}): Connector {
  const connector = createConnector('awss3', c, {
    connectTimeoutMs: 2000,
    poolMax: 2,
    cacheDir: path.join(work, 'cache'),
    ...options,
  })
  connectors.push(connector)
  return connector
}

function connectionError(error: unknown): ApiError {
  expect(error).toBeInstanceOf(ApiError)
  expect([(error as ApiError).code, (error as ApiError).status]).toEqual(['DATASOURCE_CONNECTION_ERROR', 400])
  return error as ApiError
}

const tables = async (c: Connector) => (await c.introspect()).map((t) => `${t.schema}.${t.name}`).sort()
const rows = async (c: Connector, sql: string) => (await c.execute(sql, BASE)).rows

/** A Parquet file written by DuckDB, as bytes. */
async function parquet(): Promise<Buffer> {
  const file = path.join(work, 'orders.parquet')
  const instance = await DuckDBInstance.create(':memory:')
  const conn = await instance.connect()
  await conn.run(
    `COPY (SELECT 1 AS id, 9.5::DECIMAL(10,2) AS total UNION ALL SELECT 2, 20.0) TO '${file}' (FORMAT PARQUET)`,
  )
  conn.closeSync()
  instance.closeSync()
  const { readFile } = await import('node:fs/promises')
  return readFile(file)
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'strata-awss3-'))
  s3 = await startLocalS3([BUCKET, 'empty'])
  await s3.put(BUCKET, 'exports/customers.csv', 'id,name\n1,Ann\n2,Bob\n')
  await s3.put(BUCKET, 'exports/orders.parquet', await parquet())
  await s3.put(BUCKET, 'exports/events/2024-01.json', '[{"kind":"open","n":3}]')
  await s3.put(BUCKET, 'exports/notes.md', '# not data')
  await s3.put(BUCKET, 'other/outside.csv', 'x\n1\n')
})

afterAll(async () => {
  await Promise.allSettled(connectors.map((c) => c.close()))
  await s3?.close()
  await rm(work, { recursive: true, force: true })
})

describe('awss3 over S3 (live against s3rver)', () => {
  it('lists the prefix, caches the data files and reads each as a table of schema main', async () => {
    const c = connect(credentials())
    await c.test()
    expect(await tables(c)).toEqual(['main._2024_01', 'main.customers', 'main.orders'])
    expect(await rows(c, 'select name from customers order by id')).toEqual([{ name: 'Ann' }, { name: 'Bob' }])
    expect(await rows(c, 'select sum(total) as s from orders')).toEqual([{ s: 29.5 }])
    expect(await rows(c, 'select kind, n from "_2024_01"')).toEqual([{ kind: 'open', n: 3 }])
    expect(await c.databases()).toEqual(['main'])
  })

  it('refreshes on introspect by ETag: unchanged objects stay, changed ones are fetched, deleted ones go', async () => {
    await s3.put(BUCKET, 'exports/mutable.csv', 'v\n1\n')
    await s3.put(BUCKET, 'exports/doomed.csv', 'v\n1\n')
    const c = connect(credentials())
    await c.introspect()
    const dir = cacheDirOf(path.join(work, 'cache'), credentials())
    const before = await inodes(dir)
    expect(Object.keys(before)).toHaveLength(5)

    await c.introspect() // nothing changed: no file written again
    expect(await inodes(dir)).toEqual(before)

    await s3.put(BUCKET, 'exports/mutable.csv', 'v\n2\n')
    await s3.remove(BUCKET, 'exports/doomed.csv')
    expect(await tables(c)).not.toContain('main.doomed')
    expect(await rows(c, 'select v from mutable')).toEqual([{ v: 2 }])
    const after = await inodes(dir)
    expect(Object.keys(after)).toHaveLength(4)
    const unchanged = Object.keys(before).filter((f) => !/mutable|doomed/.test(f))
    for (const file of unchanged) expect(after[file], file).toEqual(before[file])
    await s3.remove(BUCKET, 'exports/mutable.csv')
  })

  it('a new connector reads the cache without S3; with nothing cached it fetches first', async () => {
    const warm = connect(credentials())
    await warm.introspect()
    const other = await startLocalS3(['shop'])
    await other.put('shop', 'exports/solo.csv', 'v\n7\n')
    const cold = connect(credentials({ endpoint: other.endpoint }))
    expect(await rows(cold, 'select v from solo')).toEqual([{ v: 7 }]) // fetched lazily
    await other.close()
    // S3 is gone: the cached files still answer, and a refresh says why it cannot
    const again = connect(credentials({ endpoint: other.endpoint }))
    expect(await rows(again, 'select v from solo')).toEqual([{ v: 7 }])
    const e = connectionError((await caught(again.introspect())).error)
    expect(e.message).toMatch(/connection refused/)
  })

  it('follows continuation pages (more than 1000 keys under the prefix)', async () => {
    const keys = Array.from({ length: 1005 }, (_, i) => `paged/a-${String(i).padStart(4, '0')}.md`)
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((key) => s3.put(BUCKET, key, '-')))
    }
    await s3.put(BUCKET, 'paged/z-last.csv', 'last\n1\n')
    const c = connect(credentials({ prefix: 'paged/' }))
    expect(await tables(c)).toEqual(['main.z_last'])
  })

  // Keys with `..` segments s3rver itself cannot store verbatim: keys.standin.test.ts has them.
  it('odd keys never become paths: every cached file is a hashed flat name inside the cache', async () => {
    const hostile = [
      'evil/..\\..\\escape.csv',
      'evil/%2e%2e%2fback.csv',
      'evil/..%2F..%2Fenc.csv',
      'evil/sp ace "quote".csv',
      'evil/ünï.csv',
      'evil/.hidden.csv',
      'evil/deep/er/x.csv',
      'evil/\u0001ctl.csv',
    ]
    for (const key of hostile) await s3.put(BUCKET, key, 'a\n1\n')
    const c = connect(credentials({ prefix: 'evil/' }))
    const names = await tables(c)
    expect(names).toHaveLength(hostile.length)
    for (const name of names) expect(name).toMatch(/^main\.[A-Za-z0-9_]+$/)
    const dir = cacheDirOf(path.join(work, 'cache'), credentials({ prefix: 'evil/' }))
    const files = (await readdir(dir)).filter((f) => f !== 'manifest.json')
    expect(files).toHaveLength(hostile.length)
    for (const f of files) expect(f).toMatch(/^[0-9a-f]{32}-[A-Za-z0-9_-]*\.csv$/)
    const escaped = await readdir(path.join(work)).then((list) => list.filter((f) => /escape|back|enc/.test(f)))
    expect(escaped).toEqual([])
    expect(await rows(c, 'select count(*) as n from escape')).toEqual([{ n: 1 }])
  })

  it('refuses more than the size limit, before downloading, with a clear 400', async () => {
    const c = connect(credentials(), { s3CacheMaxBytes: 20, cacheDir: path.join(work, 'small') })
    const e = connectionError((await caught(c.introspect())).error)
    expect(e.message).toMatch(/more than this server's S3 cache limit of .* \(S3_CACHE_MAX_BYTES\): narrow the prefix/)
    const dir = cacheDirOf(path.join(work, 'small'), credentials())
    expect(await readdir(dir)).toEqual([])
  })

  // Issue 24 item 1 (regression): a JSON object nested 30,000 levels deep in the bucket crashed the
  // server (SIGSEGV in DuckDB's JSON reader) once the cache handed it to DuckDB.
  it('refuses a pathological object (JSON nested 30,000 levels deep) with a 400 naming it; nothing of it cached', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`
    await s3.put(BUCKET, 'deep/ok.csv', 'id\n1\n')
    await s3.put(BUCKET, 'deep/events.json', deep)
    await s3.put(BUCKET, 'deepgz/events.json.gz', gzipSync(deep))
    const cacheDir = path.join(work, 'deep')
    const c = connect(credentials({ prefix: 'deep/' }), { cacheDir })
    for (const call of [() => c.test(), () => c.introspect()]) {
      const { error } = await caught(call())
      expect(error).toBeInstanceOf(ApiError)
      expect([(error as ApiError).code, (error as ApiError).status]).toEqual(['INVALID_REQUEST_BODY', 400])
      expect((error as ApiError).message).toMatch(
        /The data file s3:\/\/shop\/deep\/events\.json is refused: JSON arrays and objects nest deeper than 64 levels/,
      )
    }
    // refused as it downloaded: no manifest, and the object's bytes are gone
    const files = await readdir(cacheDirOf(cacheDir, credentials({ prefix: 'deep/' })))
    expect(files.filter((f) => f.includes('events') || f === 'manifest.json')).toEqual([])
    // gzip: checked uncompressed when loaded, named the same way
    const gz = connect(credentials({ prefix: 'deepgz/' }), { cacheDir })
    const { error } = await caught(gz.test())
    expect((error as ApiError).message).toMatch(/s3:\/\/shop\/deepgz\/events\.json\.gz is refused: JSON arrays/)
  })

  it("translates S3's errors: a missing bucket, an unknown access key (the secret never shown)", async () => {
    const missing = connect(credentials({ bucket: 'no-such-bucket' }))
    const e1 = connectionError((await caught(missing.test())).error)
    expect(e1.message).toMatch(/NoSuchBucket: the bucket does not exist/)

    const wrong = connect(credentials({ accessKeyId: 'WRONGKEY', secretAccessKey: 'wrong-secret-value-123' }))
    const e2 = connectionError((await caught(wrong.test())).error)
    expect(e2.message).toMatch(/InvalidAccessKeyId: the access key ID is not known to S3/)
    expect(JSON.stringify({ message: e2.message, details: e2.details })).not.toContain('wrong-secret-value-123')
  })

  it('an empty prefix is a datasource without tables', async () => {
    expect(await tables(connect(credentials({ bucket: 'empty' })))).toEqual([])
  })
})

/** file → inode and modification time: a file fetched again is a new file (renamed into place). */
async function inodes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const f of await readdir(dir)) {
    if (f === 'manifest.json') continue
    const info = await stat(path.join(dir, f))
    out[f] = `${info.ino}:${info.mtimeMs}`
  }
  return out
}
