import type { DashboardFilter, FilterType } from '@strata/contract/document'
import { html, nothing } from 'lit'
import type { DashboardDocument } from '../api/dashboards.js'
import { messageOf, StudioElement } from '../ui/base.js'
import type { StudioDashboard } from './dashboard-editor.js'
import { tableKey } from './table-key.js'

const TYPES: readonly { type: FilterType; label: string; hint: string }[] = [
  { type: 'multi-select', label: 'Several values', hint: 'Comma-separated, e.g. paid, shipped.' },
  { type: 'single-select', label: 'One value', hint: 'One value, e.g. paid.' },
  { type: 'date-range', label: 'Date range', hint: 'A preset, e.g. Last 30 days.' },
  { type: 'number-range', label: 'Number range', hint: 'min-max, e.g. 10-500.' },
  { type: 'boolean', label: 'Yes / no', hint: 'true or false.' },
  { type: 'text', label: 'Text search', hint: 'Text the column contains.' },
]

/** A column a filter may read: `schema.table` and the column. */
interface ColumnChoice {
  readonly table: string
  readonly column: string
}

/**
 * `<studio-dashboard-filters>`: the document's dashboard filters as rows of a form (name, label,
 * column, type, default), written into the document with PUT.
 */
export class StudioDashboardFilters extends StudioElement {
  static override properties = {
    doc: { attribute: false },
    rows: { state: true },
    columns: { state: true },
    error: { state: true },
    notice: { state: true },
    busy: { state: true },
  }
  editor!: StudioDashboard
  doc!: DashboardDocument
  rows: DashboardFilter[] = []
  columns: ColumnChoice[] = []
  error = ''
  notice = ''
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.rows = [...(this.doc.filters ?? [])]
    void this.loadColumns()
  }

  /** The columns of the workspace's datamart tables (from the datasource's tables as last read). */
  private async loadColumns(): Promise<void> {
    try {
      const [workspaces, marts] = await Promise.all([this.api.workspaces(), this.api.datamarts()])
      const mart = marts.find(
        (m) => m.name === workspaces.find((w) => w.name === this.editor.workspaceName)?.datamartName,
      )
      if (!mart) return
      const tables = await this.api.datasourceTables(mart.companyIntegration.name)
      const chosen = new Set((mart.datamartTables ?? []).map((t) => tableKey(t.schemaName, t.tableName)))
      this.columns = tables.tables
        .filter((t) => chosen.size === 0 || chosen.has(tableKey(t.schema, t.name)))
        .flatMap((t) => t.columns.map((c) => ({ table: tableKey(t.schema, t.name), column: c.name })))
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private add(): void {
    const first = this.columns[0]
    this.rows = [
      ...this.rows,
      {
        name: `filter_${this.rows.length + 1}`,
        type: 'multi-select',
        table: first?.table ?? '',
        column: first?.column ?? '',
      },
    ]
    void this.updateComplete.then(() =>
      this.querySelector<HTMLInputElement>(`#flt-name-${this.rows.length - 1}`)?.focus(),
    )
  }

  private removeRow(i: number): void {
    this.rows = this.rows.filter((_, j) => j !== i)
  }

  private async save(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const data = new FormData(e.target as HTMLFormElement)
    const filters: DashboardFilter[] = this.rows.map((_, i) => {
      const [table = '', column = ''] = String(data.get(`column-${i}`) ?? '').split('|')
      const type = String(data.get(`type-${i}`)) as FilterType
      const label = String(data.get(`label-${i}`) ?? '').trim()
      const def = parseDefault(type, String(data.get(`default-${i}`) ?? '').trim())
      return {
        name: String(data.get(`name-${i}`) ?? '').trim(),
        ...(label ? { label } : {}),
        type,
        table,
        column,
        ...(def !== undefined ? { default: def } : {}),
      }
    })
    this.busy = true
    this.error = ''
    this.notice = ''
    try {
      await this.editor.write({ ...this.doc, filters }, 'Filters saved.')
      this.rows = filters
      this.notice = `Saved: ${filters.length} filter${filters.length === 1 ? '' : 's'}.`
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.busy = false
    }
  }

  override render() {
    return html`<h2>Filters</h2>
      <p class="lead">Filters apply to every metric that reads their table. End users change them in the filter bar; the default applies until they do.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${this.notice ? html`<p class="notice ok" role="status">${this.notice}</p>` : nothing}
      <form @submit=${this.save} aria-label="Dashboard filters" class="wide">
        ${
          this.rows.length === 0
            ? html`<div class="empty"><strong>No filter yet</strong><p>Add one: pick the column it filters and how end users choose values.</p></div>`
            : this.rows.map((f, i) => this.row(f, i))
        }
        <div class="actions">
          <button type="button" @click=${this.add}>Add a filter</button>
          <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Saving…' : 'Save filters'}</button>
        </div>
      </form>`
  }

  private row(f: DashboardFilter, i: number) {
    const current = `${f.table}|${f.column}`
    const known = this.columns.some((c) => `${c.table}|${c.column}` === current)
    return html`<fieldset class="filter-row"><legend>Filter ${i + 1}</legend>
      <div class="grid">
        <div class="field"><label for="flt-name-${i}">Name</label>
          <input id="flt-name-${i}" name="name-${i}" required pattern="[A-Za-z_][A-Za-z0-9_]*" .value=${f.name} spellcheck="false" /></div>
        <div class="field"><label for="flt-label-${i}">Label</label>
          <input id="flt-label-${i}" name="label-${i}" .value=${f.label ?? ''} /></div>
        <div class="field"><label for="flt-col-${i}">Column</label>
          <select id="flt-col-${i}" name="column-${i}" required>
            ${known || !f.column ? nothing : html`<option value=${current} selected>${f.table}.${f.column}</option>`}
            ${this.columns.map((c) => html`<option value="${c.table}|${c.column}" ?selected=${`${c.table}|${c.column}` === current}>${c.table}.${c.column}</option>`)}
          </select></div>
        <div class="field"><label for="flt-type-${i}">Type</label>
          <select id="flt-type-${i}" name="type-${i}">
            ${TYPES.map((t) => html`<option value=${t.type} ?selected=${t.type === f.type}>${t.label} (${t.type})</option>`)}
          </select></div>
        <div class="field"><label for="flt-def-${i}">Default</label>
          <input id="flt-def-${i}" name="default-${i}" .value=${showDefault(f.default)} aria-describedby="flt-def-hint-${i}" />
          <small id="flt-def-hint-${i}">Optional. ${TYPES.find((t) => t.type === f.type)?.hint ?? ''}</small></div>
      </div>
      <button type="button" class="link" @click=${() => this.removeRow(i)} aria-label="Remove filter ${i + 1} (${f.name})">Remove</button>
    </fieldset>`
  }
}

/** The default as typed into its box (comma-separated lists, min-max ranges, else the value or JSON). */
export function showDefault(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value)) return value.join(', ')
  if (typeof value === 'object') {
    const r = value as { min?: number; max?: number }
    if ('min' in r || 'max' in r) return `${r.min ?? ''}-${r.max ?? ''}`
    return JSON.stringify(value)
  }
  return String(value)
}

/** What a default box holds, as the document keeps it for the type; undefined when empty. */
export function parseDefault(type: FilterType, text: string): unknown {
  if (!text) return undefined
  if (text.startsWith('{') || text.startsWith('[')) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  switch (type) {
    case 'multi-select':
      return text
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    case 'boolean':
      return text === 'true'
    case 'number-range': {
      const [min, max] = text.split('-').map((v) => v.trim())
      return { ...(min ? { min: Number(min) } : {}), ...(max ? { max: Number(max) } : {}) }
    }
    default:
      return text
  }
}
