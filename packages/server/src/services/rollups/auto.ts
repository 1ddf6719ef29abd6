import type { DashboardDocument, MetricQuery } from '@strata/contract/document'
import type { Rollup, RollupGrain, RollupMeasure } from '@strata/contract/rollups'
import { planJoins } from '../../query/joins.js'
import { type ModelTable, resolveColumn, resolveTable, type SemanticModel } from '../../query/model.js'

const GRAIN_ORDER: readonly RollupGrain[] = ['hour', 'day', 'week', 'month', 'quarter', 'year']
const finer = (a: RollupGrain, b: RollupGrain): RollupGrain =>
  GRAIN_ORDER.indexOf(a) <= GRAIN_ORDER.indexOf(b) ? a : b

interface Group {
  readonly table: ModelTable
  time?: { column: string; grain: RollupGrain }
  readonly dimensions: Set<string>
  readonly measures: Map<string, RollupMeasure>
}

/**
 * `"rollups": "auto"`: one rollup per table the dashboard's structured metrics read (SQL
 * metrics are left to the warehouse), at the finest time grain they use. Each holds what those
 * metrics group by and filter on (their dimensions, `where`, metric filters, and the dashboard
 * filters their table reaches) and their measures; a date-range filter on the table asks for
 * a day grain. A second time column of the same table becomes its own rollup. Distinct counts
 * and measures of joined tables are left out (the rollup cannot answer them). Pure: the same
 * document and model give the same rollups, in the order the metrics name their tables.
 */
export function deriveAutoRollups(doc: DashboardDocument, model: SemanticModel): Rollup[] {
  const groups = new Map<string, Group>()
  const groupOf = (table: ModelTable, timeColumn: string | undefined): Group => {
    const existing = [...groups.values()].filter((g) => g.table.key === table.key)
    const match =
      existing.find((g) => g.time?.column === timeColumn) ??
      (timeColumn === undefined ? existing[0] : existing.find((g) => g.time === undefined))
    if (match) return match
    const g: Group = { table, dimensions: new Set(), measures: new Map() }
    groups.set(`${table.key}\u0000${timeColumn ?? ''}`, g)
    return g
  }
  for (const m of doc.metrics) {
    const q = m.query
    if (q === undefined) continue
    const table = tryTable(model, q.from)
    if (table === undefined) continue
    const times = (q.dimensions ?? []).filter((d) => d.timeGrain !== undefined && (d.table ?? q.from) === q.from)
    const dateFilters = (doc.filters ?? []).filter(
      (f) => f.type === 'date-range' && tryTable(model, f.table)?.key === table.key,
    )
    const first = times[0]?.column ?? dateFilters[0]?.column
    const timeColumn = first === undefined ? undefined : physical(table, first)
    const g = groupOf(table, timeColumn)
    const useGrain = (grain: RollupGrain) => {
      if (timeColumn === undefined) return
      g.time = { column: timeColumn, grain: g.time?.column === timeColumn ? finer(g.time.grain, grain) : grain }
    }
    // another time column of the same metric cannot be served from this rollup: left out
    for (const d of times) if (physical(table, d.column) === timeColumn) useGrain(d.timeGrain as RollupGrain)
    for (const f of dateFilters) if (physical(table, f.column) === timeColumn) useGrain('day')
    for (const ref of columnsOf(q, m.filters ?? [])) addDimension(model, g, ref.table ?? q.from, ref.column)
    for (const f of doc.filters ?? []) if (f.type !== 'date-range') addDimension(model, g, f.table, f.column)
    for (const x of q.measures ?? []) {
      if (x.aggregate === 'count-distinct') continue
      if (x.table !== undefined && tryTable(model, x.table)?.key !== table.key) continue
      const column = x.column === undefined ? undefined : physical(table, x.column)
      const name = column === undefined ? x.aggregate : `${x.aggregate}_${column}`
      if (!g.measures.has(name)) {
        g.measures.set(name, { name: safeName(name), aggregate: x.aggregate, ...(column ? { column } : {}) })
      }
    }
  }
  return [...groups.values()]
    .filter((g) => g.measures.size > 0)
    .map((g) => {
      const name = safeName(`auto_${g.table.name}${g.time ? `_${g.time.column}_${g.time.grain}` : ''}`)
      if (g.time) g.dimensions.delete(g.time.column)
      return {
        name,
        from: g.table.key,
        ...(g.time ? { time: g.time } : {}),
        dimensions: [...g.dimensions],
        measures: [...g.measures.values()],
      }
    })
}

/** The non-time columns a query groups or filters by, with their tables. */
function columnsOf(
  q: MetricQuery,
  filters: readonly { readonly column: string; readonly table?: string | undefined }[],
): { table?: string | undefined; column: string }[] {
  return [...(q.dimensions ?? []).filter((d) => d.timeGrain === undefined), ...(q.where ?? []), ...filters].map(
    (x) => ({ table: x.table, column: x.column }),
  )
}

/** Adds `column` of `tableRef` as `column` (the rollup's table) or `schema.table.column` (one it reaches). */
function addDimension(model: SemanticModel, g: Group, tableRef: string, column: string): void {
  const table = tryTable(model, tableRef)
  if (table === undefined) return
  const name = physicalOrUndefined(table, column)
  if (name === undefined) return
  if (table.key === g.table.key) {
    if (g.time?.column !== name) g.dimensions.add(name)
    return
  }
  if (planJoins(model, g.table.key, [table.key]).ok) g.dimensions.add(`${table.key}.${name}`)
}

function physical(table: ModelTable, column: string): string {
  return physicalOrUndefined(table, column) ?? column
}

function physicalOrUndefined(table: ModelTable, column: string): string | undefined {
  try {
    return resolveColumn(table, column).name
  } catch {
    return undefined
  }
}

function tryTable(model: SemanticModel, ref: string): ModelTable | undefined {
  try {
    return resolveTable(model, ref)
  } catch {
    return undefined
  }
}

/** A rollup or measure name: letters, digits and underscores, at most 63 characters. */
function safeName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 63)
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `r_${cleaned}`.slice(0, 63)
}
