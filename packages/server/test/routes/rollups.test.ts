/**
 * Rollups end to end on a real PostgreSQL warehouse and the engine process's DuckDB: declared in
 * the dashboard document (validated, exported as imported), built by the scheduler as Parquet
 * files holding exactly the warehouse's GROUP BY (read back with DuckDB and compared with SQL run
 * on the warehouse), the tenant column always kept, an incremental refresh rewriting only its
 * window, a failed build recorded (never thrown into a request), and the routes' contract.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Rollups } from '../../src/services/rollups/rollups.js'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { filesOf, readParquet } from '../helpers/rollups.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

let ctx: TestContext
let wh: PgWarehouse
let a: Analytics
let duck: DuckDBInstance

/** A window from 5 July 2026 (the orders run to 1 August) to now: an incremental refresh rebuilds July and August. */
const WINDOW_DAYS = Math.ceil((Date.now() - Date.UTC(2026, 6, 5)) / 86_400_000)

const rollupsOf = (schema: string) => [
  {
    name: 'orders_daily',
    from: `${schema}.orders`,
    time: { column: 'created_at', grain: 'day' },
    dimensions: ['status', `${schema}.customers.country`],
    measures: [
      { name: 'revenue', aggregate: 'sum', column: 'amount' },
      { name: 'orders', aggregate: 'count' },
      { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
    ],
    refresh: { every: '1h', incremental: `${WINDOW_DAYS} days` },
  },
  {
    name: 'by_status',
    from: 'orders',
    dimensions: ['status'],
    measures: [{ name: 'top', aggregate: 'max', column: 'amount' }],
  },
]

const importDoc = (dashboardId: string, document: object) =>
  a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId,
    importDashboardData: document,
  })

async function dashboardRowId(id: string): Promise<string> {
  const row = await ctx.app.services.store.db
    .selectFrom('dashboards')
    .select(['id', 'organization_id'])
    .where('dashboard_id', '=', id)
    .executeTakeFirstOrThrow()
  return row.id
}

async function organizationDir(): Promise<string> {
  const row = await ctx.app.services.store.db
    .selectFrom('dashboards')
    .select('organization_id')
    .executeTakeFirstOrThrow()
  return join(ctx.config.dataDir, 'rollups', row.organization_id)
}

/** The warehouse's own GROUP BY of the rollup orders_daily (day buckets in UTC), with both tenant columns. */
async function warehouseDaily(): Promise<string[]> {
  const rows = await wh.query<Record<string, unknown>>(
    `select to_char(date_trunc('day', o.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day, o.status, c.country,
       o.tenant, c.tenant as ctenant, sum(o.amount)::float8 as revenue, count(*)::int as orders,
       sum(o.amount)::float8 as avg_sum, count(o.amount)::int as avg_count
     from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
     group by 1, 2, 3, 4, 5`,
  )
  return rows
    .map((r) =>
      JSON.stringify([r.day, r.status, r.country, r.tenant, r.ctenant, r.revenue, r.orders, r.avg_sum, r.avg_count]),
    )
    .sort()
}

function daily(rows: Record<string, unknown>[], schema: string): string[] {
  return rows
    .map((r) =>
      JSON.stringify([
        String(r.created_at).slice(0, 10),
        r.status,
        r[`${schema}.customers.country`],
        r.tenant,
        r[`${schema}.customers.tenant`],
        Number(r.revenue),
        Number(r.orders),
        Number(r.avg_amount__sum),
        Number(r.avg_amount__count),
      ]),
    )
    .sort()
}

beforeAll(async () => {
  wh = await createPgWarehouse()
  ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0' })
  a = await setupAnalytics(ctx.app, wh)
  duck = await DuckDBInstance.create(':memory:')
}, 120_000)

afterAll(async () => {
  duck?.closeSync()
  await ctx?.close()
  await wh?.drop()
})

