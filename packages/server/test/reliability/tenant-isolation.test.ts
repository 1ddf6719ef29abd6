import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest'
import { MIN_VERSION_QUERY_PARAMS, versionAtLeast } from '../../src/connectors/clickhouse/request.js'
import { type ChdbFront, requireChdb, startChdbFront } from '../../src/connectors/clickhouse/standin/process.js'
import { ResultCache, type ResultKey } from '../../src/services/query/result-cache.js'
import { ACCESS, salesDocument, salesRelationships, salesTables, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import {
  type ClickhouseWarehouse,
  clickhouseVersion,
  createClickhouseWarehouse,
} from '../helpers/clickhouse-warehouse.js'
import { createMariaWarehouse, type MariaWarehouse } from '../helpers/mariadb-warehouse.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse, TENANTS } from '../helpers/warehouse.js'
import {
  actualRows,
  expectedOrders,
  expectedRows,
  type FilterSet,
  loadWarehouse,
  type Warehouse,
  writeCsv,
} from './ground-truth.js'

/**
 * docs/tenancy.md: tenancy is server-side and never trusted from the browser. A standing
 * property over several tenants, every metric of the test dashboard plus an "isolation"
 * dashboard whose metrics show the tenant columns themselves, and every filter form, with
 * injection payloads in filter values and keys, clientId, metricId and embedId; through the
 * browser's runtime API (guest token, with pinned filters the end user tries to widen) and
 * the backend's metric query (secret key). Rows are checked against the warehouse itself
 * (ground-truth.ts): zero foreign rows ever, and the exact rows whenever the filters are ones
 * the model covers. Runs on PostgreSQL, on DuckDB (a `csv` datasource over the same data), on
 * MariaDB (a `mysql` datasource over the same rows copied into a database of their own), on
 * ClickHouse (a `clickhouse` datasource, likewise) and on a current ClickHouse engine (chdb
 * behind its HTTP front, src/connectors/clickhouse/standin: a second `clickhouse` datasource, likewise), where
 * every case is checked like every other backend's: its clientId and filter values are bound
 * by the engine as query parameters. Each runtime case that answers is asked again for the rows
 * behind its metric (POST …/underlying, same token and filters): never a tenant column, and only
 * the tenant's own rows.
 *
 * ClickHouse is tested as deployed here: Debian's 18.16, older than query parameters (19.11),
 * so the connector refuses every statement with a bound value (DATASOURCE_NOT_SUPPORTED, 400)
 * rather than splice it. Every tenant-scoped query binds the clientId, so there only `None`
 * without filter values can answer rows. The oracle is the same as elsewhere (any 200 is
 * checked against the ground truth, any other answer is a 4xx in the error shape); on top of
 * it every ClickHouse case is matched with the statement the server compiled for it (seen at
 * the result cache, which every metric query passes, hit or miss, with its SQL and bound
 * values): a 200 only for a statement with no bound value, DATASOURCE_NOT_SUPPORTED for one
 * with any, and no other refusal once a statement exists. On a server with query parameters
 * the ClickHouse cases are checked like every other backend's.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
// locally a missing MariaDB or ClickHouse leaves the property to the other backends (loudly); under CI=true it fails
const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)
const hasClickhouse = await requireService('ClickHouse', '127.0.0.1', 8123)
const chVersion = hasClickhouse ? await clickhouseVersion() : ''
const hasChdb = requireChdb('the tenant-isolation property on a current ClickHouse (chdb)')
/** The local ClickHouse binds no query parameter (before 19.11; Debian's 18.16 here). */
const chNoParams = hasClickhouse && !versionAtLeast(chVersion, MIN_VERSION_QUERY_PARAMS)
const RUNS = Number(process.env.ISOLATION_RUNS ?? 300)

/** Metrics that show the tenant columns: any foreign row is visible as such. */
function isolationDocument(schema: string) {
  const sales = salesDocument(schema)
  return {
    name: 'Isolation',
    filters: sales.filters,
    layout: [],
    metrics: [
      {
        metricId: 'order_rows',
        name: 'Order rows',
        chart: { type: 'table' },
        query: {
          from: `${schema}.orders`,
          dimensions: [
            { name: 'id', column: 'id' },
            { name: 'tenant', column: 'tenant' },
            { name: 'customer_tenant', table: `${schema}.customers`, column: 'tenant' },
          ],
          orderBy: [{ name: 'id', direction: 'asc' }],
        },
      },
      {
        metricId: 'tenants',
        name: 'Tenants',
        chart: { type: 'table' },
        query: {
          from: `${schema}.orders`,
          measures: [{ name: 'orders', aggregate: 'count' }],
          dimensions: [
            { name: 'tenant', column: 'tenant' },
            { name: 'customer_tenant', table: `${schema}.customers`, column: 'tenant' },
          ],
        },
      },
      {
        metricId: 'customer_rows',
        name: 'Customer rows',
        chart: { type: 'table' },
        query: {
          from: `${schema}.customers`,
          dimensions: [
            { name: 'id', column: 'id' },
            { name: 'tenant', column: 'tenant' },
          ],
        },
      },
      {
        metricId: 'sql_tenants',
        name: 'Tenants (SQL)',
        chart: { type: 'table' },
        sql: `select tenant, count(*) as n from ${schema}.orders where tenant = {{clientId}} group by tenant`,
      },
      // Issue 12: SQL metrics written without {{clientId}}, scoped structurally by the server.
      {
        metricId: 'sql_scoped',
        name: 'Tenants (SQL, scoped by the server)',
        chart: { type: 'table' },
        sql: `select tenant, count(*) as n from ${schema}.orders group by tenant`,
      },
      {
        metricId: 'sql_scoped_cte',
        name: 'Tenants (SQL, a CTE named like the table)',
        chart: { type: 'table' },
        sql: `with orders as (select * from ${schema}.orders) select tenant, count(*) as n from orders group by tenant`,
      },
    ],
  }
}

const SALES_METRICS = ['revenue', 'revenue_by_country', 'orders_by_month'] as const
const ISOLATION_METRICS = [
  'order_rows',
  'tenants',
  'customer_rows',
  'sql_tenants',
  'sql_scoped',
  'sql_scoped_cte',
] as const
const SQL_METRICS: readonly string[] = ['sql_tenants', 'sql_scoped', 'sql_scoped_cte']

type BackendName = 'postgres' | 'duckdb' | 'mariadb' | 'clickhouse' | 'chdb'
const BACKENDS: readonly BackendName[] = [
  'postgres',
  'duckdb',
  ...(hasMaria ? (['mariadb'] as const) : []),
  ...(hasClickhouse ? (['clickhouse'] as const) : []),
  ...(hasChdb ? (['chdb'] as const) : []),
]

interface Backend {
  readonly name: BackendName
  /** dashboard → its external id and embed id */
  readonly sales: { dashboardId: string; embedId: string }
  readonly isolation: { dashboardId: string; embedId: string }
}

/**
 * An order as a copy (MariaDB, ClickHouse) answers it: amount as text and created_at as an ISO
 * string, the customer's country and tenant joined; in the shape of ground-truth.ts.
 */
function copiedOrder(o: Record<string, unknown>) {
  return {
    id: Number(o.id),
    customerId: Number(o.customer_id),
    tenant: o.tenant,
    status: o.status,
    amount: Number(o.amount),
    createdAt: Date.parse(String(o.created_at)),
    country: o.country,
    customerTenant: o.customer_tenant,
  }
}

type Row = Record<string, unknown>

// ── generators ────────────────────────────────────────────────────────────────

const INJECTIONS = [
  "acme' OR '1'='1",
  "' OR 1=1 --",
  "globex'; drop table orders; --",
  '%',
  '*',
  '{{clientId}}',
  'acme\u0000',
  'ACME',
  'acme ',
  'none',
  'acme,globex',
  '["acme","globex"]',
  '$1',
  '\\',
]
const tenantArb = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...TENANTS) },
  { weight: 1, arbitrary: fc.constant('None') },
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
)
const textValue = (known: readonly string[]) =>
  fc.oneof(
    { weight: 10, arbitrary: fc.subarray([...known, ...INJECTIONS.slice(0, 4)]) },
    { weight: 4, arbitrary: fc.constantFrom(...known, ...INJECTIONS) },
    { weight: 2, arbitrary: fc.constantFrom<unknown>(1, true, null, [1, 2], { min: 1 }, 'Last 90 days', []) },
    { weight: 1, arbitrary: fc.constantFrom({ sql: 'select country from customers', columnName: 'country' }) },
  )
