/**
 * Rollups on S3 (s3rver, the S3-protocol server the awss3 tests use): two instances on one
 * PostgreSQL store and one Redis share one bucket, each through a proxy that counts the requests
 * it sends to S3. A rollup is built once across them; both read the same files through its
 * manifest (a local copy each, as the engine's DuckDB reads them), equal to the warehouse's GROUP
 * BY; metric queries served from it make no S3 request once the copies are here; a rebuild
 * switches the manifest to new objects and deletes the old ones, and the other instance answers
 * from the new ones as soon as the build's bus event reaches it; deleting the dashboard empties
 * its prefix and each instance's read copies.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalS3, S3RVER_KEYS, S3RVER_REGION, startLocalS3 } from '../../src/connectors/awss3/standin/server.js'
import type { RollupPartition } from '../../src/services/rollups/builder.js'
import { S3RollupStorage } from '../../src/services/rollups/s3-storage.js'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, embedDashboard, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { filesOf, readParquet } from '../helpers/rollups.js'
import { REDIS_URL, requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/** An HTTP proxy in front of s3rver that counts the requests an instance sends to S3. */
interface CountingProxy {
  readonly endpoint: string
  readonly requests: string[]
  close(): Promise<void>
}

async function countingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target)
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`)
    const forward = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    forward.on('error', () => res.destroy())
    req.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const hasRedis = await requireService('Redis', new URL(REDIS_URL).hostname, Number(new URL(REDIS_URL).port || 6379))

const BUCKET = 'rollups'
const PREFIX = 'team/strata'

let s3: LocalS3
let client: S3Client
let one: TestContext
let two: TestContext
let wh: PgWarehouse
let a: Analytics
let duck: DuckDBInstance
let proxyOne: CountingProxy
let proxyTwo: CountingProxy
let embedId: string

const monthly = (schema: string) => ({
  name: 'monthly',
  from: `${schema}.orders`,
  time: { column: 'created_at', grain: 'month' },
  dimensions: ['status'],
  measures: [
    { name: 'orders', aggregate: 'count' },
    { name: 'revenue', aggregate: 'sum', column: 'amount' },
  ],
})

async function keys(prefix = `${PREFIX}/`): Promise<string[]> {
  const res = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))
  return (res.Contents ?? []).map((o) => o.Key as string).sort()
}

const storageOf = (ctx: TestContext) => ctx.app.services.rollups.storage as S3RollupStorage

async function partitions(): Promise<RollupPartition[]> {
  const row = await one.app.services.store.db
    .selectFrom('rollups')
    .select('partitions')
    .where('name', '=', 'monthly')
    .executeTakeFirstOrThrow()
  return JSON.parse(row.partitions) as RollupPartition[]
}

/** The rollup as `ctx` reads it: every partition's local copy, rows as comparable lines. */
async function readThrough(ctx: TestContext): Promise<string[]> {
  const paths = await Promise.all((await partitions()).map((p) => storageOf(ctx).localPath(p.location)))
  const rows = await readParquet(duck, paths)
  return rows
    .map((r) =>
      JSON.stringify([String(r.created_at).slice(0, 7), r.status, r.tenant, Number(r.orders), Number(r.revenue)]),
    )
    .sort()
}

async function warehouseMonthly(): Promise<string[]> {
  const rows = await wh.query<Record<string, unknown>>(
    `select to_char(date_trunc('month', created_at at time zone 'UTC'), 'YYYY-MM') as m, status, tenant,
       count(*)::int as orders, sum(amount)::float8 as revenue
     from ${wh.schema}.orders group by 1, 2, 3`,
  )
  return rows.map((r) => JSON.stringify([r.m, r.status, r.tenant, r.orders, r.revenue])).sort()
}

/** `revenue` (a SUM the rollup answers) for tenant acme, asked of `ctx`: the total and where it came from. */
async function revenue(ctx: TestContext): Promise<{ value: number; servedFrom: string }> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v2/data-app/query',
    headers: { authorization: `Bearer ${a.dataAppKey}` },
    payload: { embedId, metricId: 'revenue', clientId: 'acme' },
  })
  expect(res.statusCode, res.body).toBe(200)
  const body = res.json() as { data: { revenue: number }[]; servedFrom: string }
  return { value: Number(body.data[0]?.revenue), servedFrom: body.servedFrom }
}

async function warehouseRevenue(): Promise<number> {
  const [row] = await wh.query<{ revenue: number }>(
    `select sum(amount)::float8 as revenue from ${wh.schema}.orders where tenant = 'acme'`,
  )
  return Number(row?.revenue)
}

/** Resolves when `ctx` has heard `n` more `rollup` events (a build's start and end: 2) from now on. */
function rollupEvents(ctx: TestContext, n: number): Promise<void> {
  let heard = 0
  return new Promise((resolve) => {
    ctx.app.services.bus.on((event) => {
      if (event.kind === 'rollup' && ++heard === n) resolve()
    })
  })
}

const scheduler = (ctx: TestContext) =>
  new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, { pollMs: 1000, leaseMs: 60_000 })

beforeAll(async () => {
  s3 = await startLocalS3([BUCKET])
  client = new S3Client({
    endpoint: s3.endpoint,
    forcePathStyle: true,
    region: S3RVER_REGION,
    credentials: { ...S3RVER_KEYS },
  })
  wh = await createPgWarehouse()
  duck = await DuckDBInstance.create(':memory:')
  proxyOne = await countingProxy(s3.endpoint)
  proxyTwo = await countingProxy(s3.endpoint)
  const env = {
    ROLLUP_POLL_INTERVAL_MS: '0',
    // every metric query reaches the rollup (no result cache in front of it)
    RESULT_CACHE_TTL_MS: '0',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ROLLUP_S3_BUCKET: BUCKET,
    ROLLUP_S3_PREFIX: PREFIX,
    ROLLUP_S3_REGION: S3RVER_REGION,
    ROLLUP_S3_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId,
    ROLLUP_S3_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey,
    ...(hasRedis ? { REDIS_URL } : {}),
  }
  one = await createTestApp('postgres', { ...env, ROLLUP_S3_ENDPOINT: proxyOne.endpoint })
  two = await createTestApp('sqlite', {
    ...env,
    ROLLUP_S3_ENDPOINT: proxyTwo.endpoint,
    DATABASE_URL: one.config.databaseUrl as string,
  })
  a = await setupAnalytics(one.app, wh)
  const res = await a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId: 'shared',
    importDashboardData: { ...salesDocument(wh.schema), rollups: [monthly(wh.schema)] },
  })
  expect(res.statusCode, res.body).toBe(200)
  embedId = await embedDashboard(a, 'shared')
}, 120_000)

afterAll(async () => {
  duck?.closeSync()
  await two?.close()
  await one?.close()
  await wh?.drop()
  client?.destroy()
  await proxyOne?.close()
  await proxyTwo?.close()
  await s3?.close()
})

describe('rollups on S3, shared by two instances', () => {
  it('the configuration picks the S3 storage', () => {
    expect(storageOf(one).kind).toBe('s3')
    expect(storageOf(two).kind).toBe('s3')
  })

  it('is built once across the instances, and both read the same files, equal to the warehouse', async () => {
    const at = new Date(Date.now() + 1000)
    const [first, second] = await Promise.all([scheduler(one).tick(at), scheduler(two).tick(at)])
    expect([...first, ...second]).toEqual(['monthly'])
    const stored = await keys()
    // a manifest and one object per month (January to August), nothing staged left behind
    expect(stored.filter((k) => k.endsWith('/manifest.json'))).toHaveLength(1)
    expect(stored.filter((k) => k.endsWith('.parquet'))).toHaveLength(8)
    expect(stored.every((k) => k.startsWith(`${PREFIX}/`))).toBe(true)
    const expected = await warehouseMonthly()
    expect(await readThrough(one)).toEqual(expected)
    expect(await readThrough(two)).toEqual(expected)
    const [p] = await partitions()
    expect(await storageOf(two).objectKeyOf(p?.location as string)).toBe(
      await storageOf(one).objectKeyOf(p?.location as string),
    )
  }, 120_000)

  it('a rebuild switches the manifest to new objects, deletes the old ones, and the other instance reads the new data', async () => {
    const before = await keys()
    await wh.query(`update ${wh.schema}.orders set amount = amount + 1 where id = 1`)
    const res = await a.call('POST', '/api/v2/data-app/rollups/refresh', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'shared',
    })
    expect(res.statusCode, res.body).toBe(202)
    expect(await scheduler(two).tick(new Date(Date.now() + 1000))).toEqual(['monthly'])
    const after = await keys()
    const objects = (list: string[]) => list.filter((k) => k.endsWith('.parquet'))
    expect(objects(after)).toHaveLength(8)
    expect(objects(after).filter((k) => before.includes(k))).toEqual([])
    const expected = await warehouseMonthly()
    expect(await readThrough(one)).toEqual(expected)
    expect(await readThrough(two)).toEqual(expected)
  }, 120_000)

  it('metric queries served from the rollup make no S3 request once the read copies are here', async () => {
    const expected = await warehouseRevenue()
    // the first query may fetch the manifest and download what this instance lacks
    expect(await revenue(one)).toEqual({ value: expected, servedFrom: 'rollup' })
    proxyOne.requests.length = 0
    const N = 20
    for (let i = 0; i < N; i++) expect(await revenue(one)).toEqual({ value: expected, servedFrom: 'rollup' })
    expect(proxyOne.requests).toEqual([])
  }, 120_000)

  it.runIf(hasRedis)(
    "a rebuild on the other instance is read at once after its bus event, never the previous build's copies",
    async () => {
      const before = await revenue(one)
      expect(before.servedFrom).toBe('rollup')
      await wh.query(`update ${wh.schema}.orders set amount = amount + 1000 where tenant = 'acme' and id = (
        select min(id) from ${wh.schema}.orders where tenant = 'acme')`)
      const expected = await warehouseRevenue()
      expect(expected).toBeCloseTo(before.value + 1000, 6)
      const heard = rollupEvents(one, 2)
      const res = await a.call('POST', '/api/v2/data-app/rollups/refresh', a.serviceToken, {
        workspaceName: 'main',
        dashboardId: 'shared',
      })
      expect(res.statusCode, res.body).toBe(202)
      expect(await scheduler(two).tick(new Date(Date.now() + 1000))).toEqual(['monthly'])
      await heard // the build's start and end, from instance two through Redis
      proxyOne.requests.length = 0
      const after = await revenue(one)
      expect(after.servedFrom).toBe('rollup')
      expect(after.value).toBeCloseTo(expected, 6)
      // the new manifest, and the new object of each month this instance reads
      expect(proxyOne.requests.filter((r) => r.includes('manifest.json'))).toHaveLength(1)
      expect(proxyOne.requests.length).toBeGreaterThan(1)
      proxyOne.requests.length = 0
      expect((await revenue(one)).value).toBeCloseTo(expected, 6)
      expect(proxyOne.requests).toEqual([])
    },
    120_000,
  )

  it('deleting the dashboard empties its prefix in the bucket', async () => {
    expect((await keys()).length).toBeGreaterThan(0)
    // both instances hold read copies (the previous tests read through each)
    for (const ctx of [one, two])
      expect(filesOf(join(ctx.config.dataDir, 'rollups-s3', 'read')).length).toBeGreaterThanOrEqual(16)
    await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${embedId}`, a.dataAppKey)
    const res = await a.call(
      'DELETE',
      '/api/v2/data-app/dashboard?workspaceName=main&dashboardId=shared',
      a.serviceToken,
    )
    expect(res.statusCode, res.body).toBe(200)
    await one.app.services.rollups.catchUp()
    expect(await keys()).toEqual([])
    // each instance's read copies go at its next pass
    await two.app.services.rollups.catchUp()
    for (const ctx of [one, two]) expect(filesOf(join(ctx.config.dataDir, 'rollups-s3', 'read'))).toEqual([])
  }, 120_000)
})

