import { createHash } from 'node:crypto'
import type { DashboardDocument } from '@strata/contract/document'
import type { Rollup, RollupGrain } from '@strata/contract/rollups'
import { badRequest } from '../../errors.js'
import { planJoins } from '../../query/joins.js'
import {
  type ModelColumn,
  type ModelTable,
  resolveColumn,
  resolveTable,
  type SemanticModel,
} from '../../query/model.js'
import type { RollupColumn, RollupPlan, RollupPlanMeasure } from '../../query/rollups/types.js'
import { durationMs } from './duration.js'

export type { RollupColumn, RollupPlan, RollupPlanMeasure } from '../../query/rollups/types.js'

/** A rollup with no `refresh` is rebuilt once a day. */
export const DEFAULT_EVERY_MS = 86_400_000
/** No rollup refreshes more often than this. */
export const MIN_EVERY_MS = 60_000

const NOT_NUMERIC = new Set(['string', 'boolean', 'date', 'datetime', 'json'])

/** The RLS columns a document binds (metric `rls` entries), by table key. */
function rlsColumns(doc: DashboardDocument, model: SemanticModel): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const m of doc.metrics) {
    for (const r of m.rls ?? []) {
      const ref = r.table ?? m.query?.from
      if (ref === undefined) continue
      const t = tryTable(model, ref)
      const c = t && tryColumn(t, r.column)
      if (t === undefined || c === undefined) continue
      const set = out.get(t.key) ?? new Set<string>()
      set.add(c.name)
      out.set(t.key, set)
    }
  }
  return out
}

/**
 * Checks one declared rollup against the model and the document and resolves it; a 400 names
 * the path of what is wrong (`importDashboardData.rollups[0].dimensions[1]: no column …`).
 */
