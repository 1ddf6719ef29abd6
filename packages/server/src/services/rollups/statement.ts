import {
  agg,
  cmp,
  col,
  derived,
  type Expr,
  grain,
  item,
  join,
  param,
  raw,
  type SelectItem,
  type Source,
  select,
  sessionZonedParam,
  star,
  table,
} from '../../query/ast.js'
import type { CompiledSql, Dialect } from '../../query/dialects/base.js'
import { planJoins } from '../../query/joins.js'
import { type ModelTable, resolveTable, type SemanticModel } from '../../query/model.js'
import type { RollupPlan } from './definition.js'

export interface BuildScope {
  /** Only rows whose time column is at or after this instant (an incremental refresh). */
  readonly since?: Date
  /** DATABASE tenancy on an engine whose schemas are its databases: read the tables of this one. */
  readonly database?: string
}

/**
 * The rollup's columns in the order of the build's result: the time bucket, the dimensions, the
 * measures. Their names (`schema.table.column` for a joined table's) can pass an engine's limits
 * on result names (PostgreSQL cuts them at 63 bytes; some engines refuse a `.` in them), so the
 * result calls them `c0`, `c1`… (`resultAlias`) and the builder names them from this list.
 */
export function rollupColumns(plan: RollupPlan): string[] {
  return [
    ...(plan.time ? [plan.time.name] : []),
    ...plan.dimensions.map((d) => d.name),
    ...plan.measures.map((m) => m.name),
  ]
}

/** The name of the result's `i`th column (`rollupColumns(plan)[i]`). */
export function resultAlias(i: number): string {
  return `c${i}`
}

/**
 * The rollup's GROUP BY on the warehouse, in the datasource's dialect: the time bucket
 * (the dialect's truncation), then the dimensions, then the measures, named `c0`, `c1`…; joined tables through the
 * model's relationships, custom columns evaluated over their table as the metric compiler does.
 * Identifiers come from the model and are quoted by the dialect; the one value (`since`) is bound.
 * No tenant condition: the rollup holds every tenant's groups, told apart by the client column.
 */
export function rollupStatement(
  plan: RollupPlan,
  model: SemanticModel,
  dialect: Dialect,
  scope: BuildScope = {},
): CompiledSql {
  const aliases = new Map<string, string>([[plan.from, 't0']])
  const tables = new Map<string, ModelTable>([[plan.from, resolveTable(model, plan.from)]])
  for (const d of plan.dimensions) {
    if (!aliases.has(d.table)) {
      aliases.set(d.table, `t${aliases.size}`)
      tables.set(d.table, resolveTable(model, d.table))
    }
  }
  const joinPlan = planJoins(model, plan.from, [...aliases.keys()].slice(1))
  if (!joinPlan.ok) throw new Error(`rollup ${plan.name}: no relationship path to ${joinPlan.unreachable}`)
  for (const st of joinPlan.steps) {
    if (!aliases.has(st.table)) {
      aliases.set(st.table, `t${aliases.size}`)
      tables.set(st.table, resolveTable(model, st.table))
    }
  }
  const aliasOf = (key: string) => aliases.get(key) as string
  const source = (key: string): Source => {
    const t = tables.get(key) as ModelTable
    const schema = scope.database !== undefined && dialect.schemaIsDatabase ? scope.database : t.schema
    const plain = table(schema, t.name, aliasOf(key))
    const customs = [...t.columns.values()].filter(
      (c) =>
        c.sql !== undefined &&
        (plan.dimensions.some((d) => d.table === key && d.column === c.name) ||
          (key === plan.from && (plan.time?.column === c.name || plan.measures.some((m) => m.column === c.name)))),
    )
    if (customs.length === 0) return plain
    return derived(
      select({ items: [star(), ...customs.map((c) => item(raw(c.sql as string), c.name))], from: plain }),
      aliasOf(key),
    )
  }
  const items: SelectItem[] = []
  const as = () => resultAlias(items.length)
  if (plan.time) items.push(item(grain(plan.time.grain, col('t0', plan.time.column)), as()))
  for (const d of plan.dimensions) items.push(item(col(aliasOf(d.table), d.column), as()))
  const groupBy = items.map((_, i) => i)
  for (const m of plan.measures) {
    items.push(item(agg(m.aggregate, m.column === undefined ? null : col('t0', m.column)), as()))
  }
  let where: Expr | null = null
  if (scope.since !== undefined && plan.time) {
    const column = tables.get(plan.from)?.columns.get(plan.time.column)
    const nativeType = column?.nativeType ?? ''
    const value =
      column?.dataType === 'date'
        ? (dialect.dateValue?.(scope.since.toISOString().slice(0, 10)) ?? scope.since.toISOString().slice(0, 10))
        : dialect.instantValue(scope.since, nativeType)
    const bound = dialect.readsInSessionZone?.(nativeType) ? sessionZonedParam(value) : param(value)
    where = cmp('>=', col('t0', plan.time.column), bound)
  }
  return dialect.render(
    select({
      items,
      from: source(plan.from),
      joins: joinPlan.steps.map((st) =>
        join(
          st.type,
          source(st.table),
          cmp('=', col(aliasOf(st.onto), st.ontoColumn), col(aliasOf(st.table), st.column)),
        ),
      ),
      where,
      groupBy,
    }),
  )
}
