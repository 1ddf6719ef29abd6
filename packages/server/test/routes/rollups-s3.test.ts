/**
 * Rollups on S3 (s3rver, the S3-protocol server the awss3 tests use): two instances on one
 * PostgreSQL store share one bucket. A rollup is built once across them; both read the same
 * files through its manifest (a local copy each, as the engine's DuckDB reads them), equal to the
 * warehouse's GROUP BY; a rebuild switches the manifest to new objects and deletes the old ones;
 * deleting the dashboard empties its prefix and each instance's read copies.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LocalS3, S3RVER_KEYS, S3RVER_REGION, startLocalS3 } from '../../src/connectors/awss3/standin/server.js'
import type { RollupPartition } from '../../src/services/rollups/builder.js'
import type { S3RollupStorage } from '../../src/services/rollups/s3-storage.js'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { filesOf, readParquet } from '../helpers/rollups.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

const BUCKET = 'rollups'
const PREFIX = 'team/strata'

let s3: LocalS3
let client: S3Client
let one: TestContext
let two: TestContext
let wh: PgWarehouse
let a: Analytics
let duck: DuckDBInstance

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
  const env = {
    ROLLUP_POLL_INTERVAL_MS: '0',
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ROLLUP_S3_BUCKET: BUCKET,
    ROLLUP_S3_PREFIX: PREFIX,
    ROLLUP_S3_REGION: S3RVER_REGION,
    ROLLUP_S3_ENDPOINT: s3.endpoint,
    ROLLUP_S3_ACCESS_KEY_ID: S3RVER_KEYS.accessKeyId,
    ROLLUP_S3_SECRET_ACCESS_KEY: S3RVER_KEYS.secretAccessKey,
  }
  one = await createTestApp('postgres', env)
  two = await createTestApp('sqlite', { ...env, DATABASE_URL: one.config.databaseUrl as string })
  a = await setupAnalytics(one.app, wh)
  const res = await a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId: 'shared',
    importDashboardData: { ...salesDocument(wh.schema), rollups: [monthly(wh.schema)] },
  })
  expect(res.statusCode, res.body).toBe(200)
}, 120_000)

afterAll(async () => {
  duck?.closeSync()
  await two?.close()
  await one?.close()
  await wh?.drop()
  client?.destroy()
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

  it('deleting the dashboard empties its prefix in the bucket', async () => {
    expect((await keys()).length).toBeGreaterThan(0)
    // both instances hold read copies (the previous tests read through each)
    for (const ctx of [one, two]) expect(filesOf(join(ctx.config.dataDir, 'rollups-s3', 'read')).length).toBe(16)
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
