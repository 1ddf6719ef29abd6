import { chartMisfit } from '@strata/contract/chart-fit'
import {
  type DashboardDocument,
  DashboardDocumentSchema,
  type Metric,
  type MetricFormats,
  type MetricQuery,
  type Operator,
} from '@strata/contract/document'
import { Compile } from 'typebox/compile'
import { badRequest } from '../errors.js'
import { fieldsError } from '../validation/fields.js'
import { schemaProblems, withContext } from '../validation/schema-errors.js'
import { matchPreset } from './date-presets.js'
import { planJoins } from './joins.js'
import { type ModelColumn, type ModelTable, resolveColumn, resolveTable, type SemanticModel } from './model.js'
import { analyzeSqlMetric, sqlMetricText } from './sql-metric-scope.js'
import type { DialectName } from './types.js'

export * from '@strata/contract/document'

const validator = Compile(DashboardDocumentSchema)

/**
 * A document that does not fit the schema: the deepest error says most (among equals, one that
 * is not a union summary), worded as every other validation error of the API
 * (validation/: the path from the body, the allowed values of a union, a close field
 * name for an unknown one), with `details.fields`.
 */
function structuralError(root: string, doc: unknown): never {
  const errors = [...validator.Errors(doc)].sort(
    (a, b) =>
      b.instancePath.split('/').length - a.instancePath.split('/').length ||
      Number(a.keyword === 'anyOf' || a.keyword === 'const') - Number(b.keyword === 'anyOf' || b.keyword === 'const'),
  )
  throw fieldsError(schemaProblems(withContext(errors, DashboardDocumentSchema, doc), 'body', root))
}

const VALUE_COUNT: Partial<Record<Operator, [number, number]>> = {
  eq: [1, 1],
  neq: [1, 1],
  gt: [1, 1],
  gte: [1, 1],
  lt: [1, 1],
  lte: [1, 1],
  between: [2, 2],
  'is-null': [0, 0],
  'is-not-null': [0, 0],
  contains: [1, 1],
}

function checkKeys(path: string, items: readonly { name: string; label?: string }[]) {
  const keys = new Set<string>()
  items.forEach((f, i) => {
    for (const k of new Set([f.name.toLowerCase(), ...(f.label ? [f.label.toLowerCase()] : [])])) {
      if (keys.has(k))
        throw badRequest(`${path}[${i}]: filter name or label "${k}" is used twice (keys match case-insensitively)`)
      keys.add(k)
    }
  })
}

/**
 * Checks a structured query and returns it with canonical table paths; with `physical`, every
 * column reference also becomes the name of the column it resolved to (an alias is read once,
 * here, and never again: see services/self-serve/definition.ts).
 */
