import fc from 'fast-check'
import { expect } from 'vitest'
import type { Analytics } from '../helpers/analytics.js'
import { round2, type Warehouse } from './ground-truth.js'

/**
 * The oracle and the generators of the end-user metric isolation property
 * (tenant-isolation-self-serve.test.ts), shared with the AI pilot's
 * (tenant-isolation-ai.standin.test.ts): for a definition over the warehouse of
 * helpers/warehouse.ts, the rows it must answer for one tenant (`expected`), or, when its
 * conditions fall outside what this model covers, bounds no foreign row could keep
 * (`checkBounded`); and definitions generated over the visible model (`definitionArb`).
 */
export type BackendName = 'postgres' | 'duckdb' | 'mariadb'

export interface ModelTable {
  readonly name: string
  readonly columns: readonly { name: string; dataType: string }[]
}

// ── the oracle ────────────────────────────────────────────────────────────────

/** One row of a table as the definition sees it: own columns, and (orders) the customer's as `customers.<column>`. */
export type Row = Readonly<Record<string, string | number>>

export const ORDER_COLUMNS = ['id', 'customer_id', 'status', 'amount', 'created_at']
export const CUSTOMER_COLUMNS = ['id', 'name', 'country']

/** The tenant's rows of a table (orders joined to their customers), by the table's short name. */
export function tenantRows(data: Warehouse, table: 'orders' | 'customers', tenant: string): Row[] {
  if (table === 'customers') {
    return data.customers
      .filter((c) => c.tenant === tenant)
      .map((c) => ({ id: c.id, name: `customer ${c.id}`, country: c.country }))
  }
  return data.orders
    .filter((o) => o.tenant === tenant && o.customerTenant === tenant)
    .map((o) => ({
      id: o.id,
      customer_id: o.customerId,
      status: o.status,
      amount: o.amount,
      created_at: o.createdAt,
      'customers.id': o.customerId,
      'customers.name': `customer ${o.customerId}`,
      'customers.country': o.country,
    }))
}

export const TEXT = new Set(['status', 'name', 'country'])
export const NUMERIC = new Set(['id', 'customer_id', 'amount'])
export const DAY = 86_400_000

export function truncate(ms: number, grain: string): number {
  const d = new Date(ms)
  const y = d.getUTCFullYear()
  const m = d.getUTCMonth()
  switch (grain) {
    case 'hour':
      return Math.floor(ms / 3_600_000) * 3_600_000
    case 'day':
      return Math.floor(ms / DAY) * DAY
    case 'week': {
      const day = Math.floor(ms / DAY) * DAY
      return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY // ISO weeks: Monday
    }
    case 'month':
      return Date.UTC(y, m, 1)
    case 'quarter':
      return Date.UTC(y, m - (m % 3), 1)
    default:
      return Date.UTC(y, 0, 1)
  }
}

/** A time value as the drivers answer it (Date, ISO or naive `YYYY-MM-DD HH:MM:SS` in UTC) → epoch ms. */
export function epoch(v: unknown): number {
  if (v instanceof Date) return v.getTime()
  const s = String(v).replace(' ', 'T')
  return Date.parse(/T\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(s) ? `${s}Z` : s)
}

export const INJECTIONS = [
  "acme' OR '1'='1",
  "' OR 1=1 --",
  "paid'; drop table orders; --",
  '%',
  '_',
  '{{clientId}}',
  'paid\u0000',
  'PAID',
  'paid ',
  'DE ',
  'acme',
  'globex',
  '$1',
  '\\',
  '*',
]

export interface Cond {
  readonly column: string
  readonly table?: string
  readonly operator: string
  readonly values?: unknown[]
}

/** The collation of a backend's text comparisons: MariaDB's utf8mb4_general_ci folds case and trailing spaces. */
export const folder = (backend: BackendName) => (s: string) =>
  backend === 'mariadb' ? s.toLowerCase().replace(/ +$/, '') : s