export function planRollup(model: SemanticModel, doc: DashboardDocument, r: Rollup, path: string): RollupPlan {
  const from = resolveTable(model, r.from, `${path}.from`)
  const used = new Map<string, ModelTable>([[from.key, from]])
  const names = new Set<string>()
  const claim = (name: string, at: string) => {
    if (names.has(name)) throw badRequest(`${at}: the rollup has two columns named "${name}"`)
    names.add(name)
  }
  let time: (RollupColumn & { grain: RollupGrain }) | undefined
  if (r.time !== undefined) {
    const c = resolveColumn(from, r.time.column, `${path}.time.column`)
    if (c.dataType !== 'date' && c.dataType !== 'datetime' && c.dataType !== 'unknown') {
      throw badRequest(
        `${path}.time.column: column "${r.time.column}" of ${from.key} is ${c.dataType}, not a date or time`,
      )
    }
    time = { name: r.time.column, table: from.key, column: c.name, role: 'time', grain: r.time.grain }
    claim(time.name, `${path}.time.column`)
  }
  const dimensions: RollupColumn[] = r.dimensions.map((ref, i) => {
    const at = `${path}.dimensions[${i}]`
    const { table, column } = dimensionOf(model, from, ref, at)
    if (table.key !== from.key) {
      const plan = planJoins(model, from.key, [table.key])
      if (!plan.ok) throw badRequest(`${at}: no relationship path from ${from.key} to ${table.key}`)
      used.set(table.key, table)
    }
    if (time !== undefined && table.key === from.key && column.name === time.column) {
      throw badRequest(`${at}: "${ref}" is the rollup's time column already`)
    }
    claim(ref, at)
    return { name: ref, table: table.key, column: column.name, role: 'dimension' }
  })
  const has = (table: string, column: string) =>
    (time?.table === table && time.column === column) ||
    dimensions.some((d) => d.table === table && d.column === column)
  const implied = (table: ModelTable, column: string, role: 'tenant' | 'rls') => {
    if (has(table.key, column)) return
    const name = table.key === from.key ? column : `${table.key}.${column}`
    claim(name, `${path}.dimensions`)
    dimensions.push({ name, table: table.key, column, role })
  }
  // tenancy is never widened: every client column of a table the rollup reads is a dimension
  for (const t of used.values()) if (t.clientColumn) implied(t, t.clientColumn, 'tenant')
  const rls = rlsColumns(doc, model)
  for (const t of used.values()) for (const c of rls.get(t.key) ?? []) implied(t, c, 'rls')
  const measures = r.measures.flatMap((m, i): RollupPlanMeasure[] => {
    const at = `${path}.measures[${i}]`
    if (m.aggregate === 'count-distinct' || m.aggregate === 'count_distinct') {
      throw badRequest(
        `${at}.aggregate: a distinct count cannot be kept in a rollup (the distinct values of two groups overlap, so their counts do not add up); leave it out and such metrics query the warehouse`,
      )
    }
    let column: ModelColumn | undefined
    if (m.column !== undefined) column = resolveColumn(from, m.column, `${at}.column`)
    else if (m.aggregate !== 'count') throw badRequest(`${at}.column: ${m.aggregate} needs a column`)
    if ((m.aggregate === 'sum' || m.aggregate === 'avg') && column && NOT_NUMERIC.has(column.dataType)) {
      throw badRequest(
        `${at}.column: ${m.aggregate} needs a number, and "${m.column}" of ${from.key} is ${column.dataType}`,
      )
    }
    const col = column === undefined ? {} : { column: column.name }
    if (m.aggregate !== 'avg') {
      claim(m.name, `${at}.name`)
      return [{ name: m.name, aggregate: m.aggregate, of: m.name, ...col }]
    }
    claim(`${m.name}__sum`, `${at}.name`)
    claim(`${m.name}__count`, `${at}.name`)
    return [
      { name: `${m.name}__sum`, aggregate: 'sum', of: m.name, ...col },
      { name: `${m.name}__count`, aggregate: 'count', of: m.name, ...col },
    ]
  })
  const everyMs = r.refresh === undefined ? DEFAULT_EVERY_MS : (durationMs(r.refresh.every) ?? DEFAULT_EVERY_MS)
  if (everyMs < MIN_EVERY_MS) throw badRequest(`${path}.refresh.every: at least 1 minute`)
  const incrementalMs = r.refresh?.incremental === undefined ? undefined : durationMs(r.refresh.incremental)
  if (incrementalMs !== undefined && time === undefined) {
    throw badRequest(`${path}.refresh.incremental: an incremental refresh rebuilds time partitions, so it needs "time"`)
  }
  const content = { from: from.key, time, dimensions, measures }
  const fingerprint = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 32)
  return {
    name: r.name,
    from: from.key,
    ...(time ? { time } : {}),
    dimensions,
    measures,
    everyMs,
    ...(incrementalMs !== undefined ? { incrementalMs } : {}),
    fingerprint,
  }
}

/** `column` of `from`, or `table.column` / `schema.table.column` of another table. */
function dimensionOf(
  model: SemanticModel,
  from: ModelTable,
  ref: string,
  at: string,
): { table: ModelTable; column: ModelColumn } {
  const own = tryColumn(from, ref)
  if (own !== undefined) return { table: from, column: own }
  const dot = ref.lastIndexOf('.')
  if (dot <= 0) return { table: from, column: resolveColumn(from, ref, at) }
  const table = resolveTable(model, ref.slice(0, dot), at)
  return { table, column: resolveColumn(table, ref.slice(dot + 1), at) }
}

/** Every rollup of a document checked (names unique); "auto" and none check nothing here. */
export function checkRollups(model: SemanticModel, doc: DashboardDocument, root: string): void {
  if (!Array.isArray(doc.rollups)) return
  const seen = new Set<string>()
  doc.rollups.forEach((r, i) => {
    const at = `${root}.rollups[${i}]`
    if (seen.has(r.name)) throw badRequest(`${at}.name: two rollups are named "${r.name}"`)
    seen.add(r.name)
    planRollup(model, doc, r, at)
  })
}

function tryTable(model: SemanticModel, ref: string): ModelTable | undefined {
  try {
    return resolveTable(model, ref)
  } catch {
    return undefined
  }
}

function tryColumn(table: ModelTable, name: string): ModelColumn | undefined {
  try {
    return resolveColumn(table, name)
  } catch {
    return undefined
  }
}