describe('rollups in the dashboard document', () => {
  it('are exported exactly as imported; a document without rollups exports none', async () => {
    const document = { ...salesDocument(wh.schema), rollups: rollupsOf(wh.schema) }
    const res = await importDoc('rolled', document)
    expect(res.statusCode, res.body).toBe(200)
    const exported = await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'rolled',
    })
    expect(exported.data.rollups).toEqual(rollupsOf(wh.schema))
    const plain = await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
    })
    expect('rollups' in plain.data).toBe(false)
    const auto = await importDoc('auto', { ...salesDocument(wh.schema), rollups: 'auto' })
    expect(auto.statusCode, auto.body).toBe(200)
  })

  it('is checked against the datamart, the error naming the path', async () => {
    const one = (patch: object) => [{ ...rollupsOf(wh.schema)[0], ...patch }]
    const cases: [object, RegExp][] = [
      [one({ from: 'nowhere' }), /rollups\[0\]\.from: no table "nowhere"/],
      [one({ dimensions: ['status', 'colour'] }), /rollups\[0\]\.dimensions\[1\]: no column "colour"/],
      [one({ dimensions: [`${wh.schema}.customers.shoe`] }), /rollups\[0\]\.dimensions\[0\]: no column "shoe"/],
      [one({ time: { column: 'status', grain: 'day' } }), /rollups\[0\]\.time\.column: .*not a date or time/],
      [
        one({ measures: [{ name: 'n', aggregate: 'count-distinct', column: 'tenant' }] }),
        /rollups\[0\]\.measures\[0\]\.aggregate: a distinct count cannot/,
      ],
      [one({ measures: [{ name: 'n', aggregate: 'count_distinct', column: 'tenant' }] }), /distinct count cannot/],
      [
        one({ measures: [{ name: 's', aggregate: 'sum', column: 'status' }] }),
        /measures\[0\]\.column: sum needs a number/,
      ],
      [one({ measures: [{ name: 's', aggregate: 'sum' }] }), /measures\[0\]\.column: sum needs a column/],
      [one({ time: undefined }), /refresh\.incremental: .*needs "time"/],
      [one({ measures: [{ name: 'status', aggregate: 'count' }] }), /two columns named "status"/],
      [[rollupsOf(wh.schema)[1], rollupsOf(wh.schema)[1]], /rollups\[1\]\.name: two rollups are named "by_status"/],
      [one({ refresh: { every: 'soon' } }), /rollups\/0\/refresh\/every|rollups\[0\]\.refresh\.every/],
    ]
    for (const [rollups, message] of cases) {
      const res = await importDoc(`bad-${Math.random().toString(36).slice(2)}`, {
        ...salesDocument(wh.schema),
        rollups,
      })
      expectError(res, 400, 'INVALID_REQUEST_BODY', message)
    }
  })
})

