import { html, nothing, type TemplateResult } from 'lit'
import { live } from 'lit/directives/live.js'
import type { RuntimeFilter } from '../api/types.js'
import { describeFilterValue } from '../lib/filters.js'
import type { Attrs, FilterBarHost } from './filter-bar-host.js'
import { chevronIcon } from './icons.js'

/**
 * A multi-select: a disclosure (`<details>`, keyboard and screen-reader friendly without
 * script) holding a search box and one checkbox per value. There is no options endpoint
 * yet, so the values are those seen in the metrics' rows; Enter adds the typed value.
 */
export function multiSelect(host: FilterBarHost, f: RuntimeFilter, a: Attrs): TemplateResult {
  const selected = Array.isArray(a.value) ? (a.value as readonly string[]) : []
  const chosen = new Set(selected)
  const search = host.searchText(f.name)
  const needle = search.trim().toLowerCase()
  const options = host.optionsFor(f).filter((o) => !needle || o.toLowerCase().includes(needle))
  const exact = options.some((o) => o.toLowerCase() === needle)
  const set = (list: readonly string[]) => host.setFilter(f.name, list.length ? list : undefined)
  const toggle = (option: string, on: boolean) => set(on ? [...selected, option] : selected.filter((s) => s !== option))
  const add = () => {
    const v = search.trim()
    if (!v) return
    if (!chosen.has(v)) set([...selected, v])
    host.setSearchText(f.name, '')
  }
  return html`<span class="field-label" part="filter-label" id="${a.id}-label">${a.label}</span>
    <details class="ms" part="multi-select" data-filter=${f.name}>
      <summary class="control" part="filter-control" aria-labelledby="${a.id}-label ${a.id}-value">
        <span class="value ${selected.length ? '' : 'placeholder'}" id="${a.id}-value"
          >${selected.length ? describeFilterValue(f.type, selected, host.locale) : 'Any'}</span
        >${chevronIcon}
      </summary>
      <div class="ms-panel" part="multi-select-panel">
        <input
          id=${a.id}
          class="control"
          type="search"
          autocomplete="off"
          placeholder="Search or type a value"
          aria-label="Search or add ${a.label}"
          .value=${live(search)}
          @input=${(e: Event) => host.setSearchText(f.name, (e.target as HTMLInputElement).value)}
          @keydown=${(e: KeyboardEvent) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
        />
        <fieldset class="ms-options">
          <legend class="sr-only">${a.label} values</legend>
          ${options.map(
            (o) =>
              html`<label class="option"
                ><input
                  type="checkbox"
                  .checked=${live(chosen.has(o))}
                  @change=${(e: Event) => toggle(o, (e.target as HTMLInputElement).checked)}
                />${o}</label
              >`,
          )}
          ${
            options.length === 0 && !needle
              ? html`<p class="hint">No values seen yet: type one and press Enter.</p>`
              : nothing
          }
        </fieldset>
        <div class="ms-footer">
          ${
            needle && !exact
              ? html`<button type="button" class="button subtle" @click=${add}>Add “${search.trim()}”</button>`
              : html`<span></span>`
          }
          <button type="button" class="button subtle" ?disabled=${!selected.length} @click=${() => set([])}>
            Clear
          </button>
        </div>
      </div>
    </details>`
}
