import type { Comparison } from '@strata/contract/document'
import { html, nothing } from 'lit'
import type { DataAppItem } from '../api/client.js'
import {
  type DashboardDocument,
  type DashboardRef,
  dashboardsApi,
  download,
  type LayoutItem,
  type Metric,
  type PreviewRequest,
  slug,
} from '../api/dashboards.js'
import { StudioError } from '../api/errors.js'
import { messageOf, StudioElement } from '../ui/base.js'
import { type BuiltMetric, builtFields, withBuiltMetric, withoutMetric } from './document-edits.js'

type Tab = 'build' | 'filters' | 'sql' | 'rollups' | 'preview'
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'build', label: 'Build' },
  { id: 'filters', label: 'Filters' },
  { id: 'sql', label: 'SQL metric' },
  { id: 'rollups', label: 'Rollups' },
  { id: 'preview', label: 'Preview as a tenant' },
]

/** What the element's builder saves in company mode: its definition and the comparison it leaves. */
interface CompanyMetricEvent {
  readonly metric: BuiltMetric
  readonly comparison?: Comparison
  readonly metricId: string | undefined
  respondWith(saved: Promise<string>): void
}
/** The card menu's "Remove from dashboard" in company mode. */
interface CompanyRemoveEvent {
  readonly metricId: string
  readonly name: string
  respondWith(saved: Promise<unknown>): void
}
interface CompanyLayoutEvent {
  readonly layout: readonly LayoutItem[]
  respondWith(saved: Promise<readonly LayoutItem[]>): void
}

/**
 * `<studio-dashboard>`: one dashboard of a workspace. Build draws it with the real element in
 * the company's mode (its own builder and layout editor; what they save is written into the
 * document with PUT), Filters and SQL metric edit the document in forms, Preview shows it as
 * one tenant sees it; Export downloads the document.
 */
export class StudioDashboard extends StudioElement {
  static override properties = {
    workspaceName: { attribute: false },
    dashboardId: { attribute: false },
    doc: { state: true },
    dataApps: { state: true },
    tab: { state: true },
    error: { state: true },
    status: { state: true },
    clientId: { state: true },
    dataAppName: { state: true },
    author: { state: true },
    rollupsLoaded: { state: true },
  }
  workspaceName = ''
  dashboardId = ''
  doc: DashboardDocument | undefined
  dataApps: DataAppItem[] | undefined
  tab: Tab = 'build'
  error = ''
  status = ''
  clientId = ''
  dataAppName = ''
  /** The authoring token's request: new when the tenant or the data app changes. */
  author: PreviewRequest | undefined
  /** The rollups panel is a chunk of its own, loaded the first time its tab opens. */
  rollupsLoaded = false

  private get ref(): DashboardRef {
    return { workspaceName: this.workspaceName, dashboardId: this.dashboardId }
  }
  private get calls() {
    return dashboardsApi(this.api)
  }

  override connectedCallback(): void {
    super.connectedCallback()
    this.focusHeading()
    this.clientId = sessionStorage.getItem('studio.tenant') ?? ''
    void this.load()
  }

  private async load(): Promise<void> {
    try {
      const [doc, apps] = await Promise.all([this.calls.exportDocument(this.ref), this.api.dataApps()])
      this.doc = doc
      this.dataApps = apps
      this.dataAppName = apps[0]?.name ?? ''
      this.authorAs()
    } catch (err) {
      this.error =
        err instanceof StudioError && err.code === 'INVALID_REQUEST_BODY'
          ? `There is no dashboard ${this.dashboardId} in workspace ${this.workspaceName}: it was deleted or renamed.`
          : messageOf(err)
    }
  }

  /** The tenant whose rows the builder shows (authoring reads real data, and every query has a tenant). */
  private authorAs(): void {
    if (!this.dataAppName || !this.clientId) return
    sessionStorage.setItem('studio.tenant', this.clientId)
    this.author = { ...this.ref, dataAppName: this.dataAppName, clientId: this.clientId, author: true }
  }