describe('building', () => {
  let scheduler: RollupScheduler
  let start: Date
  beforeAll(() => {
    scheduler = new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, { pollMs: 1000, leaseMs: 60_000 })
    start = new Date(Date.now() + 5_000)
  })

  it('lists declared rollups as stale until built, then ready with rows, bytes, refresh times and lag', async () => {
    const before = (await a.ok('GET', '/api/v2/data-app/rollups', a.serviceToken)).data as Record<string, unknown>[]
    const mine = before.find((r) => r.dashboardId === 'rolled' && r.name === 'orders_daily')
    expect(mine).toMatchObject({
      workspaceName: 'main',
      state: 'stale',
      rows: 0,
      bytes: 0,
      lastRefreshAt: null,
      lagSeconds: null,
      lastError: null,
    })
    expect(before.some((r) => r.dashboardId === 'auto')).toBe(true)
    const built = await scheduler.tick(start)
    expect(built).toEqual(expect.arrayContaining(['orders_daily', 'by_status']))
    const after = (await a.ok('GET', '/api/v2/data-app/rollups', a.serviceToken)).data as Record<string, unknown>[]
    for (const r of after) expect(r, JSON.stringify(r)).toMatchObject({ state: 'ready', lastError: null })
    const daily = after.find((r) => r.dashboardId === 'rolled' && r.name === 'orders_daily') as Record<string, unknown>
    expect(daily.rows).toBeGreaterThan(0)
    expect(daily.bytes).toBeGreaterThan(0)
    expect(daily.partitions).toBe(8) // January to August
    expect(daily.nextRefreshAt).toBe(new Date(start.getTime() + 3_600_000).toISOString())
    expect(typeof daily.lagSeconds).toBe('number')
  }, 120_000)

  it('holds exactly the warehouse GROUP BY, one Parquet file per month, tenant columns included', async () => {
    const dir = join(await organizationDir(), await dashboardRowId('rolled'), 'orders_daily')
    const files = filesOf(dir)
    expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
      '2026-01.parquet',
      '2026-02.parquet',
      '2026-03.parquet',
      '2026-04.parquet',
      '2026-05.parquet',
      '2026-06.parquet',
      '2026-07.parquet',
      '2026-08.parquet',
    ])
    const rows = await readParquet(duck, files)
    expect(Object.keys(rows[0] ?? {})).toEqual(expect.arrayContaining(['tenant', `${wh.schema}.customers.tenant`]))
    expect(daily(rows, wh.schema)).toEqual(await warehouseDaily())
    const status = await readParquet(
      duck,
      filesOf(join(await organizationDir(), await dashboardRowId('rolled'), 'by_status')),
    )
    const expected = await wh.query<{ status: string; tenant: string; top: number }>(
      `select status, tenant, max(amount)::float8 as top from ${wh.schema}.orders group by 1, 2`,
    )
    const key = (r: Record<string, unknown>) => `${r.status}|${r.tenant}|${Number(r.top)}`
    expect(status.map(key).sort()).toEqual(expected.map(key).sort())
  }, 120_000)

  it('an incremental refresh rewrites only the partitions of its window', async () => {
    const dir = join(await organizationDir(), await dashboardRowId('rolled'), 'orders_daily')
    const mtimes = new Map(filesOf(dir).map((f) => [f, statSync(f).mtimeMs]))
    // an old order changes (outside the window) and a new one arrives (inside it)
    await wh.query(`update ${wh.schema}.orders set amount = amount + 1000 where id = 3`)
    await wh.query(
      `insert into ${wh.schema}.orders values (1001, 2, 'globex', 'paid', 42, timestamptz '2026-07-30 10:00:00+00')`,
    )
    await new Promise((r) => setTimeout(r, 20))
    const built = await scheduler.tick(new Date(start.getTime() + 3_600_000))
    expect(built).toContain('orders_daily')
    const changed = filesOf(dir).filter((f) => statSync(f).mtimeMs !== mtimes.get(f))
    expect(changed.map((f) => f.slice(dir.length + 1))).toEqual(['2026-07.parquet', '2026-08.parquet'])
    const rows = await readParquet(duck, filesOf(dir))
    const july = (list: string[]) => list.filter((r) => r.startsWith('["2026-07'))
    const january = (list: string[]) => list.filter((r) => r.startsWith('["2026-01'))
    const now = await warehouseDaily()
    // the window is the warehouse's now; the January partition kept what it had
    expect(july(daily(rows, wh.schema))).toEqual(july(now))
    expect(january(daily(rows, wh.schema))).not.toEqual(january(now))
  }, 120_000)
})

