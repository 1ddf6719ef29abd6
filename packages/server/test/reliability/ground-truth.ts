import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { matchPreset } from '../../src/query/date-presets.js'
import type { PgWarehouse } from '../helpers/warehouse.js'

/**
 * The warehouse of helpers/warehouse.ts held in memory, and the rows a metric must return for
 * one tenant under a set of filters, computed here independently of the query engine. Filter
 * values whose meaning this model does not cover (a date preset, a number against a text
 * column, a SQL-driven list …) make a case "unmodelled": the test then checks only that no
 * foreign row comes back.
 */
export interface Order {
  readonly id: number
  readonly customerId: number
  readonly tenant: string
  readonly status: string
  readonly amount: number
  /** Epoch ms. */
  readonly createdAt: number
  readonly country: string
  readonly customerTenant: string
}

export interface Customer {
  readonly id: number
  readonly country: string
  readonly tenant: string
}

export interface Warehouse {
  readonly orders: readonly Order[]
  readonly customers: readonly Customer[]
}

export async function loadWarehouse(wh: PgWarehouse): Promise<Warehouse> {
  const customers = (
    await wh.query<{ id: number; country: string; tenant: string }>(
      `select id, country, tenant from ${wh.schema}.customers order by id`,
    )
  ).map((c) => ({ id: Number(c.id), country: c.country, tenant: c.tenant }))
  const byId = new Map(customers.map((c) => [c.id, c]))
  const orders = (
    await wh.query<{
      id: number
      customer_id: number
      tenant: string
      status: string
      amount: string
      created_at: Date
    }>(`select id, customer_id, tenant, status, amount, created_at from ${wh.schema}.orders order by id`)
  ).map((o) => {
    const c = byId.get(Number(o.customer_id)) as Customer
    return {
      id: Number(o.id),
      customerId: Number(o.customer_id),
      tenant: o.tenant,
      status: o.status,
      amount: Number(o.amount),
      createdAt: o.created_at.getTime(),
      country: c.country,
      customerTenant: c.tenant,
    }
  })
  return { orders, customers }
}

/** The same data as CSV files, read by DuckDB through a `csv` datasource. */
export function writeCsv(dir: string, data: Warehouse): void {
  const ts = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19)
  writeFileSync(
    join(dir, 'customers.csv'),
    ['id,name,country,tenant', ...data.customers.map((c) => `${c.id},customer ${c.id},${c.country},${c.tenant}`)].join(
      '\n',
    ),
  )
  writeFileSync(
    join(dir, 'orders.csv'),
    [
      'id,customer_id,tenant,status,amount,created_at',
      ...data.orders.map((o) => `${o.id},${o.customerId},${o.tenant},${o.status},${o.amount},${ts(o.createdAt)}`),
    ].join('\n'),
  )
}

/** The dashboard filters of salesDocument (and the isolation document): name and label → column. */
export const DASHBOARD_FILTERS = {
  country: { label: 'Country', column: 'country' },
  status: { label: 'Order status', column: 'status' },
  amount: { label: 'Amount', column: 'amount' },
  period: { label: 'Order date', column: 'createdAt' },
} as const
/** The metric filter of revenue_by_country. */
export const METRIC_FILTERS = { paid: { label: 'Paid only', column: 'status' } } as const

type Column = 'country' | 'status' | 'amount' | 'createdAt'

/** One condition on an order, or 'unmodelled'. */
type Predicate = (o: Order) => boolean

function resolveKey<T extends Record<string, { label: string; column: Column }>>(
  filters: T,
  key: string,
): Column | undefined {
  const k = key.trim().toLowerCase()
  for (const [name, f] of Object.entries(filters)) if (name === k) return f.column
  for (const f of Object.values(filters)) if (f.label.toLowerCase() === k) return f.column
  return undefined
}

const DAY = 86_400_000
const isDate = (s: unknown): s is string => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s)

/** What a filter value means on a column, or undefined when this model does not cover it. */
function predicate(column: Column, value: unknown): Predicate | undefined {
  const text = column === 'country' || column === 'status'
  const cell = (o: Order) => o[column]
  const plainString = (v: unknown): v is string =>
    typeof v === 'string' && !v.includes('\u0000') && v.length <= 10_000 && matchPreset(v) === undefined
  if (text) {
    if (Array.isArray(value)) {
      if (value.length > 1000 || !value.every(plainString)) return undefined
      const set = new Set(value)
      return (o) => set.has(cell(o) as string)
    }
    if (plainString(value)) return (o) => cell(o) === value
    return undefined
  }
  if (column === 'amount') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
    const keys = Object.keys(value)
    if (keys.length === 0 || !keys.every((k) => k === 'min' || k === 'max')) return undefined
    const { min, max } = value as { min?: unknown; max?: unknown }
    const ok = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v))
    if (!ok(min) || !ok(max)) return undefined
    if (typeof min === 'number' && typeof max === 'number' && min > max) return undefined
    return (o) =>
      (min === undefined || o.amount >= (min as number)) && (max === undefined || o.amount <= (max as number))
  }
  // createdAt: an explicit { startDate, endDate } range, end inclusive (UTC: the token's default zone)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined
  const keys = Object.keys(value).sort().join(',')
  if (keys !== 'endDate,startDate') return undefined
  const { startDate, endDate } = value as { startDate: unknown; endDate: unknown }
  if (!isDate(startDate) || !isDate(endDate) || startDate > endDate) return undefined
  const start = Date.parse(`${startDate}T00:00:00Z`)
  const end = Date.parse(`${endDate}T00:00:00Z`) + DAY
  if (!Number.isFinite(start) || !Number.isFinite(end)) return undefined
  return (o) => o.createdAt >= start && o.createdAt < end
}

