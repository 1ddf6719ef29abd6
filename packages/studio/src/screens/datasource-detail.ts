import type { DatasourceTables } from '@strata/contract/studio'
import { html, nothing } from 'lit'
import { messageOf, StudioElement } from '../ui/base.js'
import { describeChanges, type SchemaChanges, schemaChanges } from './schema-changes.js'
import { tableKey } from './table-key.js'

/** The elapsed time of a sync in words: tenths of a second, then seconds. */
const seconds = (ms: number): string => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`)

/**
 * `<studio-datasource-detail>`: the tables and columns of one datasource, its edit link and its
 * sync. A sync is one request that reads the schema again (a fraction of a second on the engines
 * measured, even with 200 tables): the page shows an indeterminate progress with the elapsed
 * time while it runs, then what it found and what changed since the copy it had.
 */
export class StudioDatasourceDetail extends StudioElement {
  static override properties = {
    name: { attribute: false },
    saved: { attribute: false },
    detail: { state: true },
    error: { state: true },
    syncing: { state: true },
    elapsed: { state: true },
    result: { state: true },
  }
  name = ''
  saved = false
  detail: DatasourceTables | undefined
  error = ''
  syncing = false
  elapsed = 0
  result: { took: number; changes: SchemaChanges } | undefined
  private timer: ReturnType<typeof setInterval> | undefined

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearInterval(this.timer)
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
    this.result = undefined
    this.saved = false
    this.error = ''
    const started = performance.now()
    this.elapsed = 0
    this.timer = setInterval(() => {
      this.elapsed = performance.now() - started
    }, 100)
    try {
      const before = this.detail?.tables ?? (await this.api.datasourceTables(this.name)).tables
      await this.api.syncDatasource(this.name)
      const took = performance.now() - started
      const after = await this.api.datasourceTables(this.name)
      this.result = { took, changes: schemaChanges(before, after.tables) }
      this.detail = after
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      clearInterval(this.timer)
      this.syncing = false
    }
  }

  private renderResult() {
    if (!this.result) return nothing
    const { took, changes } = this.result
    const lines = describeChanges(changes)
    return html`<div class="notice ok" role="status" data-testid="sync-result">
      <strong>Synced ${this.name} in ${seconds(took)}: ${changes.tables} ${changes.tables === 1 ? 'table' : 'tables'}, ${changes.columns} columns.</strong>
      ${
        lines.length === 0
          ? html`<p>Nothing changed since the last sync.</p>`
          : html`<ul class="changes">${lines.map((l) => html`<li>${l}</li>`)}</ul>`
      }</div>`
  }

  override render() {
    const d = this.detail
    return html`<div class="head"><div><h1 tabindex="-1">${this.name}</h1>
        <p class="lead">${d ? html`<span class="tag">${d.datasourceType}</span> · ${d.tables.length} ${d.tables.length === 1 ? 'table' : 'tables'}, read ${new Date(d.updatedAt).toLocaleString()}` : nothing}</p></div>
        <div class="actions">
          <button @click=${this.sync} ?disabled=${this.syncing} aria-describedby="sync-hint">${this.syncing ? 'Syncing…' : 'Sync tables'}</button>
          <a class="button" href="#/datasources/${encodeURIComponent(this.name)}?edit">Edit connection</a>
          <a class="button primary" href="#/datamarts/new?datasource=${encodeURIComponent(this.name)}">Create a datamart</a>
        </div></div>
      <p><a href="#/datasources">Back to datasources</a></p>
      <p class="sr-only" id="sync-hint">Reads the tables and columns from the database again, after a table was created or changed.</p>
      <div class="sync-area">
        ${
          this.syncing
            ? html`<div class="notice info sync-progress"><p role="status">Reading the tables again from the database…</p>
                <progress aria-label="Sync in progress"></progress>
                <span class="muted" data-testid="sync-elapsed">${seconds(this.elapsed)} elapsed</span></div>`
            : nothing
        }
        ${this.renderResult()}
        ${this.saved ? html`<p class="notice ok" role="status">Saved: the connection was tested and the tables read again.</p>` : nothing}
      </div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${
        d === undefined
          ? nothing
          : d.tables.length === 0
            ? html`<div class="empty"><strong>No table found</strong>
                <p>Check the schema or database in the credentials and that the user may read it, then sync.</p></div>`
            : d.tables.map(
                (t) => html`<h2>${tableKey(t.schema, t.name)}</h2>
                  <div class="table-wrap"><table><caption class="sr-only">Columns of ${tableKey(t.schema, t.name)}</caption>
                  <thead><tr><th scope="col">Column</th><th scope="col">Type</th><th scope="col">In the database</th></tr></thead>
                  <tbody>${t.columns.map(
                    (c) =>
                      html`<tr><td>${c.name}</td><td><span class="tag">${c.dataType}</span></td><td class="muted">${c.nativeType ?? ''}</td></tr>`,
                  )}</tbody></table></div>`,
              )
      }`
  }
}
