import { html, nothing, type TemplateResult } from 'lit'
import { live } from 'lit/directives/live.js'
import type { RuntimeFilter } from '../api/types.js'
import {
  DATE_PRESETS,
  type DateRange,
  defaultOf,
  describeFilterValue,
  isPinned,
  type NumberRange,
  normalizeFilterValue,
} from '../lib/filters.js'
import { selectBox } from './dropdown.js'
import type { Attrs, FilterBarHost } from './filter-bar-host.js'
import { lockIcon } from './icons.js'
import { valueSelect } from './value-select.js'

const CUSTOM = '__custom__'

/** The dashboard's filters as real form controls, each with a label (docs/web-component.md#filters). */
export function renderFilterBar(host: FilterBarHost): TemplateResult {
  return html`<form
    class="filters"
    part="filters"
    role="search"
    aria-label="Dashboard filters"
    @submit=${(e: Event) => e.preventDefault()}
  >
    ${host.filters.map((f, i) => renderFilter(host, f, `sf-${i}`))}
    ${
      host.editable && host.canReset
        ? html`<div class="filters-actions">
          <button type="button" class="button subtle" part="reset-button" @click=${() => host.resetFilters()}>
            Reset filters
          </button>
        </div>`
        : nothing
    }
  </form>`
}

function renderFilter(host: FilterBarHost, f: RuntimeFilter, id: string): TemplateResult {
  const label = f.label || f.name
  const value = host.values[f.name] ?? defaultOf(f)
  const locked = isPinned(f)
  const attrs = { id, label, value }
  let control: TemplateResult
  if (locked || !host.editable) control = readOnly(host, f, attrs, locked)
  else {
    switch (f.type) {
      case 'multi-select':
        control = valueSelect(host, f, attrs, true)
        break
      case 'single-select':
        control = valueSelect(host, f, attrs, false)
        break
      case 'date-range':
        control = dateRange(host, f, attrs)
        break
      case 'number-range':
        control = numberRange(host, f, attrs)
        break
      case 'boolean':
        control = booleanSelect(host, f, attrs)
        break
      default:
        control = textInput(host, f, attrs)
    }
  }
  return html`<div class="field" part="filter" data-filter=${f.name} data-type=${f.type} ?data-locked=${locked}>
    ${control}
  </div>`
}

const labelFor = (a: Attrs, extra: unknown = nothing) =>
  html`<label class="field-label" part="filter-label" for=${a.id}>${a.label}${extra}</label>`

function readOnly(host: FilterBarHost, f: RuntimeFilter, a: Attrs, locked: boolean): TemplateResult {
  const text =
    a.value === undefined && locked ? 'Set by the application' : describeFilterValue(f.type, a.value, host.locale)
  const why = locked ? 'Set by the application' : 'Filters are read-only for this dashboard'
  return html`${labelFor(a, locked ? html`<span title=${why}>${lockIcon}</span>` : nothing)}
    <input
      id=${a.id}
      class="control"
      part="filter-control"
      type="text"
      readonly
      aria-readonly="true"
      .value=${live(text)}
      title=${why}
      aria-description=${why}
    />`
}

function textInput(host: FilterBarHost, f: RuntimeFilter, a: Attrs): TemplateResult {
  const value = typeof a.value === 'string' ? a.value : ''
  // Not trimmed: the value is written back into the input while the user is still typing.
  const read = (e: Event) => (e.target as HTMLInputElement).value || undefined
  return html`${labelFor(a)}
    <input
      id=${a.id}
      class="control"
      part="filter-control"
      type="search"
      placeholder="Contains…"
      .value=${live(value)}
      @input=${(e: Event) => host.setFilter(f.name, read(e), true)}
      @change=${(e: Event) => host.setFilter(f.name, read(e))}
    />`
}

/** A label that names a dropdown (a button, which `<label for>` does not label for screen readers). */
const dropdownLabel = (a: Attrs) =>
  html`<span class="field-label" part="filter-label" id="${a.id}-label">${a.label}</span>`

