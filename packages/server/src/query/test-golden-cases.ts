import type { CompileContext } from './compile.js'
import type { Metric, MetricQuery } from './document-schema.js'
import type { AppliedFilter } from './filters.js'
import type { Engine } from './test-golden-data.js'

/**
 * The golden metrics: each compiled metric must return the rows of `expected`, a hand-written
 * query per engine ({o} {c} {t}: the orders, customers, tenants tables). GOLDEN_NOW is
 * 2024-07-01T15:00Z; orders run from 2023-07-01 to 2024-06-28.
 */
export interface GoldenCase {
  readonly name: string
  readonly metric: Metric
  readonly context?: (schema: string, qualify: (table: string) => string) => Partial<CompileContext>
  readonly expected: string | Partial<Record<Engine, string>>
  readonly check?: 'main' | 'count' | 'comparison'
  readonly ordered?: boolean
  readonly allowEmpty?: boolean
  readonly skip?: readonly Engine[]
  readonly convertCreatedAt?: boolean
}

const M = (query: Omit<MetricQuery, 'from'> & { from?: string }, extra: Partial<Metric> = {}): Metric => ({
  metricId: 'golden',
  name: 'Golden',
  chart: { type: 'table' },
  query: { from: 'orders', ...query },
  ...extra,
})
const count = [{ name: 'n', aggregate: 'count' as const }]
const revenue = [{ name: 'revenue', aggregate: 'sum' as const, column: 'amount' }]
const acme = { tenancy: { kind: 'table', clientId: 'acme' } } as const
const filter = (
  f: Partial<AppliedFilter> & Pick<AppliedFilter, 'column' | 'value'>,
  schema: string,
): AppliedFilter => ({
  source: 'dashboard',
  ...f,
  table: `${schema}.${f.table ?? 'orders'}`,
})
const grainOracle = (pg: string, my: string, duck: string) => ({
  postgres: `SELECT ${pg} AS period, COUNT(*) AS n FROM {o} GROUP BY 1`,
  mysql: `SELECT ${my} AS period, COUNT(*) AS n FROM {o} GROUP BY 1`,
  duckdb: `SELECT ${duck} AS period, COUNT(*) AS n FROM {o} GROUP BY 1`,
})
const byGrain = (timeGrain: 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year') =>
  M({ measures: count, dimensions: [{ name: 'period', column: 'created_at', timeGrain }] })

export const GOLDEN_CASES: readonly GoldenCase[] = [
  {
    name: 'count of every order (no tenancy)',
    metric: M({ measures: count }),
    expected: 'SELECT COUNT(*) AS n FROM {o}',
  },
  {
    name: 'sum by status under TABLE tenancy',
    metric: M({ measures: revenue, dimensions: [{ name: 'status', column: 'status' }] }),
    context: () => acme,
    expected: "SELECT status, SUM(amount) AS revenue FROM {o} WHERE client_id = 'acme' GROUP BY status",
  },
  {
    name: 'avg by customer country through the join, both tables tenant-scoped',
    metric: M({
      measures: [{ name: 'avg_amount', aggregate: 'avg', column: 'amount' }],
      dimensions: [{ name: 'country', table: 'customers', column: 'country' }],
    }),
    context: () => ({ tenancy: { kind: 'table', clientId: 'globex' } }),
    expected:
      "SELECT c.country AS country, AVG(o.amount) AS avg_amount FROM {o} o LEFT JOIN {c} c ON c.id = o.customer_id AND c.client_id = 'globex' WHERE o.client_id = 'globex' GROUP BY c.country",
  },
  {
    name: 'min and max by a boolean dimension',
    metric: M({
      measures: [
        { name: 'lo', aggregate: 'min', column: 'amount' },
        { name: 'hi', aggregate: 'max', column: 'amount' },
      ],
      dimensions: [{ name: 'paid', column: 'paid' }],
    }),
    expected: 'SELECT paid, MIN(amount) AS lo, MAX(amount) AS hi FROM {o} GROUP BY paid',
  },
  {
    name: 'count-distinct customers by month under tenancy',
    metric: M({
      measures: [{ name: 'buyers', aggregate: 'count-distinct', column: 'customer_id' }],
      dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
    }),
    context: () => acme,
    expected: {
      postgres:
        "SELECT to_char(created_at, 'YYYY-MM-01') AS month, COUNT(DISTINCT customer_id) AS buyers FROM {o} WHERE client_id = 'acme' GROUP BY 1",
      mysql:
        "SELECT DATE_FORMAT(created_at, '%Y-%m-01') AS month, COUNT(DISTINCT customer_id) AS buyers FROM {o} WHERE client_id = 'acme' GROUP BY 1",
      duckdb:
        "SELECT strftime(created_at, '%Y-%m-01') AS month, COUNT(DISTINCT customer_id) AS buyers FROM {o} WHERE client_id = 'acme' GROUP BY 1",
    },
  },
  {
    name: 'grain day',
    metric: byGrain('day'),
    expected: grainOracle(
      "to_char(created_at, 'YYYY-MM-DD')",
      "DATE_FORMAT(created_at, '%Y-%m-%d')",
      "strftime(created_at, '%Y-%m-%d')",
    ),
  },
  {
    name: 'grain week (Monday)',
    metric: byGrain('week'),
    expected: grainOracle(
      "to_char(created_at::date - (extract(isodow from created_at)::int - 1), 'YYYY-MM-DD')",
      "DATE_FORMAT(DATE(created_at) - INTERVAL (DAYOFWEEK(created_at) + 5) % 7 DAY, '%Y-%m-%d')",
      "strftime(CAST(created_at AS DATE) - CAST(isodow(created_at) - 1 AS INTEGER), '%Y-%m-%d')",
    ),
  },
  {
    name: 'grain quarter',
    metric: byGrain('quarter'),
    expected: grainOracle(
      "to_char(make_date(extract(year from created_at)::int, (extract(quarter from created_at)::int - 1) * 3 + 1, 1), 'YYYY-MM-DD')",
      "CONCAT(YEAR(created_at), '-', LPAD((QUARTER(created_at) - 1) * 3 + 1, 2, '0'), '-01')",
      "strftime(make_date(year(created_at), (quarter(created_at) - 1) * 3 + 1, 1), '%Y-%m-%d')",
    ),
  },
  {
    name: 'grain year',
    metric: byGrain('year'),
    expected: grainOracle(
      "to_char(created_at, 'YYYY-01-01')",
      "DATE_FORMAT(created_at, '%Y-01-01')",
      "strftime(created_at, '%Y-01-01')",
    ),
  },
  {
    name: 'grain hour',
    metric: byGrain('hour'),
    expected: grainOracle(
      "to_char(created_at, 'YYYY-MM-DD HH24:00:00')",
      "DATE_FORMAT(created_at, '%Y-%m-%d %H:00:00')",
      "strftime(created_at, '%Y-%m-%d %H:00:00')",
    ),
  },
  {
    name: 'value form: array of strings (IN)',
    metric: M({ measures: count, dimensions: [{ name: 'status', column: 'status' }] }),
    context: (s) => ({ filters: [filter({ column: 'status', value: ['paid', 'refunded'] }, s)] }),
    expected: "SELECT status, COUNT(*) AS n FROM {o} WHERE status IN ('paid', 'refunded') GROUP BY status",
  },
  {
    name: 'value form: empty array matches nothing',
    metric: M({ measures: count }),
    context: (s) => ({ filters: [filter({ column: 'status', value: [] }, s)] }),
    expected: 'SELECT COUNT(*) AS n FROM {o} WHERE 1 = 0',
  },
  {
    name: 'value form: boolean',
    metric: M({ measures: count }),
    context: (s) => ({ filters: [filter({ column: 'paid', value: true, source: 'metric' }, s)] }),
    expected: 'SELECT COUNT(*) AS n FROM {o} WHERE paid',
  },
  {
    name: 'value form: number',
    metric: M({ measures: revenue }),
    context: (s) => ({ filters: [filter({ column: 'customer_id', value: 3, source: 'metric' }, s)] }),
    expected: 'SELECT SUM(amount) AS revenue FROM {o} WHERE customer_id = 3',
  },
  {
    name: 'value form: string on a joined table (dashboard filter)',
    metric: M({ measures: count }),
    context: (s) => ({
      filters: [filter({ table: 'customers', column: 'country', value: 'FR', scope: 'dashboard' }, s)],
    }),
    expected: "SELECT COUNT(*) AS n FROM {o} o LEFT JOIN {c} c ON c.id = o.customer_id WHERE c.country = 'FR'",
  },
  {
    name: 'value form: date preset Last 90 days on a timestamp (UTC)',
    metric: M({ measures: count }),
    context: (s) => ({ filters: [filter({ column: 'created_at', value: 'last 90 DAYS' }, s)] }),
    expected: "SELECT COUNT(*) AS n FROM {o} WHERE created_at >= '2024-04-03' AND created_at < '2024-07-02'",
  },
  {
    name: 'value form: date preset Last month in Asia/Tokyo on a UTC timestamp',
    metric: M({ measures: revenue }),
    context: (s) => ({ timezone: 'Asia/Tokyo', filters: [filter({ column: 'created_at', value: 'Last month' }, s)] }),
    expected:
      "SELECT SUM(amount) AS revenue FROM {o} WHERE created_at >= '2024-05-31 15:00:00' AND created_at < '2024-06-30 15:00:00'",
  },
  {
    name: 'value form: date preset This year on a date column (America/New_York)',
    metric: M({ measures: count }),
    context: (s) => ({
      timezone: 'America/New_York',
      filters: [filter({ column: 'ordered_on', value: 'This year' }, s)],
    }),
    expected: "SELECT COUNT(*) AS n FROM {o} WHERE ordered_on >= '2024-01-01' AND ordered_on < '2025-01-01'",
  },
  {
    name: 'value form: All time adds no condition',
    metric: M({ measures: count }),
    context: (s) => ({ filters: [filter({ column: 'created_at', value: 'All time' }, s)] }),
    expected: 'SELECT COUNT(*) AS n FROM {o}',
  },
  {
    name: 'value form: { startDate, endDate } with an inclusive end date',
    metric: M({ measures: count }),
    context: (s) => ({
      filters: [filter({ column: 'created_at', value: { startDate: '2024-01-10', endDate: '2024-02-20' } }, s)],
    }),
    expected: "SELECT COUNT(*) AS n FROM {o} WHERE created_at >= '2024-01-10' AND created_at < '2024-02-21'",
  },
  {
    name: 'value form: { min, max }',
    metric: M({ measures: count, dimensions: [{ name: 'status', column: 'status' }] }),
    context: (s) => ({ filters: [filter({ column: 'amount', value: { min: 100, max: 200 } }, s)] }),
    expected: 'SELECT status, COUNT(*) AS n FROM {o} WHERE amount >= 100 AND amount <= 200 GROUP BY status',
  },
  {
    name: 'value form: { min } only',
    metric: M({ measures: count }),
    context: (s) => ({ filters: [filter({ column: 'amount', value: { min: 450 } }, s)] }),
    expected: 'SELECT COUNT(*) AS n FROM {o} WHERE amount >= 450',
  },
  {
    name: 'value form: { sql, columnName } from the token (trusted)',
    metric: M({ measures: revenue }),
    context: (s, q) => ({
      filters: [
        filter(
          {
            column: 'customer_id',
            source: 'app',
            value: { sql: `SELECT id AS cid FROM ${q('customers')} WHERE segment = 'enterprise'`, columnName: 'cid' },
          },
          s,
        ),
      ],
    }),
    expected:
      "SELECT SUM(amount) AS revenue FROM {o} WHERE customer_id IN (SELECT id FROM {c} WHERE segment = 'enterprise')",
  },
  {
    name: 'text filter: case-insensitive contains on a joined column',
    metric: M({ measures: count }),
    context: (s) => ({ filters: [filter({ table: 'customers', column: 'name', value: 'AN', type: 'text' }, s)] }),
    expected: "SELECT COUNT(*) AS n FROM {o} o LEFT JOIN {c} c ON c.id = o.customer_id WHERE LOWER(c.name) LIKE '%an%'",
  },
  {
    name: 'RLS variable bound to a joined column (list)',
    metric: M(
      { measures: count, dimensions: [{ name: 'country', table: 'customers', column: 'country' }] },
      { rls: [{ variable: 'countries', column: 'country', table: 'customers' }] },
    ),
    context: () => ({ ...acme, rls: { countries: ['FR', 'DE'] } }),
    expected:
      "SELECT c.country AS country, COUNT(*) AS n FROM {o} o LEFT JOIN {c} c ON c.id = o.customer_id AND c.client_id = 'acme' WHERE o.client_id = 'acme' AND c.country IN ('FR', 'DE') GROUP BY c.country",
  },
  {
    name: 'TABLE tenancy through the tenancy table',
    metric: M({ measures: revenue, dimensions: [{ name: 'status', column: 'status' }] }),
    context: (s) => ({
      tenancy: {
        kind: 'table',
        clientId: 'initech',
        clientColumns: new Map([[`${s}.orders`, 'tenant_id']]),
        tenancyTable: { table: `${s}.tenants`, clientNameColumn: 'name', primaryKeyColumn: 'id' },
      },
    }),
    expected:
      "SELECT status, SUM(amount) AS revenue FROM {o} WHERE tenant_id IN (SELECT id FROM {t} WHERE name = 'initech') GROUP BY status",
  },
  {
    name: 'DATABASE tenancy runs in the tenant database',
    metric: M({ measures: count, dimensions: [{ name: 'status', column: 'status' }] }),
    context: (s) => ({ tenancy: { kind: 'database', database: s } }),
    expected: 'SELECT status, COUNT(*) AS n FROM {o} GROUP BY status',
  },
  {
    name: 'SQL metric with {{clientId}} and a metric-filter list',
    metric: {
      metricId: 'sqlm',
      name: 'SQL metric',
      chart: { type: 'table' },
      sql: 'SELECT status, COUNT(*) AS n FROM {o} WHERE client_id = {{clientId}} AND status IN ({{ statuses }}) GROUP BY status;',
      filters: [{ name: 'statuses', type: 'multi-select', column: 'status' }],
    },
    context: () => ({
      ...acme,
      filters: [{ table: '', column: 'status', name: 'statuses', value: ['paid', 'shipped'], source: 'metric' }],
    }),
    expected:
      "SELECT status, COUNT(*) AS n FROM {o} WHERE client_id = 'acme' AND status IN ('paid', 'shipped') GROUP BY status",
  },
  {
    name: 'paging: a page of groups in a stable order',
    metric: M({ measures: count, dimensions: [{ name: 'status', column: 'status' }] }),
    context: () => ({ page: { limit: 2, offset: 1 } }),
    expected: 'SELECT status, COUNT(*) AS n FROM {o} GROUP BY status ORDER BY status LIMIT 2 OFFSET 1',
    ordered: true,
  },
  {
    name: 'paging: countSql counts every group',
    metric: M({ measures: count, dimensions: [{ name: 'status', column: 'status' }] }),
    context: () => ({ page: { limit: 2, offset: 1 } }),
    expected: 'SELECT COUNT(DISTINCT status) AS total FROM {o}',
    check: 'count',
  },
  {
    name: 'comparison: Last month, main query',
    metric: M({ measures: revenue }, { comparison: { period: 'previous-period' } }),
    context: (s) => ({ ...acme, filters: [filter({ column: 'created_at', value: 'Last month' }, s)] }),
    expected:
      "SELECT SUM(amount) AS revenue FROM {o} WHERE client_id = 'acme' AND created_at >= '2024-06-01' AND created_at < '2024-07-01'",
  },
  {
    name: 'comparison: Last month, previous period',
    metric: M({ measures: revenue }, { comparison: { period: 'previous-period' } }),
    context: (s) => ({ ...acme, filters: [filter({ column: 'created_at', value: 'Last month' }, s)] }),
    expected:
      "SELECT SUM(amount) AS revenue FROM {o} WHERE client_id = 'acme' AND created_at >= '2024-05-01' AND created_at < '2024-06-01'",
    check: 'comparison',
  },
  {
    name: 'comparison: previous year of a date range',
    metric: M({ measures: count }, { comparison: { period: 'previous-year' } }),
    context: (s) => ({
      filters: [filter({ column: 'ordered_on', value: { startDate: '2024-03-01', endDate: '2024-06-30' } }, s)],
    }),
    expected: "SELECT COUNT(*) AS n FROM {o} WHERE ordered_on >= '2023-03-01' AND ordered_on < '2023-07-01'",
    check: 'comparison',
  },
  {
    name: 'timezone conversion: hour grain and date range in Asia/Kolkata',
    convertCreatedAt: true,
    skip: ['mysql'], // CONVERT_TZ needs the server's zone tables, absent on the test MariaDB
    metric: M({ measures: count, dimensions: [{ name: 'hour', column: 'created_at', timeGrain: 'hour' }] }),
    context: (s) => ({
      timezone: 'Asia/Kolkata',
      filters: [filter({ column: 'created_at', value: { startDate: '2024-03-01', endDate: '2024-03-20' } }, s)],
    }),
    expected: {
      postgres:
        "SELECT to_char(created_at + interval '330 minutes', 'YYYY-MM-DD HH24:00:00') AS hour, COUNT(*) AS n FROM {o} WHERE created_at + interval '330 minutes' >= '2024-03-01' AND created_at + interval '330 minutes' < '2024-03-21' GROUP BY 1",
      duckdb:
        "SELECT strftime(created_at + INTERVAL 330 MINUTE, '%Y-%m-%d %H:00:00') AS hour, COUNT(*) AS n FROM {o} WHERE created_at + INTERVAL 330 MINUTE >= '2024-03-01' AND created_at + INTERVAL 330 MINUTE < '2024-03-21' GROUP BY 1",
    },
  },
  {
    name: 'custom SQL column from the datamart',
    metric: M({
      measures: [{ name: 'doubled', aggregate: 'sum', column: 'amount_doubled' }],
      dimensions: [{ name: 'status', column: 'status' }],
    }),
    context: () => acme,
    expected: "SELECT status, SUM(amount * 2) AS doubled FROM {o} WHERE client_id = 'acme' GROUP BY status",
  },
  {
    name: 'where: neq and between',
    metric: M({
      measures: count,
      where: [
        { column: 'status', operator: 'neq', values: ['pending'] },
        { column: 'amount', operator: 'between', values: [50, 300] },
      ],
    }),
    expected: "SELECT COUNT(*) AS n FROM {o} WHERE status <> 'pending' AND amount BETWEEN 50 AND 300",
  },
  {
    name: 'where: not-in and is-null',
    metric: M({
      measures: count,
      where: [
        { column: 'status', operator: 'not-in', values: ['refunded'] },
        { column: 'note', operator: 'is-null' },
      ],
    }),
    expected: "SELECT COUNT(*) AS n FROM {o} WHERE status NOT IN ('refunded') AND note IS NULL",
  },
  {
    name: 'where: lt, gte, is-not-null and contains',
    metric: M({
      measures: count,
      where: [
        { column: 'amount', operator: 'lt', values: [300] },
        { column: 'amount', operator: 'gte', values: [20] },
        { column: 'note', operator: 'is-not-null' },
        { column: 'status', operator: 'contains', values: ['AI'] },
      ],
    }),
    expected:
      "SELECT COUNT(*) AS n FROM {o} WHERE amount < 300 AND amount >= 20 AND note IS NOT NULL AND status LIKE '%ai%'",
  },
  {
    name: 'orderBy desc with a limit',
    metric: M({
      measures: revenue,
      dimensions: [{ name: 'customer', column: 'customer_id' }],
      orderBy: [{ name: 'revenue', direction: 'desc' }],
      limit: 5,
    }),
    expected:
      'SELECT customer_id AS customer, SUM(amount) AS revenue FROM {o} GROUP BY customer_id ORDER BY revenue DESC LIMIT 5',
    ordered: true,
  },
  {
    name: 'dimensions only: raw rows, tenant-scoped',
    metric: M({
      dimensions: [
        { name: 'id', column: 'id' },
        { name: 'status', column: 'status' },
      ],
    }),
    context: () => ({ tenancy: { kind: 'table', clientId: 'initech' } }),
    expected: "SELECT id, status FROM {o} WHERE client_id = 'initech'",
  },
  {
    name: 'a dashboard filter on an unreachable table is skipped',
    metric: M({ measures: count }),
    context: (s) => ({ filters: [filter({ table: 'tenants', column: 'name', value: 'acme', scope: 'dashboard' }, s)] }),
    expected: 'SELECT COUNT(*) AS n FROM {o}',
  },
]