describe('a refresh during a build', () => {
  it('makes the rollup due again when the build ends, instead of after its interval', async () => {
    const id = await dashboardRowId('rolled')
    const db = ctx.app.services.store.db
    const ours = () =>
      db.selectFrom('rollups').selectAll().where('dashboard_row_id', '=', id).where('name', '=', 'by_status')
    const mine = () => db.updateTable('rollups').where('dashboard_row_id', '=', id).where('name', '=', 'by_status')
    // the lease as the scheduler takes it, for the due time the row has now
    await mine()
      .set({ leased_by: 'holder', lease_until: new Date(Date.now() + 60_000).toISOString(), state: 'building' })
      .execute()
    const claimed = await ours().executeTakeFirstOrThrow()
    // the refresh, while the build runs
    const res = await a.call('POST', '/api/v2/data-app/rollups/refresh', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'rolled',
      rollup: 'by_status',
    })
    expect(res.statusCode, res.body).toBe(202)
    const refreshed = (await ours().executeTakeFirstOrThrow()).next_refresh_at
    expect(refreshed).not.toBe(claimed.next_refresh_at)
    const started = new Date()
    expect((await ctx.app.services.rollups.build(claimed, 'holder', started)).state).toBe('ready')
    const after = await ours().executeTakeFirstOrThrow()
    expect(after.state).toBe('ready')
    expect(after.next_refresh_at).toBe(refreshed)
    // without a refresh meanwhile, the next build is an interval after this one started
    await mine().set({ leased_by: 'holder', state: 'building' }).execute()
    const again = await ours().executeTakeFirstOrThrow()
    expect((await ctx.app.services.rollups.build(again, 'holder', started)).state).toBe('ready')
    expect(Date.parse((await ours().executeTakeFirstOrThrow()).next_refresh_at)).toBeGreaterThan(
      started.getTime() + 60_000,
    )
  }, 120_000)
})

describe('a failed build', () => {
  it('is recorded as failed with its error, keeps the previous files and never fails a request', async () => {
    const s = ctx.app.services
    const small = new Rollups(s.store, s.workspaces, s.sources, s.datasources, s.engine, s.rollups.storage, {
      maxRollups: 100,
      maxRows: 2,
      timeoutMs: 30_000,
      memoryLimitMb: 256,
    })
    const scheduler = new RollupScheduler(s.store, small, { pollMs: 1000, leaseMs: 60_000 })
    const before = (await a.ok('GET', '/api/v2/data-app/rollups', a.serviceToken)).data as Record<string, unknown>[]
    const kept = before.find((r) => r.dashboardId === 'rolled' && r.name === 'by_status') as Record<string, unknown>
    const res = await a.call('POST', '/api/v2/data-app/rollups/refresh', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'rolled',
      rollup: 'by_status',
    })
    expect(res.statusCode, res.body).toBe(202)
    expect(await scheduler.tick(new Date(Date.now() + 1000))).toEqual(['by_status'])
    const after = (await a.ok('GET', '/api/v2/data-app/rollups', a.serviceToken)).data as Record<string, unknown>[]
    const failed = after.find((r) => r.dashboardId === 'rolled' && r.name === 'by_status') as Record<string, unknown>
    expect(failed).toMatchObject({ state: 'failed', rows: kept.rows, bytes: kept.bytes, partitions: kept.partitions })
    expect(failed.lastError).toMatch(/more than 2 rows \(ROLLUP_MAX_ROWS\)/)
    expect(Date.parse(failed.nextRefreshAt as string)).toBeGreaterThan(Date.now())
  }, 120_000)
})

