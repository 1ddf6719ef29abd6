/**
 * A rollup built on every live SQL engine here: PostgreSQL, MariaDB (a `mysql` datasource),
 * ClickHouse (chdb behind its HTTP front, a `clickhouse` datasource) and DuckDB (Parquet files
 * of a `csv` datasource). Each holds the same orders and customers, plus an order with no status and one
 * with no time (NULL groups). One rollup per engine (week buckets, a joined table's column, sum,
 * count, min, max, avg, the tenant columns) is built by the scheduler; its Parquet files read
 * back must equal the engine's own GROUP BY, written here in the engine's SQL. Then rows arrive
 * inside and outside the incremental window: a refresh rewrites only the window's partitions,
 * which again equal the engine's GROUP BY, and keeps the older ones as they were.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChdbFront, requireChdb, startChdbFront } from '../../src/connectors/clickhouse/standin/process.js'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { type Analytics, salesDocument, salesRelationships, salesTables, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { type ClickhouseWarehouse, createClickhouseWarehouse } from '../helpers/clickhouse-warehouse.js'
import { createMariaWarehouse, type MariaWarehouse } from '../helpers/mariadb-warehouse.js'
import { filesOf, readParquet, rollupDir } from '../helpers/rollups.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'
import { loadWarehouse, writeCsv } from '../reliability/ground-truth.js'

// locally a missing engine is skipped loudly; under CI=true each is required
const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)
const hasChdb = requireChdb('rollup builds on ClickHouse (chdb)')

type Engine = 'postgres' | 'mariadb' | 'chdb' | 'duckdb'
const ENGINES: readonly Engine[] = [
  'postgres',
  ...(hasMaria ? ['mariadb' as const] : []),
  ...(hasChdb ? ['chdb' as const] : []),
  'duckdb',
]

/** The incremental window starts on 15 July 2026 (orders run to 1 August): July and August are rebuilt. */
const WINDOW_DAYS = Math.ceil((Date.now() - Date.UTC(2026, 6, 15)) / 86_400_000)

/** An order with no status (a NULL group) and one with no time (the `null` partition). */
const NULL_ROWS = [
  { id: 901, customerId: 2, tenant: 'acme', status: null, amount: 12.5, createdAt: '2026-03-04 05:00:00' },
  { id: 902, customerId: 3, tenant: 'globex', status: 'paid', amount: 20, createdAt: null },
] as const
/** Rows arriving after the first build: one outside the window (January), one inside (late July). */
const LATE_ROWS = [
  { id: 903, customerId: 4, tenant: 'initech', status: 'paid', amount: 1000, createdAt: '2026-01-20 10:00:00' },
  { id: 904, customerId: 5, tenant: 'acme', status: 'refunded', amount: 42, createdAt: '2026-07-30 10:00:00' },
] as const

type Row = (typeof NULL_ROWS)[number] | (typeof LATE_ROWS)[number]

const weekly = (schema: string) => ({
  name: 'weekly',
  from: `${schema}.orders`,
  time: { column: 'created_at', grain: 'week' },
  dimensions: ['status', `${schema}.customers.country`],
  measures: [
    { name: 'revenue', aggregate: 'sum', column: 'amount' },
    { name: 'orders', aggregate: 'count' },
    { name: 'smallest', aggregate: 'min', column: 'amount' },
    { name: 'largest', aggregate: 'max', column: 'amount' },
    { name: 'avg_amount', aggregate: 'avg', column: 'amount' },
  ],
  refresh: { every: '1h', incremental: `${WINDOW_DAYS} days` },
})

interface Target {
  readonly workspace: string
  readonly schema: string
  /** The engine's own GROUP BY of the rollup, as rows of bucket (YYYY-MM-DD or null), dimensions, measures. */
  groupBy(): Promise<Record<string, unknown>[]>
  insert(rows: readonly Row[]): Promise<void>
}

let ctx: TestContext
let a: Analytics
let wh: PgWarehouse
let maria: MariaWarehouse | undefined
let chdb: { front: ChdbFront; warehouse?: ClickhouseWarehouse } | undefined
let duck: DuckDBInstance
const targets = new Map<Engine, Target>()

