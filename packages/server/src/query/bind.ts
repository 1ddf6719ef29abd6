import { badRequest, blamingToken } from '../errors.js'
import { matchPreset } from './date-presets.js'
import { type AppliedFilter, filterPath } from './filters.js'

/**
 * Values are bound parameters, so the SQL of a metric depends on the *shape* of a request's
 * values (which filters, which value forms, how many list items, which date preset), never on
 * the values themselves. `bindRequest` walks the request's values once: it validates them
 * (forms and caps, before any other work), collects every bindable value into `values`, and
 * puts a `Bound` in its place. The compiler turns a `Bound` into a parameter that remembers
 * its slot, so one compiled statement serves every request of the same shape: `rebind` fills
 * in the next request's values. Compile caches are keyed by the shape (a `Bound` serialises
 * as its type), so end users' values never grow them.
 */

export type Scalar = string | number | boolean

/** A request value in the compiler's input: its position in the request's `values`, and the value. */
export class Bound {
  constructor(
    readonly slot: number,
    readonly value: Scalar,
  ) {}

  /** In a compile-cache key a value is its type (ClickHouse placeholders are typed), never itself. */
  toJSON(): { readonly '?': string } {
    const v = this.value
    return { '?': typeof v === 'string' ? 's' : typeof v === 'boolean' ? 'b' : Number.isSafeInteger(v) ? 'i' : 'f' }
  }
}

/** How a parameter's value is made from a slot of the request's values. */
export interface Slot {
  readonly index: number
  /** e.g. a LIKE pattern made from the value; absent: the value itself. */
  readonly map?: (value: Scalar) => unknown
}

/** The caps on what an end user's request may carry (each a clear 400). */
export const VALUE_LIMITS = {
  /** Items in one list value. */
  list: 1000,
  /** Characters in one string value. */
  text: 1000,
  /** Characters in the trusted SQL of a SQL-driven list. */
  sql: 10_000,
  /** Characters of all string values of one request together. */
  total: 100_000,
} as const

export interface BoundRequest<F, R> {
  readonly values: readonly Scalar[]
  readonly filters: F
  readonly rls: R
  readonly clientId: Bound | undefined
}

const DATE_RANGE = new Set(['startDate', 'endDate'])
const NUMBER_RANGE = new Set(['min', 'max'])

/** A JSON object (not an array, not a Bound). */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Bound)

class Binder {
  readonly values: Scalar[] = []
  private chars = 0

  bind(v: Scalar, where: string): Bound {
    if (typeof v === 'string') {
      if (v.length > VALUE_LIMITS.text)
        throw badRequest(`${where}: a value is longer than ${VALUE_LIMITS.text} characters`)
      if (v.includes('\u0000')) throw badRequest(`${where}: a value must not contain a NUL character`)
      this.count(v.length)
    } else if (typeof v === 'number' && !Number.isFinite(v)) {
      throw badRequest(`${where}: a number must be finite`)
    }
    this.values.push(v)
    return new Bound(this.values.length - 1, v)
  }

  count(chars: number): void {
    this.chars += chars
    if (this.chars > VALUE_LIMITS.total) {
      throw badRequest(`The filter values of one request may hold at most ${VALUE_LIMITS.total} characters in all`)
    }
  }

