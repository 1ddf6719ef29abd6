import { html, nothing } from 'lit'
import type { DatasourceItem } from '../api/client.js'
import { listView, messageOf, StudioElement } from '../ui/base.js'

/** `<studio-datasources>`: the organization's datasources, or what to do when there is none. */
export class StudioDatasources extends StudioElement {
  static override properties = { items: { state: true }, error: { state: true } }
  items: DatasourceItem[] | undefined
  error = ''

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    this.api.datasources().then(
      (items) => {
        this.items = items
      },
      (err) => {
        this.error = messageOf(err)
      },
    )
  }

  override render() {
    return html`<div class="head"><div><h1 tabindex="-1">Datasources</h1>
        <p class="lead">The databases and warehouses Strata reads. Credentials are stored encrypted and never shown again.</p></div>
        <a class="button primary" href="#/datasources/new">Add a datasource</a></div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${listView({
        items: this.items,
        error: this.error,
        empty: html`<div class="empty"><strong>No datasource yet</strong>
                <p>Connect your first database: Strata tests the connection and reads its tables.</p>
                <a class="button primary" href="#/datasources/new">Add a datasource</a></div>`,
        caption: 'Datasources',
        headers: ['Name', 'Type', 'Added'],
        cells: (d) => [
          html`<a href="#/datasources/${encodeURIComponent(d.name)}">${d.name}</a>`,
          html`<span class="tag">${d.datasourceType}</span>`,
          html`<span class="muted">${new Date(d.createdAt).toLocaleString()}</span>`,
        ],
      })}`
  }
}
