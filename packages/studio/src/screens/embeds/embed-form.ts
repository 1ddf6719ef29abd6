import { html, nothing } from 'lit'
import type { WorkspaceItem } from '../../api/client.js'
import { go, messageOf, StudioElement } from '../../ui/base.js'
import { accessFieldset, accessFromForm } from './access-form.js'

/** `<studio-embed-form>`: creates an embed of a data app for a dashboard, or one of its metrics. */
export class StudioEmbedForm extends StudioElement {
  static override properties = {
    app: { type: String },
    workspaces: { state: true },
    workspace: { state: true },
    dashboards: { state: true },
    dashboard: { state: true },
    kind: { state: true },
    metrics: { state: true },
    error: { state: true },
    busy: { state: true },
  }
  app = ''
  workspaces: WorkspaceItem[] | undefined
  workspace = ''
  dashboards: { name: string; externalDashboardId: string }[] = []
  dashboard = ''
  kind: 'dashboard' | 'metric' = 'dashboard'
  metrics: { metricId: string; name: string }[] = []
  error = ''
  busy = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      this.workspaces = (await this.api.workspaces()).filter((w) => w.datamartName)
      await this.pickWorkspace(this.workspaces[0]?.name ?? '')
    } catch (err) {
      this.error = messageOf(err)
    }
  }

  private async pickWorkspace(name: string): Promise<void> {
    this.workspace = name
    this.dashboards = name ? await this.api.workspaceDashboards(name) : []
    await this.pickDashboard(this.dashboards[0]?.externalDashboardId ?? '')
  }

  private async pickDashboard(id: string): Promise<void> {
    this.dashboard = id
    this.metrics = id ? await this.api.dashboardMetrics(this.workspace, id) : []
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const form = e.target as HTMLFormElement
    const data = new FormData(form)
    const datamartName = this.workspaces?.find((w) => w.name === this.workspace)?.datamartName ?? ''
    const name = String(data.get('name') ?? '').trim()
    const metricId = this.kind === 'metric' ? String(data.get('metric') ?? '') : undefined
    this.busy = true
    this.error = ''
    try {
      const id = await this.api.createEmbed(this.app, {
        dashboardId: this.dashboard,
        embedType: this.kind,
        ...(metricId ? { metricId } : {}),
        workspaceName: this.workspace,
        ...(name ? { name } : {}),
        accessSettings: { ...accessFromForm(form), datamartName },
      })
      go(`embeds/${encodeURIComponent(this.app)}/${encodeURIComponent(id)}?created=1`)
    } catch (err) {
      this.error = messageOf(err)
      this.busy = false
    }
  }

  override render() {
    const back = html`<p><a href="#/embeds?app=${encodeURIComponent(this.app)}">← Embeds of ${this.app}</a></p>`
    if (this.workspaces === undefined) {
      return html`${back}<h1 tabindex="-1">Create an embed</h1>${
        this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : html`<p role="status">Loading…</p>`
      }`
    }
    if (this.workspaces.length === 0 || this.dashboards.length === 0) {
      return html`${back}<h1 tabindex="-1">Create an embed</h1>
        ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
        <div class="empty"><strong>Nothing to embed yet</strong><p>An embed shows a dashboard of a workspace.
        ${this.workspaces.length === 0 ? html`<a href="#/workspaces">Create a workspace</a>` : html`Add a dashboard to workspace ${this.workspace}`} first.</p></div>`
    }
    return html`${back}<h1 tabindex="-1">Create an embed</h1>
      <p class="lead">For data app <strong>${this.app}</strong>. You can change what end users may do at any time; it applies at once.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      <form @submit=${this.submit} aria-label="New embed">
        <div class="field"><label for="embed-name">Name</label>
          <input id="embed-name" name="name" maxlength="200" aria-describedby="embed-name-hint" />
          <small id="embed-name-hint">Yours to recognise it, e.g. Sales for customers. Default: its id.</small></div>
        <div class="field"><label for="embed-ws">Workspace</label>
          <select id="embed-ws" @change=${(e: Event) => this.pickWorkspace((e.target as HTMLSelectElement).value).catch((err) => (this.error = messageOf(err)))}>
            ${this.workspaces.map((w) => html`<option value=${w.name} ?selected=${w.name === this.workspace}>${w.name} (datamart ${w.datamartName})</option>`)}
          </select></div>
        <div class="field"><label for="embed-dash">Dashboard</label>
          <select id="embed-dash" @change=${(e: Event) => this.pickDashboard((e.target as HTMLSelectElement).value).catch((err) => (this.error = messageOf(err)))}>
            ${this.dashboards.map((d) => html`<option value=${d.externalDashboardId} ?selected=${d.externalDashboardId === this.dashboard}>${d.name}</option>`)}
          </select></div>
        <fieldset class="choices"><legend>Show</legend>
          <label class="check"><input type="radio" name="kind" value="dashboard" ?checked=${this.kind === 'dashboard'} @change=${() => (this.kind = 'dashboard')} /> The whole dashboard</label>
          <label class="check"><input type="radio" name="kind" value="metric" ?checked=${this.kind === 'metric'} @change=${() => (this.kind = 'metric')} /> One metric of it</label>
          ${
            this.kind === 'metric'
              ? html`<div class="field"><label for="embed-metric">Metric</label>
                <select id="embed-metric" name="metric" required>${this.metrics.map((m) => html`<option value=${m.metricId}>${m.name}</option>`)}</select></div>`
              : nothing
          }
        </fieldset>
        ${accessFieldset({})}
        <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Creating…' : 'Create the embed'}</button>
      </form>`
  }
}
