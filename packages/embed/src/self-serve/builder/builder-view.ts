import { html, nothing, type TemplateResult } from 'lit'
import { repeat } from 'lit/directives/repeat.js'
import type { Model, ModelColumn, Operator, TimeGrain } from '../../api/types.js'
import { focusByKey } from '../../lib/roving-focus.js'
import { closeIcon } from '../metric-icons.js'
import {
  AGGREGATE_LABELS,
  aggregatesFor,
  type BuilderState,
  columnOf,
  dimensionLabel,
  type FieldKind,
  type FilterItem,
  fieldKind,
  fieldLabel,
  measureLabel,
  operatorLabel,
  operatorsFor,
  outputNames,
  type Problem,
  removeItem,
  TIME_GRAINS,
  tableOf,
  takesNoValue,
  updateItem,
} from './builder-state.js'
import { pickedFilter } from './value-picker.js'

export type FieldTarget = 'measures' | 'dimensions' | 'filters'

/** What the builder's columns read and call (the element holds the state). */
export interface BuilderView {
  readonly model: Model | undefined
  readonly state: BuilderState
  readonly search: string
  /** The field whose "add to" menu is open. */
  readonly menu: string | undefined
  /** The zone a field is dragged over. */
  readonly over: FieldTarget | undefined
  /** After a save attempt: every problem is shown, not only those of values typed. */
  readonly showAll: boolean
  setSearch(text: string): void
  setTable(table: string): void
  openMenu(field: string | undefined, focus?: string): void
  add(target: FieldTarget, column: string | null): void
  /** A pointer pressed on a field (it may become a drag: field-drag.ts). */
  press(e: PointerEvent, key: string, label: string, targets: readonly FieldTarget[]): void
  /** Whether a click on a field ends a drag (and so opens no menu). */
  endsDrag(): boolean
  update(next: BuilderState): void
  /** A text filter's value picked from the column's values (value-picker.ts); absent: typed. */
  readonly valueInput?: (
    f: FilterItem,
    table: string,
    column: string,
    label: string,
    onChange: (value: string) => void,
  ) => TemplateResult
}

/** The pseudo-field "Number of rows" (a count without a column). */
export const ROWS = '__rows'
const TARGET_LABELS: Record<FieldTarget, string> = { measures: 'Measure', dimensions: 'Dimension', filters: 'Filter' }
const KIND_BADGES: Record<FieldKind, string> = { number: '#', time: 'Date', boolean: 'Y/N', text: 'Aa' }
const GRAIN_LABELS: Record<TimeGrain, string> = {
  hour: 'Hour',
  day: 'Day',
  week: 'Week',
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
}

const fieldId = (key: string) => `bd-field-${key}`
const menuItemId = (key: string, i: number) => `bd-menu-${key}-${i}`

/** The left column: the table, a search, and every field with its type (drag it, or choose it). */
export function renderFields(v: BuilderView): TemplateResult {
  const table = tableOf(v.model, v.state.table)
  const q = v.search.trim().toLowerCase()
  const columns = (table?.columns ?? []).filter(
    (c) => !q || c.label.toLowerCase().includes(q) || c.name.toLowerCase().includes(q),
  )
  const showRows = !q || 'number of rows'.includes(q)
  return html`<div>
      <label class="bd-label" for="bd-table">Table</label>
      <select
        id="bd-table"
        class="bd-control"
        ?disabled=${!v.model}
        @change=${(e: Event) => v.setTable((e.target as HTMLSelectElement).value)}
      >
        ${v.model ? nothing : html`<option>Loading…</option>`}
        ${(v.model?.tables ?? []).map(
          (t) => html`<option value=${t.name} ?selected=${t.name === v.state.table}>${t.label}</option>`,
        )}
      </select>
    </div>
    <div>
      <label class="bd-label" for="bd-field-search">Fields</label>
      <input
        id="bd-field-search"
        class="bd-control"
        type="search"
        placeholder="Find a field"
        autocomplete="off"
        .value=${v.search}
        @input=${(e: Event) => v.setSearch((e.target as HTMLInputElement).value)}
      />
    </div>
    <p class="bd-hint" id="bd-fields-hint">Drag a field into Measures, Dimensions or Filters, or choose it to add it.</p>
    <ul class="bd-field-list" aria-describedby="bd-fields-hint">
      ${showRows && table ? renderField(v, ROWS, 'Number of rows', null) : nothing}
      ${columns.map((c) => renderField(v, c.name, c.label, c))}
    </ul>
    ${
      v.model && table && columns.length === 0 && q
        ? html`<p class="bd-hint" role="status">No field matches “${v.search}”.</p>`
        : nothing
    }
    ${v.model && v.model.tables.length === 0 ? html`<p class="bd-hint" role="status">There is no table you can build on.</p>` : nothing}`
}