/** What a condition keeps, or undefined when this model does not cover its values. */
export function predicate(backend: BackendName, key: string, c: Cond): ((r: Row) => boolean) | undefined {
  const vals = c.values ?? []
  const column = key.replace(/^customers\./, '')
  if (c.operator === 'is-null') return () => false
  if (c.operator === 'is-not-null') return () => true
  if (TEXT.has(column)) {
    if (!vals.every((v) => typeof v === 'string' && !v.includes('\u0000'))) return undefined
    const f = folder(backend)
    const strs = (vals as string[]).map(f)
    const cell = (r: Row) => f(String(r[key]))
    switch (c.operator) {
      case 'eq':
        return (r) => cell(r) === strs[0]
      case 'neq':
        return (r) => cell(r) !== strs[0]
      case 'in':
        return (r) => strs.includes(cell(r))
      case 'not-in':
        return (r) => !strs.includes(cell(r))
      case 'contains':
        return (r) =>
          String(r[key])
            .toLowerCase()
            .includes((vals[0] as string).toLowerCase())
      default:
        return undefined
    }
  }
  // numbers, and created_at as `YYYY-MM-DD` (midnight UTC)
  const nums = vals.map((v) =>
    column === 'created_at'
      ? typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)
        ? Date.parse(`${v}T00:00:00Z`)
        : Number.NaN
      : typeof v === 'number'
        ? v
        : Number.NaN,
  )
  if (!nums.every(Number.isFinite)) return undefined
  const n = (r: Row) => Number(r[key])
  const [a = 0, b = 0] = nums
  switch (c.operator) {
    case 'eq':
      return (r) => n(r) === a
    case 'neq':
      return (r) => n(r) !== a
    case 'gt':
      return (r) => n(r) > a
    case 'gte':
      return (r) => n(r) >= a
    case 'lt':
      return (r) => n(r) < a
    case 'lte':
      return (r) => n(r) <= a
    case 'between':
      return (r) => n(r) >= a && n(r) <= b
    case 'in':
      return (r) => nums.includes(n(r))
    case 'not-in':
      return (r) => !nums.includes(n(r))
    default:
      return undefined
  }
}

export interface Measure {
  readonly name: string
  readonly aggregate: 'count' | 'count-distinct' | 'sum' | 'min' | 'max'
  readonly column?: string
}
export interface Dimension {
  readonly name: string
  readonly column: string
  readonly table?: string
  readonly timeGrain?: string
}
export interface Definition {
  readonly name: string
  readonly chart: { type: 'table' }
  readonly query: {
    readonly from: string
    readonly measures: readonly Measure[]
    readonly dimensions?: readonly Dimension[]
    readonly where?: readonly Cond[]
  }
}

export const keyOf = (schema: string, column: string, table?: string) =>
  table === `${schema}.customers` ? `customers.${column}` : column

export function aggregate(m: Measure, rows: readonly Row[]): number | null {
  if (m.aggregate === 'count') return rows.length
  const vals = rows.map((r) => Number(r[m.column as string]))
  if (m.aggregate === 'count-distinct') return new Set(rows.map((r) => r[m.column as string])).size
  if (vals.length === 0) return null
  if (m.aggregate === 'sum') return round2(vals.reduce((s, v) => s + v, 0))
  return m.aggregate === 'min' ? Math.min(...vals) : Math.max(...vals)
}

/** A dimension value, normalised: time grains as epoch ms, numbers as numbers, text folded as the backend groups it. */
export function dimValue(backend: BackendName, d: Dimension, v: unknown): string | number {
  if (d.timeGrain) return epoch(v)
  if (NUMERIC.has(d.column)) return Number(v)
  return folder(backend)(String(v))
}

