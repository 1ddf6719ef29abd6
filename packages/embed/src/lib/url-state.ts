import type { FilterType, RuntimeFilter } from '../api/types.js'
import {
  defaultOf,
  type FilterValue,
  type FilterValues,
  isPinned,
  normalizeFilterValue,
  sameFilterValue,
} from './filters.js'

/**
 * Filters on the host page's URL: one search param per filter (param name = filter name);
 * strings (text, single-select, a date preset) as plain text, everything else as JSON.
 */
export function encodeUrlValue(value: FilterValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    return undefined
  }
}

/** A param back to a value of the filter's type; undefined when it is not one. */
export function decodeUrlValue(type: FilterType, raw: string): FilterValue | undefined {
  const text = raw.trim()
  const json = /^[[{"]/.test(text) || text === 'true' || text === 'false' ? parseJson(text) : undefined
  switch (type) {
    case 'multi-select':
      return normalizeFilterValue(type, Array.isArray(json) ? json : raw)
    case 'single-select':
    case 'text':
      return normalizeFilterValue(type, typeof json === 'string' ? json : raw)
    case 'date-range':
    case 'number-range':
    case 'boolean':
      return normalizeFilterValue(type, json ?? raw)
  }
}

/** The URL's values for the filters shown on the URL (`isShowOnUrl !== false`). */
export function readUrlValues(filters: readonly RuntimeFilter[], search: string): FilterValues {
  const params = new URLSearchParams(search)
  const out: Record<string, FilterValue> = {}
  for (const f of filters) {
    if (f.isShowOnUrl === false || isPinned(f)) continue
    const raw = params.get(f.name)
    if (raw === null) continue
    const v = decodeUrlValue(f.type, raw)
    if (v !== undefined) out[f.name] = v
  }
  return out
}

/**
 * The page's search string with the filters written in: a value that is set and differs from
 * the default is written, any other shown filter's param removed; unrelated params stay.
 */
export function writeUrlValues(search: string, filters: readonly RuntimeFilter[], values: FilterValues): string {
  const params = new URLSearchParams(search)
  for (const f of filters) {
    if (f.isShowOnUrl === false) continue
    const v = values[f.name]
    const shown = isPinned(f) ? normalizeFilterValue(f.type, f.pinned) : v
    if (shown === undefined || (!isPinned(f) && sameFilterValue(shown, defaultOf(f)))) params.delete(f.name)
    else params.set(f.name, encodeUrlValue(shown))
  }
  const text = params.toString()
  return text ? `?${text}` : ''
}
