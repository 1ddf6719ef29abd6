import { html, nothing } from 'lit'
import type { DatamartItem, WorkspaceItem } from '../api/client.js'
import { listView, messageOf, StudioElement } from '../ui/base.js'

/** `<studio-workspaces>`: workspaces (where dashboards live, bound to a datamart) and a form to add one. */
export class StudioWorkspaces extends StudioElement {
  static override properties = {
    items: { state: true },
    datamarts: { state: true },
    error: { state: true },
    busy: { state: true },
  }
  items: WorkspaceItem[] | undefined
  datamarts: DatamartItem[] = []
  error = ''
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      const [items, datamarts] = await Promise.all([this.api.workspaces(), this.api.datamarts()])
      this.items = items
      this.datamarts = datamarts
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const form = e.target as HTMLFormElement
    const data = new FormData(form)
    this.busy = true
    this.error = ''
    try {
      await this.api.createWorkspace({
        name: String(data.get('name') ?? ''),
        connectionType: 'DATAMART',
        datamartName: String(data.get('datamart') ?? ''),
      })
      form.reset()
      await this.load()
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.busy = false
    }
  }

  override render() {
    return html`<h1 tabindex="-1">Workspaces</h1>
      <p class="lead">A workspace holds dashboards and binds them to one datamart.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${listView({
        items: this.items,
        error: this.error,
        empty: html`<div class="empty"><strong>No workspace yet</strong><p>Create one below for your first datamart.</p></div>`,
        caption: 'Workspaces',
        headers: ['Name', 'Data', 'Created'],
        cells: (w) => [
          w.name,
          html`${w.datamartName ?? w.datasourceName} <span class="tag">${w.connectionType.toLowerCase()}</span>`,
          html`<span class="muted">${new Date(w.createdAt).toLocaleString()}</span>`,
        ],
      })}
      <h2>New workspace</h2>
      ${
        this.datamarts.length === 0 && this.items !== undefined
          ? html`<p>A workspace needs a datamart. <a href="#/datamarts/new">Create a datamart</a> first.</p>`
          : html`<form @submit=${this.submit} aria-label="New workspace">
              <div class="field"><label for="ws-name">Name</label> <span class="req" aria-hidden="true">*</span>
                <input id="ws-name" name="name" required maxlength="200" spellcheck="false" /></div>
              <label class="field"><span>Datamart</span><select name="datamart" required>
                ${this.datamarts.map((d) => html`<option value=${d.name}>${d.name}</option>`)}</select></label>
              <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Creating…' : 'Create the workspace'}</button>
            </form>`
      }`
  }
}
