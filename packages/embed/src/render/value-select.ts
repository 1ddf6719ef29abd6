import { html, type TemplateResult } from 'lit'
import type { RuntimeFilter } from '../api/types.js'
import { describeFilterValue } from '../lib/filters.js'
import { searchBox } from './dropdown.js'
import type { Attrs, FilterBarHost } from './filter-bar-host.js'

/**
 * A multi-select or single-select filter: the element's dropdown with a search box (dropdown.ts).
 * There is no options endpoint yet, so the values are those seen in the metrics' rows; Enter
 * takes the typed value.
 */
export function valueSelect(host: FilterBarHost, f: RuntimeFilter, a: Attrs, multiple: boolean): TemplateResult {
  const selected = multiple
    ? Array.isArray(a.value)
      ? (a.value as readonly string[])
      : []
    : typeof a.value === 'string' && a.value !== ''
      ? [a.value]
      : []
  const search = host.searchText(f.name)
  const needle = search.trim().toLowerCase()
  const options = host.optionsFor(f).filter((o) => !needle || o.toLowerCase().includes(needle))
  return html`<span class="field-label" part="filter-label" id="${a.id}-label">${a.label}</span>
    ${searchBox(host.menus, {
      id: a.id,
      labelId: `${a.id}-label`,
      label: a.label,
      multiple,
      options,
      selected,
      summary: selected.length ? describeFilterValue(f.type, multiple ? selected : selected[0], host.locale) : 'Any',
      search,
      part: multiple ? 'multi-select' : 'single-select',
      setSearch: (text) => host.setSearchText(f.name, text),
      onChange: (values) =>
        host.setFilter(f.name, values.length === 0 ? undefined : multiple ? [...values] : values[0]),
    })}`
}
