import type { GuestClaims } from '../../auth/principal.js'
import type { Metric } from '../../query/document.js'
import type { AppliedFilter, FilterValue } from '../../query/filters.js'
import type { SemanticModel } from '../../query/model.js'
import type { DialectName } from '../../query/types.js'

/** Where the company's metrics are read: the source's full model, and the dialect its SQL metrics are written in. */
export interface RlsModel {
  readonly model: SemanticModel
  readonly dialect: DialectName | undefined
}

/**
 * The token's RLS as restrictions on an end-user definition: every value the token's
 * rlsSettings give a company metric of this dashboard, on the column that metric declares for
 * it, applied to an end-user metric that reaches that column's table (as a dashboard filter
 * is) — trusted, ANDed, never widened by the end user. Fail closed:
 * - a declared column the token gives no value for (for any metric) refuses an end-user metric
 *   that reaches its table, as the company metric itself is refused;
 * - a SQL metric's declaration without a table binds only its own text and is not carried over.
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
function rlsOf(metric: Metric, _given: Readonly<Record<string, unknown>>, _at: RlsModel): Placed[] {
  const from = metric.query?.from
  return (metric.rls ?? []).flatMap((r) => {
    const table = r.table ?? from
    return table === undefined ? [] : [{ variable: r.variable, table, column: r.column }]
  })
}
