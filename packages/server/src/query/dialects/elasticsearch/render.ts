/**
 * A compiled metric (the SQL AST of ../../ast.ts) → ONE `_search` request and its plan.
 *
 * - The table is the index. Under TABLE tenancy the compiler reads it through
 *   `(SELECT * FROM t WHERE client = :clientId) AS t0`: that becomes the FIRST clause of
 *   `query.bool.filter` (a `term`, exact on a keyword), and every other condition joins the same
 *   filter list, so no end-user condition can widen it (bool filter clauses are ANDed).
 * - Dimensions with measures → a `composite` aggregation `groups` (terms sources, date_histogram
 *   sources with `calendar_interval` and `time_zone`; `missing_bucket` so NULL is a group as in
 *   SQL), the measures as its sub-aggregations (COUNT(*) is the bucket's doc_count).
 * - Measures only → top-level metric aggregations (COUNT(*) is hits.total, tracked exactly).
 * - Dimensions only → documents (`_source` of the fields, `sort` from ORDER BY).
 * - The paging count (`SELECT count(*) FROM (inner) q`) → a `count` plan over the inner request.
 * Refused (400): joins, raw SQL (SQL metrics, custom columns, `{ sql }` lists), subqueries.
 */
import type { Expr, OrderItem, RawSql, Select, SelectItem, Source } from '../../ast.js'
import { conditions } from './conditions.js'
import { type FieldRef, fieldOf, type JsonParams, keyed, refuse } from './params.js'
import {
  CARDINALITY_PRECISION,
  COMPOSITE_PAGE,
  type Json,
  type Output,
  type Plan,
  SESSION_ZONE,
  type SearchStatement,
} from './statement.js'

const METRIC_AGG = { sum: 'sum', avg: 'avg', min: 'min', max: 'max', count: 'value_count' } as const

export function renderStatement(node: Select | RawSql, ps: JsonParams): SearchStatement {
  if (node.kind === 'raw') throw refuse('a SQL metric')
  const count = countOf(node)
  if (count !== null) {
    const inner = renderSelect(count.inner, ps)
    const of = inner.plan.shape === 'count' ? 'metrics' : inner.plan.shape
    const limit = 'limit' in inner.plan ? inner.plan.limit : null
    const body = of === 'hits' ? { query: inner.body.query ?? null, size: 0, track_total_hits: true } : inner.body
    const plan: Plan = { shape: 'count', of, name: count.name, limit }
    return { index: inner.index, body, plan }
  }
  return renderSelect(node, ps)
}

/** `SELECT count(*) AS total FROM (inner) AS q`: the compiler's paging count. */
function countOf(s: Select): { inner: Select; name: string } | null {
  const [first, ...rest] = s.items
  if (rest.length > 0 || first?.kind !== 'item' || s.from.kind !== 'derived' || s.from.select.kind !== 'select') {
    return null
  }
  const e = first.expr
  if (e.kind !== 'aggregate' || e.fn !== 'count' || e.arg !== null) return null
  if (s.where !== null || s.groupBy.length > 0 || s.joins.length > 0) return null
  // the tenancy wrapper selects `*`: this is a count over a query, not over the tenant's rows
  if (s.from.select.items.some((i) => i.kind === 'star')) return null
  return { inner: s.from.select, name: first.alias }
}

/** The index and the tenancy filter of the FROM (a table, or the tenant-scoped derived table). */
function fromOf(src: Source, ps: JsonParams): { index: string; alias: string; tenant: Json[] } {
  if (src.kind === 'table') return { index: src.name, alias: src.alias, tenant: [] }
  const inner = src.select
  if (inner.kind === 'raw') throw refuse('a SQL subquery')
  if (inner.items.some((i) => i.kind !== 'star')) throw refuse('a custom SQL column')
  if (inner.joins.length > 0) throw refuse('a join')
  if (inner.from.kind !== 'table') throw refuse('a nested subquery')
  // the tenancy condition is written on the inner alias, which the outer query reuses
  const alias = inner.from.alias
  if (alias !== src.alias) throw refuse('a renamed subquery')
  return { index: inner.from.name, alias, tenant: conditions(inner.where, alias, ps) }
}

