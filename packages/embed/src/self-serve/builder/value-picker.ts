import { html, type LitElement, type ReactiveController, type TemplateResult } from 'lit'
import type { RuntimeClient } from '../../api/client.js'
import { MenuController } from '../../menu-controller.js'
import type { FilterOptions } from '../../pickers.js'
import { searchBox } from '../../render/dropdown.js'
import type { FilterItem } from './builder-state.js'

type Pickers = typeof import('../../pickers.js')

/** Conditions whose value is picked from the column's values (text columns); the others stay typed. */
const PICKED = new Set<FilterItem['operator']>(['in', 'not-in', 'eq', 'neq'])

/** Whether a builder filter on a column of this kind takes its value from a picker. */
export const pickedFilter = (kind: string, f: FilterItem): boolean => kind === 'text' && PICKED.has(f.operator)

/** The values of an `in`/`not-in` filter, as the builder keeps them (comma-separated). */
export const listOf = (value: string): readonly string[] =>
  value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)

/**
 * The builder's filter values picked from the column's distinct values for this tenant, with the
 * dashboard's searchable combobox (render/dropdown.ts searchBox): the values come from the runtime's
 * `GET …/model/columns/:table/:column/values` through the pickers' module (pickers.ts, loaded the
 * first time a picker is drawn), searched and paged by the server. Typing a value and pressing
 * Enter still takes it as typed.
 */
export class BuilderValues implements ReactiveController {
  readonly menus: MenuController
  private pickers: Pickers | undefined
  private loading = false
  /** The pickers' module could not load: typed values only. */
  private failed = false
  private values: { readonly client: RuntimeClient; readonly options: FilterOptions } | undefined
  /** The search text of each filter's picker (by the filter's key). */
  private readonly search = new Map<number, string>()
  /**
   * The picker open at the last render: what its panel holds (values, chips, loading), and what
   * it held when it was last brought into view. Values arriving after the panel opened, or a chip
   * row appearing over the list, grow it past the builder's foot: it is brought into view again.
   */
  private shown: { readonly id: string; holds: string; scrolledFor: string | undefined } | undefined

  constructor(
    private readonly host: LitElement,
    private readonly client: () => RuntimeClient | undefined,
  ) {
    this.menus = new MenuController(host)
    host.addController(this)
  }

  /** A picker just opened, or its panel grew: it is brought into the builder's view (its column scrolls). */
  hostUpdated(): void {
    if (!this.shown || this.shown.scrolledFor === this.shown.holds) return
    this.shown.scrolledFor = this.shown.holds
    this.host.renderRoot
      .querySelector(`#${CSS.escape(this.shown.id)}-list`)
      ?.parentElement?.scrollIntoView({ block: 'nearest' })
  }

  /** A builder opened afresh: no search text, no picker open. */
  reset(): void {
    this.search.clear()
    this.menus.close(false)
  }

  /** The value control of filter `f` on `column` of `table` (schema.table, as the model names it). */
  render(
    f: FilterItem,
    table: string,
    column: string,
    label: string,
    onChange: (value: string) => void,
  ): TemplateResult {
    const id = `bd-filter-${f.key}-value`
    const multiple = f.operator === 'in' || f.operator === 'not-in'
    const selected = multiple ? listOf(f.value) : f.value.trim() ? [f.value.trim()] : []
    const search = this.search.get(f.key) ?? ''
    const name = JSON.stringify([table, column])
    const options = this.options()
    const open = this.menus.isOpen(id)
    if (open && this.shown?.id !== id) this.shown = { id, holds: '', scrolledFor: undefined }
    else if (!open && this.shown?.id === id) this.shown = undefined
    if (open) options?.want(name, search)
    const page = options?.get(name, search)
    const offered = page?.values ?? []
    if (open && this.shown) this.shown.holds = `${offered.length} ${selected.length} ${page?.loading === true}`
    const change = (values: readonly string[]) => onChange(multiple ? values.join(', ') : (values[0] ?? ''))
    // Escape closes an open picker, not the builder around it
    const onKey = {
      handleEvent: (e: KeyboardEvent) => {
        if (e.key !== 'Escape' || !this.menus.isOpen(id)) return
        e.preventDefault()
        e.stopPropagation()
        this.menus.close(true)
      },
      capture: true,
    }
    return html`<div class="bd-value" @keydown=${onKey}>
      ${searchBox(this.menus, {
        id,
        labelId: `bd-filter-${f.key}-label`,
        label,
        multiple,
        options: [...selected.filter((v) => !offered.includes(v)), ...offered],
        selected,
        summary: selected.length ? selected.join(', ') : multiple ? 'Choose values' : 'Choose a value',
        search,
        part: 'builder-value',
        setSearch: (text) => {
          this.search.set(f.key, text)
          this.options()?.want(name, text, true)
          this.host.requestUpdate()
        },
        loading: open && !this.failed && (!this.pickers || page?.loading === true),
        chips: multiple ? this.pickers?.chips(selected, change) : undefined,
        onMore: page?.next ? () => options?.more(name, search) : undefined,
        onChange: change,
      })}
    </div>`
  }

  /** The values through the current client (the pickers' module is asked for the first time). */
  private options(): FilterOptions | undefined {
    const client = this.client()
    if (!client) return undefined
    if (!this.pickers) {
      this.load()
      return undefined
    }
    if (this.values?.client !== client) {
      const { FilterOptions, columnValuesPath } = this.pickers
      this.values = {
        client,
        options: new FilterOptions(
          () => client,
          () => this.host.requestUpdate(),
          (name) => {
            const [table, column] = JSON.parse(name) as [string, string]
            return columnValuesPath(table, column)
          },
        ),
      }
    }
    return this.values.options
  }

  private load(): void {
    if (this.loading) return
    this.loading = true
    import('../../pickers.js')
      .then((mod) => {
        this.pickers = mod
        this.host.requestUpdate()
      })
      .catch(() => {
        // without the module, the picker takes typed values only
        this.failed = true
        this.host.requestUpdate()
      })
  }
}
