/**
 * Rollups under DATABASE tenancy, end to end on a live MariaDB: two tenant databases with orders
 * of their own (no tenant column), reached by a `mysql` datasource whose user sees only those two
 * (so the datasource's databases are the tenants), with `tenancyLevel: "DATABASE"`. The scheduler
 * builds the rollup once per tenant database, into `tenant=<database>/` files; each tenant's
 * queries are served from its own files only, equal to the warehouse with serving off and to the
 * tenant database's own sums; a hostile tenant (a case variant, another name, a guest token of
 * tenant A) never reads B's files: with A's files gone, A is answered by the warehouse, from A,
 * and B is still served from its own.
 */
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import mysql from 'mysql2/promise'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCESS, type Analytics, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { MARIADB } from '../helpers/mariadb-warehouse.js'
import { buildDueRollups } from '../helpers/rollup-engines.js'
import { comparableResult, dashboardRow, filesOf, rollupDir } from '../helpers/rollups.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)

const suffix = randomBytes(4).toString('hex')
/** The tenant databases: the clientIds. */
const A = `strata_dbt_${suffix}_a`
const B = `strata_dbt_${suffix}_b`
const USER = `strata_dbt_${suffix}`
const PASSWORD = `Pw-${randomBytes(8).toString('hex')}`

let admin: mysql.Connection
let ctx: TestContext
let wh: PgWarehouse
let a: Analytics
let embedId: string

/** Orders of tenant database `db`: `n` orders, amounts and times of its own (every 7 hours from 1 January 2026). */
async function tenantDatabase(db: string, n: number, base: number): Promise<void> {
  await admin.query(`create database \`${db}\` character set utf8mb4 collate utf8mb4_general_ci`)
  await admin.query(`create table \`${db}\`.orders (id int primary key, status text not null,
    amount decimal(10,2) not null, created_at datetime not null)`)
  const rows = Array.from({ length: n }, (_, i) => [
    i + 1,
    ['paid', 'shipped', 'refunded'][i % 3] as string,
    (base + (i % 17) * 2.25).toFixed(2),
    new Date(Date.UTC(2026, 0, 1) + i * 7 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19),
  ])
  await admin.query(`insert into \`${db}\`.orders values ?`, [rows])
}

