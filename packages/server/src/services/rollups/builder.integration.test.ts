import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { DashboardDocument } from '@strata/contract/document'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { filesOf, readParquet } from '../../../test/helpers/rollups.js'
import { POSTGRES_URL } from '../../../test/helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../../../test/helpers/warehouse.js'
import type { AppendArgs } from '../../connectors/duckdb/parquet-writer.js'
import { EngineHost } from '../../connectors/engine-host/supervisor.js'
import { PostgresConnector } from '../../connectors/postgres/connector.js'
import type { Connector } from '../../connectors/types.js'
import { ApiError } from '../../errors.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel, type SemanticModel } from '../../query/model.js'
import { type BuildInput, type BuildLimits, buildRollup, type RollupPartition } from './builder.js'
import type { RollupPlan } from './definition.js'
import { plansOf } from './plans.js'
import { LocalRollupStorage } from './storage.js'

/**
 * The build's streaming path on a live PostgreSQL (a cursor) into the real engine process:
 * batches smaller than the result, so every build here crosses many batches.
 */
const BATCH = 7
let wh: PgWarehouse
let connector: PostgresConnector
let engine: EngineHost
let model: SemanticModel
let plan: RollupPlan
let duck: DuckDBInstance
const dir = mkdtempSync(join(tmpdir(), 'strata-rollup-stream-'))
const storage = new LocalRollupStorage(dir)
const limits: BuildLimits = { maxRows: 100_000, timeoutMs: 30_000, memoryLimitMb: 256, batchRows: BATCH }

function input(overrides: Partial<BuildInput> = {}): BuildInput {
  return {
    plan,
    model,
    dialect: getDialect('postgres'),
    connector,
    previous: [],
    organizationId: 'org',
    dashboardRowId: 'dash',
    now: new Date('2026-08-20T00:00:00Z'),
    ...overrides,
  }
}

/** The rows of each engine append request, observed on the real engine. */
function appendsOf(spy: { mock: { calls: unknown[][] } }): number[] {
  return spy.mock.calls
    .filter((call) => call[0] === 'duckdb.parquetAppend')
    .map((call) => (call[1] as AppendArgs).parts.reduce((n, p) => n + (p.values[0]?.length ?? 0), 0))
}

/** The warehouse's own GROUP BY of the rollup, as the files should hold it. */
async function warehouseGroups(): Promise<string[]> {
  const rows = await wh.query<{ day: string; status: string; tenant: string; revenue: number; orders: number }>(
    `select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, status, tenant,
            sum(amount)::float8 as revenue, count(*)::int as orders
       from ${wh.schema}.orders group by 1, 2, 3`,
  )
  return rows.map((r) => `${r.day}|${r.status}|${r.tenant}|${Number(r.revenue)}|${r.orders}`).sort()
}

async function fileGroups(files: string[]): Promise<string[]> {
  const rows = await readParquet(duck, files)
  return rows
    .map(
      (r) =>
        `${String(r[plan.time?.name ?? '']).slice(0, 10)}|${r.status}|${r.tenant}|${Number(r.revenue)}|${Number(r.orders)}`,
    )
    .sort()
}

const openWriters = () => engine.call<number>('duckdb.parquetWriters', {})

beforeAll(async () => {
  wh = await createPgWarehouse()
  connector = new PostgresConnector({ ...wh.credentials, sslMode: 'disable' } as never, {
    connectTimeoutMs: 10_000,
    poolMax: 2,
  })
  const tables = await connector.introspect()
  model = buildModel(tables, {
    tableList: [{ schemaName: wh.schema, name: 'orders', clientColumn: 'tenant' }],
    relationships: [],
  } as never)
  const doc = {
    name: 'stream',
    metrics: [],
    rollups: [
      {
        name: 'orders_daily',
        from: `${wh.schema}.orders`,
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status'],
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
        ],
      },
    ],
  } as unknown as DashboardDocument
  const found = plansOf(doc, model)[0]
  if (found?.plan === undefined) throw new Error(found?.error ?? 'no plan')
  plan = found.plan
  engine = new EngineHost({ memoryLimitMb: 512 })
  duck = await DuckDBInstance.create(':memory:')
}, 60_000)