/** A rollup row or an engine's GROUP BY row as one comparable line. */
function line(r: Record<string, unknown>, schema: string, fromRollup: boolean): string {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v))
  const bucket = fromRollup ? r.created_at : r.week
  return JSON.stringify([
    bucket === null || bucket === undefined ? null : String(bucket).slice(0, 10),
    r.status ?? null,
    (fromRollup ? r[`${schema}.customers.country`] : r.country) ?? null,
    r.tenant,
    fromRollup ? r[`${schema}.customers.tenant`] : r.ctenant,
    num(r.revenue),
    num(r.orders),
    num(r.smallest),
    num(r.largest),
    num(fromRollup ? r.avg_amount__sum : r.avg_sum),
    num(fromRollup ? r.avg_amount__count : r.avg_count),
  ])
}

/** Datamart, workspace and a dashboard declaring the rollup, over datasource `name` (tables in `schema`). */
async function model(name: string, schema: string): Promise<void> {
  await a.ok('POST', '/api/v2/data-app/datamarts', a.serviceToken, {
    name,
    datasourceName: name,
    tableList: salesTables(schema),
    relationships: salesRelationships(schema),
  })
  await a.ok('POST', '/api/v2/workspace', a.serviceToken, { name, connectionType: 'DATAMART', datamartName: name })
  await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: name,
    dashboardId: 'rolled',
    importDashboardData: { ...salesDocument(schema), rollups: [weekly(schema)] },
  })
}

const TENANTS = 'o.tenant as tenant, c.tenant as ctenant'

