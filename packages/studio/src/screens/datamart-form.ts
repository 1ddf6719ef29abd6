import type { DatasourceTables, IntrospectedTable } from '@strata/contract/studio'
import { html, nothing } from 'lit'
import type { DatamartTableInput, DatasourceItem } from '../api/client.js'
import { StudioError } from '../api/errors.js'
import { go, messageOf, StudioElement } from '../ui/base.js'
import { columnInputs, editStateOf, type TableChoice } from './datamart-edit.js'
import { guessRelationship, type Relationship, relationshipFields, relationshipInput } from './relationship-fields.js'
import { tableKey } from './table-key.js'

/** Column names proposed as the tenant column, most likely first (the author can change it). */
const TENANT_NAMES = [
  'tenant',
  'tenant_id',
  'client_id',
  'clientId',
  'client',
  'org_id',
  'organization_id',
  'account_id',
]

/**
 * `<studio-datamart-form>`: a new datamart, or an existing one (`editing`, its name) saved with
 * the datamart update route. Over one datasource: which tables it shows, the tenant
 * column of each (the column that says which customer a row belongs to), hidden columns and
 * labels, and the relationships that join its tables (FULL JOIN offered only where the
 * datasource's type has it; the server's refusal of a relationship is shown beside it).
 */
export class StudioDatamartForm extends StudioElement {
  static override properties = {
    preset: { attribute: false },
    editing: { attribute: false },
    datasources: { state: true },
    datasource: { state: true },
    tables: { state: true },
    picked: { state: true },
    relationships: { state: true },
    relationshipErrors: { state: true },
    fullJoin: { state: true },
    error: { state: true },
    busy: { state: true },
  }
  preset = ''
  /** The name of the datamart being edited; empty for a new one. */
  editing = ''
  datasources: DatasourceItem[] | undefined
  datasource = ''
  tables: DatasourceTables | undefined
  picked = new Map<string, TableChoice>()
  relationships: Relationship[] = []
  relationshipErrors = new Map<number, string>()
  /** The datasource type can run FULL JOIN (from the types list). */
  fullJoin = new Map<string, boolean>()
  private nextId = 1
  error = ''
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    this.api.datasourceTypes().then(
      (types) => {
        this.fullJoin = new Map(types.map((t) => [t.datasourceType, t.fullJoin]))
      },
      () => {}, // FULL JOIN stays offered; the server refuses it where it cannot run, beside the relationship
    )
    if (this.editing) {
      void this.loadEditing()
      return
    }
    this.api.datasources().then(
      (items) => {
        this.datasources = items
        const first = items.find((d) => d.name === this.preset) ?? items[0]
        if (first) void this.pickDatasource(first.name)
      },
      (err) => {
        this.error = messageOf(err)
      },
    )
  }

  /** An existing datamart: its datasource (which does not change), its tables, and what was set for them. */
  private async loadEditing(): Promise<void> {
    try {
      const [items, datasources] = await Promise.all([this.api.datamarts(), this.api.datasources()])
      const item = items.find((d) => d.name === this.editing)
      if (!item) {
        this.error = `There is no datamart named ${this.editing}: it was deleted or renamed.`
        this.datasources = datasources
        return
      }
      this.datasources = datasources.filter((d) => d.name === item.companyIntegration.name)
      this.datasource = item.companyIntegration.name
      this.tables = await this.api.datasourceTables(this.datasource)
      const state = editStateOf(item, () => this.nextId++)
      this.picked = state.picked
      this.relationships = state.relationships
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async pickDatasource(name: string): Promise<void> {
    this.datasource = name
    this.picked = new Map()
    this.relationships = []
    this.relationshipErrors = new Map()
    this.tables = undefined
    try {
      this.tables = await this.api.datasourceTables(name)
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private toggle(t: IntrospectedTable, on: boolean): void {
    const key = tableKey(t.schema, t.name)
    const next = new Map(this.picked)
    if (on) {
      const names = new Set(t.columns.map((c) => c.name))
      const tenant = TENANT_NAMES.find((n) => names.has(n)) ?? ''
      next.set(key, { label: '', clientColumn: tenant, hidden: new Set(), labels: new Map() })
    } else {
      next.delete(key)
      // a relationship cannot name a table the datamart no longer has
      this.relationships = this.relationships.filter((r) => r.leftTable !== key && r.rightTable !== key)
    }
    this.picked = next
  }

  private pickedTables(): IntrospectedTable[] {
    return (this.tables?.tables ?? []).filter((t) => this.picked.has(tableKey(t.schema, t.name)))
  }

  private addRelationship(): void {
    const r = guessRelationship(this.nextId++, this.pickedTables())
    this.relationships = [...this.relationships, r]
    void this.updateComplete.then(() => this.querySelector<HTMLElement>(`#rel-${r.id}-left-table`)?.focus())
  }

  private removeRelationship(id: number): void {
    const index = this.relationships.findIndex((r) => r.id === id)
    this.relationships = this.relationships.filter((r) => r.id !== id)
    this.relationshipErrors = new Map([...this.relationshipErrors].filter(([k]) => k !== id))
    void this.updateComplete.then(() => {
      const next = this.relationships[Math.min(index, this.relationships.length - 1)]
      this.querySelector<HTMLElement>(next ? `#rel-${next.id}-left-table` : '#add-relationship')?.focus()
    })
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    this.error = ''
    const name = String(new FormData(e.target as HTMLFormElement).get('name') ?? '')
    const tableList: DatamartTableInput[] = []
    for (const t of this.tables?.tables ?? []) {
      const choice = this.picked.get(tableKey(t.schema, t.name))
      if (!choice) continue
      tableList.push({
        schemaName: t.schema,
        name: t.name,
        ...(choice.label ? { label: choice.label } : {}),
        clientColumn: choice.clientColumn || null,
        ...(choice.stored?.isHide ? { isHide: true } : {}),
        columns: columnInputs(
          t.columns.map((c) => c.name),
          choice,
        ),
      })
    }
    if (tableList.length === 0) {
      this.error = 'Pick at least one table for the datamart.'
      return
    }
    this.busy = true
    this.relationshipErrors = new Map()
    try {
      const relationships = this.relationships.map(relationshipInput)
      if (this.editing) await this.api.updateDatamart({ datamartName: this.editing, tableList, relationships })
      else await this.api.createDatamart({ name, datasourceName: this.datasource, tableList, relationships })
      go(this.editing ? `datamarts?saved=${encodeURIComponent(this.editing)}` : 'datamarts')
    } catch (err) {
      this.error = messageOf(err)
      const at = err instanceof StudioError ? /^relationships\[(\d+)\]/.exec(err.field ?? '') : null
      const r = at ? this.relationships[Number(at[1])] : undefined
      if (r && err instanceof StudioError) {
        this.relationshipErrors = new Map([[r.id, err.apiMessage.replace(/^relationships\[\d+\]\./, '')]])
        await this.updateComplete
        this.querySelector<HTMLElement>(`#rel-${r.id}-left-table`)?.focus()
      }
    } finally {
      this.busy = false
    }
  }

  override render() {
    const heading = this.editing ? `Edit datamart ${this.editing}` : 'Create a datamart'
    return html`<h1 tabindex="-1">${heading}</h1>
      ${
        this.editing
          ? html`<p class="lead">Change its tables, tenant columns, hidden columns, labels and relationships. Saving checks them against the datasource's tables; dashboards on this datamart use the new model at once.</p>`
          : nothing
      }
      <p class="lead" ?hidden=${this.editing !== ''}>A datamart is the part of a datasource dashboards may use: the tables, the column that says which customer (tenant) each row belongs to, and how columns are named. Columns you hide are never offered to authors or end users.</p>
      <p><a href="#/datamarts">Back to datamarts</a></p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${
        this.datasources?.length === 0
          ? html`<div class="empty"><strong>Add a datasource first</strong><p>A datamart is built on a datasource's tables.</p>
              <a class="button primary" href="#/datasources/new">Add a datasource</a></div>`
          : this.renderForm()
      }`
  }

  private renderForm() {
    if (this.editing && this.tables === undefined) {
      return this.error
        ? html`<p><a href="#/datamarts">Back to the datamarts</a></p>`
        : html`<p role="status">Loading the datamart…</p>`
    }
    return html`<form @submit=${this.submit} aria-label=${this.editing ? `Edit datamart ${this.editing}` : 'New datamart'}>
      <div class="field"><label for="dm-name">Name</label> <span class="req" aria-hidden="true">*</span>
        <input id="dm-name" name="name" required maxlength="100" spellcheck="false" .value=${this.editing}
          ?readonly=${this.editing !== ''} aria-describedby=${this.editing ? 'dm-name-hint' : nothing} />
        ${this.editing ? html`<small id="dm-name-hint">The name and the datasource of a datamart do not change.</small>` : nothing}</div>
      <label class="field"><span>Datasource</span>
        <select ?disabled=${this.editing !== ''} @change=${(e: Event) => void this.pickDatasource((e.target as HTMLSelectElement).value)}>
          ${(this.datasources ?? []).map((d) => html`<option value=${d.name} ?selected=${d.name === this.datasource}>${d.name}</option>`)}
        </select></label>
      <fieldset><legend>Tables</legend>
        ${this.tables === undefined ? html`<p role="status">Loading the tables…</p>` : nothing}
        ${this.tables?.tables.length === 0 ? html`<p>This datasource has no table: sync it from its page.</p>` : nothing}
        ${(this.tables?.tables ?? []).map((t) => this.renderTable(t))}
      </fieldset>
      ${this.renderRelationships()}
      <div class="actions">
        <button class="primary" type="submit" ?disabled=${this.busy}>${
          this.busy ? 'Saving…' : this.editing ? 'Save changes' : 'Create the datamart'
        }</button>
        <a class="button" href="#/datamarts">Cancel</a>
      </div></form>`
  }

  private renderRelationships() {
    const tables = this.pickedTables()
    const type = this.datasources?.find((d) => d.name === this.datasource)?.datasourceType ?? ''
    return html`<section class="relationships" aria-labelledby="rel-heading">
      <h2 id="rel-heading">Relationships</h2>
      <p class="muted">How the tables join: a dashboard metric that uses columns of two tables joins them on these columns.</p>
      ${
        tables.length < 2 && this.relationships.length === 0
          ? html`<p class="empty-inline">Pick two or more tables above to join them.</p>`
          : nothing
      }
      ${this.relationships.map((r, index) =>
        relationshipFields({
          index,
          relationship: r,
          tables,
          fullJoin: this.fullJoin.get(type) ?? true,
          datasourceType: type,
          error: this.relationshipErrors.get(r.id),
          changed: () => {
            this.relationshipErrors = new Map([...this.relationshipErrors].filter(([k]) => k !== r.id))
            this.requestUpdate()
          },
          remove: () => this.removeRelationship(r.id),
        }),
      )}
      <button type="button" id="add-relationship" ?disabled=${tables.length === 0} @click=${this.addRelationship}>Add a relationship</button>
    </section>`
  }

  private renderTable(t: IntrospectedTable) {
    const key = tableKey(t.schema, t.name)
    const choice = this.picked.get(key)
    const id = key.replace(/[^A-Za-z0-9_-]/g, '_')
    return html`<div class="check"><input type="checkbox" id="t-${id}" ?checked=${choice !== undefined}
        @change=${(e: Event) => this.toggle(t, (e.target as HTMLInputElement).checked)} />
        <label for="t-${id}">${key} <span class="muted">(${t.columns.length} columns)</span></label></div>
      ${
        choice
          ? html`<fieldset><legend>${key}</legend>
          <label class="field"><span>Label</span><input .value=${choice.label} placeholder=${t.name}
            @input=${(e: Event) => {
              choice.label = (e.target as HTMLInputElement).value
            }} /></label>
          <div class="field"><label for="tenant-col-${id}">Tenant column</label>
            <select id="tenant-col-${id}" aria-describedby="tenant-${id}" @change=${(e: Event) => {
              choice.clientColumn = (e.target as HTMLSelectElement).value
              this.requestUpdate()
            }}>
              <option value="" ?selected=${choice.clientColumn === ''}>None: every tenant sees every row</option>
              ${t.columns.map((c) => html`<option value=${c.name} ?selected=${c.name === choice.clientColumn}>${c.name}</option>`)}
            </select>
            <small id="tenant-${id}">Rows are filtered to the tenant (clientId) of the guest token by this column.</small></div>
          <div class="table-wrap"><table class="columns"><caption class="sr-only">Columns of ${key}</caption>
            <thead><tr><th scope="col">Column</th><th scope="col">Label</th><th scope="col">Hidden</th></tr></thead>
            <tbody>${t.columns.map(
              (c) => html`<tr><td class="col-name">${c.name} <span class="tag">${c.dataType}</span></td>
                <td class="col-label"><input aria-label="Label of ${c.name}" placeholder=${c.name} .value=${choice.labels.get(c.name) ?? ''} @input=${(
                  e: Event,
                ) => {
                  choice.labels.set(c.name, (e.target as HTMLInputElement).value)
                }} /></td>
                <td class="col-hide"><label class="hide-col"><input type="checkbox" aria-label="Hide ${c.name}" ?checked=${choice.hidden.has(c.name)} @change=${(
                  e: Event,
                ) => {
                  if ((e.target as HTMLInputElement).checked) choice.hidden.add(c.name)
                  else choice.hidden.delete(c.name)
                }} /><span aria-hidden="true">Hidden</span></label></td></tr>`,
            )}</tbody></table></div></fieldset>`
          : nothing
      }`
  }
}