afterAll(async () => {
  await connector?.close()
  await engine?.close()
  duck?.closeSync()
  await wh?.drop()
  rmSync(dir, { recursive: true, force: true })
})

describe('a rollup build streamed in batches', () => {
  let first: readonly RollupPartition[] = []
  const rollupDir = () => join(dir, 'org', 'dash', 'orders_daily')

  it('equals the warehouse GROUP BY across many batches, each append at most one batch', async () => {
    const spy = vi.spyOn(engine, 'call')
    try {
      const result = await buildRollup(input(), engine, storage, limits)
      first = result.partitions
      const appends = appendsOf(spy)
      const expected = await warehouseGroups()
      expect(result.rows).toBe(expected.length)
      // one engine request per batch read, none larger than a batch: the server never held the whole result
      expect(appends.length).toBe(Math.ceil(expected.length / BATCH))
      expect(Math.max(...appends)).toBeLessThanOrEqual(BATCH)
      expect(appends.reduce((a, b) => a + b, 0)).toBe(expected.length)
      expect(filesOf(rollupDir()).map((f) => f.slice(rollupDir().length + 1))).toEqual(
        result.partitions.map((p) => `${p.partition}.parquet`),
      )
      expect(result.partitions.length).toBeGreaterThan(1)
      expect(await fileGroups(filesOf(rollupDir()))).toEqual(expected)
      expect(await openWriters()).toBe(0)
    } finally {
      spy.mockRestore()
    }
  }, 60_000)

  it('the same files through a connector without a streaming read (execute, then slices)', async () => {
    const plain: Connector = {
      dialect: connector.dialect,
      test: () => connector.test(),
      introspect: (d) => connector.introspect(d),
      databases: () => connector.databases(),
      execute: (sql, options) => connector.execute(sql, options),
      close: async () => {},
    }
    const other = new LocalRollupStorage(mkdtempSync(join(dir, 'plain-')))
    const spy = vi.spyOn(engine, 'call')
    try {
      const result = await buildRollup(input({ connector: plain }), engine, other, limits)
      expect(result.partitions.map((p) => [p.partition, p.rows])).toEqual(first.map((p) => [p.partition, p.rows]))
      expect(Math.max(...appendsOf(spy))).toBeLessThanOrEqual(BATCH)
      const files = filesOf(join(other.root, 'org', 'dash', 'orders_daily'))
      expect(await fileGroups(files)).toEqual(await warehouseGroups())
    } finally {
      spy.mockRestore()
    }
  }, 60_000)

  /** The previous build's files, byte for byte, and no staged file beside them. */
  const snapshot = () => filesOf(dir).map((f) => [f, readFileSync(f).toString('base64')])

  it('over ROLLUP_MAX_ROWS mid-stream: fails, stages nothing, and the previous files stay', async () => {
    const before = snapshot()
    const spy = vi.spyOn(engine, 'call')
    try {
      const failed = buildRollup(input({ previous: first }), engine, storage, { ...limits, maxRows: 3 * BATCH + 2 })
      await expect(failed).rejects.toThrow(/ROLLUP_MAX_ROWS/)
      await expect(failed).rejects.toBeInstanceOf(ApiError)
      // it failed mid-stream: the rows up to the cap were appended, then the stream stopped
      expect(appendsOf(spy)).toEqual([BATCH, BATCH, BATCH, 2])
    } finally {
      spy.mockRestore()
    }
    expect(snapshot()).toEqual(before)
    expect(filesOf(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    expect(await openWriters()).toBe(0)
  }, 60_000)

  it('past ROLLUP_BUILD_TIMEOUT_MS while the engine appends: fails as a timeout, and the previous files stay', async () => {
    const before = snapshot()
    const call = engine.call.bind(engine)
    let appends = 0
    const spy = vi.spyOn(engine, 'call').mockImplementation(async (op, args, options) => {
      if (op === 'duckdb.parquetAppend') {
        appends++
        await new Promise((resolve) => setTimeout(resolve, 400)) // a slow engine: the warehouse waits
      }
      return call(op, args, options)
    })
    try {
      // our deadline is timeoutMs plus the cancel grace (1 s): a few slow appends pass it
      const failed = buildRollup(input({ previous: first }), engine, storage, { ...limits, timeoutMs: 200 })
      await expect(failed).rejects.toMatchObject({ code: 'QUERY_TIMEOUT' })
      expect(appends).toBeLessThan(Math.ceil(first.reduce((n, p) => n + p.rows, 0) / BATCH))
    } finally {
      spy.mockRestore()
    }
    expect(snapshot()).toEqual(before)
    expect(await openWriters()).toBe(0)
  }, 60_000)

  it('a connection lost mid-stream: fails, stages nothing, and the previous files stay', async () => {
    const before = snapshot()
    const killer = new pg.Client({ connectionString: POSTGRES_URL })
    await killer.connect()
    const call = engine.call.bind(engine)
    let appends = 0
    const spy = vi.spyOn(engine, 'call').mockImplementation(async (op, args, options) => {
      if (op === 'duckdb.parquetAppend' && ++appends === 2) {
        // the warehouse goes away while the build still reads
        // this file's build only: other files' builds may run at the same time on the same server
        await killer.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = 'strata' and query like '%strata_result%' and query like $1
              and pid <> pg_backend_pid()`,
          [`%${wh.schema}%`],
        )
      }
      return call(op, args, options)
    })
    try {
      const failed = buildRollup(input({ previous: first }), engine, storage, limits)
      await expect(failed).rejects.toMatchObject({ code: 'DATASOURCE_CONNECTION_ERROR' })
      expect(appends).toBeGreaterThanOrEqual(2)
      expect(appends).toBeLessThan(Math.ceil(first.reduce((n, p) => n + p.rows, 0) / BATCH))
    } finally {
      spy.mockRestore()
      await killer.end()
    }
    expect(snapshot()).toEqual(before)
    expect(await openWriters()).toBe(0)
    // the connector is usable again
    await expect(buildRollup(input({ previous: first }), engine, storage, limits)).resolves.toMatchObject({
      incremental: false,
    })
  }, 60_000)

  /** The PostgreSQL connector, with each batch it hands over counted (and `onArrived` told). */
  function counting(onArrived: (n: number) => void): Connector {
    let arrived = 0
    return {
      dialect: connector.dialect,
      test: () => connector.test(),
      introspect: (d) => connector.introspect(d),
      databases: () => connector.databases(),
      execute: (sql, options) => connector.execute(sql, options),
      stream: (sql, options, onBatch) =>
        connector.stream(sql, options, async (batch) => {
          onArrived(++arrived)
          await onBatch(batch)
        }),
      close: async () => {},
    }
  }

  it('the engine appends one batch while the next is read and split: an append held until the next batch arrives', async () => {
    let next: () => void = () => undefined
    const secondArrived = new Promise<void>((resolve) => {
      next = resolve
    })
    const call = engine.call.bind(engine)
    let appends = 0
    let inFlight = 0
    let most = 0
    const spy = vi.spyOn(engine, 'call').mockImplementation(async (op, args, options) => {
      if (op !== 'duckdb.parquetAppend') return call(op, args, options)
      inFlight++
      most = Math.max(most, inFlight)
      try {
        // waiting for the build to append before it reads on would never end: 5 s, then fail
        if (++appends === 1) {
          await Promise.race([
            secondArrived,
            new Promise((_, reject) =>
              setTimeout(() => reject(new Error('the next batch was not read while the engine appended')), 5_000),
            ),
          ])
        }
        return await call(op, args, options)
      } finally {
        inFlight--
      }
    })
    const other = new LocalRollupStorage(mkdtempSync(join(dir, 'overlap-')))
    try {
      const watched = counting((n) => n === 2 && next())
      const result = await buildRollup(input({ connector: watched }), engine, other, limits)
      expect(result.partitions.map((p) => [p.partition, p.rows])).toEqual(first.map((p) => [p.partition, p.rows]))
      expect(most).toBe(1) // never two appends at once
      expect(await fileGroups(filesOf(join(other.root, 'org', 'dash', 'orders_daily')))).toEqual(
        await warehouseGroups(),
      )
    } finally {
      spy.mockRestore()
    }
    expect(await openWriters()).toBe(0)
  }, 60_000)

  it('an append failing while the next batch is read: the build fails with it, and the previous files stay', async () => {
    const before = snapshot()
    let next: () => void = () => undefined
    const thirdArrived = new Promise<void>((resolve) => {
      next = resolve
    })
    const call = engine.call.bind(engine)
    let appends = 0
    const spy = vi.spyOn(engine, 'call').mockImplementation(async (op, args, options) => {
      if (op === 'duckdb.parquetAppend' && ++appends === 2) {
        await thirdArrived // the build has read on meanwhile
        throw new Error('the engine could not append')
      }
      return call(op, args, options)
    })
    let arrived = 0
    try {
      const watched = counting((n) => {
        arrived = n
        if (n === 3) next()
      })
      const failed = buildRollup(input({ connector: watched, previous: first }), engine, storage, limits)
      await expect(failed).rejects.toThrow('the engine could not append')
      // the failure was seen at the next append, with the third batch split: nothing after it was sent
      expect(arrived).toBe(3)
      expect(appends).toBe(2)
    } finally {
      spy.mockRestore()
    }
    expect(snapshot()).toEqual(before)
    expect(filesOf(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    expect(await openWriters()).toBe(0)
  }, 60_000)
})

describe('a build under DATABASE tenancy', () => {
  const tenantStorage = new LocalRollupStorage(mkdtempSync(join(dir, 'tenants-')))
  const tenantDir = (t: string) => join(tenantStorage.root, 'org', 'dash', 'orders_daily', `tenant=${t}`)
  /** The tenant files, byte for byte. */
  const bytesOf = (t: string) => filesOf(tenantDir(t)).map((f) => [f, readFileSync(f).toString('base64')])

  /**
   * Two tenant databases read from the same warehouse; `failing`'s read fails after it handed
   * `after` batches over (each appended to the writer), as a warehouse that breaks mid-stream.
   */
  function tenants(failing: readonly string[] = [], after = 2, slowMs = 0): Connector {
    return {
      dialect: connector.dialect,
      test: () => connector.test(),
      introspect: () => connector.introspect(),
      databases: async () => ['t1', 't2'],
      execute: (sql, options) => connector.execute(sql, options),
      stream: (sql, options, onBatch) => {
        const { database, ...rest } = options
        let batches = 0
        return connector.stream(sql, rest, async (batch) => {
          if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs))
          await onBatch(batch)
          if (database !== undefined && failing.includes(database) && ++batches === after) {
            throw new ApiError('QUERY_ERROR', 400, `The query failed: ${database} went away`)
          }
        })
      },
      close: async () => {},
    }
  }
  let first: readonly RollupPartition[] = []
  const withoutTenant = (groups: string[]) => groups.map((g) => g.split('|').toSpliced(2, 1).join('|')).sort()

  it("one tenant database failing mid-stream: its appended rows dropped, its files kept, the other's written", async () => {
    first = (await buildRollup(input({ connector: tenants(), tenants: ['t1', 't2'] }), engine, tenantStorage, limits))
      .partitions
    expect(new Set(first.map((p) => p.tenant))).toEqual(new Set(['t1', 't2']))
    const t1 = bytesOf('t1')
    const spy = vi.spyOn(engine, 'call')
    try {
      const later = new Date('2026-08-21T00:00:00Z')
      const result = await buildRollup(
        input({ connector: tenants(['t1']), tenants: ['t1', 't2'], previous: first, now: later }),
        engine,
        tenantStorage,
        limits,
      )
      expect(result.failed).toEqual([
        { database: 't1', error: 'The query failed: t1 went away', code: 'QUERY_ERROR', keptFiles: true },
      ])
      // t1's two batches went to the writer, and were dropped from it
      expect(appendsOf(spy).length).toBeGreaterThan(2)
      const drops = spy.mock.calls.filter((call) => call[0] === 'duckdb.parquetDrop')
      expect(drops.length).toBe(1)
      expect((drops[0]?.[1] as { keys: string[] } | undefined)?.keys.length).toBeGreaterThan(0)
      // t1: the previous files, unchanged; t2: new files equal to the warehouse
      expect(result.partitions.filter((p) => p.tenant === 't1')).toEqual(first.filter((p) => p.tenant === 't1'))
      const t2 = result.partitions.filter((p) => p.tenant === 't2')
      expect(t2.map((p) => p.builtAt)).toEqual(t2.map(() => later.toISOString()))
      expect(bytesOf('t1')).toEqual(t1)
      // (a file's path names its tenant database, which DuckDB reads as the tenant column: left out)
      expect(withoutTenant(await fileGroups(filesOf(tenantDir('t2'))))).toEqual(withoutTenant(await warehouseGroups()))
      expect(result.rows).toBe(first.reduce((n, p) => n + p.rows, 0))
      expect(await openWriters()).toBe(0)
    } finally {
      spy.mockRestore()
    }
  }, 60_000)

  it('every tenant database failing: the build fails naming them, and every file stays', async () => {
    const before = [...bytesOf('t1'), ...bytesOf('t2')]
    const failed = buildRollup(
      input({ connector: tenants(['t1', 't2'], 1), tenants: ['t1', 't2'], previous: first }),
      engine,
      tenantStorage,
      limits,
    )
    await expect(failed).rejects.toThrow(
      /^2 of 2 tenant databases not refreshed \(previous files kept for 2\): t1, t2\. /,
    )
    expect([...bytesOf('t1'), ...bytesOf('t2')]).toEqual(before)
    expect(await openWriters()).toBe(0)
  }, 60_000)

  it('over ROLLUP_MAX_ROWS across tenant databases: the whole build fails, though each alone fits', async () => {
    const before = [...bytesOf('t1'), ...bytesOf('t2')]
    const each = first.filter((p) => p.tenant === 't1').reduce((n, p) => n + p.rows, 0)
    const failed = buildRollup(
      input({ connector: tenants(), tenants: ['t1', 't2'], previous: first }),
      engine,
      tenantStorage,
      { ...limits, maxRows: each + 1 },
    )
    await expect(failed).rejects.toThrow(/ROLLUP_MAX_ROWS/)
    expect([...bytesOf('t1'), ...bytesOf('t2')]).toEqual(before)
    expect(await openWriters()).toBe(0)
  }, 60_000)

  it('past ROLLUP_BUILD_TIMEOUT_MS over its tenant databases: the whole build fails as a timeout, every file stays', async () => {
    const before = [...bytesOf('t1'), ...bytesOf('t2')]
    // each batch is slow: the deadline (timeoutMs over every read, plus the cancel grace) passes in t1 or t2
    const failed = buildRollup(
      input({ connector: tenants([], 2, 150), tenants: ['t1', 't2'], previous: first }),
      engine,
      tenantStorage,
      { ...limits, timeoutMs: 400 },
    )
    await expect(failed).rejects.toMatchObject({
      code: 'QUERY_TIMEOUT',
      message: expect.stringMatching(/ROLLUP_BUILD_TIMEOUT_MS\), reading tenant database t[12]$/),
    })
    expect([...bytesOf('t1'), ...bytesOf('t2')]).toEqual(before)
    expect(await openWriters()).toBe(0)
  }, 60_000)
})
