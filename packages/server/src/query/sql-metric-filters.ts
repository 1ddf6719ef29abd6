import { blamingToken, TokenRefusal } from '../errors.js'
import { col, type Expr, inZone, param, raw } from './ast.js'
import type { CompileInput } from './compile-types.js'
import { type Env, valueCondition } from './conditions.js'
import { filterPath } from './filters.js'
import { type ModelTable, resolveColumn } from './model.js'

/**
 * The dashboard filters a SQL metric declares (`dashboardFilters`), as conditions on the tables
 * its text reads: for a table, the conditions of the declared filters on that table, over the
 * alias `s` of the scoped subquery (sql-metric-scope.ts `scopeSqlMetric`), every value bound as
 * a structured metric binds it (date presets in the request's zone, lists, ranges). A filter the
 * metric does not declare does not apply to it (the runtime load lists it as `unfiltered`).
 */
export function declaredFilterConditions(input: CompileInput): (t: ModelTable) => Expr[] {
  const declared = new Set(input.metric.dashboardFilters ?? [])
  const filters = input.context.filters.filter(
    (f) => f.scope === 'dashboard' && f.name !== undefined && declared.has(f.name),
  )
  if (filters.length === 0) return () => []
  const env: Env = { dialect: input.dialect, timezone: input.context.timezone, now: input.context.now }
  const zone = param(input.context.timezone)
  return (t) =>
    filters.flatMap((f) => {
      if (f.table !== t.key) return []
      const at = filterPath(f)
      if (f.refuse !== undefined) throw new TokenRefusal('INVALID_REQUEST_BODY', 400, f.refuse)
      const c = resolveColumn(t, f.column, `${at}.column`)
      const ref = c.sql !== undefined ? raw(c.sql) : col('s', c.name)
      const target = {
        expr: c.isTimezoneConversion ? inZone(ref, zone, c.nativeType) : ref,
        column: c,
        converted: c.isTimezoneConversion === true,
      }
      const fromToken = f.source === 'rls' || f.source === 'app'
      const options = { where: at, trusted: f.trusted ?? fromToken, ...(f.type ? { type: f.type } : {}) }
      const condition = () => valueCondition(target, f.value, options, env)
      const expr = fromToken ? blamingToken(condition) : condition()
      return expr === null ? [] : [expr]
    })
}
