import { html, nothing } from 'lit'
import type { DatamartItem } from '../api/client.js'
import { listView, messageOf, StudioElement } from '../ui/base.js'
import { tableKey } from './table-key.js'

/** `<studio-datamarts>`: the organization's datamarts with their tables and tenant columns, each with a link to edit it. */
export class StudioDatamarts extends StudioElement {
  static override properties = { saved: { attribute: false }, items: { state: true }, error: { state: true } }
  /** The datamart just saved by its edit form (a status line says so). */
  saved = ''
  items: DatamartItem[] | undefined
  error = ''

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    this.api.datamarts().then(
      (items) => {
        this.items = items
      },
      (err) => {
        this.error = messageOf(err)
      },
    )
  }

  override render() {
    return html`<div class="head"><div><h1 tabindex="-1">Datamarts</h1>
        <p class="lead">The tables of a datasource that dashboards may use, with the column that keeps each tenant to its own rows.</p></div>
        <a class="button primary" href="#/datamarts/new">Create a datamart</a></div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${this.saved ? html`<p class="notice info" role="status">Datamart <strong>${this.saved}</strong> saved.</p>` : nothing}
      ${listView({
        items: this.items,
        error: this.error,
        empty: html`<div class="empty"><strong>No datamart yet</strong>
                <p>Create one from a datasource's tables, and say which column holds the tenant.</p>
                <a class="button primary" href="#/datamarts/new">Create a datamart</a></div>`,
        caption: 'Datamarts',
        headers: ['Name', 'Datasource', 'Tables (tenant column)', 'Relationships'],
        cells: (d) => [
          html`<a href="#/datamarts/${encodeURIComponent(d.name)}" aria-label="Edit datamart ${d.name}">${d.name}</a>`,
          d.companyIntegration.name,
          html`<div class="cell-value">${(d.datamartTables ?? []).map(
            (t) =>
              html`<div>${tableKey(t.schemaName, t.tableName)} <span class="muted">(${t.clientColumn ?? 'no tenant column'})</span></div>`,
          )}</div>`,
          relationships((d.datamartRelationships ?? []).length),
        ],
      })}`
  }
}

/** The relationships cell says what it counts: it reads alone when a narrow screen stacks the row. */
const relationships = (n: number) =>
  n === 0 ? html`<span class="muted">No relationship</span>` : `${n} relationship${n === 1 ? '' : 's'}`