const dayArb = fc.date({ min: new Date('2025-12-01'), max: new Date('2026-09-01'), noInvalidDate: true })
const periodValue = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.tuple(dayArb, dayArb).map(([a, b]) => {
      const [s, e] = a <= b ? [a, b] : [b, a]
      return { startDate: s.toISOString().slice(0, 10), endDate: e.toISOString().slice(0, 10) }
    }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>('This year', 'Last 90 days', 'All time', 'Last year', 'Today'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { startDate: "2026-01-01' OR '1'='1", endDate: '2026-02-01' },
      { startDate: '2026-13-01', endDate: '2026-02-01' },
      "2026-01-01'; --",
      { sql: 'select created_at from orders', columnName: 'created_at' },
    ),
  },
)
const amountValue = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({ min: fc.integer({ min: 0, max: 200 }), max: fc.integer({ min: 0, max: 200 }) }, { requiredKeys: [] })
      .filter((v) => Object.keys(v).length > 0),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ min: '10 OR 1=1' }, { min: 5, max: 1 }, 42, '50') },
)

/** A filter object keyed by name, label or a case/space variant; sometimes a key no filter has. */
const keyOf = (name: string, label: string) =>
  fc.constantFrom(name, label, label.toUpperCase(), ` ${name} `, name.toUpperCase())
const dashboardFilterArb = fc
  .record(
    {
      country: fc.tuple(keyOf('country', 'Country'), textValue(['DE', 'FR', 'US', 'JP'])),
      status: fc.tuple(keyOf('status', 'Order status'), textValue(['paid', 'shipped', 'refunded'])),
      amount: fc.tuple(keyOf('amount', 'Amount'), amountValue),
      period: fc.tuple(keyOf('period', 'Order date'), periodValue),
      stray: fc.tuple(
        fc.constantFrom('tenant', 'clientId', "country' OR 1=1 --", '__proto__', 'constructor', 'orders.tenant'),
        fc.constantFrom<unknown>('globex', ['acme', 'globex'], true),
      ),
    },
    { requiredKeys: [] },
  )
  .map((r) => {
    const out: Record<string, unknown> = {}
    for (const [, [key, value]] of Object.entries(r)) {
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
    }
    return out
  })
// the stray key is rare: most cases must reach the query
/**
 * Drill-down inputs (issue 28): ordinary values of visible columns, and hostile ones: another
 * tenant's values, injections, the tenant column by name, tables and columns the model does not
 * show, ranges on dates, and a date dimension at another grain.
 */
const validDrillArb = fc.oneof(
  fc.record({
    table: fc.constant('orders'),
    column: fc.constant('status'),
    value: fc.constantFrom<unknown>('paid', 'shipped', ...TENANTS, ...INJECTIONS),
  }),
  fc.record({
    table: fc.constant('customers'),
    column: fc.constant('country'),
    value: fc.constantFrom<unknown>('DE', 'FR', 'US', ...TENANTS, ...INJECTIONS),
  }),
  fc.record({
    table: fc.constant('orders'),
    column: fc.constant('created_at'),
    value: fc.constantFrom<unknown>(
      { startDate: '2026-01-01', endDate: '2026-03-31' },
      { startDate: '2025-01-01', endDate: '2026-12-31' },
    ),
  }),
)
const hostileDrillArb = fc.record({
  table: fc.constantFrom('orders', 'customers', 'ORDERS', "orders' OR 1=1 --", 'pg_catalog.pg_user', 'secrets'),
  column: fc.constantFrom('status', 'country', 'tenant', 'customer_tenant', 'id', 'created_at', 'nope', 'tenant '),
  value: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<unknown>('paid', 'shipped', 'DE', 'FR', 1, 2) },
    { weight: 3, arbitrary: fc.constantFrom<unknown>(...TENANTS, ...INJECTIONS) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        { startDate: '2026-01-01', endDate: '2026-03-31' },
        { startDate: '2025-01-01', endDate: '2026-12-31' },
        { startDate: '2026-03-01', endDate: '2026-01-01' },
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, ['acme', 'globex'], { sql: 'select 1', columnName: 'x' }) },
  ),
})
const drillFiltersArb = fc.array(
  fc.oneof({ weight: 3, arbitrary: validDrillArb }, { weight: 1, arbitrary: hostileDrillArb }),
  { minLength: 1, maxLength: 2 },
)
const drillArb = fc.oneof(
  { weight: 4, arbitrary: fc.record({ filters: drillFiltersArb }) },
  {
    weight: 1,
    arbitrary: fc.record({
      filters: drillFiltersArb,
      timeGrain: fc.record({
        dimension: fc.constantFrom('month', 'month', 'tenant', 'country'),
        grain: fc.constantFrom<unknown>('day', 'year', 'quarter', 'hour'),
      }),
    }),
  },
)

