import { html, nothing } from 'lit'
import type { DatamartItem } from '../api/client.js'
import { listView, messageOf, StudioElement } from '../ui/base.js'

/** `<studio-datamarts>`: the organization's datamarts with their tables and tenant columns. */
export class StudioDatamarts extends StudioElement {
  static override properties = { items: { state: true }, error: { state: true } }
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
      ${listView({
        items: this.items,
        error: this.error,
        empty: html`<div class="empty"><strong>No datamart yet</strong>
                <p>Create one from a datasource's tables, and say which column holds the tenant.</p>
                <a class="button primary" href="#/datamarts/new">Create a datamart</a></div>`,
        caption: 'Datamarts',
        headers: ['Name', 'Datasource', 'Tables (tenant column)'],
        row: (d) => html`<tr><td>${d.name}</td><td>${d.companyIntegration.name}</td>
                    <td>${(d.datamartTables ?? []).map(
                      (t) =>
                        html`<div>${t.schemaName}.${t.tableName} <span class="muted">(${t.clientColumn ?? 'no tenant column'})</span></div>`,
                    )}</td></tr>`,
      })}`
  }
}