function checkQuery(model: SemanticModel, q: MetricQuery, path: string, physical = false): MetricQuery {
  const named = <T extends { column: string }>(x: T, c: ModelColumn): T =>
    physical && c.name !== x.column ? { ...x, column: c.name } : x
  const from = resolveTable(model, q.from, `${path}.from`)
  const used = new Set<string>()
  const tableAt = (ref: string | undefined, at: string): ModelTable => {
    if (ref === undefined) return from
    const t = resolveTable(model, ref, at)
    used.add(t.key)
    return t
  }
  const measures = (q.measures ?? []).map((m, i) => {
    const at = `${path}.measures[${i}]`
    const t = tableAt(m.table, `${at}.table`)
    if (m.column === undefined && m.aggregate !== 'count')
      throw badRequest(`${at}.column: ${m.aggregate} needs a column`)
    const c = m.column === undefined ? undefined : resolveColumn(t, m.column, `${at}.column`)
    const out = c === undefined ? m : named({ ...m, column: m.column as string }, c)
    return m.table === undefined ? out : { ...out, table: t.key }
  })
  const dimensions = (q.dimensions ?? []).map((d, i) => {
    const at = `${path}.dimensions[${i}]`
    const t = tableAt(d.table, `${at}.table`)
    const c = resolveColumn(t, d.column, `${at}.column`)
    if (
      d.timeGrain !== undefined &&
      (c.dataType === 'string' || c.dataType === 'number' || c.dataType === 'integer' || c.dataType === 'boolean')
    ) {
      throw badRequest(`${at}.timeGrain: column "${d.column}" of ${t.key} is ${c.dataType}, not a date or time`)
    }
    const out = named(d, c)
    return d.table === undefined ? out : { ...out, table: t.key }
  })
  const where = (q.where ?? []).map((w, i) => {
    const at = `${path}.where[${i}]`
    const t = tableAt(w.table, `${at}.table`)
    const c = resolveColumn(t, w.column, `${at}.column`)
    const n = w.values?.length ?? 0
    const [min, max] = VALUE_COUNT[w.operator] ?? [0, 1000]
    if (n < min || n > max) {
      throw badRequest(
        `${at}.values: operator ${w.operator} takes ${min === max ? min : `${min}–${max}`} value(s), got ${n}`,
      )
    }
    if (w.operator === 'contains' && typeof w.values?.[0] !== 'string')
      throw badRequest(`${at}.values[0]: contains takes a string`)
    const out = named(w, c)
    return w.table === undefined ? out : { ...out, table: t.key }
  })
  const names = new Set<string>()
  for (const [i, n] of [...measures, ...dimensions].map((x, i) => [i, x.name] as const)) {
    const at = i < measures.length ? `measures[${i}]` : `dimensions[${i - measures.length}]`
    if (names.has(n)) throw badRequest(`${path}.${at}.name: output column "${n}" is defined twice`)
    names.add(n)
  }
  if (names.size === 0) throw badRequest(`${path}: needs at least one measure or dimension`)
  q.orderBy?.forEach((o, i) => {
    if (!names.has(o.name)) throw badRequest(`${path}.orderBy[${i}].name: no measure or dimension "${o.name}"`)
  })
  const plan = planJoins(model, from.key, used)
  if (!plan.ok) throw badRequest(`${path}: no relationship path from ${from.key} to ${plan.unreachable}`)
  return { ...q, from: from.key, measures, dimensions, where }
}

/** ISO 4217 codes this runtime formats (the browser's Intl knows the same list). */
let currencies: ReadonlySet<string> | undefined
const knownCurrency = (code: string): boolean => {
  currencies ??= new Set(Intl.supportedValuesOf('currency'))
  return currencies.has(code)
}

/**
 * `formats`: each key an output column (for a query metric, one of its measures or dimensions;
 * a SQL metric's columns are known only when it runs), `currency` with style currency only.
 */
function checkFormats(formats: MetricFormats, m: Metric, path: string): void {
  const outputs = m.query ? [...(m.query.measures ?? []), ...(m.query.dimensions ?? [])].map((x) => x.name) : undefined
  for (const [key, f] of Object.entries(formats)) {
    const at = `${path}.formats.${key}`
    if (key.length > 63) throw badRequest(`${at}: a column name has at most 63 characters`)
    if (outputs !== undefined && !outputs.includes(key)) {
      throw badRequest(
        `${at}: metric ${m.metricId} has no measure or dimension "${key}" (formats may name ${outputs.map((o) => `"${o}"`).join(', ')})`,
      )
    }
    if (f.style === 'currency' && f.currency === undefined)
      throw badRequest(`${at}.currency: style "currency" needs an ISO 4217 code, e.g. "USD"`)
    if (f.style !== 'currency' && f.currency !== undefined)
      throw badRequest(`${at}.currency: only style "currency" takes a currency (this one is "${f.style}")`)
    if (f.currency !== undefined && !knownCurrency(f.currency))
      throw badRequest(`${at}.currency: "${f.currency}" is not an ISO 4217 currency code`)
  }
}

/**
 * Checks one metric against the model (the whole of validateDocument for a metric); returns it
 * with canonical table paths, and with `physicalColumns` its query's column references as the
 * physical names they resolved to.
 */
