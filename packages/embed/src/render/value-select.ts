import { html, type TemplateResult } from 'lit'
import type { RuntimeFilter } from '../api/types.js'
import { describeFilterValue } from '../lib/filters.js'
import { searchBox } from './dropdown.js'
import type { Attrs, FilterBarHost } from './filter-bar-host.js'

/**
 * A multi-select or single-select filter: the element's dropdown with a search box (dropdown.ts).
 * Its values are the tenant's, from the server (pickers.ts: searched and paged there,
 * the next page when the list is scrolled to its end), else those seen in the metrics' rows;
 * Enter takes the typed value, and chosen values show as removable chips.
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
  if (host.menus.isOpen(a.id)) host.loadOptions(f)
  const pending = host.optionsPending(f)
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
      loading: pending.loading,
      chips: host.chips(selected, (values) => host.setFilter(f.name, values.length === 0 ? undefined : [...values])),
      onMore: pending.more ? () => host.moreOptions(f) : undefined,
      onChange: (values) =>
        host.setFilter(f.name, values.length === 0 ? undefined : multiple ? [...values] : values[0]),
    })}`
}
