/**
 * DATABASE tenancy while tenant databases are created and dropped, on each live engine (MariaDB,
 * PostgreSQL; helpers/tenant-databases.ts, names test_rt_<hex>_…, dropped after): a tenant
 * database created after the first query is accepted without a restart, a dropped one is refused
 * once the list it was accepted on is no longer held, a datasource edit drops the held list, and a
 * storm of unknown clientIds lists the databases once. The refusal is the contract's unchanged
 * (400 CLIENT_ID_ERROR `clientId: <id> is not a database of datasource <name>`). A rollup build
 * lists the databases itself: a new tenant database gets files at the next refresh. Listings are
 * counted with a spy on the datasource's connector; the server's clock (Date) stands still and is
 * moved past the hold and the recheck interval (services/query/tenant-databases.ts), not waited for.
 */
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest'
import { DATABASES_HOLD_MS, DATABASES_RECHECK_MS } from '../../src/services/query/tenant-databases.js'
import { ACCESS } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { buildDueRollups } from '../helpers/rollup-engines.js'
import { filesOf, ordersMetric, rollupDir } from '../helpers/rollups.js'
import { createTenantDatabases, type TenantDatabases, tenantDatabaseEngines } from '../helpers/tenant-databases.js'

const ENGINES = await tenantDatabaseEngines()

const document = (schema: string) => ({
  name: 'Per database',
  filters: [],
  layout: [],
  metrics: [ordersMetric.revenue(`${schema}.orders`)],
  rollups: [
    {
      name: 'daily',
      from: `${schema}.orders`,
      time: { column: 'created_at', grain: 'day' },
      dimensions: [],
      measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
    },
  ],
})