export function checkMetric(
  model: SemanticModel,
  dialect: DialectName | undefined,
  m: Metric,
  path: string,
  options: { readonly physicalColumns?: boolean } = {},
): Metric {
  if ((m.query === undefined) === (m.sql === undefined)) {
    throw badRequest(`${path}: give exactly one of query or sql`)
  }
  if (m.sql !== undefined) {
    // One read-only SELECT over tables of the model, or refused here with the parser's reason.
    if (dialect === undefined) throw badRequest(`${path}.sql: this datasource type runs no SQL metrics`)
    analyzeSqlMetric(sqlMetricText(m.sql), dialect, model, `${path}.sql`)
  }
  const out: Metric = { ...m }
  const from = m.query === undefined ? undefined : resolveTable(model, m.query.from, `${path}.query.from`)
  if (m.query !== undefined) {
    out.query = checkQuery(model, m.query, `${path}.query`, options.physicalColumns === true)
    const names = new Set([...(m.query.measures ?? []), ...(m.query.dimensions ?? [])].map((x) => x.name))
    if (m.chart.x !== undefined && !names.has(m.chart.x))
      throw badRequest(`${path}.chart.x: no measure or dimension "${m.chart.x}"`)
    m.chart.y?.forEach((y, i) => {
      if (!names.has(y)) throw badRequest(`${path}.chart.y[${i}]: no measure or dimension "${y}"`)
    })
    const misfit = chartMisfit(m.chart, {
      measures: (m.query.measures ?? []).map((x) => x.name),
      dimensions: m.query.dimensions ?? [],
    })
    if (misfit) throw badRequest(`${path}.${misfit.field}: ${misfit.message}`)
  }
  if (m.formats !== undefined) checkFormats(m.formats, m, path)
  if (m.comparison !== undefined && (m.query?.measures ?? []).length === 0) {
    throw badRequest(`${path}.comparison: compares the first measure, so it needs a query metric with a measure`)
  }
  if (m.filters !== undefined) {
    checkKeys(`${path}.filters`, m.filters)
    out.filters = m.filters.map((f, i) => {
      if (from === undefined) return f
      const t = f.table === undefined ? from : resolveTable(model, f.table, `${path}.filters[${i}].table`)
      resolveColumn(t, f.column, `${path}.filters[${i}].column`)
      return f.table === undefined ? f : { ...f, table: t.key }
    })
  }
  if (m.rls !== undefined) {
    const vars = new Set<string>()
    out.rls = m.rls.map((r, i) => {
      if (vars.has(r.variable)) throw badRequest(`${path}.rls[${i}].variable: "${r.variable}" is bound twice`)
      vars.add(r.variable)
      // a SQL metric's entry with a table is checked too: it says where end users' metrics are restricted
      const t = r.table === undefined ? from : resolveTable(model, r.table, `${path}.rls[${i}].table`)
      if (t === undefined) return r
      resolveColumn(t, r.column, `${path}.rls[${i}].column`)
      return r.table === undefined ? r : { ...r, table: t.key }
    })
  }
  return out
}

/**
 * Validates a dashboard document against its schema and the semantic model (SQL metrics: parsed
 * in `dialect`, see sql-metric-scope.ts). Returns it with every table path in canonical
 * `schema.table` form; throws a 400 whose message names the path, e.g.
 * `importDashboardData.metrics[2].query.measures[0].column: no column "amout" in public.orders`.
 */
export function validateDocument(
  doc: unknown,
  model: SemanticModel,
  dialect: DialectName | undefined,
  root = 'importDashboardData',
): DashboardDocument {
  if (!validator.Check(doc)) structuralError(root, doc)
  const d = doc as DashboardDocument
  const ids = new Set<string>()
  const metrics = d.metrics.map((m, i) => {
    if (ids.has(m.metricId)) throw badRequest(`${root}.metrics[${i}].metricId: duplicate metricId "${m.metricId}"`)
    ids.add(m.metricId)
    return checkMetric(model, dialect, m, `${root}.metrics[${i}]`)
  })
  d.layout?.forEach((l, i) => {
    if (!ids.has(l.metricId)) throw badRequest(`${root}.layout[${i}].metricId: no metric "${l.metricId}"`)
  })
  const filters = d.filters?.map((f, i) => {
    const at = `${root}.filters[${i}]`
    const t = resolveTable(model, f.table, `${at}.table`)
    resolveColumn(t, f.column, `${at}.column`)
    if (f.type === 'date-range' && typeof f.default === 'string' && matchPreset(f.default) === undefined) {
      throw badRequest(`${at}.default: "${f.default}" is not a date preset`)
    }
    return { ...f, table: t.key }
  })
  if (d.filters !== undefined) checkKeys(`${root}.filters`, d.filters)
  d.metrics.forEach((m, i) => {
    checkDeclaredFilters(m, filters ?? [], model, dialect, `${root}.metrics[${i}].dashboardFilters`)
  })
  return { ...d, ...(filters ? { filters } : {}), metrics }
}