export interface FilterSet {
  /** Token dashboardAppFilters values for this dashboard (pinned). */
  readonly pinned?: Record<string, unknown>
  /** Token appFilters values for the metric. */
  readonly app?: Record<string, unknown>
  /** The end user's / backend's dashboardFilter. */
  readonly dashboard?: Record<string, unknown>
  /** The end user's / backend's metricFilter. */
  readonly metric?: Record<string, unknown>
}

/**
 * The orders a tenant sees under these filters (null tenant: no tenancy, `None`), or
 * 'unmodelled' when a value is outside the model, or 'invalid' when the request names a
 * filter that does not exist (the server must answer 400).
 */
export function expectedOrders(
  data: Warehouse,
  tenant: string | null,
  metricHasPaidFilter: boolean,
  filters: FilterSet,
): Order[] | 'unmodelled' | 'invalid' {
  const predicates: Predicate[] = []
  let unmodelled = false
  const add = (
    defs: Record<string, { label: string; column: Column }>,
    values: Record<string, unknown> | undefined,
  ): boolean => {
    for (const [key, value] of Object.entries(values ?? {})) {
      const column = resolveKey(defs, key)
      if (column === undefined) return false
      const p = predicate(column, value)
      if (p === undefined) unmodelled = true
      else predicates.push(p)
    }
    return true
  }
  if (!add(DASHBOARD_FILTERS, filters.pinned)) return 'invalid'
  if (!add(DASHBOARD_FILTERS, filters.dashboard)) return 'invalid'
  const metricDefs = metricHasPaidFilter ? METRIC_FILTERS : {}
  if (!add(metricDefs, filters.app)) return 'invalid'
  if (!add(metricDefs, filters.metric)) return 'invalid'
  if (unmodelled) return 'unmodelled'
  return data.orders.filter(
    (o) => (tenant === null || (o.tenant === tenant && o.customerTenant === tenant)) && predicates.every((p) => p(o)),
  )
}

export const round2 = (v: unknown) => Math.round(Number(v) * 100) / 100
export const monthOf = (v: unknown) => {
  const d =
    v instanceof Date
      ? v
      : new Date(
          String(v)
            .replace(' ', 'T')
            .replace(/(T\d\d:\d\d:\d\d)$/, '$1Z'),
        )
  return Number.isNaN(d.getTime()) ? String(v).slice(0, 7) : d.toISOString().slice(0, 7)
}

/** The result rows a sales metric must return over `orders`, normalised for comparison. */
export function expectedRows(metricId: string, orders: readonly Order[]): unknown[] {
  switch (metricId) {
    case 'revenue':
      return [{ revenue: orders.length === 0 ? null : round2(orders.reduce((s, o) => s + o.amount, 0)) }]
    case 'revenue_by_country': {
      const by = new Map<string, { revenue: number; orders: number }>()
      for (const o of orders) {
        const g = by.get(o.country) ?? { revenue: 0, orders: 0 }
        g.revenue += o.amount
        g.orders += 1
        by.set(o.country, g)
      }
      return [...by.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([country, g]) => ({ country, revenue: round2(g.revenue), orders: g.orders }))
    }
    case 'orders_by_month': {
      const by = new Map<string, number>()
      for (const o of orders) {
        const m = new Date(o.createdAt).toISOString().slice(0, 7)
        by.set(m, (by.get(m) ?? 0) + 1)
      }
      return [...by.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([month, n]) => ({ month, orders: n }))
    }
    case 'order_rows':
      return orders.map((o) => o.id).sort((a, b) => a - b)
    default:
      throw new Error(`no expected rows for ${metricId}`)
  }
}

/** A server answer normalised the way expectedRows is. */
export function actualRows(metricId: string, data: readonly Record<string, unknown>[]): unknown[] {
  switch (metricId) {
    case 'revenue':
      return data.map((r) => ({ revenue: r.revenue === null || r.revenue === undefined ? null : round2(r.revenue) }))
    case 'revenue_by_country':
      return data.map((r) => ({ country: r.country, revenue: round2(r.revenue), orders: Number(r.orders) }))
    case 'orders_by_month':
      return data.map((r) => ({ month: monthOf(r.month), orders: Number(r.orders) }))
    case 'order_rows':
      return data.map((r) => Number(r.id)).sort((a, b) => a - b)
    default:
      throw new Error(`no rows for ${metricId}`)
  }
}
