/**
 * Rollups under DATABASE tenancy, end to end on each live engine (MariaDB, PostgreSQL): tenant
 * databases with orders of their own (no tenant column), and one created without the table,
 * reached by a datasource with `tenancyLevel: "DATABASE"` (helpers/tenant-databases.ts; on
 * PostgreSQL its databases are every one its role may CONNECT to, `postgres` included).
 * The scheduler builds the rollup once per tenant database, into `tenant=<database>/` files; each
 * tenant's queries are served from its own files only, equal to the warehouse with serving off
 * and to the tenant database's own sums; a hostile tenant (a case variant, another database of
 * the server, a pattern, a quoted name) is refused. A tenant database whose part of a build
 * fails (a column renamed, no table) is named in `lastError` and keeps its previous files while
 * the others are refreshed; one without files is answered by the warehouse until a build gives
 * it some. A guest token of tenant A never reads B's files: with A's files gone, A is answered by
 * the warehouse, from A, and B is still served from its own.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCESS, type Analytics, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { buildDueRollups } from '../helpers/rollup-engines.js'
import { comparableResult, dashboardRow, filesOf, ordersMetric, rollupDir } from '../helpers/rollups.js'
import { createTenantDatabases, type TenantDatabases, tenantDatabaseEngines } from '../helpers/tenant-databases.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

const ENGINES = await tenantDatabaseEngines()

const document = (schema: string) => {
  const orders = `${schema}.orders`
  return {
    name: 'Per database',
    filters: [{ name: 'period', label: 'Order date', type: 'date-range', table: orders, column: 'created_at' }],
    layout: [],
    metrics: [ordersMetric.revenueByMonth(orders), ordersMetric.revenue(orders)],
    rollups: [
      {
        name: 'daily',
        from: orders,
        time: { column: 'created_at', grain: 'day' },
        dimensions: ['status'],
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
          { name: 'avg', aggregate: 'avg', column: 'amount' },
        ],
      },
    ],
  }
}

type Result = { data: Record<string, unknown>[]; totalRecords: number; servedFrom: string }

describe.each(ENGINES)('rollups under DATABASE tenancy (%s)', (engine) => {
  let ctx: TestContext
  let wh: PgWarehouse
  let a: Analytics
  let dbs: TenantDatabases
  let embedId: string
  /** ctx.logs' length before the first build. */
  let firstBuild = 0
  let closed = false

  const query = async (clientId: string, body: object) =>
    a.call('POST', '/api/v2/data-app/query', a.dataAppKey, { embedId, clientId, ...body })

  async function both(clientId: string, body: object): Promise<{ served: Result; warehouse: Result }> {
    const service = ctx.app.services.metricQueries
    const first = await query(clientId, body)
    expect(first.statusCode, first.body).toBe(200)
    service.serveRollups = false
    try {
      const second = await query(clientId, body)
      expect(second.statusCode, second.body).toBe(200)
      return { served: first.json(), warehouse: second.json() }
    } finally {
      service.serveRollups = true
    }
  }

  /** The rollup's state as the API lists it. */
  const listed = async () =>
    (await a.ok('GET', '/api/v2/data-app/rollups?workspaceName=perdb&dashboardId=perdb', a.serviceToken)).data[0] as {
      state: string
      lastError: string | null
    }

  beforeAll(async () => {
    dbs = await createTenantDatabases(engine)
    wh = await createPgWarehouse()
    ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0', LOG_LEVEL: 'debug' })
    a = await setupAnalytics(ctx.app, wh)
    const s = a.serviceToken
    await a.ok('POST', '/api/v2/datasource', s, {
      datasourceType: dbs.datasourceType,
      credentials: { name: 'perdb', ...dbs.credentials },
      tenancySettings: { tenancyLevel: 'DATABASE' },
    })
    await a.ok('POST', '/api/v2/data-app/datamarts', s, {
      name: 'perdb',
      datasourceName: 'perdb',
      tableList: [{ schemaName: dbs.schema, name: 'orders' }],
      relationships: [],
    })
    await a.ok('POST', '/api/v2/workspace', s, { name: 'perdb', connectionType: 'DATAMART', datamartName: 'perdb' })
    await a.ok('POST', '/api/v2/data-app/import-dashboard', s, {
      workspaceName: 'perdb',
      dashboardId: 'perdb',
      importDashboardData: document(dbs.schema),
    })
    embedId = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'perdb',
        embedType: 'dashboard',
        workspaceName: 'perdb',
        name: 'Per database',
        accessSettings: { ...ACCESS, datamartName: 'perdb' },
      })
    ).id as string
    firstBuild = ctx.logs.length
    expect(await buildDueRollups(ctx)).toEqual(['daily'])
  }, 180_000)

  afterAll(async () => {
    if (!closed) await ctx?.close()
    await wh?.drop()
    await dbs?.drop()
  })

  /**
   * The tenant databases the builds logged since `since` as not refreshed: every one, whatever
   * else the server holds (lastError names only the first ten, and on the shared PostgreSQL other
   * test files' databases are tenant databases too, failing, their names maybe sorted before ours).
   */
  const failedLogged = (since: number): string[] =>
    ctx.logs
      .slice(since)
      .filter((l) => l.msg === 'rollup built, some tenant databases not refreshed')
      .flatMap((l) => l.failedTenants as string[])

  /** Polls `check` until it holds (every 50 ms), failing after `ms`. */
  async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
    const end = performance.now() + ms
    while (!(await check())) {
      if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  /** `lastError` of a build some of whose tenant databases failed: how many, how many keep files, the names. */
  function notRefreshed(lastError: string | null): { failed: number; of: number; kept: number; names: string[] } {
    const m = /^(\d+) of (\d+) tenant databases not refreshed \(previous files kept for (\d+)\): ([^.]+)\. /.exec(
      lastError ?? '',
    )
    expect(m, String(lastError)).not.toBeNull()
    const [, failed, of, kept, names] = m as RegExpExecArray
    return { failed: Number(failed), of: Number(of), kept: Number(kept), names: String(names).split(', ') }
  }

  it('builds once per tenant database, into files of its own; the one without the table is named in lastError', async () => {
    const dir = await rollupDir(ctx.app, ctx.config.dataDir, 'perdb', 'daily', 'perdb')
    const files = filesOf(dir).map((f) => f.slice(dir.length + 1))
    // a folder per tenant database (its name escaped: `_` is `_5f`); A's 120 orders every 7 hours
    // run into February, B's 90 stay in January; C has no table, so no files
    const folder = (db: string) => `tenant=${db.replaceAll('_', '_5f')}`
    expect(files).toEqual([
      `${folder(dbs.a)}/2026-01.parquet`,
      `${folder(dbs.a)}/2026-02.parquet`,
      `${folder(dbs.b)}/2026-01.parquet`,
    ])
    const state = await listed()
    expect(state.state).toBe('ready')
    const failure = notRefreshed(state.lastError)
    // no database had files before this first build
    expect(failure.kept).toBe(0)
    expect(failure.names).not.toContain(dbs.a)
    expect(failure.names).not.toContain(dbs.b)
    const failed = failedLogged(firstBuild)
    expect(failed).toHaveLength(failure.failed)
    expect(failed).toContain(dbs.c)
    expect(failed).not.toContain(dbs.a)
    expect(failed).not.toContain(dbs.b)
    if (engine === 'mariadb') {
      // the user reads three databases: C alone failed
      expect(failure).toMatchObject({ failed: 1, of: 3, names: [dbs.c] })
      expect(state.lastError).toContain(`${dbs.c}: `)
    } else {
      // every database the role may connect to is a tenant database: `postgres` and the extra
      // one too, without the table; only A and B, whatever else the server holds, were built
      expect(failed).toContain('postgres')
      expect(failed).toContain(dbs.pg?.extra)
      expect(failure.of - failure.failed).toBe(2)
    }
  })

  const cases: [string, object][] = [
    ['a sum, count and avg by month', { metricId: 'revenue_by_month' }],
    ['a sum', { metricId: 'revenue' }],
    [
      'a date range on day buckets',
      { metricId: 'revenue', dashboardFilter: { period: { startDate: '2026-01-05', endDate: '2026-02-10' } } },
    ],
  ]
  for (const tenant of ['a', 'b'] as const) {
    for (const [name, body] of cases) {
      it(`${tenant.toUpperCase()}: ${name}: served from its own files, equal to the warehouse`, async () => {
        const { served, warehouse } = await both(dbs[tenant], body)
        expect(served.servedFrom).toBe('rollup')
        expect(warehouse.servedFrom).not.toBe('rollup')
        expect(comparableResult(served)).toEqual(comparableResult(warehouse))
      })
    }
  }

  it("each tenant's total is its own database's, never the other's", async () => {
    for (const [tenant, other] of [
      [dbs.a, dbs.b],
      [dbs.b, dbs.a],
    ] as const) {
      const res = await query(tenant, { metricId: 'revenue' })
      expect(res.statusCode, res.body).toBe(200)
      const r = res.json() as Result
      expect(r.servedFrom).toMatch(/rollup|cache/)
      expect(Number(r.data[0]?.revenue)).toBeCloseTo(await dbs.ownSum(tenant), 6)
      expect(Number(r.data[0]?.revenue)).not.toBeCloseTo(await dbs.ownSum(other), 0)
    }
  })

  it('a clientId that is not a tenant database (a case variant, another database, a pattern, a quoted name) reads nothing', async () => {
    for (const hostile of [
      dbs.a.toUpperCase(),
      `${dbs.a} `,
      ...dbs.others,
      `${dbs.a.slice(0, -1)}%`,
      `${dbs.a}\`.orders`,
      `${dbs.a}".orders`,
    ]) {
      const res = await query(hostile, { metricId: 'revenue' })
      expect(res.statusCode, `${hostile}: ${res.body}`).toBe(400)
      expect(res.json().error.code).toBe('CLIENT_ID_ERROR')
    }
  })

  it('one tenant database failing: the others refreshed, it named in lastError and served from its previous files', async () => {
    const before = { a: await dbs.ownSum(dbs.a), b: await dbs.ownSum(dbs.b) }
    // a changed row in A, and B's part of the build fails
    await dbs.setAmount(dbs.a, 2, 4321.5)
    const a2 = await dbs.ownSum(dbs.a)
    expect(a2).not.toBeCloseTo(before.a, 2)
    await dbs.breakAmount(dbs.b)
    try {
      const refresh = await a.call('POST', '/api/v2/data-app/rollups/refresh', a.serviceToken, {
        workspaceName: 'perdb',
        dashboardId: 'perdb',
      })
      expect(refresh.statusCode, refresh.body).toBe(202)
      const since = ctx.logs.length
      expect(await buildDueRollups(ctx)).toEqual(['daily'])
      const state = await listed()
      expect(state.state).toBe('ready')
      const failure = notRefreshed(state.lastError)
      // B alone kept its files (no other database ever had any: none has a table this role may
      // read), and databases that keep files are named first: B is first whatever else failed
      expect(failure.kept).toBe(1)
      expect(failure.names[0]).toBe(dbs.b)
      expect(failedLogged(since)).toEqual(expect.arrayContaining([dbs.b, dbs.c]))
      expect(failedLogged(since)).not.toContain(dbs.a)
      expect(failure.of - failure.failed).toBe(1)
      expect(state.lastError).toMatch(new RegExp(`\\. ${dbs.b}: [^;]*amount`))
      // a range asked for the first time (no cached answer): A's new total from its new files,
      // B's old one from its previous files
      for (const [tenant, sum] of [
        [dbs.a, a2],
        [dbs.b, before.b],
      ] as const) {
        const res = await query(tenant, {
          metricId: 'revenue',
          dashboardFilter: { period: { startDate: '2026-01-01', endDate: '2026-03-29' } },
        })
        expect(res.statusCode, res.body).toBe(200)
        const r = res.json() as Result
        expect(r.servedFrom).toBe('rollup')
        expect(Number(r.data[0]?.revenue)).toBeCloseTo(sum, 6)
      }
    } finally {
      await dbs.repairAmount(dbs.b)
    }
  })

  it("a guest token of tenant A never reads B's files: with A's files gone, the warehouse answers A", async () => {
    const token = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: dbs.a })
    ).token as string
    const runtime = async (endDate: string) => {
      const res = await a.call('POST', `/api/v2/embed/runtime/${embedId}/query`, token, {
        metricId: 'revenue',
        dashboardFilter: { period: { startDate: '2026-01-01', endDate } },
      })
      expect(res.statusCode, res.body).toBe(200)
      return res.json() as Result
    }
    const before = await runtime('2026-03-31')
    expect(before.servedFrom).toBe('rollup')
    expect(Number(before.data[0]?.revenue)).toBeCloseTo(await dbs.ownSum(dbs.a), 6)
    const dashboard = await dashboardRow(ctx.app, 'perdb', 'perdb')
    const row = await ctx.app.services.store.db
      .selectFrom('rollups')
      .select('partitions')
      .where('dashboard_row_id', '=', dashboard.id)
      .executeTakeFirstOrThrow()
    const partitions = JSON.parse(row.partitions) as { tenant?: string; location: string }[]
    expect(new Set(partitions.map((p) => p.tenant))).toEqual(new Set([dbs.a, dbs.b]))
    const storage = ctx.app.services.rollups.storage as unknown as { pathOf(l: string): string }
    for (const p of partitions) if (p.tenant === dbs.a) rmSync(storage.pathOf(p.location), { force: true })
    // another range (not a cached answer), still every order of A
    const after = await runtime('2026-03-30')
    expect(after.servedFrom).toBe('warehouse')
    expect(comparableResult(after)).toEqual(comparableResult(before))
    // B is still served from its files
    const b = await query(dbs.b, { metricId: 'revenue', dashboardFilter: { period: 'This year' } })
    expect((b.json() as Result).servedFrom).toBe('rollup')
  })
  it('a tenant database without files (created without the table) is answered by the warehouse, then from its files once built', async () => {
    await dbs.addOrders(dbs.c)
    const sum = await dbs.ownSum(dbs.c)
    const since = ctx.logs.length
    const body = {
      metricId: 'revenue',
      dashboardFilter: { period: { startDate: '2026-01-01', endDate: '2026-03-28' } },
    }
    const fromWarehouse = await query(dbs.c, body)
    expect(fromWarehouse.statusCode, fromWarehouse.body).toBe(200)
    expect((fromWarehouse.json() as Result).servedFrom).toBe('warehouse')
    expect(Number((fromWarehouse.json() as Result).data[0]?.revenue)).toBeCloseTo(sum, 6)
    const reasons = ctx.logs.slice(since).filter((l) => /^warehouse: /.test(String(l.msg)))
    expect(reasons.map((l) => l.level)).toContain(20)
    expect(reasons.map((l) => String(l.msg)).join('\n')).toMatch(/no files for the tenant's database/)
    const refresh = await a.call('POST', '/api/v2/data-app/rollups/refresh', a.serviceToken, {
      workspaceName: 'perdb',
      dashboardId: 'perdb',
    })
    expect(refresh.statusCode, refresh.body).toBe(202)
    const built = ctx.logs.length
    expect(await buildDueRollups(ctx)).toEqual(['daily'])
    const state = await listed()
    expect(state.state).toBe('ready')
    if (engine === 'mariadb') expect(state.lastError).toBeNull()
    else {
      const failure = notRefreshed(state.lastError)
      expect(failure.names).not.toContain(dbs.c)
      expect(failedLogged(built)).not.toContain(dbs.c)
      // A, B and C built
      expect(failure.of - failure.failed).toBe(3)
    }
    const fromFiles = await query(dbs.c, {
      ...body,
      dashboardFilter: { period: { startDate: '2026-01-01', endDate: '2026-03-27' } },
    })
    expect(fromFiles.statusCode, fromFiles.body).toBe(200)
    expect((fromFiles.json() as Result).servedFrom).toBe('rollup')
    expect(Number((fromFiles.json() as Result).data[0]?.revenue)).toBeCloseTo(sum, 6)
  })

  it.runIf(engine === 'postgres')(
    'a tenant database dropped (with force) after the build listed it: named as not refreshed, the others built, nothing unhandled',
    async () => {
      const extras = dbs.pg as NonNullable<TenantDatabases['pg']>
      await dbs.setAmount(dbs.a, 3, 777.25)
      const sum = await dbs.ownSum(dbs.a)
      const refresh = await a.call('POST', '/api/v2/data-app/rollups/refresh', a.serviceToken, {
        workspaceName: 'perdb',
        dashboardId: 'perdb',
      })
      expect(refresh.statusCode, refresh.body).toBe(202)
      const since = ctx.logs.length
      // A's read waits on a lock: the build has listed its databases (the extra one among them,
      // after A), and the extra one is dropped before its turn, its idle pooled session (if the
      // previous build's is still there) terminated
      const release = await extras.lockOrders(dbs.a)
      let building: Promise<string[]> | undefined
      try {
        building = buildDueRollups(ctx)
        await until('the build waits on A', async () =>
          (await extras.sessions()).some((s) => s.database === dbs.a && s.waiting),
        )
        await extras.dropDatabase(extras.extra)
      } finally {
        await release()
      }
      expect(await building).toEqual(['daily'])
      const state = await listed()
      expect(state.state).toBe('ready')
      const failed = failedLogged(since)
      expect(failed).toContain(extras.extra)
      for (const ours of [dbs.a, dbs.b, dbs.c]) expect(failed).not.toContain(ours)
      const failure = notRefreshed(state.lastError)
      expect(failure.failed).toBe(failed.length)
      expect(failure.of - failure.failed).toBe(3)
      // A's changed row is in its new files
      const res = await query(dbs.a, {
        metricId: 'revenue',
        dashboardFilter: { period: { startDate: '2026-01-01', endDate: '2026-03-26' } },
      })
      expect(res.statusCode, res.body).toBe(200)
      expect((res.json() as Result).servedFrom).toBe('rollup')
      expect(Number((res.json() as Result).data[0]?.revenue)).toBeCloseTo(sum, 6)
    },
  )

  it.runIf(engine === 'postgres')(
    "closing the app closes its connections to every database (the pools' idle timeout is not waited for)",
    async () => {
      const extras = dbs.pg as NonNullable<TenantDatabases['pg']>
      // a warehouse query: an idle pooled session in A, and the builds' in the others
      await both(dbs.a, {
        metricId: 'revenue',
        dashboardFilter: { period: { startDate: '2026-01-02', endDate: '2026-03-26' } },
      })
      expect((await extras.sessions()).map((s) => s.database)).toContain(dbs.a)
      const started = performance.now()
      closed = true
      await ctx.close()
      await until('no session of the role left', async () => (await extras.sessions()).length === 0, 5_000)
      expect(performance.now() - started).toBeLessThan(5_000)
    },
  )
})