/**
 * A SQL metric's `dashboardFilters`: each names a dashboard filter of the document whose table the
 * SQL reads (there the filter applies). A query metric declares none: it takes every dashboard
 * filter its table reaches.
 */
function checkDeclaredFilters(
  m: Metric,
  filters: readonly { readonly name: string; readonly table: string }[],
  model: SemanticModel,
  dialect: DialectName | undefined,
  at: string,
): void {
  if (m.dashboardFilters === undefined) return
  if (m.sql === undefined || dialect === undefined) {
    throw badRequest(
      `${at}: only a SQL metric declares dashboard filters; a query metric takes every filter its table reaches`,
    )
  }
  const read = new Set(analyzeSqlMetric(sqlMetricText(m.sql), dialect, model, at).tables.map((t) => t.key))
  m.dashboardFilters.forEach((name, i) => {
    const f = filters.find((x) => x.name === name)
    if (f === undefined) throw badRequest(`${at}[${i}]: no dashboard filter named "${name}"`)
    if (!read.has(f.table)) {
      throw badRequest(`${at}[${i}]: the filter "${name}" is on ${f.table}, which the SQL does not read`)
    }
  })
}

export interface SchemaPair {
  readonly replaceSchema: string
  readonly targetSchema: string
}

/**
 * Import's schemaPairs: rewrites the schema part of every `schema.table` reference (filters,
 * from, measure/dimension/where/filter/rls tables, rollups' from and joined dimensions). Tolerates any shape (it runs before
 * validation); SQL metric text is not rewritten. Returns a copy.
 */
export function rewriteSchemas<T>(doc: T, pairs: readonly SchemaPair[]): T {
  const rewrite = (ref: unknown): unknown => {
    if (typeof ref !== 'string') return ref
    const pair = pairs.find((p) => ref.startsWith(`${p.replaceSchema}.`))
    return pair === undefined ? ref : `${pair.targetSchema}${ref.slice(pair.replaceSchema.length)}`
  }
  const isObject = (x: unknown): x is Record<string, unknown> =>
    typeof x === 'object' && x !== null && !Array.isArray(x)
  const withTable = (x: unknown, key = 'table'): unknown =>
    isObject(x) && key in x ? { ...x, [key]: rewrite(x[key]) } : x
  const list = (x: unknown, key = 'table'): unknown => (Array.isArray(x) ? x.map((i) => withTable(i, key)) : x)
  if (!isObject(doc) || pairs.length === 0) return doc
  const out: Record<string, unknown> = { ...doc, filters: list(doc.filters) }
  if (!('filters' in doc)) delete out.filters
  if (Array.isArray(doc.metrics)) {
    out.metrics = doc.metrics.map((m) => {
      if (!isObject(m)) return m
      const metric: Record<string, unknown> = { ...m }
      if ('filters' in m) metric.filters = list(m.filters)
      if ('rls' in m) metric.rls = list(m.rls)
      if (isObject(m.query)) {
        const q: Record<string, unknown> = { ...m.query }
        if ('from' in q) q.from = rewrite(q.from)
        for (const k of ['measures', 'dimensions', 'where']) if (k in q) q[k] = list(q[k])
        metric.query = q
      }
      return metric
    })
  }
  if (Array.isArray(doc.rollups)) {
    out.rollups = doc.rollups.map((r) => {
      if (!isObject(r)) return r
      const rollup: Record<string, unknown> = { ...r }
      if ('from' in r) rollup.from = rewrite(r.from)
      if (Array.isArray(r.dimensions)) rollup.dimensions = r.dimensions.map(rewrite)
      return rollup
    })
  }
  return out as T
}