beforeAll(async () => {
  wh = await createPgWarehouse()
  const data = await loadWarehouse(wh)
  ctx = await createTestApp('sqlite', { ROLLUP_POLL_INTERVAL_MS: '0', LOG_LEVEL: 'silent' })
  a = await setupAnalytics(ctx.app, wh)
  duck = await DuckDBInstance.create(':memory:')

  // PostgreSQL: the datasource setupAnalytics made (workspace main)
  await wh.query(
    `alter table ${wh.schema}.orders alter column status drop not null, alter column created_at drop not null`,
  )
  const pgInsert = async (rows: readonly Row[]) => {
    for (const r of rows) {
      await wh.query(`insert into ${wh.schema}.orders values ($1, $2, $3, $4, $5, $6::timestamp at time zone 'UTC')`, [
        r.id,
        r.customerId,
        r.tenant,
        r.status,
        r.amount,
        r.createdAt,
      ])
    }
  }
  await pgInsert(NULL_ROWS)
  await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: 'main',
    dashboardId: 'rolled',
    importDashboardData: { ...salesDocument(wh.schema), rollups: [weekly(wh.schema)] },
  })
  targets.set('postgres', {
    workspace: 'main',
    schema: wh.schema,
    insert: pgInsert,
    groupBy: () =>
      wh.query(
        `select to_char(date_trunc('week', o.created_at at time zone 'UTC'), 'YYYY-MM-DD') as week, o.status,
           c.country, ${TENANTS}, sum(o.amount)::float8 as revenue, count(*)::int as orders,
           min(o.amount)::float8 as smallest, max(o.amount)::float8 as largest,
           sum(o.amount)::float8 as avg_sum, count(o.amount)::int as avg_count
         from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
         group by 1, 2, 3, 4, 5`,
      ),
  })

  if (hasMaria) {
    const m = await createMariaWarehouse(data)
    maria = m
    await m.query('alter table orders modify status text null, modify created_at datetime null')
    const insert = async (rows: readonly Row[]) => {
      for (const r of rows) {
        await m.query('insert into orders values (?, ?, ?, ?, ?, ?)', [
          r.id,
          r.customerId,
          r.tenant,
          r.status,
          r.amount,
          r.createdAt,
        ])
      }
    }
    await insert(NULL_ROWS)
    await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'mysql',
      credentials: { name: 'maria', ...m.credentials },
    })
    await model('maria', m.database)
    targets.set('mariadb', {
      workspace: 'maria',
      schema: m.database,
      insert,
      groupBy: () =>
        m.query(
          `select date_format(date_sub(date(o.created_at), interval weekday(o.created_at) day), '%Y-%m-%d') as week,
             o.status, c.country, ${TENANTS}, sum(o.amount) as revenue, count(*) as orders,
             min(o.amount) as smallest, max(o.amount) as largest, sum(o.amount) as avg_sum, count(o.amount) as avg_count
           from orders o join customers c on c.id = o.customer_id
           group by 1, 2, 3, 4, 5`,
        ),
    })
  }

  if (hasChdb) {
    const front = await startChdbFront({ users: { default: '' } })
    chdb = { front }
    const copy = await createClickhouseWarehouse(data, {
      host: '127.0.0.1',
      port: front.port,
      user: 'default',
      password: '',
    })
    chdb.warehouse = copy
    const db = copy.database
    await front.admin(
      `ALTER TABLE ${db}.orders MODIFY COLUMN status Nullable(String), MODIFY COLUMN created_at Nullable(DateTime('UTC'))`,
    )
    const literal = (v: string | number | null) =>
      v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`
    const insert = async (rows: readonly Row[]) => {
      const values = rows
        .map((r) => `(${[r.id, r.customerId, r.tenant, r.status, r.amount, r.createdAt].map(literal).join(', ')})`)
        .join(', ')
      await front.admin(`INSERT INTO ${db}.orders VALUES ${values}`)
    }
    await insert(NULL_ROWS)
    await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'clickhouse',
      credentials: { name: 'chdb', ...copy.credentials },
    })
    await model('chdb', db)
    targets.set('chdb', {
      workspace: 'chdb',
      schema: db,
      insert,
      groupBy: () =>
        copy.query(
          `SELECT toString(toMonday(o.created_at)) AS week, o.status AS status, c.country AS country,
             o.tenant AS tenant, c.tenant AS ctenant, toFloat64(sum(o.amount)) AS revenue, count() AS orders,
             toFloat64(min(o.amount)) AS smallest, toFloat64(max(o.amount)) AS largest,
             toFloat64(sum(o.amount)) AS avg_sum, count(o.amount) AS avg_count
           FROM ${db}.orders AS o ALL INNER JOIN ${db}.customers AS c ON c.id = o.customer_id
           GROUP BY week, status, country, tenant, ctenant`,
        ),
    })
  }

  // DuckDB: the same rows as Parquet files of a `csv` datasource (read through views, so rows
  // written later are seen), made from CSV text (an empty field is NULL)
  const scratch = join(ctx.config.dataDir, 'csv-source')
  const files = join(ctx.config.filesRoot, 'files')
  mkdirSync(scratch, { recursive: true })
  mkdirSync(files, { recursive: true })
  writeCsv(scratch, data)
  const quoted = (path: string) => `'${path.replaceAll("'", "''")}'`
  const toParquet = async (name: string) => {
    const conn = await duck.connect()
    try {
      const staged = join(files, `.${name}.tmp`)
      await conn.run(
        `COPY (SELECT * FROM read_csv(${quoted(join(scratch, `${name}.csv`))})) TO ${quoted(staged)} (FORMAT parquet)`,
      )
      renameSync(staged, join(files, `${name}.parquet`))
    } finally {
      conn.closeSync()
    }
  }
  const duckInsert = async (rows: readonly Row[]) => {
    const cells = (r: Row) => [r.id, r.customerId, r.tenant, r.status ?? '', r.amount, r.createdAt ?? ''].join(',')
    appendFileSync(join(scratch, 'orders.csv'), `\n${rows.map(cells).join('\n')}`)
    await toParquet('orders')
  }
  await toParquet('customers')
  await duckInsert(NULL_ROWS)
  await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
    datasourceType: 'csv',
    credentials: { name: 'files', path: 'files' },
  })
  await model('files', 'main')
  const parquet = (name: string) => quoted(join(files, `${name}.parquet`))
  targets.set('duckdb', {
    workspace: 'files',
    schema: 'main',
    insert: duckInsert,
    groupBy: async () => {
      const conn = await duck.connect()
      try {
        const reader = await conn.runAndReadAll(
          `SELECT strftime(date_trunc('week', o.created_at), '%Y-%m-%d') AS week, o.status, c.country,
             o.tenant AS tenant, c.tenant AS ctenant, sum(o.amount)::DOUBLE AS revenue, count(*) AS orders,
             min(o.amount)::DOUBLE AS smallest, max(o.amount)::DOUBLE AS largest,
             sum(o.amount)::DOUBLE AS avg_sum, count(o.amount) AS avg_count
           FROM read_parquet(${parquet('orders')}) o JOIN read_parquet(${parquet('customers')}) c ON c.id = o.customer_id
           GROUP BY ALL`,
        )
        return reader.getRowObjectsJson() as Record<string, unknown>[]
      } finally {
        conn.closeSync()
      }
    },
  })
}, 180_000)

