import { html, nothing } from 'lit'
import type { DataAppItem, EmbedItem } from '../../api/client.js'
import { go, listView, messageOf, StudioElement } from '../../ui/base.js'

/** `<studio-embeds>`: a data app's embeds (pick the data app), with the way to create one. */
export class StudioEmbeds extends StudioElement {
  static override properties = {
    app: { type: String },
    apps: { state: true },
    items: { state: true },
    error: { state: true },
  }
  app = ''
  apps: DataAppItem[] | undefined
  items: EmbedItem[] | undefined
  error = ''

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      this.apps = await this.api.dataApps()
      if (!this.app || !this.apps.some((a) => a.name === this.app)) this.app = this.apps[0]?.name ?? ''
      this.items = this.app ? await this.api.embeds(this.app) : []
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  override render() {
    const noApp = this.apps !== undefined && this.apps.length === 0
    return html`<div class="head"><div><h1 tabindex="-1">Embeds</h1>
        <p class="lead">An embed publishes a dashboard, or one of its metrics, to your product's pages, with what its end users may do.</p></div>
        ${this.app ? html`<a class="button primary" href="#/embeds/new?app=${encodeURIComponent(this.app)}">Create embed</a>` : nothing}</div>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${
        noApp
          ? html`<div class="empty"><strong>No data app yet</strong><p>Embeds belong to a data app. <a href="#/data-apps">Create a data app</a> first.</p></div>`
          : html`${
              (this.apps?.length ?? 0) > 1
                ? html`<div class="field narrow"><label for="embeds-app">Data app</label>
                  <select id="embeds-app" @change=${(e: Event) => go(`embeds?app=${encodeURIComponent((e.target as HTMLSelectElement).value)}`)}>
                    ${this.apps?.map((a) => html`<option value=${a.name} ?selected=${a.name === this.app}>${a.name}</option>`)}
                  </select></div>`
                : nothing
            }
            ${listView({
              items: this.items,
              error: this.error,
              empty: html`<div class="empty"><strong>No embed in ${this.app} yet</strong>
                <p>Create one for a dashboard of a workspace; you then get the snippets for your pages.</p></div>`,
              caption: `Embeds of ${this.app}`,
              headers: ['Name', 'Shows', 'Embed id'],
              cells: (e) => [
                html`<a href="#/embeds/${encodeURIComponent(this.app)}/${encodeURIComponent(e.embedId)}">${e.name}</a>`,
                html`${e.externalMetric?.name ?? e.externalDashboard?.name ?? e.embedMetadata.dashboardId ?? ''}
                  <span class="tag">${e.embedType}</span>`,
                html`<code>${e.embedId}</code>`,
              ],
            })}`
      }`
  }
}