const filtersArb = fc.oneof(
  { weight: 6, arbitrary: dashboardFilterArb.filter((f) => !Object.keys(f).some(isStray)) },
  { weight: 1, arbitrary: dashboardFilterArb },
)
const metricFilterArb = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(keyOf('paid', 'Paid only'), textValue(['paid', 'shipped', 'refunded'])) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('tenant', 'status', 'Country'), fc.constant<unknown>(['x'])) },
)
function isStray(key: string): boolean {
  return ['tenant', 'clientid', "country' or 1=1 --", '__proto__', 'constructor', 'orders.tenant'].includes(
    key.toLowerCase(),
  )
}

/** `arb` one time in `n`, else null. */
const oneIn = <T>(n: number, arb: fc.Arbitrary<T>): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb })

/**
 * On a ClickHouse without query parameters only `None` can reach rows (every clientId is a bound
 * value): there its cases draw `None` as often as every other clientId together, so the 200
 * path is checked against the ground truth too, while half of them still carry a tenant or an
 * injection payload that must be refused. On every other backend the draw is tenantArb's.
 */
const clickhouseTenantArb = fc.oneof({ weight: 1, arbitrary: fc.constant('None') }, { weight: 1, arbitrary: tenantArb })
const caseArb = fc.constantFrom<BackendName>(...BACKENDS).chain((backend) =>
  fc.record({
    backend: fc.constant(backend),
    path: fc.constantFrom<'runtime' | 'secret'>('runtime', 'runtime', 'secret'),
    tenant: backend === 'clickhouse' && chNoParams ? clickhouseTenantArb : tenantArb,
    metric: fc.oneof(
      {
        weight: 25,
        arbitrary: fc.constantFrom<string>(
          ...SALES_METRICS,
          // ClickHouse 18.16 has no WITH … AS (subquery)
          ...ISOLATION_METRICS.filter((m) => backend !== 'clickhouse' || m !== 'sql_scoped_cte'),
        ),
      },
      { weight: 1, arbitrary: fc.constantFrom("revenue' OR '1'='1", '../order_rows', 'REVENUE', '__proto__') },
    ),
    pinned: oneIn(3, filtersArb),
    app: oneIn(4, metricFilterArb),
    dashboardFilter: oneIn(2, filtersArb),
    metricFilter: oneIn(6, metricFilterArb),
    drill: oneIn(3, drillArb),
    embedRef: fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom<'embed' | 'dashboard'>('embed', 'dashboard') },
      {
        weight: 1,
        arbitrary: fc.constantFrom("x' OR '1'='1", '%2e%2e', 'emb_', '*', 'sales-overview%00', '..%2Fisolation'),
      },
    ),
    extra: oneIn(
      20,
      fc.constantFrom<Record<string, unknown>>(
        { clientId: 'globex' },
        { tenant: 'globex' },
        { datasourceName: 'warehouse' },
        { sql: 'select * from orders' },
        { rlsSettings: [] },
      ),
    ),
  }),
)
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never

// ── the property ──────────────────────────────────────────────────────────────