afterAll(async () => {
  duck?.closeSync()
  await ctx?.close()
  await wh?.drop()
  await maria?.drop()
  await chdb?.warehouse?.drop()
  await chdb?.front.stop()
})

describe.each(ENGINES)('a rollup built on %s', (engine) => {
  const target = () => targets.get(engine) as Target
  const dir = () => rollupDir(ctx.app, ctx.config.dataDir, 'rolled', 'weekly', target().workspace)
  const rolled = async () =>
    (await readParquet(duck, filesOf(await dir()))).map((r) => line(r, target().schema, true)).sort()
  const engineOwn = async () => (await target().groupBy()).map((r) => line(r, target().schema, false)).sort()
  const start = new Date(Date.now() + 5_000)

  it('holds exactly the engine GROUP BY: week buckets, NULL groups, tenant columns, one file per month', async () => {
    const scheduler = new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, {
      pollMs: 1000,
      leaseMs: 60_000,
    })
    await scheduler.tick(start)
    const list = (await a.ok('GET', '/api/v2/data-app/rollups', a.serviceToken)).data as Record<string, unknown>[]
    const mine = list.find((r) => r.workspaceName === target().workspace && r.dashboardId === 'rolled')
    expect(mine, JSON.stringify(list)).toMatchObject({ state: 'ready', lastError: null })
    const files = filesOf(await dir()).map((f) => f.slice(f.lastIndexOf('/') + 1))
    expect(files).toEqual([
      '2025-12.parquet', // the week of 1 January 2026 starts on Monday 29 December
      ...['01', '02', '03', '04', '05', '06', '07'].map((m) => `2026-${m}.parquet`),
      'null.parquet',
    ])
    const own = await engineOwn()
    expect(own.some((l) => l.startsWith('[null,'))).toBe(true)
    expect(own.some((l) => JSON.parse(l)[1] === null)).toBe(true)
    expect(await rolled()).toEqual(own)
  }, 180_000)

  it('an incremental refresh rewrites only the partitions of its window, which equal the engine again', async () => {
    const before = new Map(filesOf(await dir()).map((f) => [f, statSync(f).mtimeMs]))
    const old = await rolled()
    await target().insert(LATE_ROWS)
    await new Promise((r) => setTimeout(r, 20))
    const scheduler = new RollupScheduler(ctx.app.services.store, ctx.app.services.rollups, {
      pollMs: 1000,
      leaseMs: 60_000,
    })
    // each engine's refresh an hour after the previous one's (every rollup is due again then)
    await scheduler.tick(new Date(start.getTime() + 3_600_000 * (ENGINES.indexOf(engine) + 1)))
    const changed = filesOf(await dir()).filter((f) => statSync(f).mtimeMs !== before.get(f))
    expect(changed.map((f) => f.slice(f.lastIndexOf('/') + 1))).toEqual(['2026-07.parquet'])
    const now = await rolled()
    const own = await engineOwn()
    const from = (list: string[], month: string) => list.filter((l) => (JSON.parse(l)[0] ?? '') >= month)
    const january = (list: string[]) => list.filter((l) => String(JSON.parse(l)[0]).startsWith('2026-01'))
    expect(from(now, '2026-07')).toEqual(from(own, '2026-07'))
    expect(from(now, '2026-07')).not.toEqual(from(old, '2026-07'))
    // the January order arrived outside the window: the kept partition does not have it yet
    expect(january(now)).toEqual(january(old))
    expect(january(now)).not.toEqual(january(own))
  }, 180_000)
})
