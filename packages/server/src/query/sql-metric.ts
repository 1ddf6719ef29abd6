import { badRequest } from '../errors.js'
import { agg, derived, exactParam, item, type Param, param, raw, type Select, select, star } from './ast.js'
import { Bound, VALUE_LIMITS } from './bind.js'
import type { CompiledQuery, CompileInput } from './compile-types.js'
import { declaredFilterConditions } from './sql-metric-filters.js'
import { scopeSqlMetric, sqlMetricScope, sqlMetricText } from './sql-metric-scope.js'

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g
function bindable(value: unknown, where: string): Param[] {
  const one = (v: unknown): Param => {
    if (v instanceof Bound) return param(v) // validated when the request was bound
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw badRequest(`${where}: a value must not contain a NUL character`)
      return param(v)
    }
    if (typeof v === 'number' && Number.isFinite(v)) return param(v)
    if (typeof v === 'boolean') return param(v)
    throw badRequest(`${where}: a SQL metric variable takes a string, number, boolean or list of them`)
  }
  if (!Array.isArray(value)) return [one(value)]
  if (value.length > VALUE_LIMITS.list) throw badRequest(`${where}: at most ${VALUE_LIMITS.list} values`)
  return value.map(one)
}

/**
 * A SQL metric: trusted text from a secret-key holder, one SELECT (sql-metric-scope.ts parses
 * it in the dialect and resolves its tables against the model), in which `{{name}}` binds, as
 * a parameter, the RLS variable `name` or else the metric filter `name` (a list binds as
 * `p1, p2 …`, an empty list as NULL). Under TABLE tenancy every table with a client column is
 * replaced by a subquery filtered exactly on the tenant (scopeSqlMetric), and `{{clientId}}`,
 * where the author wrote it, binds the tenant too; a metric that reads no such table and has no
 * `{{clientId}}` is refused. On MySQL/MariaDB `{{clientId}}` binds as a binary string, so that
 * the text's comparisons with it are exact whatever the column's collation (SQL Server: see
 * docs/datasources.md).
 */
export function compileSqlMetric(input: CompileInput, text: string): CompiledQuery {
  const { metric, context, dialect } = input
  const label = `metric ${metric.metricId}`
  const sql = sqlMetricText(text)
  const names = new Set([...sql.matchAll(VARIABLE)].map((m) => m[1] as string))
  const tenancy = context.tenancy
  const scope = sqlMetricScope(sql, dialect.name, input.model, label)
  const clientId = tenancy.kind === 'table' ? param(tenancy.clientId) : null
  const filtersOf = declaredFilterConditions(input)
  const { pieces, scoped } = scopeSqlMetric(sql, scope, input.model, dialect, tenancy, clientId, filtersOf)
  if (tenancy.kind === 'table' && !scoped && !names.has('clientId')) {
    throw badRequest(
      `${label}: under TABLE tenancy a SQL metric must read a table with a client column or filter on {{clientId}}`,
    )
  }
  for (const key of Object.keys(context.rls)) {
    if (!names.has(key)) throw badRequest(`rlsSettings: ${label} has no variable {{${key}}}`)
  }
  const bound = new Map<string, Param[]>()
  const value = (name: string): Param[] => {
    const known = bound.get(name)
    if (known !== undefined) return known
    let params: Param[]
    if (name === 'clientId' && tenancy.kind === 'table') params = [exactParam(tenancy.clientId)]
    else if (context.rls[name] !== undefined) params = bindable(context.rls[name], `rlsSettings.${name}`)
    else {
      const f = context.filters.find((x) => x.name?.toLowerCase() === name.toLowerCase() && x.scope !== 'dashboard')
      if (f === undefined) throw badRequest(`${label}: no value for the variable {{${name}}}`)
      params = bindable(f.value, `${f.source}Filter.${name}`)
    }
    bound.set(name, params)
    return params
  }
  const parts: (string | Param | Select)[] = []
  for (const piece of pieces) {
    if (typeof piece !== 'string') {
      parts.push(piece)
      continue
    }
    let last = 0
    for (const m of piece.matchAll(VARIABLE)) {
      parts.push(piece.slice(last, m.index))
      const ps = value(m[1] as string)
      if (ps.length === 0) parts.push('NULL')
      ps.forEach((p, i) => {
        if (i > 0) parts.push(', ')
        parts.push(p)
      })
      last = m.index + m[0].length
    }
    parts.push(piece.slice(last))
  }
  const body = raw(...parts)
  const page = context.page
  if (page === undefined) return { ...dialect.render(body), columns: [], groupBy: [] }
  const paged = select({ items: [star()], from: derived(body, 'q'), limit: page.limit, offset: page.offset })
  const count = select({ items: [item(agg('count', null), 'total')], from: derived(body, 'q') })
  return { ...dialect.render(paged), columns: [], groupBy: [], countSql: dialect.render(count) }
}
