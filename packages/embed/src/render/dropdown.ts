import { html, nothing, type TemplateResult } from 'lit'
import { rovingIndex } from '../lib/roving-focus.js'
import type { Menus } from '../menu-controller.js'
import { checkIcon, chevronIcon } from './icons.js'

/**
 * The element's one dropdown style, for every filter that picks from a list (no native
 * `<select>` or `<datalist>`, whose popups the page cannot style): a trigger button showing the
 * value and a chevron, and a panel of options under it.
 *
 * - `selectBox`: a fixed list (date presets, Any/Yes/No), the WAI-ARIA "select-only combobox":
 *   focus stays on the trigger (`role="combobox"`, `aria-activedescendant`); ↓/↑ open it and move,
 *   Home/End, a letter jumps to the next option starting with it, Enter or Space picks, Escape closes.
 * - `searchBox`: values with a search box (multi-select and single-select filters): the trigger
 *   opens the panel and focuses the search box (`role="combobox"` over a `role="listbox"`); ↓/↑
 *   move through the matches, Enter picks the highlighted one (multi: toggles it) or, with none
 *   highlighted, the typed text; Escape closes and focus returns to the trigger.
 *
 * Both close when focus or the pointer leaves them.
 */

export interface Option {
  readonly value: string
  readonly label: string
}

export interface SelectArgs {
  /** The trigger's element id, also the popup's key. */
  readonly id: string
  /** The id of the field's visible label. */
  readonly labelId: string
  readonly options: readonly Option[]
  readonly value: string
  /** Shown muted (e.g. "Any"). */
  readonly placeholder?: boolean
  /** Extra CSS part names of the wrapper. */
  readonly part?: string
  onSelect(value: string): void
}

const optionId = (id: string, i: number) => `${id}-option-${i}`

/**
 * Closes the popup when focus leaves `wrapper`. Checked after the render that may follow (a
 * button that re-rendered, focus moved back into the panel on purpose), so only a real leave closes.
 */
const closeOnLeave = (menus: Menus, id: string) => (e: FocusEvent) => {
  const wrapper = e.currentTarget as HTMLElement
  const next = e.relatedTarget as Node | null
  if (next && wrapper.contains(next)) return
  setTimeout(() => {
    const active = (wrapper.getRootNode() as Document | ShadowRoot).activeElement
    if (menus.isOpen(id) && !(active && wrapper.contains(active))) menus.close(false)
  })
}

/** The index after `from` (wrapping) whose label starts with `key`, or -1. */
function typeahead(options: readonly Option[], from: number, key: string): number {
  const k = key.toLowerCase()
  for (let step = 1; step <= options.length; step++) {
    const i = (from + step + options.length) % options.length
    if (options[i]?.label.toLowerCase().startsWith(k)) return i
  }
  return -1
}

const trigger = (text: string, muted: boolean) =>
  html`<span class="value ${muted ? 'placeholder' : ''}">${text}</span>${chevronIcon}`