  /** Writes the document whole, then reads it back as the server keeps it. */
  async write(doc: DashboardDocument, done: string): Promise<void> {
    await this.calls.save(this.ref, doc)
    this.doc = await this.calls.exportDocument(this.ref)
    this.status = done
  }

  private onMetric = (e: CustomEvent<CompanyMetricEvent>): void => {
    e.detail.respondWith(this.saveMetric(e.detail.metric, e.detail.metricId, e.detail.comparison))
  }

  private onRemove = (e: CustomEvent<CompanyRemoveEvent>): void => {
    const { metricId, name } = e.detail
    e.detail.respondWith(
      (async () => {
        const doc = this.doc
        if (!doc) throw new Error('The dashboard is not loaded')
        await this.write(withoutMetric(doc, metricId), `“${name}” removed from the dashboard.`)
      })(),
    )
  }

  private onLayout = (e: CustomEvent<CompanyLayoutEvent>): void => {
    e.detail.respondWith(
      (async () => {
        const doc = this.doc
        if (!doc) throw new Error('The dashboard is not loaded')
        await this.write(
          { ...doc, layout: e.detail.layout.map(({ metricId, x, y, w, h }) => ({ metricId, x, y, w, h })) },
          'Layout saved to the dashboard.',
        )
        return this.doc?.layout ?? []
      })(),
    )
  }

  /** A metric from the builder into the company's document: replaces the one edited, or is added under the others. */
  async saveMetric(built: BuiltMetric, editing: string | undefined, comparison?: Comparison): Promise<string> {
    const doc = this.doc
    if (!doc) throw new Error('The dashboard is not loaded')
    if (editing) {
      await this.write(withBuiltMetric(doc, editing, built, comparison), `“${built.name}” saved to the dashboard.`)
      return editing
    }
    const fields = builtFields(built, comparison)
    const metricId = freeId(slug(built.name), doc.metrics)
    const layout = doc.layout ?? []
    const place = { metricId, ...nextPlace(layout) }
    await this.write(
      { ...doc, metrics: [...doc.metrics, { metricId, ...fields }], layout: [...layout, place] },
      `“${built.name}” added to the dashboard.`,
    )
    return metricId
  }

  private exportFile = (): void => {
    if (this.doc) download(`dashboard-${this.dashboardId}.json`, this.doc)
  }

  private tenantForm(e: SubmitEvent): void {
    e.preventDefault()
    const data = new FormData(e.target as HTMLFormElement)
    this.clientId = String(data.get('clientId') ?? '').trim()
    this.dataAppName = String(data.get('dataApp') ?? this.dataAppName)
    this.authorAs()
  }

  override render() {
    const doc = this.doc
    return html`<p class="crumbs"><a href="#/dashboards">Dashboards</a> / ${this.workspaceName}</p>
      <div class="head"><h1 tabindex="-1">${doc?.name ?? this.dashboardId}</h1>
        ${doc ? html`<button type="button" @click=${this.exportFile}>Export JSON</button>` : nothing}</div>
      ${
        this.error
          ? html`<p class="notice error" role="alert">${this.error}</p>${
              doc ? nothing : html`<p><a href="#/dashboards">Back to the dashboards</a> to open or import another.</p>`
            }`
          : nothing
      }
      <p class="sr-only" role="status">${this.status}</p>
      ${!doc || !this.dataApps ? (this.error ? nothing : html`<p role="status">Loading…</p>`) : this.body(doc, this.dataApps)}`
  }

  private body(doc: DashboardDocument, apps: DataAppItem[]) {
    if (apps.length === 0) {
      return html`<div class="empty"><strong>A data app is needed first</strong>
        <p>The studio draws dashboards with a data app's guest token. <a href="#/data-apps">Create a data app</a>, then come back.</p></div>`
    }
    return html`<div class="tabs" role="group" aria-label="Dashboard parts">
        ${TABS.map(
          (t) =>
            html`<button type="button" aria-pressed=${this.tab === t.id ? 'true' : 'false'} @click=${() => this.open(t.id)}>${t.label}</button>`,
        )}
      </div>
      ${this.tabBody(doc, apps)}`
  }

