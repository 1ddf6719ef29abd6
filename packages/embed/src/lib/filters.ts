import { matchPreset } from '@strata/contract/date-presets'
import type { FilterType, QueryResult, RuntimeFilter } from '../api/types.js'
import { formatNumber, toNumber } from './numbers.js'

// The preset names are the server's (docs/dashboard-document.md#date-presets; it matches them case-insensitively).
export { DATE_PRESETS, type DatePreset, matchPreset } from '@strata/contract/date-presets'

export interface DateRange {
  readonly startDate?: string
  readonly endDate?: string
}
export interface NumberRange {
  readonly min?: number
  readonly max?: number
}

/**
 * What `dashboardFilter` carries per filter type: multi-select → string[], single-select and
 * text → string, date-range → preset label or { startDate, endDate }, number-range →
 * { min, max }, boolean → boolean.
 */
export type FilterValue = string | boolean | readonly string[] | DateRange | NumberRange
export type FilterValues = Readonly<Record<string, FilterValue>>

const DAY = /^\d{4}-\d{2}-\d{2}$/

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const scalarText = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined

function validDay(v: unknown): string | undefined {
  if (typeof v !== 'string' || !DAY.test(v)) return undefined
  const d = new Date(`${v}T00:00:00Z`)
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v ? undefined : v
}

/** A value in the form of the filter's type, or undefined when it is empty or not of that form. */
export function normalizeFilterValue(type: FilterType, raw: unknown): FilterValue | undefined {
  if (raw === null || raw === undefined) return undefined
  switch (type) {
    case 'multi-select': {
      const list = Array.isArray(raw) ? raw : [raw]
      const out = [...new Set(list.map(scalarText).filter((s): s is string => s !== undefined && s !== ''))]
      return out.length ? out : undefined
    }
    case 'single-select':
    case 'text': {
      const s = scalarText(raw)
      return s === undefined || s === '' ? undefined : s
    }
    case 'date-range': {
      if (typeof raw === 'string') return matchPreset(raw)
      if (!isObject(raw)) return undefined
      const startDate = validDay(raw.startDate)
      const endDate = validDay(raw.endDate)
      if (!startDate && !endDate) return undefined
      if (startDate && endDate && startDate > endDate) return undefined
      return { ...(startDate ? { startDate } : {}), ...(endDate ? { endDate } : {}) }
    }
    case 'number-range': {
      if (!isObject(raw)) return undefined
      const min = raw.min === '' ? null : toNumber(raw.min)
      const max = raw.max === '' ? null : toNumber(raw.max)
      if (min === null && max === null) return undefined
      if (min !== null && max !== null && min > max) return undefined
      return { ...(min !== null ? { min } : {}), ...(max !== null ? { max } : {}) }
    }
    case 'boolean':
      if (typeof raw === 'boolean') return raw
      if (raw === 'true') return true
      if (raw === 'false') return false
      return undefined
  }
}

/** Order-insensitive for multi-select lists; structural otherwise. */
export function sameFilterValue(a: FilterValue | undefined, b: FilterValue | undefined): boolean {
  if (a === b) return true
  if (a === undefined || b === undefined) return false
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000')
  }
  if (typeof a === 'string' && typeof b === 'string')
    return matchPreset(a) !== undefined && matchPreset(a) === matchPreset(b)
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)])
    return [...keys].every((k) => a[k] === b[k])
  }
  return false
}

export const defaultOf = (f: RuntimeFilter): FilterValue | undefined => normalizeFilterValue(f.type, f.default)
export const isPinned = (f: RuntimeFilter): boolean =>
  f.locked === true || (f.pinned !== undefined && f.pinned !== null)

/**
 * The values a dashboard opens with, per filter name: the token's pinned value, else (when the
 * end user may filter) the page URL's, else the filter's default.
 */
export function initialFilterValues(
  filters: readonly RuntimeFilter[],
  fromUrl: FilterValues,
  editable: boolean,
): Record<string, FilterValue> {
  const out: Record<string, FilterValue> = {}
  for (const f of filters) {
    const v = isPinned(f)
      ? normalizeFilterValue(f.type, f.pinned)
      : ((editable ? fromUrl[f.name] : undefined) ?? defaultOf(f))
    if (v !== undefined) out[f.name] = v
  }
  return out
}

/**
 * The `dashboardFilter` body of a query: only what the end user chose. Pinned values and
 * defaults are applied by the server itself (sending them again could exceed what the token's
 * dashboardFilterColumns allow), and a read-only dashboard sends none at all.
 */
export function buildDashboardFilter(
  filters: readonly RuntimeFilter[],
  values: FilterValues,
  editable: boolean,
): Record<string, FilterValue> | undefined {
  if (!editable) return undefined
  const out: Record<string, FilterValue> = {}
  for (const f of filters) {
    if (isPinned(f)) continue
    const v = values[f.name]
    if (v === undefined || sameFilterValue(v, defaultOf(f))) continue
    out[f.name] = v
  }
  return Object.keys(out).length ? out : undefined
}

/** Every filter's value in effect (pinned, chosen or default): the `strata-filter-change` detail. */
export function effectiveFilterValues(
  filters: readonly RuntimeFilter[],
  values: FilterValues,
): Record<string, FilterValue> {
  const out: Record<string, FilterValue> = {}
  for (const f of filters) {
    const v = values[f.name] ?? defaultOf(f)
    if (v !== undefined) out[f.name] = v
  }
  return out
}

/** A short text for a value: chips, summaries, the multi-select button. */
export function describeFilterValue(type: FilterType, value: FilterValue | undefined, locale?: string): string {
  if (value === undefined) return 'Any'
  const n = (x: number) => formatNumber(x, { locale })
  if (Array.isArray(value)) {
    return value.length <= 2 ? value.join(', ') : `${value.slice(0, 2).join(', ')} +${value.length - 2}`
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No'
  if (typeof value === 'string') return value
  if (type === 'number-range') {
    const { min, max } = value as NumberRange
    if (min !== undefined && max !== undefined) return `${n(min)} – ${n(max)}`
    return min !== undefined ? `≥ ${n(min)}` : `≤ ${n(max ?? 0)}`
  }
  const { startDate, endDate } = value as DateRange
  if (startDate && endDate) return `${startDate} – ${endDate}`
  return startDate ? `From ${startDate}` : `Until ${endDate}`
}

/**
 * Options for a select filter: there is no options endpoint yet, so offer the values seen in
 * the loaded metrics' rows under a column named like the filter's column (or the filter).
 */
export function seenValues(filter: RuntimeFilter, results: Iterable<QueryResult | undefined>, limit = 500): string[] {
  const names = new Set([filter.column.toLowerCase(), filter.name.toLowerCase()])
  const seen = new Set<string>()
  for (const result of results) {
    if (!result) continue
    const columns = (result.metaData?.columns ?? []).map((c) => c.name)
    const keys = (columns.length ? columns : Object.keys(result.data[0] ?? {})).filter((c) =>
      names.has(c.toLowerCase()),
    )
    for (const key of keys) {
      for (const row of result.data) {
        const v = row[key]
        const s = scalarText(v)
        if (s !== undefined && s !== '') seen.add(s)
        if (seen.size >= limit) break
      }
    }
  }
  return [...seen].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
}
