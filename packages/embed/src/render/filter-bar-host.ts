import type { TemplateResult } from 'lit'
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
  /** A select filter's values: the server's for the current search (chosen ones first), else those seen in rows. */
  optionsFor(filter: RuntimeFilter): string[]
  /** Asks the server for the values of the current search (a picker opened). */
  loadOptions(filter: RuntimeFilter): void
  /** The next page of them (the list scrolled to its end). */
  moreOptions(filter: RuntimeFilter): void
  optionsPending(filter: RuntimeFilter): { readonly loading: boolean; readonly more: boolean }
  /** A multi-select's chosen values as removable chips (undefined until the pickers' module is loaded). */
  chips(selected: readonly string[], onChange: (values: readonly string[]) => void): TemplateResult | undefined
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