describe('GET /api/v2/data-app/rollups and POST /api/v2/data-app/rollups/refresh', () => {
  const refresh = (body: object, token = a.serviceToken) =>
    a.call('POST', '/api/v2/data-app/rollups/refresh', token, body)

  it('take the service token only', async () => {
    expectError(await ctx.app.inject({ method: 'GET', url: '/api/v2/data-app/rollups' }), 401, 'AUTHENTICATION_ERROR')
    expectError(await a.call('GET', '/api/v2/data-app/rollups', a.dataAppKey), 401, 'AUTHENTICATION_ERROR')
    expectError(
      await refresh({ workspaceName: 'main', dashboardId: 'rolled' }, a.dataAppKey),
      401,
      'AUTHENTICATION_ERROR',
    )
  })

  it("list one dashboard's rollups when workspaceName and dashboardId name it, the organization's without them", async () => {
    const list = async (query: string) =>
      ((await a.ok('GET', `/api/v2/data-app/rollups${query}`, a.serviceToken)).data as Record<string, unknown>[]).map(
        (r) => `${r.workspaceName}/${r.dashboardId}/${r.name}`,
      )
    const all = await list('')
    expect(all).toEqual(expect.arrayContaining(['main/rolled/by_status', 'main/rolled/orders_daily']))
    expect(all.some((r) => r.startsWith('main/auto/'))).toBe(true)
    expect(await list('?workspaceName=main&dashboardId=rolled')).toEqual([
      'main/rolled/by_status',
      'main/rolled/orders_daily',
    ])
    const auto = await list('?workspaceName=main&dashboardId=auto')
    expect(auto.length).toBeGreaterThan(0)
    expect(auto).toEqual(all.filter((r) => r.startsWith('main/auto/')))
    expect(await list('?workspaceName=main&dashboardId=nope')).toEqual([])
    expect(await list('?workspaceName=nope&dashboardId=rolled')).toEqual([])
  })

  it('refuse a list query with only one of workspaceName and dashboardId, or another parameter', async () => {
    const get = (query: string) => a.call('GET', `/api/v2/data-app/rollups${query}`, a.serviceToken)
    expectError(await get('?workspaceName=main'), 400, 'INVALID_REQUEST_BODY', /workspaceName and dashboardId/)
    expectError(await get('?dashboardId=rolled'), 400, 'INVALID_REQUEST_BODY', /workspaceName and dashboardId/)
    expectError(await get('?workspaceName=main&dashboardId=rolled&extra=1'), 400, 'INVALID_REQUEST_BODY')
    expectError(await get('?workspaceName=&dashboardId=rolled'), 400, 'INVALID_REQUEST_BODY')
  })

  it('answer 202 with the state of each rollup made due now', async () => {
    const res = await refresh({ workspaceName: 'main', dashboardId: 'rolled' })
    expect(res.statusCode, res.body).toBe(202)
    const { data } = res.json() as { data: Record<string, unknown>[] }
    expect(data.map((r) => r.name)).toEqual(['by_status', 'orders_daily'])
    for (const r of data) {
      expect(Object.keys(r).sort()).toEqual(
        [
          'bytes',
          'dashboardId',
          'lagSeconds',
          'lastError',
          'lastRefreshAt',
          'name',
          'nextRefreshAt',
          'partitions',
          'rows',
          'state',
          'workspaceName',
        ].sort(),
      )
      expect(r).toMatchObject({ workspaceName: 'main', dashboardId: 'rolled' })
      expect(Date.parse(r.nextRefreshAt as string)).toBeLessThanOrEqual(Date.now())
    }
  })

  it('answer the error JSON for what does not exist or is malformed', async () => {
    expectError(await refresh({ workspaceName: 'nope', dashboardId: 'rolled' }), 400, 'WORKSPACE_ID_ERROR', /nope/)
    expectError(await refresh({ workspaceName: 'main', dashboardId: 'nope' }), 400, 'INVALID_DASHBOARD_ID', /nope/)
    expectError(
      await refresh({ workspaceName: 'main', dashboardId: 'sales-overview' }),
      400,
      'INVALID_REQUEST_BODY',
      /declares no rollups/,
    )
    expectError(
      await refresh({ workspaceName: 'main', dashboardId: 'rolled', rollup: 'nope' }),
      400,
      'INVALID_REQUEST_BODY',
      /no rollup named "nope"/,
    )
    expectError(await refresh({ workspaceName: 'main', dashboardId: 'rolled', extra: 1 }), 400, 'INVALID_REQUEST_BODY')
    expectError(await refresh({ workspaceName: 'main' }), 400, 'INVALID_REQUEST_BODY')
  })
})
