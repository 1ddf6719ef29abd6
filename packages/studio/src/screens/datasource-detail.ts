import type { DatasourceTables } from '@strata/contract/studio'
import { html, nothing } from 'lit'
import { messageOf, StudioElement } from '../ui/base.js'

/** `<studio-datasource-detail>`: the tables and columns of one datasource, and its sync. */
export class StudioDatasourceDetail extends StudioElement {
  static override properties = {
    name: { attribute: false },
    detail: { state: true },
    error: { state: true },
    syncing: { state: true },
    synced: { state: true },
  }
  name = ''
  detail: DatasourceTables | undefined
  error = ''
  syncing = false
  synced = ''

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      this.detail = await this.api.datasourceTables(this.name)
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async sync(): Promise<void> {
    this.syncing = true
    this.synced = ''
    this.error = ''
    try {
      this.synced = (await this.api.syncDatasource(this.name)).data.message
      await this.load()
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.syncing = false
    }
  }

  override render() {
    const d = this.detail
    return html`<div class="head"><div><h1 tabindex="-1">${this.name}</h1>
        <p class="lead">${d ? html`<span class="tag">${d.datasourceType}</span> · ${d.tables.length} tables, read ${new Date(d.updatedAt).toLocaleString()}` : nothing}</p></div>
        <div class="actions">
          <button @click=${this.sync} ?disabled=${this.syncing}>${this.syncing ? 'Syncing…' : 'Sync tables'}</button>
          <a class="button primary" href="#/datamarts/new?datasource=${encodeURIComponent(this.name)}">Create a datamart</a>
        </div></div>
      <p><a href="#/datasources">Back to datasources</a></p>
      <div aria-live="polite">
        ${this.syncing ? html`<p class="notice info" role="status">Reading the tables again from the database…</p>` : nothing}
        ${this.synced ? html`<p class="notice ok" role="status">${this.synced}</p>` : nothing}
      </div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${
        d === undefined
          ? nothing
          : d.tables.length === 0
            ? html`<div class="empty"><strong>No table found</strong>
                <p>Check the schema or database in the credentials and that the user may read it, then sync.</p></div>`
            : d.tables.map(
                (t) => html`<h2>${t.schema}.${t.name}</h2>
                  <div class="table-wrap"><table><caption class="sr-only">Columns of ${t.schema}.${t.name}</caption>
                  <thead><tr><th scope="col">Column</th><th scope="col">Type</th><th scope="col">In the database</th></tr></thead>
                  <tbody>${t.columns.map(
                    (c) =>
                      html`<tr><td>${c.name}</td><td><span class="tag">${c.dataType}</span></td><td class="muted">${c.nativeType ?? ''}</td></tr>`,
                  )}</tbody></table></div>`,
              )
      }`
  }
}
