import { html, type TemplateResult } from 'lit'
import type { RuntimeClient } from './api/client.js'

/** One search's values, as far as they were paged. */
interface Page {
  readonly values: readonly string[]
  readonly next: string | null
  readonly loading: boolean
}

/** Searches remembered (each with its pages so far); the oldest goes first. */
const MAX_SEARCHES = 50
/** A pause in typing before the server is asked. */
const SEARCH_DEBOUNCE_MS = 200

/**
 * Value pickers' code that is not needed at first paint (loaded when a picker first opens).
 *
 * The values a dashboard filter's picker offers, from the runtime's
 * `GET …/filters/:name/values?search=&cursor=` (the tenant's distinct values, searched and paged
 * by the server), or a builder filter's from its twin on a model column: one first page per search text, asked after a pause in typing, and further
 * pages on demand (`more`, when the list is scrolled to its end). A filter whose values the
 * server refuses (an older server, a filter it does not list) is marked unavailable, and the
 * picker falls back to the values seen in the metrics' rows.
 */
export class FilterOptions {
  private readonly pages = new Map<string, Page>()
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>()
  private readonly unavailable = new Set<string>()

  /**
   * `path`: the route of a name's values (under the embed); by default a dashboard filter's. The
   * builder passes its twin on a model column (`/model/columns/:table/:column/values`).
   */
  constructor(
    private readonly client: () => RuntimeClient | undefined,
    private readonly changed: () => void,
    private readonly path: (name: string) => string = filterValuesPath,
  ) {}

  /** The values for `search`, or undefined while none are known (or the server does not list them). */
  get(name: string, search: string): Page | undefined {
    if (this.unavailable.has(name)) return undefined
    return this.pages.get(key(name, search))
  }

  /** Asks for the first page of `search` (at once, or after a pause in typing), unless known. */
  want(name: string, search: string, debounce = false): void {
    if (this.unavailable.has(name) || this.pages.has(key(name, search))) return
    // a render while typing asks again: the pause already under way keeps its turn
    if (!debounce && this.timers.has(name)) return
    clearTimeout(this.timers.get(name))
    this.timers.delete(name)
    if (!debounce) {
      void this.fetch(name, search, undefined)
      return
    }
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name)
        void this.fetch(name, search, undefined)
      }, SEARCH_DEBOUNCE_MS),
    )
  }

  /** The next page of `search`, when there is one and none is on its way. */
  more(name: string, search: string): void {
    const page = this.pages.get(key(name, search))
    if (page && !page.loading && page.next !== null) void this.fetch(name, search, page.next)
  }

  private async fetch(name: string, search: string, cursor: string | undefined): Promise<void> {
    const client = this.client()
    if (!client) return
    const k = key(name, search)
    const before = this.pages.get(k)
    this.pages.set(k, { values: before?.values ?? [], next: before?.next ?? null, loading: true })
    if (this.pages.size > MAX_SEARCHES) this.pages.delete(this.pages.keys().next().value as string)
    const qs = new URLSearchParams()
    if (search.trim()) qs.set('search', search.trim())
    if (cursor) qs.set('cursor', cursor)
    const query = qs.toString()
    try {
      const body = await client.call<{ data: { values: unknown[]; nextCursor: string | null } }>(
        'GET',
        `${this.path(name)}${query ? `?${query}` : ''}`,
      )
      const values = body.data.values.map(String)
      this.pages.set(k, {
        values: cursor ? [...(before?.values ?? []), ...values] : values,
        next: body.data.nextCursor,
        loading: false,
      })
    } catch {
      this.pages.delete(k)
      this.unavailable.add(name)
    }
    this.changed()
  }
}

/** A dashboard filter's values route. */
const filterValuesPath = (name: string) => `/filters/${encodeURIComponent(name)}/values`

/** A model column's values route (the builder's filters): `table` as the model names it (schema.table). */
export const columnValuesPath = (table: string, column: string): string =>
  `/model/columns/${encodeURIComponent(table)}/${encodeURIComponent(column)}/values`

const key = (name: string, search: string) => `${name}\u0000${search.trim().toLowerCase()}`

/**
 * A multi-select's chosen values as removable chips (at the top of its open panel): each a
 * button named "Remove <value>". Its style comes with it (this module loads when a picker opens).
 */
export function chips(selected: readonly string[], onChange: (values: readonly string[]) => void): TemplateResult {
  return html`<style>
      .chips{display:flex;flex-wrap:wrap;gap:4px;margin-bottom:6px}
      .chip{display:inline-flex;align-items:center;gap:4px;max-width:100%;min-height:28px;padding:2px 8px;border:1px solid color-mix(in srgb,var(--_primary) 35%,var(--_border));border-radius:999px;background:color-mix(in srgb,var(--_primary) 8%,var(--_surface));color:inherit;font:inherit;font-size:12px;cursor:pointer}
      .chip>span:first-child{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
      .chip:focus-visible{outline:2px solid var(--_primary);outline-offset:1px}
    </style>
    <div class="chips" part="filter-chips">
      ${selected.map(
        (v) =>
          html`<button type="button" class="chip" part="filter-chip" aria-label="Remove ${v}" @click=${() => onChange(selected.filter((s) => s !== v))}>
            <span>${v}</span><span aria-hidden="true">×</span>
          </button>`,
      )}
    </div>`
}