  /** A filter value in one of the documented forms, its bindable parts replaced by Bounds. */
  value(v: unknown, where: string): unknown {
    if (v === null || v === undefined) throw badRequest(`${where}: a value is required`)
    if (typeof v === 'string') {
      // a date preset decides the shape of the SQL (a range), so it stays in the shape
      if (matchPreset(v) !== undefined) return v
      return this.bind(v, where)
    }
    if (typeof v === 'number' || typeof v === 'boolean') return this.bind(v, where)
    if (Array.isArray(v)) {
      if (v.length > VALUE_LIMITS.list) throw badRequest(`${where}: at most ${VALUE_LIMITS.list} values`)
      return v.map((item, i) => {
        if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
          throw badRequest(`${where}[${i}]: a list holds strings, numbers or booleans`)
        }
        return this.bind(item, `${where}[${i}]`)
      })
    }
    if (isPlainObject(v)) return this.object(v, where)
    throw badRequest(`${where}: not a filter value`)
  }

  private object(v: Record<string, unknown>, where: string): unknown {
    const keys = Object.keys(v)
    const only = (allowed: ReadonlySet<string>) => keys.length > 0 && keys.every((k) => allowed.has(k))
    if (only(DATE_RANGE)) {
      // dates decide the range's boundaries: part of the shape, checked to be short strings here
      for (const k of keys) {
        const d = v[k]
        if (d !== null && d !== undefined && (typeof d !== 'string' || d.length > 40)) {
          throw badRequest(`${where}.${k}: expected a date YYYY-MM-DD`)
        }
      }
      return v
    }
    if (only(NUMBER_RANGE)) {
      const out: Record<string, unknown> = {}
      for (const k of keys) {
        const n = v[k]
        if (n === null || n === undefined) continue
        if (typeof n !== 'number' || !Number.isFinite(n)) throw badRequest(`${where}.${k}: expected a number`)
        out[k] = this.bind(n, `${where}.${k}`)
      }
      if (typeof v.min === 'number' && typeof v.max === 'number' && v.min > v.max) {
        throw badRequest(`${where}: min is greater than max`)
      }
      return out
    }
    if (keys.length === 2 && 'sql' in v && 'columnName' in v) {
      const { sql, columnName } = v
      if (typeof sql !== 'string' || typeof columnName !== 'string' || sql.length > VALUE_LIMITS.sql) {
        throw badRequest(
          `${where}: a SQL-driven list needs sql (at most ${VALUE_LIMITS.sql} characters) and columnName strings`,
        )
      }
      if (columnName.length > 500) throw badRequest(`${where}.columnName: at most 500 characters`)
      this.count(sql.length)
      return v // trusted text: whether it may be used at all is the compiler's check
    }
    throw badRequest(
      `${where}: not a filter value (boolean, number, string, list, date preset, date range { startDate, endDate }, number range { min, max })`,
    )
  }
}

/**
 * Validates and binds one request's values: its filters (`value` of each), the token's RLS
 * values, the tenant's clientId. Everything else in the compile input is the model's or the
 * document's and belongs to the shape.
 */
export function bindRequest<F extends AppliedFilter>(
  filters: readonly F[],
  rls: Readonly<Record<string, unknown>>,
  clientId: string | undefined,
): BoundRequest<F[], Record<string, unknown>> {
  const b = new Binder()
  const boundClient = clientId === undefined ? undefined : new Bound(b.values.push(clientId) - 1, clientId)
  const boundRls: Record<string, unknown> = {}
  // the token's values (rls, app filters): a refusal of theirs is the token's
  for (const [key, value] of Object.entries(rls))
    boundRls[key] = blamingToken(() => b.value(value, `rlsSettings.${key}`))
  const boundFilters = filters.map((f) => ({
    ...f,
    value:
      f.source === 'rls' || f.source === 'app'
        ? blamingToken(() => b.value(f.value, filterPath(f)))
        : b.value(f.value, filterPath(f)),
  }))
  return { values: b.values, filters: boundFilters, rls: boundRls, clientId: boundClient }
}

/** The value of a Bound, or the value itself. */
export const plainValue = (v: unknown): unknown => (v instanceof Bound ? v.value : v)

/**
 * The parameters of a statement compiled for one request, for another request of the same
 * shape: every parameter made from a slot takes that request's value (through the dialect's
 * `bindValue`, as rendering does); the others are the shape's own.
 */
export function rebind(
  params: readonly unknown[],
  slots: readonly (Slot | null)[] | undefined,
  values: readonly Scalar[],
  bindValue: (value: unknown) => unknown,
): unknown[] {
  if (slots === undefined) return [...params]
  return params.map((p, i) => {
    const slot = slots[i]
    if (!slot) return p
    const value = values[slot.index] as Scalar
    return bindValue(slot.map ? slot.map(value) : value)
  })
}
