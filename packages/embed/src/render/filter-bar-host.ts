import type { RuntimeFilter } from '../api/types.js'
import type { FilterValue, FilterValues } from '../lib/filters.js'
import type { Menus } from '../menu-controller.js'

/** What the filter bar needs from the element. */
export interface FilterBarHost {
  readonly filters: readonly RuntimeFilter[]
  readonly values: FilterValues
  readonly editable: boolean
  readonly locale: string | undefined
  readonly canReset: boolean
  /** The open dropdown (one at a time, shared with the metrics panel). */
  readonly menus: Menus
  optionsFor(filter: RuntimeFilter): string[]
  /** Applies at once (select, checkbox, date) or after a pause in typing (`debounce`). */
  setFilter(name: string, value: unknown, debounce?: boolean): void
  resetFilters(): void
  searchText(name: string): string
  setSearchText(name: string, text: string): void
  isCustomRange(name: string): boolean
  setCustomRange(name: string, on: boolean): void
}

/** The id, label and current value of one filter's control. */
export interface Attrs {
  readonly id: string
  readonly label: string
  readonly value: FilterValue | undefined
}
