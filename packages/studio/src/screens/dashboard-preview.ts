import { html, nothing } from 'lit'
import type { DashboardDocument, PreviewRequest } from '../api/dashboards.js'
import { StudioElement } from '../ui/base.js'
import type { StudioDashboard } from './dashboard-editor.js'

/** The token permissions an author may try (the embed's access settings still decide). */
const PERMISSIONS: readonly { flag: string; label: string }[] = [
  { flag: 'isEnableDownloadMetrics', label: 'May download CSV' },
  { flag: 'isDisableMetricCreation', label: 'May not create metrics' },
  { flag: 'isShowDashboardName', label: 'Shows the dashboard name' },
]

/**
 * `<studio-dashboard-preview>`: the dashboard exactly as one tenant's end users see it, through
 * a real guest token minted for it (tenant, optional RLS values, permissions).
 */
export class StudioDashboardPreview extends StudioElement {
  static override properties = {
    doc: { attribute: false },
    base: { attribute: false },
    request: { state: true },
  }
  editor!: StudioDashboard
  doc!: DashboardDocument
  base!: Omit<PreviewRequest, 'author'>
  request: PreviewRequest | undefined

  private submit(e: SubmitEvent): void {
    e.preventDefault()
    const data = new FormData(e.target as HTMLFormElement)
    const metricId = String(data.get('rlsMetric') ?? '')
    const variable = String(data.get('rlsVariable') ?? '').trim()
    const values = String(data.get('rlsValues') ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
    const permissions: Record<string, boolean> = {}
    for (const p of PERMISSIONS) if (data.get(p.flag) === 'on') permissions[p.flag] = true
    this.request = {
      ...this.base,
      clientId: String(data.get('clientId') ?? '').trim(),
      ...(metricId && variable && values.length ? { rlsSettings: [{ metricId, values: { [variable]: values } }] } : {}),
      ...(Object.keys(permissions).length ? { permissions } : {}),
    }
  }

  override render() {
    const rls = this.doc.metrics.filter((m) => (m.rls ?? []).length > 0)
    return html`<h2>Preview as a tenant</h2>
      <p class="lead">What this tenant's end users see, through a real guest token (short-lived: the studio asks for another when it ends). Pick a tenant from the list or type one. The data app's key never leaves the server.</p>
      <form @submit=${this.submit} aria-label="Preview as a tenant" class="wide">
        <div class="grid">
          <div class="field"><label for="pv-tenant">Tenant (clientId)</label> <span class="req" aria-hidden="true">*</span>
            <studio-tenant-input .api=${this.api} .workspaceName=${this.base.workspaceName} .inputId=${'pv-tenant'}
              .value=${this.request?.clientId ?? this.base.clientId}></studio-tenant-input></div>
          ${
            rls.length
              ? html`<div class="field"><label for="pv-rls-metric">RLS of metric</label><select id="pv-rls-metric" name="rlsMetric">
                  <option value="">None</option>${rls.map((m) => html`<option value=${m.metricId}>${m.name}</option>`)}</select></div>
                <div class="field"><label for="pv-rls-var">RLS variable</label><input id="pv-rls-var" name="rlsVariable" spellcheck="false"
                  .value=${rls[0]?.rls?.[0]?.variable ?? ''} /></div>
                <div class="field"><label for="pv-rls-values">RLS values</label><input id="pv-rls-values" name="rlsValues" aria-describedby="pv-rls-hint" />
                  <small id="pv-rls-hint">Comma-separated.</small></div>`
              : nothing
          }
        </div>
        <fieldset><legend>Token permissions</legend>
          ${PERMISSIONS.map((p) => html`<label class="check"><input type="checkbox" name=${p.flag} /><span>${p.label}<small class="flag">${p.flag}</small></span></label>`)}
        </fieldset>
        <button class="primary" type="submit">Preview</button>
      </form>
      ${
        this.request
          ? html`<p class="notice info" role="status">Seen as tenant <strong>${this.request.clientId}</strong>.</p>
            <studio-embed-view .api=${this.api} .request=${this.request} label="Preview as ${this.request.clientId}"></studio-embed-view>`
          : html`<div class="empty"><strong>Choose a tenant</strong><p>Pick or type one above, then press Preview: the dashboard shows that tenant's rows only.</p></div>`
      }`
  }
}
