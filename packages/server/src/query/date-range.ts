import { badRequest } from '../errors.js'

/**
 * A date range is written `{ startDate, endDate }` or, as the hosted service's examples write
 * it, `{ start, end }`: the same value. `canonicalDateRange` turns the second spelling into the
 * first where values enter (the token at mint, every request's filters as they are resolved),
 * so nothing past that point knows of two spellings. An object with both spellings of one bound
 * holding different values is a 400 naming both.
 */
const SPELLINGS = [
  ['startDate', 'start'],
  ['endDate', 'end'],
] as const
const RANGE_KEYS = new Set(['startDate', 'endDate', 'start', 'end'])

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** `{ start, end }` (alone or beside `startDate`/`endDate`) as `{ startDate, endDate }`; any other value as it is. */
export function canonicalDateRange(value: unknown, where: string): unknown {
  if (!isObject(value)) return value
  const keys = Object.keys(value)
  if (!keys.some((k) => k === 'start' || k === 'end') || !keys.every((k) => RANGE_KEYS.has(k))) return value
  const out: Record<string, unknown> = {}
  for (const [ours, theirs] of SPELLINGS) {
    const a = value[ours]
    const b = value[theirs]
    if (a !== undefined && b !== undefined && a !== b) {
      throw badRequest(`${where}: ${ours} and ${theirs} are the same bound with different values; give one of them`)
    }
    const v = a !== undefined ? a : b
    if (v !== undefined) out[ours] = v
  }
  return out
}

/** Every value of a filter-values object (name → value) through canonicalDateRange. */
export function canonicalFilterValues<T extends Readonly<Record<string, unknown>>>(values: T, where: string): T {
  const entries = Object.entries(values)
  if (!entries.some(([, v]) => isObject(v))) return values
  return Object.fromEntries(entries.map(([k, v]) => [k, canonicalDateRange(v, `${where}.${k}`)])) as T
}