function renderSelect(s: Select, ps: JsonParams): SearchStatement {
  if (s.joins.length > 0) throw refuse('a join (a metric reading more than one index)')
  const from = fromOf(s.from, ps)
  const items = s.items.map((i) => {
    if (i.kind === 'star') throw refuse('SELECT *')
    return i
  })
  // the tenant's term first, then every other condition, all ANDed in one filter list
  const filter = [...from.tenant, ...conditions(s.where, from.alias, ps)]
  const query: Json = { bool: { filter } }
  const measures = items.filter((i) => i.expr.kind === 'aggregate')
  const dims = items.filter((i) => i.expr.kind !== 'aggregate')

  if (measures.length === 0) return hits(from, items, query, s, ps)
  if (dims.length > 0 && s.groupBy.length !== dims.length) throw refuse('a dimension outside GROUP BY')

  const aggs: Record<string, Json> = {}
  const columns: Output[] = []
  const sources: Json[] = []
  items.forEach((it, i) => {
    if (it.expr.kind === 'aggregate') {
      columns.push(measure(it, i, from.alias, aggs, ps, dims.length > 0))
    } else {
      const source = `k${i}`
      const { clause, output } = groupSource(it, source, from.alias, ps)
      sources.push(keyed(source, clause))
      columns.push(output)
    }
  })
  if (dims.length === 0) {
    // the exact document count: COUNT(*), and a SUM over no documents is NULL as in SQL
    const body = { size: 0, track_total_hits: true, query, aggs }
    return { index: from.index, body, plan: { shape: 'metrics', columns } }
  }
  const composite: Json = { composite: { size: COMPOSITE_PAGE, sources }, aggs }
  const body = { size: 0, track_total_hits: false, query, aggs: { groups: composite } }
  const order = s.orderBy.map((o) => ({ column: orderColumn(o, items), direction: o.direction }))
  return {
    index: from.index,
    body,
    plan: { shape: 'groups', columns, order, limit: s.limit, offset: s.offset },
  }
}

function measure(
  it: SelectItem,
  i: number,
  alias: string,
  aggs: Record<string, Json>,
  ps: JsonParams,
  grouped: boolean,
): Output {
  const e = it.expr
  if (e.kind !== 'aggregate') throw new Error('not an aggregate')
  if (e.arg === null) return { name: it.alias, from: grouped ? 'doc_count' : 'total', fn: 'count' }
  const ref = fieldOf(e.arg, alias)
  const name = `m${i}`
  aggs[name] =
    e.fn === 'count-distinct'
      ? { cardinality: { field: ref.field, precision_threshold: CARDINALITY_PRECISION } }
      : keyed(METRIC_AGG[e.fn], { field: ref.field })
  return { name: it.alias, from: 'agg', agg: name, fn: e.fn, field: ref.field, ...zoneOf(ref, ps) }
}

const zoneOf = (ref: FieldRef, ps: JsonParams): { zone?: Json } =>
  ref.zone === undefined ? {} : { zone: ps.add(ref.zone) }

/** A dimension as a composite source: terms, or date_histogram for a time grain. */
function groupSource(it: SelectItem, source: string, alias: string, ps: JsonParams): { clause: Json; output: Output } {
  const e: Expr = it.expr
  if (e.kind === 'time-grain') {
    const ref = fieldOf(e.expr, alias)
    const zone = ref.zone === undefined ? SESSION_ZONE : ps.add(ref.zone)
    const histogram = { field: ref.field, calendar_interval: e.grain, time_zone: zone, missing_bucket: true }
    return {
      clause: { date_histogram: histogram },
      output: { name: it.alias, from: 'key', source, field: ref.field, grain: e.grain, zone },
    }
  }
  const ref = fieldOf(e, alias)
  return {
    clause: { terms: { field: ref.field, missing_bucket: true } },
    output: { name: it.alias, from: 'key', source, field: ref.field, ...zoneOf(ref, ps) },
  }
}

function orderColumn(o: OrderItem, items: readonly SelectItem[]): string {
  if (o.expr.kind !== 'alias') throw refuse('ORDER BY an expression')
  const name = o.expr.name
  if (!items.some((i) => i.alias === name)) throw refuse(`ORDER BY ${name}, which is not an output column`)
  return name
}

/** Dimensions without measures: the documents themselves. */
function hits(
  from: { index: string; alias: string },
  items: readonly SelectItem[],
  query: Json,
  s: Select,
  ps: JsonParams,
): SearchStatement {
  if (items.some((i) => i.expr.kind === 'time-grain')) throw refuse('a time grain without a measure')
  const columns: Output[] = items.map((it) => {
    const ref = fieldOf(it.expr, from.alias)
    return { name: it.alias, from: 'source', field: ref.field, ...zoneOf(ref, ps) }
  })
  const sort = s.orderBy.map((o) => {
    const column = columns.find((c) => c.name === orderColumn(o, items)) as Output
    return keyed(column.field as string, { order: o.direction })
  })
  const fields = [...new Set(columns.map((c) => c.field as string))]
  const body = { query, _source: fields, ...(sort.length > 0 ? { sort } : {}), track_total_hits: false }
  return { index: from.index, body, plan: { shape: 'hits', columns, limit: s.limit, offset: s.offset } }
}