describe.each(ENGINES)('DATABASE tenancy while tenant databases come and go (%s)', (engine) => {
  let ctx: TestContext
  let dbs: TenantDatabases
  let creds: Awaited<ReturnType<typeof bootstrap>>
  let datasourceId: string
  let embedId: string
  let credentials: object

  const call = (method: 'POST' | 'PUT', url: string, payload: object, token: string) =>
    ctx.app.inject({ method, url, payload, headers: bearer(token) })
  const ok = async (method: 'POST' | 'PUT', url: string, payload: object, token = creds.serviceToken) => {
    const res = await call(method, url, payload, token)
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200)
    return res.json()
  }
  const query = (clientId: string) =>
    call('POST', '/api/v2/data-app/query', { embedId, metricId: 'revenue', clientId }, creds.dataAppKey)
  /** The tenant's revenue, which must be its own database's sum. */
  async function revenue(clientId: string): Promise<{ revenue: number; servedFrom: string }> {
    const res = await query(clientId)
    expect(res.statusCode, `${clientId}: ${res.body}`).toBe(200)
    const body = res.json() as { data: { revenue: unknown }[]; servedFrom: string }
    expect(Number(body.data[0]?.revenue)).toBeCloseTo(await dbs.ownSum(clientId), 6)
    return { revenue: Number(body.data[0]?.revenue), servedFrom: body.servedFrom }
  }
  const refused = async (clientId: string) =>
    expectError(
      await query(clientId),
      400,
      'CLIENT_ID_ERROR',
      new RegExp(`^clientId: ${clientId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a database of datasource live$`),
    )
  /** A spy on the datasource's live connector's `databases()` (a new one after each edit). */
  async function listings(): Promise<MockInstance> {
    const services = ctx.app.services
    const connector = await services.datasources.connector(await services.datasources.get(datasourceId))
    return vi.isMockFunction(connector.databases)
      ? (connector.databases as unknown as MockInstance)
      : vi.spyOn(connector, 'databases')
  }
  /** Moves the server's clock forward. */
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms)

  beforeAll(async () => {
    dbs = await createTenantDatabases(engine)
    ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0', RATE_LIMIT: '0' })
    creds = await bootstrap(ctx.app)
    credentials = { name: 'live', ...dbs.credentials }
    datasourceId = (
      await ok('POST', '/api/v2/datasource', {
        datasourceType: dbs.datasourceType,
        credentials,
        tenancySettings: { tenancyLevel: 'DATABASE' },
      })
    ).data.id as string
    await ok('POST', '/api/v2/data-app/datamarts', {
      name: 'live',
      datasourceName: 'live',
      tableList: [{ schemaName: dbs.schema, name: 'orders' }],
      relationships: [],
    })
    await ok('POST', '/api/v2/workspace', { name: 'live', connectionType: 'DATAMART', datamartName: 'live' })
    await ok('POST', '/api/v2/data-app/import-dashboard', {
      workspaceName: 'live',
      dashboardId: 'live',
      importDashboardData: document(dbs.schema),
    })
    embedId = (
      await ok(
        'POST',
        '/api/v2/data-app/embeds',
        {
          dashboardId: 'live',
          embedType: 'dashboard',
          workspaceName: 'live',
          name: 'Per database',
          accessSettings: { ...ACCESS, datamartName: 'live' },
        },
        creds.dataAppKey,
      )
    ).id as string
    vi.useFakeTimers({ toFake: ['Date'] })
  }, 120_000)

  afterAll(async () => {
    vi.useRealTimers()
    await ctx?.close()
    await dbs?.drop()
  })

  it('a tenant database created after the first query is accepted without a restart, within the recheck interval', async () => {
    const spy = await listings()
    await revenue(dbs.a)
    const first = spy.mock.calls.length
    expect(first).toBe(1)
    const created = await dbs.addDatabase()
    // asked right after a listing: decided on the held list, the refusal unchanged, nothing listed
    await refused(created)
    expect(spy.mock.calls.length).toBe(first)
    // past the recheck interval, the missing clientId lists once and is accepted
    advance(DATABASES_RECHECK_MS)
    await revenue(created)
    expect(spy.mock.calls.length).toBe(first + 1)
    // held now: no more listings
    await revenue(created)
    await revenue(dbs.b)
    expect(spy.mock.calls.length).toBe(first + 1)
  })

  it('a dropped tenant database is refused once the list it was accepted on is no longer held', async () => {
    const created = await dbs.addDatabase()
    advance(DATABASES_RECHECK_MS)
    await revenue(created)
    await dbs.dropDatabase(created)
    // the held list (and the plan decided on it) no longer holds: the fresh list has no such database
    advance(DATABASES_HOLD_MS)
    await refused(created)
    // and the tenants that remain are served
    await revenue(dbs.a)
  })

  it('200 concurrent requests with distinct unknown clientIds list the databases once, and are all refused', async () => {
    const spy = await listings()
    const storm = async (label: string) => {
      const before = spy.mock.calls.length
      const ids = Array.from({ length: 200 }, (_, i) =>
        i % 4 === 0 ? `${dbs.a.toUpperCase()}${i}` : i % 4 === 1 ? `${label}_${i}' or '1'='1` : `${label}_${i}`,
      )
      const answers = await Promise.all(ids.map((id) => query(id)))
      for (const [i, res] of answers.entries()) {
        expect(res.statusCode, res.body).toBe(400)
        expect(res.json().error).toMatchObject({
          code: 'CLIENT_ID_ERROR',
          message: `clientId: ${ids[i]} is not a database of datasource live`,
        })
      }
      return spy.mock.calls.length - before
    }
    // the held list expired: one listing for all
    advance(DATABASES_HOLD_MS)
    expect(await storm('expired')).toBe(1)
    // right after it: none
    expect(await storm('recent')).toBe(0)
    // past the recheck interval, on a held list: one
    advance(DATABASES_RECHECK_MS)
    expect(await storm('held')).toBe(1)
  })

  it('a datasource edit drops the held list: a database created just before is accepted at once', async () => {
    const created = await dbs.addDatabase()
    await refused(created)
    await ok('PUT', '/api/v2/datasource', {
      datasourceType: dbs.datasourceType,
      credentials,
      tenancySettings: { tenancyLevel: 'DATABASE' },
    })
    const spy = await listings()
    await revenue(created)
    expect(spy.mock.calls.length).toBe(1)
  })

  it('a rollup build lists the databases itself: a new tenant database gets files at the next refresh', async () => {
    expect(await buildDueRollups(ctx)).toEqual(['daily'])
    const created = await dbs.addDatabase()
    const refresh = await call(
      'POST',
      '/api/v2/data-app/rollups/refresh',
      { workspaceName: 'live', dashboardId: 'live' },
      creds.serviceToken,
    )
    expect(refresh.statusCode, refresh.body).toBe(202)
    expect(await buildDueRollups(ctx)).toEqual(['daily'])
    const dir = await rollupDir(ctx.app, ctx.config.dataDir, 'live', 'daily', 'live')
    const folder = `tenant=${created.replaceAll('_', '_5f')}`
    expect(filesOf(dir).map((f) => f.slice(dir.length + 1))).toContain(`${folder}/2026-01.parquet`)
    advance(DATABASES_RECHECK_MS)
    expect((await revenue(created)).servedFrom).toBe('rollup')
  })
})