function booleanSelect(host: FilterBarHost, f: RuntimeFilter, a: Attrs): TemplateResult {
  const value = typeof a.value === 'boolean' ? String(a.value) : ''
  return html`${dropdownLabel(a)}
    ${selectBox(host.menus, {
      id: a.id,
      labelId: `${a.id}-label`,
      value,
      placeholder: value === '',
      options: [
        { value: '', label: 'Any' },
        { value: 'true', label: 'Yes' },
        { value: 'false', label: 'No' },
      ],
      onSelect: (v) => host.setFilter(f.name, v === '' ? undefined : v === 'true'),
    })}`
}

function dateRange(host: FilterBarHost, f: RuntimeFilter, a: Attrs): TemplateResult {
  const range = typeof a.value === 'object' && !Array.isArray(a.value) ? (a.value as DateRange) : undefined
  const custom = range !== undefined || host.isCustomRange(f.name)
  const selected = custom ? CUSTOM : typeof a.value === 'string' ? a.value : ''
  const def = defaultOf(f)
  const onSelect = (v: string) => {
    host.setCustomRange(f.name, v === CUSTOM)
    if (v !== CUSTOM) host.setFilter(f.name, v || undefined)
  }
  const onDate = (e: Event) => {
    const box = (e.target as HTMLElement).closest('.range')
    const [start, end] = [...(box?.querySelectorAll('input') ?? [])] as HTMLInputElement[]
    if (!start || !end) return
    const next = { startDate: start.value || undefined, endDate: end.value || undefined }
    const valid = (!next.startDate && !next.endDate) || normalizeFilterValue('date-range', next) !== undefined
    end.setCustomValidity(valid ? '' : 'The end date is before the start date')
    if (!valid) return void end.reportValidity()
    if (next.startDate || next.endDate) host.setFilter(f.name, next)
  }
  return html`${dropdownLabel(a)}
    <div class="range">
      ${selectBox(host.menus, {
        id: a.id,
        labelId: `${a.id}-label`,
        value: selected,
        placeholder: selected === '',
        options: [
          {
            value: '',
            label: def === undefined ? 'Any time' : `Default (${describeFilterValue(f.type, def, host.locale)})`,
          },
          ...DATE_PRESETS.map((p) => ({ value: p, label: p })),
          { value: CUSTOM, label: 'Custom range…' },
        ],
        onSelect,
      })}
      ${
        custom
          ? html`<input
              class="control"
              part="filter-control date-start"
              type="date"
              aria-label="${a.label} from"
              .value=${live(range?.startDate ?? '')}
              @change=${onDate}
            /><span class="range-sep" aria-hidden="true">–</span
            ><input
              class="control"
              part="filter-control date-end"
              type="date"
              aria-label="${a.label} to"
              .value=${live(range?.endDate ?? '')}
              @change=${onDate}
            />`
          : nothing
      }
    </div>`
}

function numberRange(host: FilterBarHost, f: RuntimeFilter, a: Attrs): TemplateResult {
  const range = typeof a.value === 'object' && !Array.isArray(a.value) ? (a.value as NumberRange) : {}
  const onChange = (e: Event) => {
    const box = (e.target as HTMLElement).closest('.range')
    const [min, max] = [...(box?.querySelectorAll('input') ?? [])] as HTMLInputElement[]
    if (!min || !max) return
    const next = { min: min.value, max: max.value }
    const value = normalizeFilterValue('number-range', next)
    const invalid = value === undefined && (min.value !== '' || max.value !== '')
    max.setCustomValidity(invalid ? 'The maximum is below the minimum' : '')
    if (invalid) return void max.reportValidity()
    host.setFilter(f.name, value)
  }
  return html`<span class="field-label" part="filter-label" id="${a.id}-label">${a.label}</span>
    <div class="range" role="group" aria-labelledby="${a.id}-label">
      <input
        id=${a.id}
        class="control"
        part="filter-control number-min"
        type="number"
        inputmode="decimal"
        step="any"
        placeholder="Min"
        aria-label="${a.label} minimum"
        .value=${live(range.min === undefined ? '' : String(range.min))}
        @change=${onChange}
      /><span class="range-sep" aria-hidden="true">–</span
      ><input
        class="control"
        part="filter-control number-max"
        type="number"
        inputmode="decimal"
        step="any"
        placeholder="Max"
        aria-label="${a.label} maximum"
        .value=${live(range.max === undefined ? '' : String(range.max))}
        @change=${onChange}
      />
    </div>`
}
