import type { DrillFilter, RuntimeMetric } from '../api/types.js'
import { DRILL_PARAM, type DrillChip, MAX_CHIPS } from '../drill-state.js'
import { formatTime, humanise, labelOf } from '../lib/format.js'
import { periodOf } from './periods.js'

/**
 * Drill chips outside the element: in the page URL (one `strata-drill` search param holding a JSON
 * array of `[table, column, value]`), in the `drills` property and the `strata-drill-change`
 * event (`{ table, column, value }` each). Whatever comes in is checked twice: here, against the
 * columns the load names behind the metrics' dimensions (anything else is dropped), and again by
 * the server, which takes only visible columns and narrows within the token.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/
const MAX_TEXT = 500

/** A drill value as the server takes it: text, a finite number, a boolean, or a range of days. */
function drillValue(v: unknown): DrillFilter['value'] | undefined {
  if (typeof v === 'string') return v.length <= MAX_TEXT ? v : undefined
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined
  if (typeof v === 'boolean') return v
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined
  const { startDate, endDate, ...rest } = v as Record<string, unknown>
  if (Object.keys(rest).length > 0 || typeof startDate !== 'string' || typeof endDate !== 'string') return undefined
  if (!DAY.test(startDate) || !DAY.test(endDate) || startDate > endDate) return undefined
  return { startDate, endDate }
}

const name = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT

/** One entry (`{ table, column, value }`, or the URL's `[table, column, value]`) as a drill filter; undefined when it is not one. */
function filterOf(entry: unknown): DrillFilter | undefined {
  const [table, column, raw] = Array.isArray(entry)
    ? entry
    : typeof entry === 'object' && entry !== null
      ? [(entry as DrillFilter).table, (entry as DrillFilter).column, (entry as DrillFilter).value]
      : []
  const value = drillValue(raw)
  return name(table) && name(column) && value !== undefined ? { table, column, value } : undefined
}

/**
 * The drill filters in a URL param's text (JSON) or a property's array: the well-formed entries
 * only, at most the element's number of chips, one per column (the last wins, as a click would).
 */
export function decodeDrills(raw: unknown): DrillFilter[] {
  let list = raw
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw)
    } catch {
      return []
    }
  }
  if (!Array.isArray(list)) return []
  const byColumn = new Map<string, DrillFilter>()
  for (const entry of list.slice(0, 50)) {
    const f = filterOf(entry)
    if (!f) continue
    const key = JSON.stringify([f.table, f.column])
    byColumn.delete(key)
    byColumn.set(key, f)
  }
  return [...byColumn.values()].slice(-MAX_CHIPS)
}

/** The URL param's text for these filters (compact tuples). */
export function encodeDrills(filters: readonly DrillFilter[]): string {
  return JSON.stringify(filters.map((f) => [f.table, f.column, f.value]))
}

/** The page's search string with the chips written in (the param removed when there are none); other params stay. */
export function writeDrillParam(search: string, filters: readonly DrillFilter[]): string {
  const params = new URLSearchParams(search)
  if (filters.length > 0) params.set(DRILL_PARAM, encodeDrills(filters))
  else params.delete(DRILL_PARAM)
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** How a chip reads a range of days: the period it is ("2026", "Mar 2026", "Q1 2026"), else "from – to". */
export function periodLabel(range: { startDate: string; endDate: string }, locale?: string): string {
  for (const grain of ['day', 'week', 'month', 'quarter', 'year']) {
    const p = periodOf(range.startDate, grain)
    if (p?.startDate === range.startDate && p.endDate === range.endDate)
      return formatTime(range.startDate, grain, locale)
  }
  return `${range.startDate} – ${range.endDate}`
}

/**
 * The chips these filters make on these metrics: a filter stays only where a metric's dimension
 * reads that table and column (the load's `drillColumns`), with a range of days only on a
 * time-grained dimension and a plain value only on another one; the chip is named after that
 * dimension ("Status: paid").
 */
export function chipsFor(
  filters: readonly DrillFilter[],
  metrics: readonly RuntimeMetric[],
  locale?: string,
): DrillChip[] {
  const chips: DrillChip[] = []
  for (const filter of filters) {
    const range = typeof filter.value === 'object'
    const dimension = metrics
      .flatMap((m) =>
        Object.entries(m.drillColumns ?? {})
          .filter(([, c]) => c.table === filter.table && c.column === filter.column)
          .filter(([dim]) => range === Boolean(m.timeGrains?.[dim]))
          .map(([dim]) => dim),
      )
      .at(0)
    if (dimension === undefined) continue
    const shown = typeof filter.value === 'object' ? periodLabel(filter.value, locale) : labelOf(filter.value)
    chips.push({ filter, label: `${humanise(dimension)}: ${shown}` })
  }
  return chips
}
