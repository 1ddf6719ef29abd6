/**
 * End users' metrics of the chart types with a shape on the demo's orders, as the browser tests
 * save them through the runtime API.
 */

export const ORDERS = { name: 'orders', aggregate: 'count' }
export const REVENUE = { name: 'revenue', aggregate: 'sum', column: 'amount' }
export const MONTH = { name: 'month', column: 'created_at', timeGrain: 'month' }

/** Revenue bars and an orders line by month, on two axes. */
export const COMBO_METRIC = {
  name: 'Revenue and orders by month',
  chart: { type: 'combo', x: 'month', y: ['revenue', 'orders'], line: 'orders' },
  query: {
    from: 'main.orders',
    measures: [REVENUE, ORDERS],
    dimensions: [MONTH],
    orderBy: [{ name: 'month', direction: 'asc' }],
  },
}

/** A point per customer (orders against revenue), a series per country. */
export const SCATTER_METRIC = {
  name: 'Customers: orders against revenue',
  chart: { type: 'scatter', x: 'customer', y: ['orders', 'revenue'], seriesBy: 'country' },
  query: {
    from: 'main.orders',
    measures: [ORDERS, REVENUE],
    dimensions: [
      { name: 'customer', column: 'customer_id' },
      { name: 'country', table: 'main.customers', column: 'country' },
    ],
    limit: 300,
  },
}

/** Orders by status, largest first. */
export const FUNNEL_METRIC = {
  name: 'Orders by status (funnel)',
  chart: { type: 'funnel', x: 'status', y: ['orders'] },
  query: {
    from: 'main.orders',
    measures: [ORDERS],
    dimensions: [{ name: 'status', column: 'status' }],
    orderBy: [{ name: 'orders', direction: 'desc' }],
  },
}
