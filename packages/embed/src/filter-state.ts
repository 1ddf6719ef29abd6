import type { QueryResult, RuntimeFilter } from './api/types.js'
import {
  buildDashboardFilter,
  defaultOf,
  effectiveFilterValues,
  type FilterValue,
  initialFilterValues,
  isPinned,
  normalizeFilterValue,
  sameFilterValue,
  seenValues,
} from './lib/filters.js'
import { readUrlValues, writeUrlValues } from './lib/url-state.js'

/** The host page's URL, as far as filters go (`location.search` and `history.replaceState`). */
export interface UrlAdapter {
  readonly search: string
  replace(search: string): void
}

/** The page's own URL; undefined outside a browser. */
export function pageUrl(): UrlAdapter | undefined {
  if (typeof location === 'undefined' || typeof history === 'undefined') return undefined
  return {
    get search() {
      return location.search
    },
    replace(search) {
      try {
        history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`)
      } catch {
        // a sandboxed iframe may refuse: the filters still work, they are just not on the URL
      }
    },
  }
}

const MAX_SEEN = 1000

/**
 * The dashboard filters' values: where they start (pinned, URL, default), what a change
 * sends (`dashboardFilter`), and their mirror in the page URL. No DOM: the URL is an adapter.
 */
export class FilterState {
  private list: readonly RuntimeFilter[] = []
  private editable = false
  private url: UrlAdapter | undefined
  private readonly seen = new Map<string, Set<string>>()
  values: Record<string, FilterValue> = {}

  get filters(): readonly RuntimeFilter[] {
    return this.list
  }

  /** Whether the end user may change filters (`permissions.endUserDashboardFilter`). */
  get isEditable(): boolean {
    return this.editable
  }

  /**
   * A loaded embed: each filter starts pinned, else from the URL, else at its default. A value
   * chosen before a reload is kept where the filter still exists.
   */
  open(filters: readonly RuntimeFilter[], editable: boolean, url: UrlAdapter | undefined): void {
    const kept: Record<string, FilterValue> = {}
    for (const f of filters) {
      const v = this.values[f.name]
      if (v !== undefined && !isPinned(f) && editable) kept[f.name] = v
    }
    this.list = filters
    this.editable = editable
    this.url = url
    const fromUrl = url ? readUrlValues(filters, url.search) : {}
    this.values = { ...initialFilterValues(filters, fromUrl, editable), ...kept }
    this.seen.clear()
    this.writeUrl()
  }

  /** Every filter's value in effect (pinned, chosen or default). */
  get effective(): Record<string, FilterValue> {
    return effectiveFilterValues(this.list, this.values)
  }

  /** The `dashboardFilter` of a query or download. */
  get dashboardFilter(): Record<string, FilterValue> | undefined {
    return buildDashboardFilter(this.list, this.values, this.editable)
  }

  /** Whether any filter the end user can change differs from its default. */
  get canReset(): boolean {
    return this.list.some(
      (f) => !isPinned(f) && this.values[f.name] !== undefined && !sameFilterValue(this.values[f.name], defaultOf(f)),
    )
  }

  /** Sets a filter (a value that is empty or not of the filter's form clears it); false when nothing changed. */
  set(name: string, raw: unknown): boolean {
    const filter = this.list.find((f) => f.name === name)
    if (!filter || isPinned(filter) || !this.editable) return false
    const value = normalizeFilterValue(filter.type, raw)
    const before = this.values[name]
    if (value === undefined ? before === undefined : sameFilterValue(value, before)) return false
    if (value === undefined) delete this.values[name]
    else this.values[name] = value
    this.writeUrl()
    return true
  }

  /** Every filter back to its default (pinned ones stay); false when nothing changed. */
  reset(): boolean {
    if (!this.editable || !this.canReset) return false
    for (const f of this.list) if (!isPinned(f)) delete this.values[f.name]
    this.writeUrl()
    return true
  }

  /** Notes the values a result shows for the select filters' columns (their only source of options). */
  remember(result: QueryResult): void {
    for (const f of this.list) {
      if (f.type !== 'multi-select' && f.type !== 'single-select') continue
      const set = this.seen.get(f.name) ?? new Set<string>()
      this.seen.set(f.name, set)
      for (const v of seenValues(f, [result])) if (set.size < MAX_SEEN) set.add(v)
    }
  }

  /** Options for a select filter: every value seen so far, plus the chosen ones. */
  optionsFor(filter: RuntimeFilter): string[] {
    const options = new Set(this.seen.get(filter.name) ?? [])
    const v = this.values[filter.name]
    if (Array.isArray(v)) for (const s of v) options.add(s)
    else if (typeof v === 'string') options.add(v)
    return [...options].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
  }

  private writeUrl(): void {
    if (!this.url) return
    const search = writeUrlValues(this.url.search, this.list, this.values)
    if (search !== this.url.search) this.url.replace(search)
  }
}