export function selectBox(menus: Menus, a: SelectArgs): TemplateResult {
  const open = menus.isOpen(a.id)
  const selected = a.options.findIndex((o) => o.value === a.value)
  const listId = `${a.id}-list`
  const openAt = (i: number) => menus.show(a.id, Math.max(0, i))
  const choose = (i: number) => {
    const o = a.options[i]
    menus.close(true)
    if (o && o.value !== a.value) a.onSelect(o.value)
  }
  const onKey = (e: KeyboardEvent) => {
    const at = open ? menus.active : selected
    const go = (i: number) => (open ? menus.move(i) : openAt(i))
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        e.preventDefault()
        return e.altKey || !open ? openAt(selected) : go(rovingIndex(e.key, at, a.options.length, false))
      case 'Home':
      case 'End':
        if (!open) return
        e.preventDefault()
        return go(rovingIndex(e.key, at, a.options.length, false))
      case 'Enter':
      case ' ':
        e.preventDefault()
        return open ? choose(menus.active) : openAt(selected)
      case 'Escape':
        if (!open) return
        e.preventDefault()
        e.stopPropagation()
        return menus.close(true)
      case 'Tab':
        if (open) menus.close(false)
        return
      default:
        if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
          const i = typeahead(a.options, at, e.key)
          if (i >= 0) go(i)
        }
    }
  }
  const current = a.options[selected]
  return html`<div class="dd" part="dropdown ${a.part ?? ''}" data-menu=${a.id} @focusout=${closeOnLeave(menus, a.id)}>
    <button
      type="button"
      id=${a.id}
      class="control dd-trigger"
      part="filter-control"
      role="combobox"
      aria-haspopup="listbox"
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${listId}
      aria-labelledby="${a.labelId} ${a.id}"
      aria-activedescendant=${open && menus.active >= 0 ? optionId(a.id, menus.active) : nothing}
      @click=${() => (open ? menus.close(true) : openAt(selected))}
      @keydown=${onKey}
    >
      ${trigger(current?.label ?? a.value, a.placeholder === true)}
    </button>
    <ul class="dd-panel" part="dropdown-panel" role="listbox" id=${listId} aria-labelledby=${a.labelId} tabindex="-1" ?hidden=${!open}>
      ${a.options.map(
        (o, i) =>
          html`<li
            id=${optionId(a.id, i)}
            class="option"
            part="dropdown-option"
            role="option"
            aria-selected=${i === selected ? 'true' : 'false'}
            ?data-active=${open && i === menus.active}
            @pointerdown=${(e: Event) => e.preventDefault()}
            @pointermove=${() => menus.move(i)}
            @click=${() => choose(i)}
          >
            <span class="option-label">${o.label}</span>${i === selected ? checkIcon : nothing}
          </li>`,
      )}
    </ul>
  </div>`
}

export interface SearchArgs {
  readonly id: string
  readonly labelId: string
  /** The field's label, for the search box's name. */
  readonly label: string
  /** Pick several (checkbox-like options) or one (picking closes the panel). */
  readonly multiple: boolean
  /** The values on offer (already filtered by the search text). */
  readonly options: readonly string[]
  readonly selected: readonly string[]
  /** The trigger's text. */
  readonly summary: string
  readonly search: string
  readonly part?: string
  /** The chosen values as removable chips (multi), when the pickers' module is loaded. */
  readonly chips?: TemplateResult | undefined
  /** Values are on their way from the server. */
  readonly loading?: boolean
  /** Asks for more values (the list scrolled, or ↓ pressed, at its end); absent when there are no more. */
  readonly onMore?: (() => void) | undefined
  setSearch(text: string): void
  /** The new selection (multi: the whole list; single: one value or none). */
  onChange(values: readonly string[]): void
}