function renderField(v: BuilderView, key: string, label: string, column: ModelColumn | null): TemplateResult {
  const kind = column ? fieldKind(column.dataType) : 'number'
  const open = v.menu === key
  const targets: FieldTarget[] = column ? ['measures', 'dimensions', 'filters'] : ['measures']
  const onMenuKey = (e: KeyboardEvent) => {
    if (e.key === 'Tab') v.openMenu(undefined)
    focusByKey(e, [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>('button')], e.target)
  }
  return html`<li>
    <button
      type="button"
      class="bd-field"
      id=${fieldId(key)}
      aria-haspopup="menu"
      aria-expanded=${open ? 'true' : 'false'}
      data-field=${key}
      @pointerdown=${(e: PointerEvent) => v.press(e, key, label, targets)}
      @click=${() => {
        if (v.endsDrag()) return
        if (open) v.openMenu(undefined)
        else v.openMenu(key, menuItemId(key, 0))
      }}
      @keydown=${(e: KeyboardEvent) => {
        if (e.key === 'ArrowDown' && !open) {
          e.preventDefault()
          v.openMenu(key, menuItemId(key, 0))
        }
      }}
    >
      <span class="bd-type ${kind}" aria-hidden="true">${column ? KIND_BADGES[kind] : '#'}</span>
      <span class="bd-field-name">${label}</span>
      <span class="bd-field-type">${column ? typeName(column.dataType) : 'count'}</span>
    </button>
    ${
      open
        ? html`<div class="bd-menu" role="menu" aria-label="Add ${label} as" @keydown=${onMenuKey}>
          ${targets.map(
            (t, i) => html`<button
              type="button"
              role="menuitem"
              id=${menuItemId(key, i)}
              data-target=${t}
              @click=${() => v.add(t, column ? column.name : null)}
            >
              Add as ${TARGET_LABELS[t].toLowerCase()}
            </button>`,
          )}
        </div>`
        : nothing
    }
  </li>`
}

const typeName = (dataType: string) => (dataType === 'boolean' ? 'yes/no' : dataType === 'string' ? 'text' : dataType)

/** A zone a field can be dropped on (or added to from the field's menu). */
function zone(
  v: BuilderView,
  target: FieldTarget,
  title: string,
  body: TemplateResult,
  empty: boolean,
): TemplateResult {
  return html`<section
    class="bd-zone ${v.over === target ? 'over' : ''}"
    data-zone=${target}
    aria-labelledby="bd-zone-${target}"
  >
    <h3 class="bd-section-title" id="bd-zone-${target}">${title}</h3>
    ${empty ? html`<p class="bd-empty-zone">${ZONE_HINTS[target]}</p>` : body}
  </section>`
}

const ZONE_HINTS: Record<FieldTarget, string> = {
  measures: 'What to count or add up: drop a field here.',
  dimensions: 'What to group by (categories, dates): drop a field here.',
  filters: 'Which rows count: drop a field here.',
}

const removeButton = (label: string, onClick: () => void) =>
  html`<button type="button" class="icon-button" aria-label="Remove ${label}" title="Remove" @click=${onClick}>
    ${closeIcon}
  </button>`