  private open(tab: Tab): void {
    this.tab = tab
    if (tab === 'rollups' && !this.rollupsLoaded) {
      import('./rollups/index.js')
        .then(({ defineRollups }) => {
          defineRollups()
          this.rollupsLoaded = true
        })
        .catch(() => {
          this.error = 'The rollups panel did not load. Reload the page and try again.'
        })
    }
  }

  /** The tenant whose rows the builder shows, and the data app whose token draws them. */
  private tenantBar(apps: DataAppItem[]) {
    return html`<form class="tenant-bar" @submit=${this.tenantForm} aria-label="Tenant to build with">
        <div class="row">
          <div class="field"><label for="dash-tenant">Tenant (clientId)</label>
            <studio-tenant-input .api=${this.api} .workspaceName=${this.workspaceName} .inputId=${'dash-tenant'}
              .value=${this.clientId} .describedBy=${'dash-tenant-hint'}></studio-tenant-input></div>
          ${
            apps.length > 1
              ? html`<div class="field"><label for="dash-app">Data app</label><select id="dash-app" name="dataApp">
                ${apps.map((a) => html`<option ?selected=${a.name === this.dataAppName}>${a.name}</option>`)}</select></div>`
              : nothing
          }
          <button type="submit">Show this tenant</button>
        </div>
        <small id="dash-tenant-hint">Whose rows the dashboard shows while you build it: a value of the tenant column. What you save is for every tenant.</small>
      </form>`
  }

  private tabBody(doc: DashboardDocument, apps: DataAppItem[]) {
    switch (this.tab) {
      case 'build':
        if (!this.author) {
          return html`${this.tenantBar(apps)}<div class="empty"><strong>Pick a tenant to build with</strong>
            <p>Type a tenant above and <strong>Show this tenant</strong>: the builder shows its rows while you build.</p></div>`
        }
        return html`${this.tenantBar(apps)}<p class="lead">Use <strong>New metric</strong> and <strong>Edit layout</strong> on the dashboard, and a card's <strong>⋯</strong> menu to edit or remove it: what you save there is saved into this dashboard for every tenant.</p>
          <studio-embed-view .api=${this.api} .request=${this.author} company label="Dashboard being built"
            @strata-company-metric=${this.onMetric} @strata-company-layout=${this.onLayout}
            @strata-company-remove=${this.onRemove}></studio-embed-view>
          ${doc.metrics.length === 0 ? html`<p class="muted">No metric yet: <strong>New metric</strong> on the dashboard above adds the first.</p>` : nothing}`
      case 'filters':
        return html`<studio-dashboard-filters .api=${this.api} .editor=${this} .doc=${doc}></studio-dashboard-filters>`
      case 'sql':
        return html`<studio-sql-metric .api=${this.api} .editor=${this} .doc=${doc}></studio-sql-metric>`
      case 'rollups':
        return this.rollupsLoaded
          ? html`<studio-dashboard-rollups .api=${this.api} .editor=${this} .doc=${doc}></studio-dashboard-rollups>`
          : html`<h2>Rollups</h2><p role="status">Loading…</p>`
      case 'preview':
        return html`<studio-dashboard-preview .api=${this.api} .editor=${this} .doc=${doc}
          .base=${{ ...this.ref, dataAppName: this.dataAppName, clientId: this.clientId }}></studio-dashboard-preview>`
    }
  }
}

/** Where a new card goes: beside the last one when half the row is free, else under everything. */
export function nextPlace(layout: readonly LayoutItem[]): { x: number; y: number; w: number; h: number } {
  const last = layout.at(-1)
  if (last && last.x + last.w + 6 <= 12 && layout.every((l) => l.y + l.h <= last.y + last.h)) {
    return { x: last.x + last.w, y: last.y, w: 6, h: 4 }
  }
  return { x: 0, y: layout.reduce((y, l) => Math.max(y, l.y + l.h), 0), w: 6, h: 4 }
}

/** `base`, or `base-2`, `base-3` … : the first id no metric of the document has. */
export function freeId(base: string, metrics: readonly Metric[]): string {
  const taken = new Set(metrics.map((m) => m.metricId))
  let id = base
  for (let i = 2; taken.has(id); i++) id = `${base}-${i}`
  return id
}
