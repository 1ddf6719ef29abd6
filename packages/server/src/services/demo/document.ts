import type { DatamartInput } from '../datamarts/datamarts.js'

/**
 * The datamart the demo document reads: both tables scoped by `tenant`; the custom column
 * `refunded` (1 or 0) makes the refund rate an average.
 */
export const demoDatamart: DatamartInput = {
  tableList: [
    {
      schemaName: 'main',
      name: 'orders',
      label: 'Orders',
      clientColumn: 'tenant',
      columns: [{ name: 'refunded', isCustomColumn: true, sql: "case when status = 'refunded' then 1 else 0 end" }],
    },
    { schemaName: 'main', name: 'customers', label: 'Customers', clientColumn: 'tenant' },
  ],
  relationships: [
    {
      parentTable: 'main.customers',
      parentColumn: 'id',
      childTable: 'main.orders',
      childColumn: 'customer_id',
      cardinality: 'OneToMany',
      joinType: 'INNER JOIN',
    },
  ],
}

const USD = { style: 'currency', currency: 'USD' } as const

/**
 * The demo dashboard: nine metrics over main.orders and main.customers (DuckDB over CSV), with
 * number formats (US dollars, a percent). `refunded` is a custom column of demoDatamart (above).
 */
export const demoDocument = {
  name: 'Sales overview',
  filters: [
    {
      name: 'period',
      label: 'Order date',
      type: 'date-range',
      table: 'main.orders',
      column: 'created_at',
      default: 'Last 12 months',
    },
    { name: 'country', label: 'Country', type: 'multi-select', table: 'main.customers', column: 'country' },
    { name: 'channel', label: 'Channel', type: 'multi-select', table: 'main.orders', column: 'channel' },
    { name: 'category', label: 'Category', type: 'multi-select', table: 'main.orders', column: 'category' },
    { name: 'amount', label: 'Order amount', type: 'number-range', table: 'main.orders', column: 'amount' },
  ],
  layout: [
    { metricId: 'revenue', x: 0, y: 0, w: 3, h: 2 },
    { metricId: 'orders', x: 3, y: 0, w: 3, h: 2 },
    { metricId: 'average_order', x: 6, y: 0, w: 3, h: 2 },
    { metricId: 'refund_rate', x: 9, y: 0, w: 3, h: 2 },
    { metricId: 'revenue_by_month', x: 0, y: 2, w: 8, h: 4 },
    { metricId: 'status_share', x: 8, y: 2, w: 4, h: 4 },
    { metricId: 'revenue_by_category', x: 0, y: 6, w: 6, h: 4 },
    { metricId: 'orders_by_channel', x: 6, y: 6, w: 6, h: 4 },
    { metricId: 'top_customers', x: 0, y: 10, w: 12, h: 5 },
  ],
  metrics: [
    {
      metricId: 'revenue',
      name: 'Revenue',
      chart: { type: 'single-value', y: ['revenue'] },
      formats: { revenue: { ...USD, compact: true } },
      query: { from: 'main.orders', measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
      comparison: { period: 'previous-period' },
    },
    {
      metricId: 'orders',
      name: 'Orders',
      chart: { type: 'single-value', y: ['orders'] },
      formats: { orders: { style: 'number', decimals: 0 } },
      query: { from: 'main.orders', measures: [{ name: 'orders', aggregate: 'count' }] },
      comparison: { period: 'previous-period' },
    },
    {
      metricId: 'average_order',
      name: 'Avg. order value',
      chart: { type: 'single-value', y: ['average'] },
      formats: { average: USD },
      query: { from: 'main.orders', measures: [{ name: 'average', aggregate: 'avg', column: 'amount' }] },
    },
    {
      metricId: 'refund_rate',
      name: 'Refund rate',
      chart: { type: 'single-value', y: ['refund_rate'], lowerIsBetter: true },
      formats: { refund_rate: { style: 'percent', decimals: 1 } },
      query: { from: 'main.orders', measures: [{ name: 'refund_rate', aggregate: 'avg', column: 'refunded' }] },
      comparison: { period: 'previous-period' },
    },
    {
      metricId: 'revenue_by_month',
      name: 'Revenue by month',
      chart: { type: 'area', x: 'month', y: ['revenue'] },
      formats: { revenue: USD },
      query: {
        from: 'main.orders',
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'month', column: 'created_at', timeGrain: 'month' }],
        orderBy: [{ name: 'month', direction: 'asc' }],
      },
    },
    {
      metricId: 'status_share',
      name: 'Orders by status',
      chart: { type: 'doughnut', x: 'status', y: ['orders'] },
      query: {
        from: 'main.orders',
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'status', column: 'status' }],
        orderBy: [{ name: 'orders', direction: 'desc' }],
      },
    },
    {
      metricId: 'revenue_by_category',
      name: 'Revenue by category',
      chart: { type: 'bar', x: 'category', y: ['revenue'] },
      formats: { revenue: USD },
      query: {
        from: 'main.orders',
        measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
        dimensions: [{ name: 'category', column: 'category' }],
        orderBy: [{ name: 'revenue', direction: 'desc' }],
      },
      filters: [{ name: 'status', label: 'Status', type: 'multi-select', column: 'status' }],
    },
    {
      metricId: 'orders_by_channel',
      name: 'Orders by channel and quarter',
      chart: { type: 'stacked-bar', x: 'quarter', y: ['web', 'mobile', 'partner', 'retail'] },
      sql: `select date_trunc('quarter', created_at) as quarter,
  count(*) filter (where channel = 'Web') as web,
  count(*) filter (where channel = 'Mobile') as mobile,
  count(*) filter (where channel = 'Partner') as partner,
  count(*) filter (where channel = 'Retail') as retail
from main.orders where tenant = {{clientId}}
group by 1 order by 1`,
      // the dashboard filters on main.orders apply where the SQL reads it; Country (customers) does not
      dashboardFilters: ['period', 'channel', 'category', 'amount'],
    },
    {
      metricId: 'top_customers',
      name: 'Top customers',
      chart: { type: 'table' },
      formats: {
        revenue: USD,
        orders: { style: 'number', decimals: 0 },
        refund_rate: { style: 'percent', decimals: 1 },
      },
      query: {
        from: 'main.orders',
        measures: [
          { name: 'revenue', aggregate: 'sum', column: 'amount' },
          { name: 'orders', aggregate: 'count' },
          { name: 'refund_rate', aggregate: 'avg', column: 'refunded' },
        ],
        dimensions: [
          { name: 'customer', table: 'main.customers', column: 'name' },
          { name: 'country', table: 'main.customers', column: 'country' },
          { name: 'segment', table: 'main.customers', column: 'segment' },
        ],
        orderBy: [{ name: 'revenue', direction: 'desc' }],
        limit: 500,
      },
    },
  ],
}