export function searchBox(menus: Menus, a: SearchArgs): TemplateResult {
  const open = menus.isOpen(a.id)
  const listId = `${a.id}-list`
  const searchId = `${a.id}-search`
  const chosen = new Set(a.selected)
  const typed = a.search.trim()
  const exact = a.options.some((o) => o.toLowerCase() === typed.toLowerCase())
  const pick = (value: string) => {
    if (a.multiple) {
      a.onChange(chosen.has(value) ? a.selected.filter((s) => s !== value) : [...a.selected, value])
      return
    }
    a.onChange([value])
    a.setSearch('')
    menus.close(true)
  }
  const addTyped = () => {
    if (!typed) return
    if (a.multiple) {
      if (!chosen.has(typed)) a.onChange([...a.selected, typed])
      a.setSearch('')
    } else pick(typed)
  }
  const openPanel = () => menus.show(a.id, -1, searchId)
  const onTriggerKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      openPanel()
    } else if (e.key === 'Escape' && open) {
      e.preventDefault()
      menus.close(true)
    }
  }
  const onSearchKey = (e: KeyboardEvent) => {
    const last = a.options.length - 1
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault()
        if (menus.active >= last - 1) a.onMore?.()
        return menus.move(Math.min(last, menus.active + 1))
      case 'ArrowUp':
        e.preventDefault()
        return menus.move(Math.max(-1, menus.active - 1))
      case 'Enter': {
        e.preventDefault()
        const option = a.options[menus.active]
        return option !== undefined ? pick(option) : addTyped()
      }
      case 'Escape':
        // also keeps the search box's own Escape (clear) from running: Escape closes
        e.preventDefault()
        e.stopPropagation()
        return menus.close(true)
    }
  }
  return html`<div class="dd" part="dropdown ${a.part ?? ''}" data-menu=${a.id} @focusout=${closeOnLeave(menus, a.id)}>
    <button
      type="button"
      id=${a.id}
      class="control dd-trigger"
      part="filter-control"
      aria-haspopup="listbox"
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${listId}
      aria-labelledby="${a.labelId} ${a.id}"
      @click=${() => (open ? menus.close(true) : openPanel())}
      @keydown=${onTriggerKey}
    >
      ${trigger(a.summary, a.selected.length === 0)}
    </button>
    <div class="dd-panel search" part="dropdown-panel ${a.multiple ? 'multi-select-panel' : ''}" tabindex="-1" ?hidden=${!open}>
      ${a.multiple && a.selected.length > 0 ? (a.chips ?? nothing) : nothing}
      <input
        id=${searchId}
        class="control"
        type="search"
        role="combobox"
        autocomplete="off"
        placeholder="Search or type a value"
        aria-label="Search or add ${a.label}"
        aria-expanded="true"
        aria-controls=${listId}
        aria-autocomplete="list"
        aria-activedescendant=${menus.active >= 0 && open ? optionId(a.id, menus.active) : nothing}
        .value=${a.search}
        @input=${(e: Event) => {
          a.setSearch((e.target as HTMLInputElement).value)
          menus.move(-1)
        }}
        @keydown=${onSearchKey}
      />
      <ul
        class="dd-options"
        role="listbox"
        id=${listId}
        aria-labelledby=${a.labelId}
        aria-multiselectable=${a.multiple ? 'true' : 'false'}
        aria-busy=${a.loading ? 'true' : 'false'}
        @scroll=${(e: Event) => {
          const list = e.currentTarget as HTMLElement
          if (list.scrollTop + list.clientHeight >= list.scrollHeight - 32) a.onMore?.()
        }}
      >
        ${a.options.map(
          (o, i) =>
            html`<li
              id=${optionId(a.id, i)}
              class="option ${a.multiple ? 'check' : ''}"
              part="dropdown-option"
              role="option"
              aria-selected=${chosen.has(o) ? 'true' : 'false'}
              ?data-active=${open && i === menus.active}
              @pointerdown=${(e: Event) => e.preventDefault()}
              @pointermove=${() => menus.move(i)}
              @click=${() => pick(o)}
            >
              ${a.multiple ? html`<span class="box" aria-hidden="true">${chosen.has(o) ? checkIcon : nothing}</span>` : nothing}
              <span class="option-label">${o}</span>${!a.multiple && chosen.has(o) ? checkIcon : nothing}
            </li>`,
        )}
      </ul>
      ${
        a.loading
          ? html`<p class="hint" role="status">Loading values…</p>`
          : a.options.length === 0
            ? html`<p class="hint">${typed ? 'No match: press Enter to use it.' : 'No values yet: type one and press Enter.'}</p>`
            : nothing
      }
      <div class="dd-footer">
        ${
          typed && !exact
            ? html`<button
                type="button"
                class="button subtle"
                @click=${() => {
                  addTyped()
                  if (a.multiple) menus.show(a.id, -1, searchId)
                }}
              >
                ${a.multiple ? 'Add' : 'Use'} “${typed}”
              </button>`
            : html`<span></span>`
        }
        <button type="button" class="button subtle" ?disabled=${!a.selected.length} @click=${() => a.onChange([])}>
          Clear
        </button>
      </div>
    </div>
  </div>`
}
