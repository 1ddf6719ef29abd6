import type { JoinType } from './ast.js'
import type { Relationship, SemanticModel } from './model.js'

/** One join of a plan: `table` joins `onto` (already in the query) on `ontoColumn = column`. */
export interface JoinStep {
  readonly table: string
  readonly onto: string
  readonly ontoColumn: string
  readonly column: string
  readonly type: JoinType
}

export type JoinPlan =
  | { readonly ok: true; readonly steps: readonly JoinStep[] }
  | { readonly ok: false; readonly unreachable: string }

const FLIP: Record<JoinType, JoinType> = { INNER: 'INNER', LEFT: 'RIGHT', RIGHT: 'LEFT', FULL: 'FULL' }

function step(r: Relationship, onto: string): JoinStep {
  const forward = r.parentTable === onto
  const explicit = r.joinType
  return {
    table: forward ? r.childTable : r.parentTable,
    onto,
    ontoColumn: forward ? r.parentColumn : r.childColumn,
    column: forward ? r.childColumn : r.parentColumn,
    // An explicit join type reads `parent <type> child`; walking child → parent flips it.
    type: explicit === undefined ? 'LEFT' : forward ? explicit : FLIP[explicit],
  }
}

/**
 * The joins that bring every table of `targets` into a query over `from`: shortest paths over
 * the model's relationships (in either direction), each table joined once, prerequisites
 * first. Fails naming the first table no relationship path reaches.
 */
export function planJoins(model: SemanticModel, from: string, targets: Iterable<string>): JoinPlan {
  const via = new Map<string, JoinStep>()
  const seen = new Set([from])
  const queue = [from]
  while (queue.length > 0) {
    const at = queue.shift() as string
    for (const r of model.relationships) {
      if (r.parentTable === r.childTable || (r.parentTable !== at && r.childTable !== at)) continue
      const s = step(r, at)
      if (seen.has(s.table)) continue
      seen.add(s.table)
      via.set(s.table, s)
      queue.push(s.table)
    }
  }
  const steps: JoinStep[] = []
  const joined = new Set([from])
  for (const target of targets) {
    if (joined.has(target)) continue
    if (!via.has(target)) return { ok: false, unreachable: target }
    const chain: JoinStep[] = []
    for (let t = target; !joined.has(t); ) {
      const s = via.get(t) as JoinStep
      chain.unshift(s)
      t = s.onto
    }
    for (const s of chain) {
      joined.add(s.table)
      steps.push(s)
    }
  }
  return { ok: true, steps }
}
