import { badRequest } from '../../../errors.js'
import type { Expr, Param } from '../../ast.js'
import type { Slot } from '../../bind.js'
import type { Json } from './statement.js'

/** Collects bound values; each becomes `{"$param": i}` (one index per Param node, reused). */
export class JsonParams {
  readonly values: unknown[] = []
  readonly slots: (Slot | null)[] = []
  private readonly seen = new Map<Param, Json>()

  constructor(private readonly bindValue: (value: unknown) => unknown) {}

  add(p: Param): Json {
    const known = this.seen.get(p)
    if (known !== undefined) return known
    const placeholder = { $param: this.values.length }
    this.values.push(this.bindValue(p.value))
    this.slots.push(p.slot ?? null)
    this.seen.set(p, placeholder)
    return placeholder
  }
}

/** Why a metric cannot run here: a 400 naming the feature. */
export function refuse(feature: string): Error {
  return badRequest(`Elasticsearch/OpenSearch: ${feature} cannot be expressed in one search request`)
}

/** The field a column expression reads, and the zone it is converted to (a converted column). */
export interface FieldRef {
  readonly field: string
  readonly zone?: Param
}

/** A column of the one table (alias t0), possibly converted to a zone; anything else is refused. */
export function fieldOf(e: Expr, alias: string): FieldRef {
  if (e.kind === 'column') {
    if (e.table !== alias) throw refuse('a column of another table (a join)')
    return { field: e.column }
  }
  if (e.kind === 'timezone') {
    const inner = fieldOf(e.expr, alias)
    return { field: inner.field, zone: e.zone }
  }
  if (e.kind === 'raw') throw refuse('a custom SQL column')
  throw refuse(`the expression ${e.kind}`)
}

/** An object with one own key (computed keys define own properties: `__proto__` stays a field name). */
export const keyed = (key: string, value: Json): Json => ({ [key]: value })
