import { html, nothing } from 'lit'
import type { WorkspaceItem } from '../api/client.js'
import { dashboardsApi, documentOfFile, slug } from '../api/dashboards.js'
import { go, listView, messageOf, StudioElement } from '../ui/base.js'

interface Row {
  readonly workspaceName: string
  readonly dashboardId: string
  readonly name: string
}

/** `<studio-dashboards>`: every workspace's dashboards, a new (empty) one, and one imported from a file. */
export class StudioDashboards extends StudioElement {
  static override properties = {
    items: { state: true },
    workspaces: { state: true },
    error: { state: true },
    busy: { state: true },
  }
  items: Row[] | undefined
  workspaces: WorkspaceItem[] = []
  error = ''
  busy: '' | 'new' | 'import' = ''

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      this.workspaces = await this.api.workspaces()
      const lists = await Promise.all(
        this.workspaces.map(async (w) =>
          (await dashboardsApi(this.api).list(w.name)).map((d) => ({
            workspaceName: w.name,
            dashboardId: d.externalDashboardId,
            name: d.name,
          })),
        ),
      )
      this.items = lists.flat()
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async create(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const data = new FormData(e.target as HTMLFormElement)
    const name = String(data.get('name') ?? '').trim()
    const workspace = String(data.get('workspace') ?? '')
    await this.run('new', workspace, slug(name), { name, filters: [], layout: [], metrics: [] })
  }

  private async importFile(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const data = new FormData(e.target as HTMLFormElement)
    const file = data.get('file')
    const workspace = String(data.get('workspace') ?? '')
    if (!(file instanceof File) || file.size === 0) {
      this.error = 'Choose a dashboard file (JSON, as Export downloads it) first.'
      return
    }
    let document: unknown
    try {
      document = documentOfFile(JSON.parse(await file.text()))
    } catch {
      this.error = `${file.name} is not JSON. Choose a file that Export downloaded, or a dashboard document.`
      return
    }
    const name = (document as { name?: unknown }).name
    const id =
      String(data.get('id') ?? '').trim() || slug(typeof name === 'string' ? name : file.name.replace(/\.json$/i, ''))
    await this.run('import', workspace, id, document)
  }

  private async run(kind: 'new' | 'import', workspace: string, id: string, document: unknown): Promise<void> {
    this.busy = kind
    this.error = ''
    try {
      const dashboardId = await dashboardsApi(this.api).importDocument(workspace, id, document)
      go(`dashboards/${encodeURIComponent(workspace)}/${encodeURIComponent(dashboardId)}`)
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.busy = ''
    }
  }

  override render() {
    const none = this.items !== undefined && this.workspaces.length === 0
    const workspaceSelect = (id: string) =>
      html`<div class="field"><label for=${id}>Workspace</label><select id=${id} name="workspace" required>
        ${this.workspaces.map((w) => html`<option value=${w.name}>${w.name} (${w.datamartName ?? w.datasourceName})</option>`)}</select></div>`
    return html`<h1 tabindex="-1">Dashboards</h1>
      <p class="lead">Build the company's dashboards with the same builder your end users have, check them as any tenant, and move them as JSON files.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${listView({
        items: this.items,
        error: this.error,
        empty: html`<div class="empty"><strong>No dashboard yet</strong><p>${
          none
            ? html`Dashboards live in a workspace. <a href="#/workspaces">Create a workspace</a> first.`
            : 'Create one below, or import a file that Export downloaded.'
        }</p></div>`,
        caption: 'Dashboards',
        headers: ['Dashboard', 'Workspace', 'Id'],
        cells: (d) => [
          html`<a href="#/dashboards/${encodeURIComponent(d.workspaceName)}/${encodeURIComponent(d.dashboardId)}">${d.name}</a>`,
          d.workspaceName,
          html`<span class="muted">${d.dashboardId}</span>`,
        ],
      })}
      ${
        none
          ? nothing
          : html`<div class="split">
          <form @submit=${this.create} aria-labelledby="new-dash">
            <h2 id="new-dash">New dashboard</h2>
            <div class="field"><label for="dash-name">Name</label> <span class="req" aria-hidden="true">*</span>
              <input id="dash-name" name="name" required maxlength="200" /></div>
            ${workspaceSelect('dash-ws')}
            <button class="primary" type="submit" ?disabled=${this.busy !== ''}>${this.busy === 'new' ? 'Creating…' : 'Create the dashboard'}</button>
          </form>
          <form @submit=${this.importFile} aria-labelledby="import-dash">
            <h2 id="import-dash">Import a file</h2>
            <div class="field"><label for="dash-file">Dashboard file (JSON)</label>
              <input id="dash-file" name="file" type="file" accept="application/json,.json" required /></div>
            ${workspaceSelect('import-ws')}
            <div class="field"><label for="import-id">Dashboard id</label>
              <input id="import-id" name="id" maxlength="200" spellcheck="false" aria-describedby="import-id-hint" />
              <small id="import-id-hint">Optional: made from the dashboard's name when left empty.</small></div>
            <button type="submit" ?disabled=${this.busy !== ''}>${this.busy === 'import' ? 'Importing…' : 'Import'}</button>
          </form></div>`
      }`
  }
}