export const normalise = (rows: readonly Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort()

/** The result rows the definition must answer for `tenant`, or 'unmodelled' (a value outside the model). */
export function expected(
  backend: BackendName,
  schema: string,
  data: Warehouse,
  tenant: string,
  def: Definition,
): Record<string, unknown>[] | 'unmodelled' {
  const table = def.query.from === `${schema}.customers` ? 'customers' : 'orders'
  const preds: ((r: Row) => boolean)[] = []
  for (const c of def.query.where ?? []) {
    const p = predicate(backend, keyOf(schema, c.column, c.table), c)
    if (p === undefined) return 'unmodelled'
    preds.push(p)
  }
  const rows = tenantRows(data, table, tenant).filter((r) => preds.every((p) => p(r)))
  const dims = def.query.dimensions ?? []
  const groups = new Map<string, { key: Record<string, unknown>; rows: Row[] }>()
  for (const r of rows) {
    const key: Record<string, unknown> = {}
    for (const d of dims) {
      const v = r[keyOf(schema, d.column, d.table)] as string | number
      key[d.name] = d.timeGrain ? truncate(Number(v), d.timeGrain) : dimValue(backend, d, v)
    }
    const k = JSON.stringify(key)
    const g = groups.get(k) ?? { key, rows: [] }
    g.rows.push(r)
    groups.set(k, g)
  }
  if (dims.length === 0) groups.set('{}', { key: {}, rows })
  return [...groups.values()].map((g) => {
    const out: Record<string, unknown> = { ...g.key }
    for (const m of def.query.measures) out[m.name] = aggregate(m, g.rows)
    return out
  })
}

/** A server answer in the shape of `expected`. */
export function actual(backend: BackendName, def: Definition, data: readonly Record<string, unknown>[]) {
  return data.map((r) => {
    const out: Record<string, unknown> = {}
    for (const d of def.query.dimensions ?? []) out[d.name] = dimValue(backend, d, r[d.name])
    for (const m of def.query.measures) {
      const v = r[m.name]
      out[m.name] = v === null || v === undefined ? null : m.aggregate === 'sum' ? round2(v) : Number(v)
    }
    return out
  })
}

/**
 * What no answer may exceed for `tenant`, whatever its conditions mean: counts within the
 * tenant's rows of the table, group keys among the tenant's values, sums within its total,
 * minima and maxima within its range.
 */
export function checkBounded(
  backend: BackendName,
  schema: string,
  data: Warehouse,
  tenant: string,
  def: Definition,
  rows: Record<string, unknown>[],
  label: string,
): void {
  const table = def.query.from === `${schema}.customers` ? 'customers' : 'orders'
  const own = tenantRows(data, table, tenant)
  const counted = new Map<string, number>()
  for (const r of rows) {
    for (const d of def.query.dimensions ?? []) {
      const key = keyOf(schema, d.column, d.table)
      const values = new Set(
        own.map((o) => (d.timeGrain ? truncate(Number(o[key]), d.timeGrain) : dimValue(backend, d, o[key]))),
      )
      expect(
        values.has(r[d.name] as string | number),
        `${label}: group ${d.name}=${r[d.name]} is not the tenant's`,
      ).toBe(true)
    }
    for (const m of def.query.measures) {
      const v = r[m.name]
      if (v === null) continue
      const all = aggregate(m, own) ?? 0
      if (m.aggregate === 'count') counted.set(m.name, (counted.get(m.name) ?? 0) + Number(v))
      if (m.aggregate === 'count' || m.aggregate === 'count-distinct' || m.aggregate === 'sum' || m.aggregate === 'max')
        expect(Number(v), `${label}: ${m.aggregate} ${m.name} beyond the tenant's ${all}`).toBeLessThanOrEqual(all)
      if (m.aggregate === 'min')
        expect(Number(v), `${label}: min ${m.name} below the tenant's ${all}`).toBeGreaterThanOrEqual(all)
    }
  }
  for (const [name, n] of counted) {
    expect(n, `${label}: ${name} counts more rows than the tenant has`).toBeLessThanOrEqual(own.length)
  }
}

// ── generators (over the visible model) ────────────────────────────────────────

/**
 * The physical column a visible column name stands for, per table (`schema.table`): for a
 * datamart whose aliases differ from the column names. Absent: every name is the column's.
 */
export type PhysicalOf = (table: string, name: string) => string

/** A definition with its column names as the physical columns they stand for: what the oracle reads. */
export function toPhysical(def: Definition, physicalOf: PhysicalOf): Definition {
  const q = def.query
  const rename = <T extends { column?: string; table?: string }>(x: T): T =>
    x.column === undefined ? x : { ...x, column: physicalOf(x.table ?? q.from, x.column) }
  return {
    ...def,
    query: {
      ...q,
      measures: q.measures.map(rename),
      ...(q.dimensions ? { dimensions: q.dimensions.map(rename) } : {}),
      ...(q.where ? { where: q.where.map(rename) } : {}),
    },
  }
}

export function definitionArb(
  schema: string,
  model: readonly ModelTable[],
  data: Warehouse,
  physicalOf: PhysicalOf = (_table, name) => name,
): fc.Arbitrary<Definition> {
  const orders = model.find((t) => t.name === `${schema}.orders`)
  const customers = model.find((t) => t.name === `${schema}.customers`)
  const tables = [orders, customers].filter((t): t is ModelTable => t !== undefined)
  const values: Record<string, readonly unknown[]> = {
    status: [...new Set(data.orders.map((o) => o.status))],
    country: [...new Set(data.customers.map((c) => c.country))],
    name: data.customers.slice(0, 6).map((c) => `customer ${c.id}`),
    amount: [...new Set(data.orders.map((o) => o.amount))].slice(0, 20),
    id: [1, 2, 3, 10, 29, 30, 100, 150, 299, 300],
    customer_id: [1, 2, 5, 8, 13, 21, 30],
    created_at: ['2026-01-15', '2026-02-01', '2026-03-10', '2026-04-01', '2026-05-20'],
  }
  return fc.constantFrom(...tables).chain((table) => {
    const isOrders = table.name === `${schema}.orders`
    const own = table.columns.map((c) => c.name)
    const joined =
      isOrders && customers ? customers.columns.map((c) => ({ column: c.name, table: customers.name })) : []
    const place = [...own.map((column) => ({ column, table: undefined as string | undefined })), ...joined]
    // what a column holds (its type, its values) is the physical column's
    const kind = (column: string, t?: string) => physicalOf(t ?? table.name, column)
    const numeric = own.filter((c) => NUMERIC.has(kind(c)))
    const measureArb = fc.oneof(
      fc.constant<Omit<Measure, 'name'>>({ aggregate: 'count' }),
      fc.constantFrom(...own).map((column): Omit<Measure, 'name'> => ({ aggregate: 'count-distinct', column })),
      ...(numeric.length === 0
        ? []
        : [
            fc
              .tuple(fc.constantFrom<Measure['aggregate']>('sum', 'min', 'max'), fc.constantFrom(...numeric))
              .map(([aggregate, column]): Omit<Measure, 'name'> => ({ aggregate, column })),
          ]),
    )
    const dimensionArb = fc
      .constantFrom(...place)
      .chain(({ column, table: t }) =>
        kind(column, t) === 'created_at'
          ? fc
              .constantFrom('hour', 'day', 'week', 'month', 'quarter', 'year')
              .map((timeGrain): Omit<Dimension, 'name'> => ({ column, timeGrain }))
          : fc.constant<Omit<Dimension, 'name'>>(t ? { column, table: t } : { column }),
      )
    const valueArb = (column: string) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...(values[column] ?? [1])) },
        { weight: 2, arbitrary: fc.constantFrom<unknown>(...INJECTIONS) },
      )
    const condArb = fc.constantFrom(...place).chain(({ column, table: t }) => {
      const text = TEXT.has(kind(column, t))
      const ops = text
        ? (['eq', 'neq', 'in', 'not-in', 'contains', 'is-null', 'is-not-null'] as const)
        : (['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not-in', 'is-not-null'] as const)
      return fc.constantFrom<string>(...ops).chain((operator) => {
        const n = operator.endsWith('null') ? 0 : operator === 'between' ? 2 : operator.endsWith('in') ? 3 : 1
        const vals =
          operator === 'contains'
            ? fc.tuple(fc.oneof(fc.constantFrom('pa', 'ip', 'D', 'customer 1', 'US'), fc.constantFrom(...INJECTIONS)))
            : fc.array(valueArb(kind(column, t)), { minLength: Math.min(n, 1), maxLength: n })
        return vals.map(
          (v): Cond => ({
            column,
            ...(t ? { table: t } : {}),
            operator,
            ...(operator.endsWith('null') ? {} : { values: operator === 'between' ? [...v, ...v].slice(0, 2) : v }),
          }),
        )
      })
    })
    return fc
      .record({
        measures: fc.array(measureArb, { minLength: 1, maxLength: 3 }),
        dimensions: fc.array(dimensionArb, { minLength: 0, maxLength: 2 }),
        where: fc.array(condArb, { minLength: 0, maxLength: 3 }),
      })
      .map(
        ({ measures, dimensions, where }): Definition => ({
          name: 'Generated',
          chart: { type: 'table' },
          query: {
            from: table.name,
            measures: measures.map((m, i) => ({ ...m, name: `m${i}` })),
            ...(dimensions.length > 0 ? { dimensions: dimensions.map((d, i) => ({ ...d, name: `d${i}` })) } : {}),
            ...(where.length > 0 ? { where } : {}),
          },
        }),
      )
  })
}

/** A guest token of the sales app per tenant, nothing else in it: what each property case uses. */
export async function tenantTokens(a: Analytics, tenants: readonly string[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>()
  for (const clientId of tenants) {
    tokens.set(
      clientId,
      (await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId })).token,
    )
  }
  return tokens
}