describe('read copies and manifests of one instance, without a bus', () => {
  const config = () => ({
    bucket: BUCKET,
    prefix: 'bare',
    region: S3RVER_REGION,
    endpoint: s3.endpoint,
    ...S3RVER_KEYS,
  })
  const dirs: string[] = []
  const storage = (options: ConstructorParameters<typeof S3RollupStorage>[2]) => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-s3-copies-'))
    dirs.push(dir)
    return new S3RollupStorage(config(), dir, options)
  }
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })
  const key = (partition: string) => ({ organizationId: 'o', dashboardRowId: 'd', rollup: 'r', partition })
  async function publish(on: S3RollupStorage, partition: string, body: string): Promise<string> {
    const staged = await on.stage(key(partition))
    writeFileSync(staged, body)
    return (await on.publish(staged, key(partition))).location
  }

  it("another instance's rebuild is read once the manifest held here expires, never before its copy is current", async () => {
    const builder = storage({})
    const reader = storage({ manifestTtlMs: 400 })
    const location = await publish(builder, '2026-01', 'first build')
    expect(readFileSync(await reader.localPath(location), 'utf8')).toBe('first build')
    await publish(builder, '2026-01', 'second build')
    // held: the previous build's copy, no request (the old object is already gone from S3)
    expect(readFileSync(await reader.localPath(location), 'utf8')).toBe('first build')
    await new Promise((r) => setTimeout(r, 500))
    expect(readFileSync(await reader.localPath(location), 'utf8')).toBe('second build')
    // a bus event (forget) drops it at once
    await publish(builder, '2026-01', 'third build')
    reader.forget('d')
    expect(readFileSync(await reader.localPath(location), 'utf8')).toBe('third build')
  })

  it('keeps the read copies under their byte bound, the least recently read going first', async () => {
    const builder = storage({})
    const reader = storage({ readCopiesMaxBytes: 250 })
    const body = (c: string) => c.repeat(100)
    const locations = [
      await publish(builder, '2026-02', body('a')),
      await publish(builder, '2026-03', body('b')),
      await publish(builder, '2026-04', body('c')),
    ]
    const paths: string[] = []
    for (const l of locations) paths.push(await reader.localPath(l))
    const [feb, mar, apr] = paths
    expect(reader.readCopiesBytes).toBeLessThanOrEqual(250)
    await new Promise((r) => setTimeout(r, 50)) // an evicted copy is removed in the background
    const kept = filesOf(join(dirs.at(-1) as string, 'read'))
    expect(kept.length).toBe(2)
    expect(kept).not.toContain(feb)
    // reading March again makes April the least recently read
    expect(readFileSync(await reader.localPath(locations[1] as string), 'utf8')).toBe(body('b'))
    expect(readFileSync(await reader.localPath(locations[0] as string), 'utf8')).toBe(body('a'))
    await new Promise((r) => setTimeout(r, 50))
    expect(filesOf(join(dirs.at(-1) as string, 'read')).sort()).toEqual([feb, mar].sort())
    expect(apr).toBeDefined()
    // a removed rollup's copies go
    await reader.removeRollup('o', 'd', 'r')
    expect(filesOf(join(dirs.at(-1) as string, 'read'))).toEqual([])
    expect(reader.readCopiesBytes).toBe(0)
  })
})
