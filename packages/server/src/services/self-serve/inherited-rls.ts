import type { GuestClaims } from '../../auth/principal.js'
import { badRequest } from '../../errors.js'
import type { Metric } from '../../query/document.js'
import type { AppliedFilter, FilterValue } from '../../query/filters.js'
import { findTable, type ModelTable, resolveColumn, type SemanticModel } from '../../query/model.js'
import { sqlMetricScope, sqlMetricText } from '../../query/sql-metric-scope.js'
import type { DialectName } from '../../query/types.js'

/** Where the company's metrics are read: the source's full model, and the dialect its SQL metrics are written in. */
export interface RlsModel {
  readonly model: SemanticModel
  readonly dialect: DialectName | undefined
}

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g

/**
 * The token's RLS as restrictions on an end-user definition: every value the token's
 * rlsSettings give a company metric of this dashboard, on the column that metric declares for
 * it, applied to an end-user metric that reaches that column's table (as a dashboard filter
 * is) — trusted, ANDed, never widened by the end user. Fail closed:
 * - a declared column the token gives no value for (for any metric) refuses an end-user metric
 *   that reaches its table, as the company metric itself is refused;
 * - a SQL metric binds its variables in its own text, so its `rls` declaration says where the
 *   variable lands: its `table` and `column`, or, without a table, the one table the SQL reads
 *   that has that column. A variable the server cannot place so (no declaration, no such
 *   table, or several) refuses end-user metrics reaching any table the SQL reads, naming what
 *   the company must declare.
 */
export function inheritedRls(claims: GuestClaims, company: readonly Metric[], at: RlsModel): AppliedFilter[] {
  const out: AppliedFilter[] = []
  const unbound: AppliedFilter[] = []
  const unplaced: AppliedFilter[] = []
  const settings = new Map((claims.params.rlsSettings ?? []).map((e) => [e.metricId, e.values]))
  for (const metric of company) {
    const given = settings.get(metric.metricId) ?? {}
    for (const { variable, table, column, unplaceable } of rlsOf(metric, given, at)) {
      if (unplaceable !== undefined) {
        for (const t of unplaceable.tables) {
          unplaced.push({
            table: t,
            column: column ?? '',
            value: [],
            source: 'rls',
            name: variable,
            scope: 'dashboard',
            trusted: true,
            refuse: unplaceable.message,
          })
        }
        continue
      }
      const value = given[variable]
      const base = { table, column, source: 'rls', name: variable, scope: 'dashboard', trusted: true } as const
      if (value !== undefined) out.push({ ...base, value: value as FilterValue })
      else {
        unbound.push({
          ...base,
          value: [],
          refuse: `rlsSettings: ${metric.metricId} declares the RLS variable "${variable}" on ${table}, and the token gives it no value; a metric of yours over ${table} cannot run without it`,
        })
      }
    }
  }
  const bound = (f: AppliedFilter) => out.some((o) => o.table === f.table && o.column === f.column)
  return [...out, ...unbound.filter((f) => !bound(f)), ...unplaced]
}

type Placed =
  | { variable: string; table: string; column: string; unplaceable?: undefined }
  | { variable: string; table?: undefined; column?: string; unplaceable: { tables: string[]; message: string } }

/** A company metric's RLS variables, each placed on a table's column or not placeable. */
function rlsOf(metric: Metric, given: Readonly<Record<string, unknown>>, at: RlsModel): Placed[] {
  if (metric.sql === undefined) {
    const from = metric.query?.from
    return (metric.rls ?? []).flatMap((r) => {
      const table = r.table ?? from
      return table === undefined ? [] : [{ variable: r.variable, table, column: r.column }]
    })
  }
  const text = sqlMetricText(metric.sql)
  const written = new Set([...text.matchAll(VARIABLE)].map((m) => m[1] as string))
  const declared = new Map((metric.rls ?? []).map((r) => [r.variable, r]))
  // RLS variables: those the metric declares, and those the token gives it a value for that its text binds
  const names = new Set([...declared.keys(), ...Object.keys(given).filter((k) => k !== 'clientId' && written.has(k))])
  if (names.size === 0) return []
  const tables = sqlTables(metric, text, at)
  return [...names].map((variable): Placed => {
    const r = declared.get(variable)
    const cannot = (why: string): Placed => ({
      variable,
      ...(r ? { column: r.column } : {}),
      unplaceable: {
        tables,
        message: `rlsSettings: the SQL metric ${metric.metricId} binds the RLS variable "${variable}" in its text, and ${why}, so the server cannot apply it to your metrics over ${tables.join(', ')}: the company must declare on that metric which column it restricts, "rls": [{ "variable": "${variable}", "table": "<schema.table>", "column": "<column>" }]`,
      },
    })
    if (r === undefined) return cannot('declares no rls entry for it')
    const candidates =
      r.table === undefined
        ? tables.flatMap((key) => {
            const t = at.model.tables.get(key)
            return t && columnOf(t, r.column) !== undefined ? [t] : []
          })
        : [findTable(at.model, r.table)].filter(
            (t): t is ModelTable => t !== undefined && columnOf(t, r.column) !== undefined,
          )
    const [only] = candidates
    if (candidates.length === 1 && only !== undefined) {
      return { variable, table: only.key, column: columnOf(only, r.column) as string }
    }
    if (r.table !== undefined)
      return cannot(`its rls entry names ${r.table}.${r.column}, which the model does not have`)
    return candidates.length === 0
      ? cannot(`no table it reads has the column "${r.column}" its rls entry names`)
      : cannot(`several tables it reads have the column "${r.column}" (${candidates.map((t) => t.key).join(', ')})`)
  })
}

/** The tables a SQL metric reads (canonical, once each); a text the model cannot place refuses every end-user metric. */
function sqlTables(metric: Metric, text: string, at: RlsModel): string[] {
  const why = `the RLS of the SQL metric ${metric.metricId} cannot be placed, so no metric of yours on this dashboard can run`
  if (at.dialect === undefined) throw badRequest(`rlsSettings: ${why} (this datasource runs no SQL)`)
  try {
    return [
      ...new Set(sqlMetricScope(text, at.dialect, at.model, `metric ${metric.metricId}`).tables.map((t) => t.key)),
    ]
  } catch (err) {
    throw badRequest(`rlsSettings: ${why} (${(err as Error).message})`)
  }
}

/** The physical name of a column (by name, else by alias), or undefined. */
function columnOf(table: ModelTable, name: string): string | undefined {
  try {
    return resolveColumn(table, name).name
  } catch {
    return undefined
  }
}