describe.skipIf(!hasPg)('tenant isolation (property: zero foreign rows, ever)', () => {
  let wh: PgWarehouse
  let t: TestContext
  let a: Awaited<ReturnType<typeof setupAnalytics>>
  let data: Warehouse
  let maria: MariaWarehouse | undefined
  let ch: ClickhouseWarehouse | undefined
  let chdb: { front: ChdbFront; warehouse?: ClickhouseWarehouse } | undefined
  /** Every metric statement the server runs or answers from its cache: SQL and bound values. */
  let statements: MockInstance<ResultCache<object>['get']> | undefined
  const backends: Record<BackendName, Backend> = {} as never
  let chOpen: Backend | undefined
  const tokens = new Map<string, { status: number; token?: string }>()

  const embed = async (dashboardId: string, workspaceName: string, datamartName: string) =>
    (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId,
        embedType: 'dashboard',
        workspaceName,
        accessSettings: { ...ACCESS, datamartName },
      })
    ).id as string

  /**
   * The isolation document as `backend` can run it: ClickHouse 18.16 has no WITH … AS
   * (subquery), and import now runs every metric (docs/api.md#dashboards-as-code), so it would refuse
   * sql_scoped_cte there.
   */
  function withoutUnsupported(document: ReturnType<typeof isolationDocument>, backend: string) {
    if (backend !== 'clickhouse') return document
    const keep = (m: { metricId: string }) => m.metricId !== 'sql_scoped_cte'
    return { ...document, metrics: document.metrics.filter(keep), layout: document.layout.filter(keep) }
  }

  /**
   * For a datasource `name` (already created) holding `orders` and `customers` in `schema`: a
   * datamart and a workspace of the same name, the sales and isolation dashboards as
   * `<name>-sales` and `<name>-isolation`, and their embeds.
   */
  async function modelBackend(
    backend: BackendName,
    name: string,
    schema: string,
    { datasource = name, tenanted = true } = {},
  ): Promise<Backend> {
    await a.ok('POST', '/api/v2/data-app/datamarts', a.serviceToken, {
      name,
      datasourceName: datasource,
      tableList: salesTables(schema).map(({ clientColumn, ...table }) =>
        tenanted ? { ...table, clientColumn } : table,
      ),
      relationships: salesRelationships(schema),
    })
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, { name, connectionType: 'DATAMART', datamartName: name })
    const dashboards = { sales: `${name}-sales`, isolation: `${name}-isolation` }
    for (const [dashboardId, document] of [
      [dashboards.sales, salesDocument(schema)],
      [dashboards.isolation, withoutUnsupported(isolationDocument(schema), backend)],
    ] as const) {
      await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
        workspaceName: name,
        dashboardId,
        importDashboardData: document,
      })
    }
    return {
      name: backend,
      sales: { dashboardId: dashboards.sales, embedId: await embed(dashboards.sales, name, name) },
      isolation: { dashboardId: dashboards.isolation, embedId: await embed(dashboards.isolation, name, name) },
    }
  }

  beforeAll(async () => {
    wh = await createPgWarehouse()
    data = await loadWarehouse(wh)
    t = await createTestApp('sqlite', { LOG_LEVEL: 'silent', RATE_LIMIT: '0' })
    a = await setupAnalytics(t.app, wh)
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'isolation',
      importDashboardData: isolationDocument(wh.schema),
    })
    backends.postgres = {
      name: 'postgres',
      sales: { dashboardId: 'sales-overview', embedId: a.embedId },
      isolation: { dashboardId: 'isolation', embedId: await embed('isolation', 'main', 'sales') },
    }
    // DuckDB: the same rows as CSV files, a csv datasource, its own datamart and workspace
    mkdirSync(join(t.config.filesRoot, 'files'), { recursive: true })
    writeCsv(join(t.config.filesRoot, 'files'), data)
    await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'csv',
      credentials: { name: 'files', path: 'files' },
    })
    backends.duckdb = await modelBackend('duckdb', 'files', 'main')
    if (hasMaria) await setupMaria()
    if (hasClickhouse) await setupClickhouse()
    if (hasChdb) await setupChdb()
    statements = vi.spyOn(ResultCache.prototype, 'get')
  })

  /** MariaDB: the same rows in a database of their own, a mysql datasource, its own datamart and workspace. */
  async function setupMaria(): Promise<void> {
    maria = await createMariaWarehouse(data)
    const db = maria.database
    // the copy is the warehouse, value for value (else the ground truth would not be MariaDB's)
    const copied = await maria.query<Record<string, unknown>>(
      `select o.id, o.customer_id, o.tenant, o.status, cast(o.amount as char) as amount,
              date_format(o.created_at, '%Y-%m-%dT%H:%i:%sZ') as created_at, c.country, c.tenant as customer_tenant
         from orders o join customers c on c.id = o.customer_id order by o.id`,
    )
    expect(copied.map(copiedOrder)).toEqual(data.orders)
    expect(await maria.query('select id, country, tenant from customers order by id')).toEqual(data.customers)
    await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'mysql',
      credentials: { name: 'maria', ...maria.credentials },
    })
    backends.mariadb = await modelBackend('mariadb', 'maria', db)
  }

  /** ClickHouse: the same rows in a database of their own, a clickhouse datasource, its own datamart and workspace. */
  async function setupClickhouse(): Promise<void> {
    ch = await createClickhouseWarehouse(data)
    backends.clickhouse = await clickhouseBackend('clickhouse', ch)
    // the same tables with no tenancy configured: where clientId None may answer (see caseArb)
    chOpen = await modelBackend('clickhouse', 'clickhouseopen', ch.database, {
      datasource: 'clickhouse',
      tenanted: false,
    })
  }

  /** A current ClickHouse engine (chdb behind its HTTP front): likewise, as datasource `chdb`. */
  async function setupChdb(): Promise<void> {
    const front = await startChdbFront({ users: { default: '', strata: 'chdb-pw' } })
    chdb = { front }
    chdb.warehouse = await createClickhouseWarehouse(data, {
      host: '127.0.0.1',
      port: front.port,
      user: 'default',
      password: '',
    })
    backends.chdb = await clickhouseBackend('chdb', chdb.warehouse, { user: 'strata', password: 'chdb-pw' })
  }

  /**
   * A clickhouse datasource `name` over a ClickHouse copy of the warehouse (as `login`, else the
   * copy's own user), its datamart, workspace, dashboards and embeds.
   */
  async function clickhouseBackend(
    name: 'clickhouse' | 'chdb',
    copy: ClickhouseWarehouse,
    login?: { user: string; password: string },
  ): Promise<Backend> {
    const db = copy.database
    // the copy is the warehouse, value for value (else the ground truth would not be ClickHouse's);
    // not formatDateTime: its %M is the minute before 23.4 and the month's name since; ALL, not
    // ANY: a modern ANY INNER JOIN keeps one row per key on both sides (an order per customer)
    const copied = await copy.query<Record<string, unknown>>(
      `SELECT o.id AS id, o.customer_id AS customer_id, o.tenant AS tenant, o.status AS status,
              toString(o.amount) AS amount, concat(replaceOne(toString(o.created_at), ' ', 'T'), 'Z') AS created_at,
              c.country AS country, c.tenant AS customer_tenant
         FROM ${db}.orders AS o ALL INNER JOIN ${db}.customers AS c ON c.id = o.customer_id ORDER BY id`,
    )
    expect(copied.map(copiedOrder)).toEqual(data.orders)
    expect(await copy.query(`SELECT id, country, tenant FROM ${db}.customers ORDER BY id`)).toEqual(data.customers)
    await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'clickhouse',
      credentials: { name, ...copy.credentials, ...login },
    })
    return modelBackend(name, name, db)
  }

  afterAll(async () => {
    statements?.mockRestore()
    await t?.close()
    await wh?.drop()
    await maria?.drop()
    await ch?.drop()
    await chdb?.warehouse?.drop()
    await chdb?.front.stop()
  })

  const ALL_DASHBOARDS = [
    'sales-overview',
    'isolation',
    'files-sales',
    'files-isolation',
    ...(hasMaria ? ['maria-sales', 'maria-isolation'] : []),
    ...(hasClickhouse
      ? ['clickhouse-sales', 'clickhouse-isolation', 'clickhouseopen-sales', 'clickhouseopen-isolation']
      : []),
    ...(hasChdb ? ['chdb-sales', 'chdb-isolation'] : []),
  ]

  /** A guest token for the case's tenant, pinned filters and app filters (minted once per combination). */
  async function tokenFor(c: Case): Promise<{ status: number; token?: string }> {
    const params: Record<string, unknown> = {}
    if (c.pinned) params.dashboardAppFilters = ALL_DASHBOARDS.map((dashboardId) => ({ dashboardId, values: c.pinned }))
    if (c.app) params.appFilters = [{ metricId: 'revenue_by_country', values: { [c.app[0]]: c.app[1] } }]
    const body = { dataAppName: 'salesapp', clientId: c.tenant, params }
    const key = JSON.stringify(body)
    let known = tokens.get(key)
    if (!known) {
      const res = await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, body)
      known = res.statusCode === 200 ? { status: 200, token: res.json().token } : { status: res.statusCode }
      tokens.set(key, known)
    }
    return known
  }

  const stats = {
    cases: 0,
    answered200: 0,
    exact: 0,
    boundedOnly: 0,
    refused: 0,
    mintRefused: 0,
    foreignRows: 0,
    underlying: 0,
    underlying200: 0,
    drill200: 0,
  }
  const byBackend: Record<string, number> = {}
  /** Cases generated per backend (token refusals included), and those checked row for row. */
  const casesOn: Record<string, number> = {}
  const exactOn: Record<string, number> = {}
  /** Cases sent with a drill: their rows are checked for foreign rows only (the narrowing is not modelled). */
  const drilledOn: Record<string, number> = {}
  const refusals: Record<string, number> = {}
  /** ClickHouse cases that reached the server, and how they were answered. */
  const chStats = { cases: 0, answered200: 0, notSupported: 0 }

  /** How many values a statement binds (its main, count and comparison queries together). */
  const boundValues = (key: ResultKey) =>
    key.params.reduce<number>((n, p) => n + (Array.isArray(p) ? p.length : p === null ? 0 : 1), 0)

  /**
   * A ClickHouse case, against the statements the server compiled for it. Without query
   * parameters (before 19.11) a statement with any bound value must be refused with
   * DATASOURCE_NOT_SUPPORTED, and only a statement with none may answer 200; the tenancy binds
   * the clientId, so that is never a tenant-scoped query. A statement without bound values that
   * still fails would be a construct the server lacks: reported, not tolerated.
   */
  function checkClickhouse(c: Case, res: Awaited<ReturnType<typeof a.call>>, seen: ResultKey[], label: string) {
    chStats.cases++
    const code: unknown = res.statusCode === 200 ? undefined : res.json().error?.code
    if (res.statusCode === 200) chStats.answered200++
    if (code === 'DATASOURCE_NOT_SUPPORTED') chStats.notSupported++
    if (!chNoParams) return
    const bound = seen.reduce((n, key) => n + boundValues(key), 0)
    if (res.statusCode === 200) {
      expect(c.tenant, `ClickHouse ${chVersion} answered 200 to a tenant-scoped query: ${label}`).toBe('None')
      expect(seen.length, `a 200 without a statement: ${label}`).toBeGreaterThan(0)
      expect(bound, `ClickHouse ${chVersion} answered 200 to a statement with bound values: ${label}`).toBe(0)
      for (const key of seen) expect(key.sql, label).not.toMatch(/\{p\d+:/)
    } else if (bound > 0) {
      expect([res.statusCode, code], label).toEqual([400, 'DATASOURCE_NOT_SUPPORTED'])
    } else if (seen.length > 0) {
      expect.fail(`ClickHouse ${chVersion} failed a statement without bound values: ${label}`)
    } else {
      // refused before any statement was compiled: the same request refusals as on every backend
      expect(code, label).not.toBe('DATASOURCE_NOT_SUPPORTED')
    }
  }

  /**
   * The rows behind the same metric, with the same token and filters (issue 28): never a tenant
   * column, and on a 200 only the tenant's own orders or customers (by id).
   */
  async function checkUnderlying(
    c: Case,
    ref: string,
    body: Record<string, unknown>,
    token: string,
    tenant: string | null,
    label: string,
  ): Promise<void> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v2/embed/runtime/${encodeURIComponent(ref)}/underlying`,
      payload: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    })
    const where = `underlying ${label} → ${res.statusCode} ${res.body.slice(0, 300)}`
    expect(res.statusCode, where).toBeLessThan(500)
    stats.underlying++
    if (res.statusCode !== 200) return
    stats.underlying200++
    const answer = res.json() as { data: Record<string, unknown>[]; metaData: { columns: { name: string }[] } }
    // `None` on the open ClickHouse datasource (no tenancy declared): `tenant` is a plain column there
    if (tenant === null) return
    const shown = answer.metaData.columns.map((col) => col.name)
    expect(shown, where).not.toContain('tenant')
    const orders = new Set(data.orders.filter((o) => o.tenant === tenant).map((o) => o.id))
    const customers = new Set(data.customers.filter((x) => x.tenant === tenant).map((x) => x.id))
    for (const row of answer.data) {
      expect('tenant' in row, where).toBe(false)
      const own = 'customer_id' in row ? orders : customers
      if (!own.has(Number(row.id))) {
        stats.foreignRows++
        expect.fail(`foreign underlying row ${JSON.stringify(row)} (${c.backend}): ${where}`)
      }
    }
  }

  async function runCase(c: Case): Promise<void> {
    stats.cases++
    casesOn[c.backend] = (casesOn[c.backend] ?? 0) + 1
    // None is refused wherever tenancy is configured (every backend's datamart has client
    // columns); on a ClickHouse without query parameters it is the one clientId that can answer
    // rows, so there it queries the same tables through a datamart without tenancy
    const backend =
      c.backend === 'clickhouse' && chNoParams && c.tenant === 'None' && chOpen ? chOpen : backends[c.backend]
    const dashboard = (SALES_METRICS as readonly string[]).includes(c.metric) ? backend.sales : backend.isolation
    const ref =
      c.embedRef === 'embed' ? dashboard.embedId : c.embedRef === 'dashboard' ? dashboard.dashboardId : c.embedRef
    const hostileRef = c.embedRef !== 'embed' && c.embedRef !== 'dashboard'
    const metricFilter = c.metricFilter ? { [c.metricFilter[0]]: c.metricFilter[1] } : undefined
    const body: Record<string, unknown> = { metricId: c.metric, ...(c.extra ?? {}) }
    if (c.dashboardFilter) body.dashboardFilter = c.dashboardFilter
    if (metricFilter) body.metricFilter = metricFilter
    // drill-down is the browser's (the secret key's query takes none)
    if (c.drill && c.path === 'runtime') {
      body.drill = c.drill
      drilledOn[c.backend] = (drilledOn[c.backend] ?? 0) + 1
    }
    let res: Awaited<ReturnType<typeof a.call>>
    let guestToken: string | undefined
    const mark = statements?.mock.calls.length ?? 0
    if (c.path === 'runtime') {
      const minted = await tokenFor(c)
      guestToken = minted.token
      if (!minted.token) {
        // a token the backend could not mint cannot leak: a 400 naming the bad value
        expect(minted.status).toBe(400)
        stats.mintRefused++
        return
      }
      const url = `/api/v2/embed/runtime/${encodeURIComponent(ref)}/query`
      res = await t.app.inject({
        method: 'POST',
        url,
        payload: JSON.stringify(body),
        headers: { authorization: `Bearer ${minted.token}`, 'content-type': 'application/json' },
      })
    } else {
      // the backend names embeds by id (a dashboard id is the browser's shortcut only)
      body.embedId = hostileRef ? ref : dashboard.embedId
      res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/data-app/query',
        payload: JSON.stringify({ ...body, clientId: c.tenant }),
        headers: { authorization: `Bearer ${a.dataAppKey}`, 'content-type': 'application/json' },
      })
    }
    const label = `${c.backend}/${c.path} ${JSON.stringify(c)} → ${res.statusCode} ${res.body.slice(0, 400)}`
    expect(res.statusCode, label).toBeLessThan(500)
    if (c.backend === 'clickhouse') {
      const seen = (statements?.mock.calls.slice(mark) ?? []).map(([key]) => key)
      checkClickhouse(c, res, seen, label)
    }
    // the request shapes that must be refused whatever the filters
    // on the secret path clientId and datasourceName are fields of the body (the body's clientId wins)
    const extraKeys = Object.keys(c.extra ?? {}).filter(
      (k) => c.path === 'runtime' || (k !== 'clientId' && k !== 'datasourceName'),
    )
    const mustRefuse =
      extraKeys.length > 0 || hostileRef || ![...SALES_METRICS, ...ISOLATION_METRICS].includes(c.metric as never)
    if (mustRefuse) {
      expect(res.statusCode, label).toBeGreaterThanOrEqual(400)
      stats.refused++
      return
    }
    const userSql = (f: Record<string, unknown> | undefined) =>
      Object.values(f ?? {}).some((v) => typeof v === 'object' && v !== null && 'sql' in v)
    // a SQL-driven list from the browser: never (a SQL metric applies no dashboard filter at all,
    // so there the list is never compiled, let alone run)
    const sqlMetric = SQL_METRICS.includes(c.metric)
    if (c.path === 'runtime' && ((!sqlMetric && userSql(c.dashboardFilter ?? undefined)) || userSql(metricFilter))) {
      expect(res.statusCode, label).toBe(400)
      stats.refused++
      return
    }
    if (res.statusCode !== 200) {
      expect(res.json().error?.code, label).toMatch(/^[A-Z_]+$/)
      const why = `${c.backend} ${res.statusCode} ${res.json().error.code} ${String(res.json().error.message).slice(0, 60)}`
      refusals[why] = (refusals[why] ?? 0) + 1
      stats.refused++
      return
    }
    expect(backend !== chOpen && c.tenant === 'None', `None answered 200 under tenancy: ${label}`).toBe(false)
    stats.answered200++
    const drilled = body.drill !== undefined
    if (drilled) stats.drill200++
    byBackend[c.backend] = (byBackend[c.backend] ?? 0) + 1
    const rows = res.json().data as Record<string, unknown>[]
    const tenant = c.tenant === 'None' ? null : c.tenant
    if (guestToken && !sqlMetric) await checkUnderlying(c, ref, body, guestToken, tenant, label)
    const filters: FilterSet = {
      ...(c.path === 'runtime' && c.pinned ? { pinned: c.pinned } : {}),
      ...(c.path === 'runtime' && c.app && c.metric === 'revenue_by_country' ? { app: { [c.app[0]]: c.app[1] } } : {}),
      ...(c.dashboardFilter ? { dashboard: c.dashboardFilter } : {}),
      ...(metricFilter ? { metric: metricFilter } : {}),
    }
    // 1. the tenant columns, where the metric shows them: only the token's (or the body's) tenant
    for (const row of rows) {
      for (const column of ['tenant', 'customer_tenant'] as const) {
        if (column in row && tenant !== null && row[column] !== tenant) {
          stats.foreignRows++
          expect.fail(`foreign row ${JSON.stringify(row)}: ${label}`)
        }
      }
    }
    if (c.metric === 'customer_rows' || c.metric === 'tenants' || SQL_METRICS.includes(c.metric)) {
      if (tenant !== null) {
        const own = new Set(data.customers.filter((x) => x.tenant === tenant).map((x) => x.id))
        if (c.metric === 'customer_rows') for (const row of rows) expect(own.has(Number(row.id)), label).toBe(true)
      }
      stats.boundedOnly++
      return
    }
    // 2. the rows themselves, against the warehouse (a drill's narrowing is not modelled: its
    // rows are checked against the tenant's own, below)
    const expected = drilled ? 'unmodelled' : expectedOrders(data, tenant, c.metric === 'revenue_by_country', filters)
    expect(expected, `the server answered 200 to a filter that does not exist: ${label}`).not.toBe('invalid')
    const actual = actualRows(c.metric, rows)
    if (expected !== 'invalid' && expected !== 'unmodelled') {
      expect(actual, label).toEqual(expectedRows(c.metric, expected))
      stats.exact++
      exactOn[c.backend] = (exactOn[c.backend] ?? 0) + 1
      return
    }
    // unmodelled filter values: still nothing beyond the tenant's own rows
    const own = expectedOrders(data, tenant, false, {}) as ReturnType<typeof data.orders.filter>
    const bound = expectedRows(c.metric, own)
    stats.boundedOnly++
    const grain = c.drill && 'timeGrain' in c.drill ? c.drill.timeGrain.grain : undefined
    if (c.metric === 'orders_by_month' && grain !== undefined && grain !== 'month') {
      // drilled to another grain: other buckets, their orders together within the tenant's
      const sum = (list: readonly unknown[]) => list.reduce<number>((n, r) => n + Number((r as Row).orders), 0)
      expect(sum(actual as unknown[]), label).toBeLessThanOrEqual(sum(bound as unknown[]))
      return
    }
    switch (c.metric) {
      case 'order_rows': {
        const ids = new Set(bound as number[])
        for (const id of actual as number[]) expect(ids.has(id), `order ${id} is not the tenant's: ${label}`).toBe(true)
        break
      }
      case 'revenue': {
        const [got] = actual as { revenue: number | null }[]
        const [max] = bound as { revenue: number | null }[]
        if (got?.revenue !== null && got?.revenue !== undefined) {
          expect(got.revenue, label).toBeLessThanOrEqual((max?.revenue ?? 0) + 0.01)
        }
        break
      }
      case 'revenue_by_country':
      case 'orders_by_month': {
        const key = c.metric === 'revenue_by_country' ? 'country' : 'month'
        const limits = new Map((bound as Record<string, unknown>[]).map((r) => [r[key], Number(r.orders)]))
        for (const r of actual as Record<string, unknown>[]) {
          expect(limits.has(r[key]), `${key} ${String(r[key])} is not the tenant's: ${label}`).toBe(true)
          expect(Number(r.orders), label).toBeLessThanOrEqual(limits.get(r[key]) ?? 0)
        }
        break
      }
    }
  }

  const BACKEND_LABELS: Record<BackendName, string> = {
    postgres: 'PostgreSQL',
    duckdb: 'DuckDB',
    mariadb: 'MariaDB',
    clickhouse: 'ClickHouse',
    chdb: 'ClickHouse (chdb)',
  }
  const backendList = BACKENDS.map((b) => BACKEND_LABELS[b])
  const backendNames = `${backendList.slice(0, -1).join(', ')} and ${backendList.at(-1)}`

  it(`holds for ${RUNS} generated queries on ${backendNames}`, { timeout: 120_000 }, async () => {
    const seed = Number(process.env.ISOLATION_SEED ?? 42)
    await fc.assert(fc.asyncProperty(caseArb, runCase), { numRuns: RUNS, seed, endOnFailure: true })
    console.log(
      `[isolation] ${stats.cases} cases (seed ${seed}): ${stats.answered200} answered 200 ` +
        `(${BACKENDS.map((b) => `${byBackend[b] ?? 0} ${BACKEND_LABELS[b]}`).join(', ')}) — ${stats.exact} checked row for row ` +
        `against the warehouse, ${stats.boundedOnly} checked for foreign rows only; ${stats.refused} refused with a 4xx, ` +
        `${stats.mintRefused} tokens refused at mint; underlying rows asked ${stats.underlying} times, ${stats.underlying200} answered; ` +
        `${stats.drill200} drilled queries answered; foreign rows: ${stats.foreignRows}` +
        (hasClickhouse
          ? `; ClickHouse ${chVersion}: ${chStats.cases} cases, ${chStats.answered200} answered 200` +
            `${chNoParams ? ' (no bound value)' : ''}, ${chStats.notSupported} DATASOURCE_NOT_SUPPORTED`
          : '') +
        (chdb
          ? `; chdb: ClickHouse ${chdb.front.version}, ${casesOn.chdb ?? 0} cases, ${exactOn.chdb ?? 0} exact`
          : ''),
    )
    if (process.env.ISOLATION_DEBUG) console.log(refusals)
    expect(stats.foreignRows).toBe(0)
    expect(stats.underlying200, 'underlying rows answered and checked').toBeGreaterThan(0)
    expect(stats.drill200, 'drilled queries answered and checked').toBeGreaterThan(0)
    // the property is not vacuous: most cases reach the warehouse and are checked exactly (on a
    // ClickHouse without query parameters most cases must be refused: it is measured on its own)
    const answering = BACKENDS.filter((b) => b !== 'clickhouse' || !chNoParams)
    const sum = (by: Record<string, number>) => answering.reduce((n, b) => n + (by[b] ?? 0), 0)
    expect(sum(byBackend)).toBeGreaterThan(sum(casesOn) / 3)
    expect(sum(exactOn)).toBeGreaterThan((sum(casesOn) - sum(drilledOn)) / 8)
    for (const b of BACKENDS) expect(byBackend[b] ?? 0, `cases answered on ${b}`).toBeGreaterThan(0)
    if (chNoParams) {
      expect(chStats.notSupported, 'ClickHouse cases refused for their bound values').toBeGreaterThan(0)
      expect(exactOn.clickhouse ?? 0, 'ClickHouse cases checked row for row').toBeGreaterThan(0)
    }
  })

  // ── the browser trying to widen what its token allows (fixed examples) ───────

  const runtime = (token: string, embedId: string, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v2/embed/runtime/${embedId}/query`,
      payload: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    })
  const mint = async (clientId: string, params: object = {}) =>
    (await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId, params }))
      .token as string

  it('a guest token cannot widen its pinned filters, name another tenant, or send SQL', async () => {
    const pinned = await mint('acme', {
      dashboardAppFilters: [{ dashboardId: 'isolation', values: { Country: ['DE'] } }],
    })
    const isolation = backends.postgres.isolation.embedId
    const acmeDE = data.orders.filter((o) => o.tenant === 'acme' && o.country === 'DE').map((o) => o.id)
    // 1. the end user asks for every country: still only the pinned one (the two are ANDed)
    const widened = await runtime(pinned, isolation, {
      metricId: 'order_rows',
      dashboardFilter: { country: ['DE', 'FR', 'US', 'JP'] },
    })
    expect(widened.statusCode, widened.body).toBe(200)
    expect(actualRows('order_rows', widened.json().data)).toEqual(acmeDE)
    // 2. an end-user filter on another country gives nothing rather than that country
    const other = await runtime(pinned, isolation, { metricId: 'order_rows', dashboardFilter: { Country: ['FR'] } })
    expect(other.json().data).toEqual([])
    // 3. naming another tenant, in any field the body could carry: refused
    for (const extra of [{ clientId: 'globex' }, { params: { clientId: 'globex' } }, { tenant: 'globex' }]) {
      const res = await runtime(pinned, isolation, { metricId: 'order_rows', ...extra })
      expect([res.statusCode, res.json().error.code], res.body).toEqual([400, 'INVALID_REQUEST_BODY'])
    }
    for (const key of ['tenant', 'orders.tenant', 'clientId', 'customer_tenant']) {
      const res = await runtime(pinned, isolation, { metricId: 'order_rows', dashboardFilter: { [key]: 'globex' } })
      expect(res.statusCode, res.body).toBe(400)
    }
    // 4. a SQL-driven list from the browser, in either filter: refused, even a harmless one
    for (const body of [
      {
        metricId: 'order_rows',
        dashboardFilter: { country: { sql: 'select country from customers', columnName: 'country' } },
      },
      {
        metricId: 'revenue_by_country',
        metricFilter: { paid: { sql: `select status from ${wh.schema}.orders`, columnName: 'status' } },
      },
    ]) {
      const embedId = body.metricId === 'order_rows' ? isolation : backends.postgres.sales.embedId
      const res = await runtime(pinned, embedId, body)
      expect([res.statusCode, res.json().error.message], res.body).toEqual([
        400,
        expect.stringMatching(/SQL-driven list is accepted only from a secret-key holder/),
      ])
    }
    // 5. prototype keys in a filter object change nothing
    const proto = await runtime(pinned, isolation, {
      metricId: 'order_rows',
      dashboardFilter: JSON.parse('{"__proto__":{"country":["FR"]}}'),
    })
    expect(proto.statusCode).toBeLessThan(500)
    if (proto.statusCode === 200) expect(actualRows('order_rows', proto.json().data)).toEqual(acmeDE)
  })

  it.skipIf(!hasMaria)(
    'a clientId equal to a tenant only under a case-folding, space-padding collation gets nothing (MariaDB utf8mb4_general_ci)',
    async () => {
      // found by the property: clientId "ACME" received acme's rows through `tenant = ?`
      const { isolation } = backends.mariadb
      for (const clientId of ['ACME', 'Acme', 'acme ', 'acme  ', 'ＡＣＭＥ']) {
        const token = await mint(clientId)
        for (const metricId of ['order_rows', 'customer_rows', ...SQL_METRICS]) {
          const viaRuntime = await runtime(token, isolation.embedId, { metricId })
          const viaKey = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
            embedId: isolation.embedId,
            metricId,
            clientId,
          })
          for (const res of [viaRuntime, viaKey]) {
            expect([res.statusCode, res.json().data], `${JSON.stringify(clientId)} ${metricId}: ${res.body}`).toEqual([
              200,
              [],
            ])
          }
        }
      }
      // while the tenant itself still gets its own rows
      const own = await runtime(await mint('acme'), isolation.embedId, { metricId: 'order_rows' })
      expect(actualRows('order_rows', own.json().data)).toEqual(
        data.orders.filter((o) => o.tenant === 'acme').map((o) => o.id),
      )
    },
  )

  it.skipIf(!hasClickhouse)(
    'ClickHouse without query parameters (18.16): a tenant-scoped query is refused, never run with the value spliced; None is refused under tenancy and returns every order without',
    async () => {
      const { isolation } = backends.clickhouse
      const viaKey = (clientId: string) =>
        a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
          embedId: isolation.embedId,
          metricId: 'order_rows',
          clientId,
        })
      const all = data.orders.map((o) => o.id)
      if (!chNoParams) {
        // a server with query parameters binds the clientId: acme gets acme's orders
        const acme = await viaKey('acme')
        expect(acme.statusCode, acme.body).toBe(200)
        expect(actualRows('order_rows', acme.json().data)).toEqual(
          data.orders.filter((o) => o.tenant === 'acme').map((o) => o.id),
        )
      } else {
        for (const res of [
          await runtime(await mint('acme'), isolation.embedId, { metricId: 'order_rows' }),
          await viaKey('acme'),
        ]) {
          expect([res.statusCode, res.json().error?.code, res.json().data], res.body).toEqual([
            400,
            'DATASOURCE_NOT_SUPPORTED',
            undefined,
          ])
          expect(res.json().error.message).toMatch(/cannot bind query parameters .*19\.11/)
        }
      }
      // None under tenancy: refused before any statement
      for (const res of [
        await runtime(await mint('None'), isolation.embedId, { metricId: 'order_rows' }),
        await viaKey('None'),
      ]) {
        expect([res.statusCode, res.json().error?.code], res.body).toEqual([400, 'CLIENT_ID_ERROR'])
      }
      // no tenancy configured and no filter: no bound value, so 18.16 runs it, and it is the whole table
      const open = chOpen?.isolation.embedId as string
      for (const res of [
        await runtime(await mint('None'), open, { metricId: 'order_rows' }),
        await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
          embedId: open,
          metricId: 'order_rows',
          clientId: 'None',
        }),
      ]) {
        expect(res.statusCode, res.body).toBe(200)
        expect(actualRows('order_rows', res.json().data)).toEqual(all)
      }
    },
  )

  it('the secret key’s SQL-driven list narrows within the clientId; it cannot reach another tenant', async () => {
    // the backend's own SQL (trusted) selecting every tenant's countries: the tenancy still applies
    const res = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
      embedId: backends.postgres.isolation.embedId,
      metricId: 'order_rows',
      clientId: 'globex',
      dashboardFilter: { country: { sql: `select country from ${wh.schema}.customers`, columnName: 'country' } },
    })
    expect(res.statusCode, res.body).toBe(200)
    const globex = data.orders.filter((o) => o.tenant === 'globex').map((o) => o.id)
    expect(globex.length).toBeGreaterThan(0)
    expect(actualRows('order_rows', res.json().data)).toEqual(globex)
  })
})