/** The middle column: measures, dimensions, filters, then sort and limit. */
export function renderQuery(v: BuilderView, problems: readonly Problem[]): TemplateResult {
  const s = v.state
  const names = outputNames(s)
  const labelOf = (key: number) => {
    const m = s.measures.find((x) => x.key === key)
    if (m) return measureLabel(v.model, s, m)
    const d = s.dimensions.find((x) => x.key === key)
    return d ? dimensionLabel(v.model, s, d) : ''
  }
  const problemOf = (where: string) => problems.find((p) => p.where === where)
  const limitProblem = problemOf('limit')
  return html`${zone(
    v,
    'measures',
    'Measures',
    html`<ul class="bd-items">
      ${repeat(
        s.measures,
        (m) => m.key,
        (m) => {
          const col = columnOf(v.model, s, m)
          const label = measureLabel(v.model, s, m)
          return html`<li class="bd-item" data-key=${m.key}>
            <span class="bd-item-name" title=${label}>${m.column === null ? 'Rows' : fieldLabel(v.model, s, m)}</span>
            <select
              aria-label="Aggregate of ${fieldLabel(v.model, s, m)}"
              ?disabled=${m.column === null}
              @change=${(e: Event) =>
                v.update(
                  updateItem(s, 'measures', m.key, {
                    aggregate: (e.target as HTMLSelectElement).value as (typeof m)['aggregate'],
                  }),
                )}
            >
              ${aggregatesFor(col ? fieldKind(col.dataType) : m.column === null ? null : 'text').map(
                (a) => html`<option value=${a} ?selected=${a === m.aggregate}>${AGGREGATE_LABELS[a]}</option>`,
              )}
            </select>
            ${removeButton(label, () => v.update(removeItem(s, 'measures', m.key)))}
          </li>`
        },
      )}
    </ul>`,
    s.measures.length === 0,
  )}
  ${zone(
    v,
    'dimensions',
    'Dimensions',
    html`<ul class="bd-items">
      ${repeat(
        s.dimensions,
        (d) => d.key,
        (d) => {
          const col = columnOf(v.model, s, d)
          const time = col ? fieldKind(col.dataType) === 'time' : d.timeGrain !== undefined
          const label = fieldLabel(v.model, s, d)
          return html`<li class="bd-item" data-key=${d.key}>
            <span class="bd-item-name" title=${label}>${label}</span>
            ${
              time
                ? html`<select
                  aria-label="Time grain of ${label}"
                  @change=${(e: Event) =>
                    v.update(
                      updateItem(s, 'dimensions', d.key, {
                        timeGrain: (e.target as HTMLSelectElement).value as TimeGrain,
                      }),
                    )}
                >
                  ${TIME_GRAINS.map(
                    (g) =>
                      html`<option value=${g} ?selected=${g === d.timeGrain}>By ${GRAIN_LABELS[g].toLowerCase()}</option>`,
                  )}
                </select>`
                : html`<span></span>`
            }
            ${removeButton(label, () => v.update(removeItem(s, 'dimensions', d.key)))}
          </li>`
        },
      )}
    </ul>`,
    s.dimensions.length === 0,
  )}
  ${zone(
    v,
    'filters',
    'Filters',
    html`<ul class="bd-items">
      ${repeat(
        s.filters,
        (f) => f.key,
        (f) => {
          const col = columnOf(v.model, s, f)
          const kind = col ? fieldKind(col.dataType) : 'text'
          const label = fieldLabel(v.model, s, f)
          const problem = problemOf(`filter-${f.key}`)
          const shown = problem && (v.showAll || f.value.trim() !== '' || f.value2.trim() !== '') ? problem : undefined
          const errorId = `bd-filter-${f.key}-error`
          const input = (which: 'value' | 'value2', aria: string) =>
            which === 'value' && v.valueInput && pickedFilter(kind, f)
              ? v.valueInput(f, f.table ?? s.table, f.column, label, (value) =>
                  v.update(updateItem(s, 'filters', f.key, { value })),
                )
              : kind === 'boolean'
                ? html`<select
                  id="bd-filter-${f.key}-${which}"
                  aria-label=${aria}
                  @change=${(e: Event) => v.update(updateItem(s, 'filters', f.key, { [which]: (e.target as HTMLSelectElement).value }))}
                >
                  <option value="true" ?selected=${f[which] === 'true'}>Yes</option>
                  <option value="false" ?selected=${f[which] === 'false'}>No</option>
                </select>`
                : html`<input
                  id="bd-filter-${f.key}-${which}"
                  type=${kind === 'time' && f.operator !== 'in' && f.operator !== 'not-in' ? 'date' : 'text'}
                  inputmode=${kind === 'number' ? 'decimal' : 'text'}
                  aria-label=${aria}
                  aria-invalid=${shown ? 'true' : 'false'}
                  aria-describedby=${shown ? errorId : nothing}
                  placeholder=${f.operator === 'in' || f.operator === 'not-in' ? 'Values, comma-separated' : kind === 'number' ? 'Number' : 'Value'}
                  autocomplete="off"
                  .value=${f[which]}
                  @input=${(e: Event) => v.update(updateItem(s, 'filters', f.key, { [which]: (e.target as HTMLInputElement).value }))}
                />`
          return html`<li class="bd-item filter" data-key=${f.key}>
            <span class="bd-item-name" id="bd-filter-${f.key}-label" title=${label}>${label}</span>
            ${removeButton(`the filter on ${label}`, () => v.update(removeItem(s, 'filters', f.key)))}
            <div class="bd-filter-row">
              <select
                aria-label="Condition on ${label}"
                @change=${(e: Event) =>
                  v.update(
                    updateItem(s, 'filters', f.key, { operator: (e.target as HTMLSelectElement).value as Operator }),
                  )}
              >
                ${operatorsFor(kind).map(
                  (o) => html`<option value=${o} ?selected=${o === f.operator}>${operatorLabel(o, kind)}</option>`,
                )}
              </select>
              ${takesNoValue(f.operator) ? nothing : input('value', `Value for ${label}`)}
              ${f.operator === 'between' ? input('value2', `Upper bound for ${label}`) : nothing}
            </div>
            ${shown ? html`<p class="bd-item-error" id=${errorId}>${shown.message}</p>` : nothing}
          </li>`
        },
      )}
    </ul>`,
    s.filters.length === 0,
  )}
  <section aria-labelledby="bd-sort-title">
    <h3 class="bd-section-title" id="bd-sort-title">Sort and limit</h3>
    <div class="bd-row">
      <div>
        <label class="sr-only" for="bd-sort">Sort by</label>
        <select
          id="bd-sort"
          class="bd-control"
          ?disabled=${names.length === 0}
          @change=${(e: Event) => {
            const name = (e.target as HTMLSelectElement).value
            v.update({ ...s, sort: name ? { name, direction: s.sort?.direction ?? 'desc' } : null })
          }}
        >
          <option value="" ?selected=${!s.sort}>Automatic order</option>
          ${names.map((n) => html`<option value=${n.name} ?selected=${s.sort?.name === n.name}>Sort by ${labelOf(n.key)}</option>`)}
        </select>
      </div>
      <div>
        <label class="sr-only" for="bd-direction">Direction</label>
        <select
          id="bd-direction"
          class="bd-control"
          ?disabled=${!s.sort}
          @change=${(e: Event) =>
            s.sort &&
            v.update({
              ...s,
              sort: { name: s.sort.name, direction: (e.target as HTMLSelectElement).value as 'asc' | 'desc' },
            })}
        >
          <option value="desc" ?selected=${s.sort?.direction !== 'asc'}>Descending</option>
          <option value="asc" ?selected=${s.sort?.direction === 'asc'}>Ascending</option>
        </select>
      </div>
    </div>
    <div class="bd-row single">
      <div>
        <label class="bd-hint" for="bd-limit">Show at most (rows)</label>
        <input
          id="bd-limit"
          class="bd-control"
          inputmode="numeric"
          placeholder="No limit"
          autocomplete="off"
          aria-invalid=${limitProblem && s.limit ? 'true' : 'false'}
          aria-describedby=${limitProblem && s.limit ? 'bd-limit-error' : nothing}
          .value=${s.limit}
          @input=${(e: Event) => v.update({ ...s, limit: (e.target as HTMLInputElement).value })}
        />
      </div>
    </div>
    ${limitProblem && s.limit ? html`<p class="bd-item-error" id="bd-limit-error">${limitProblem.message}</p>` : nothing}
  </section>`
}