const document = (schema: string) => {
  const orders = `${schema}.orders`
  return {
    name: 'Per database',
    filters: [{ name: 'period', label: 'Order date', type: 'date-range', table: orders, column: 'created_at' }],
    layout: [],
    metrics: [
      {
        metricId: 'revenue_by_month',
        name: 'Revenue by month',
        chart: { type: 'line', x: 'month', y: ['revenue'] },
        query: {
          from: orders,
          measures: [
            { name: 'revenue', aggregate: 'sum', column: 'amount' },
            { name: 'orders', aggregate: 'count' },
            { name: 'avg', aggregate: 'avg', column: 'amount' },
          ],
          dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
          orderBy: [{ name: 'month', direction: 'asc' }],
        },
      },
      {
        metricId: 'revenue',
        name: 'Revenue',
        chart: { type: 'single-value', y: ['revenue'] },
        query: { from: orders, measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      },
    ],
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

/** The tenant database's own sum of amounts, asked of MariaDB directly. */
const ownSum = async (db: string) => {
  const [rows] = await admin.query(`select sum(amount) as s from \`${db}\`.orders`)
  return Number((rows as { s: string }[])[0]?.s)
}

describe.skipIf(!hasMaria)('rollups under DATABASE tenancy (MariaDB)', () => {
  beforeAll(async () => {
    admin = await mysql.createConnection({ ...MARIADB })
    await tenantDatabase(A, 120, 10)
    await tenantDatabase(B, 90, 1000)
    // the datasource's user sees exactly the two tenant databases
    await admin.query(`create user '${USER}'@'%' identified by '${PASSWORD}'`)
    await admin.query(`grant select on \`${A}\`.* to '${USER}'@'%'`)
    await admin.query(`grant select on \`${B}\`.* to '${USER}'@'%'`)
    wh = await createPgWarehouse()
    ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0' })
    a = await setupAnalytics(ctx.app, wh)
    const s = a.serviceToken
    await a.ok('POST', '/api/v2/datasource', s, {
      datasourceType: 'mysql',
      credentials: {
        name: 'perdb',
        host: MARIADB.host,
        port: MARIADB.port,
        user: USER,
        password: PASSWORD,
        database: A,
      },
      tenancySettings: { tenancyLevel: 'DATABASE' },
    })
    await a.ok('POST', '/api/v2/data-app/datamarts', s, {
      name: 'perdb',
      datasourceName: 'perdb',
      tableList: [{ schemaName: A, name: 'orders' }],
      relationships: [],
    })
    await a.ok('POST', '/api/v2/workspace', s, { name: 'perdb', connectionType: 'DATAMART', datamartName: 'perdb' })
    await a.ok('POST', '/api/v2/data-app/import-dashboard', s, {
      workspaceName: 'perdb',
      dashboardId: 'perdb',
      importDashboardData: document(A),
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
    expect(await buildDueRollups(ctx)).toEqual(['daily'])
  }, 180_000)

  afterAll(async () => {
    await ctx?.close()
    await wh?.drop()
    if (admin) {
      await admin.query(`drop user if exists '${USER}'@'%'`)
      await admin.query(`drop database if exists \`${A}\``)
      await admin.query(`drop database if exists \`${B}\``)
      await admin.end()
    }
  })

  it('builds once per tenant database, into files of its own', async () => {
    const dir = await rollupDir(ctx.app, ctx.config.dataDir, 'perdb', 'daily', 'perdb')
    const files = filesOf(dir).map((f) => f.slice(dir.length + 1))
    // a folder per tenant database (its name escaped: `_` is `_5f`); A's 120 orders every 7 hours
    // run into February, B's 90 stay in January
    const folder = (db: string) => `tenant=${db.replaceAll('_', '_5f')}`
    expect(files).toEqual([
      `${folder(A)}/2026-01.parquet`,
      `${folder(A)}/2026-02.parquet`,
      `${folder(B)}/2026-01.parquet`,
    ])
  })

  const cases: [string, object][] = [
    ['a sum, count and avg by month', { metricId: 'revenue_by_month' }],
    ['a sum', { metricId: 'revenue' }],
    [
      'a date range on day buckets',
      { metricId: 'revenue', dashboardFilter: { period: { startDate: '2026-01-05', endDate: '2026-02-10' } } },
    ],
  ]
  for (const tenant of [A, B]) {
    for (const [name, body] of cases) {
      it(`${tenant.endsWith('_a') ? 'A' : 'B'}: ${name}: served from its own files, equal to the warehouse`, async () => {
        const { served, warehouse } = await both(tenant, body)
        expect(served.servedFrom).toBe('rollup')
        expect(warehouse.servedFrom).not.toBe('rollup')
        expect(comparableResult(served)).toEqual(comparableResult(warehouse))
      })
    }
  }

  it("each tenant's total is its own database's, never the other's", async () => {
    for (const [tenant, other] of [
      [A, B],
      [B, A],
    ] as const) {
      const res = await query(tenant, { metricId: 'revenue' })
      expect(res.statusCode, res.body).toBe(200)
      const r = res.json() as Result
      expect(r.servedFrom).toMatch(/rollup|cache/)
      expect(Number(r.data[0]?.revenue)).toBeCloseTo(await ownSum(tenant), 6)
      expect(Number(r.data[0]?.revenue)).not.toBeCloseTo(await ownSum(other), 0)
    }
  })

  it('a clientId that is not a tenant database (a case variant, another name, a pattern) reads nothing', async () => {
    for (const hostile of [
      A.toUpperCase(),
      `${A} `,
      'mysql',
      'information_schema',
      `${A.slice(0, -1)}%`,
      `${A}\`.orders`,
    ]) {
      const res = await query(hostile, { metricId: 'revenue' })
      expect(res.statusCode, `${hostile}: ${res.body}`).toBe(400)
      expect(res.json().error.code).toBe('CLIENT_ID_ERROR')
    }
  })

  it("a guest token of tenant A never reads B's files: with A's files gone, the warehouse answers A", async () => {
    const token = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: A })
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
    expect(Number(before.data[0]?.revenue)).toBeCloseTo(await ownSum(A), 6)
    const dashboard = await dashboardRow(ctx.app, 'perdb', 'perdb')
    const row = await ctx.app.services.store.db
      .selectFrom('rollups')
      .select('partitions')
      .where('dashboard_row_id', '=', dashboard.id)
      .executeTakeFirstOrThrow()
    const partitions = JSON.parse(row.partitions) as { tenant?: string; location: string }[]
    expect(new Set(partitions.map((p) => p.tenant))).toEqual(new Set([A, B]))
    const storage = ctx.app.services.rollups.storage as unknown as { pathOf(l: string): string }
    for (const p of partitions) if (p.tenant === A) rmSync(storage.pathOf(p.location), { force: true })
    // another range (not a cached answer), still every order of A
    const after = await runtime('2026-03-30')
    expect(after.servedFrom).toBe('warehouse')
    expect(comparableResult(after)).toEqual(comparableResult(before))
    // B is still served from its files
    const b = await query(B, { metricId: 'revenue', dashboardFilter: { period: 'This year' } })
    expect((b.json() as Result).servedFrom).toBe('rollup')
  })
})
