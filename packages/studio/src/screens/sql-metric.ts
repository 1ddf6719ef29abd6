import type { ChartType, Metric } from '@strata/contract/document'
import { html, nothing } from 'lit'
import { type DashboardDocument, dashboardsApi, slug } from '../api/dashboards.js'
import { messageOf, StudioElement } from '../ui/base.js'
import { freeId, nextPlace, type StudioDashboard } from './dashboard-editor.js'

const CHARTS: readonly { type: ChartType; label: string }[] = [
  { type: 'table', label: 'Table' },
  { type: 'bar', label: 'Bar' },
  { type: 'line', label: 'Line' },
  { type: 'single-value', label: 'Single number' },
  { type: 'pie', label: 'Pie' },
]

/**
 * `<studio-sql-metric>`: a SQL metric (one SELECT) for the dashboard. **Run on the warehouse**
 * validates the document with it (the server runs the statement, returning no rows) and shows
 * the warehouse's own error; **Add to the dashboard** validates the same way, then writes it.
 */
export class StudioSqlMetric extends StudioElement {
  static override properties = {
    doc: { attribute: false },
    error: { state: true },
    result: { state: true },
    busy: { state: true },
  }
  editor!: StudioDashboard
  doc!: DashboardDocument
  error = ''
  result: { ok: boolean; text: string } | undefined
  busy: '' | 'check' | 'add' = ''

  private metricOf(form: HTMLFormElement): Metric {
    const data = new FormData(form)
    const name = String(data.get('name') ?? '').trim()
    const type = String(data.get('chart') ?? 'table') as ChartType
    const x = String(data.get('x') ?? '').trim()
    const y = String(data.get('y') ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
    return {
      metricId: freeId(slug(name), this.doc.metrics),
      name,
      chart: { type, ...(x ? { x } : {}), ...(y.length ? { y } : {}) },
      sql: String(data.get('sql') ?? '').trim(),
    }
  }

  /** Runs the document with the metric on the warehouse: the metric's error, or undefined when it ran. */
  private async check(metric: Metric): Promise<string | undefined> {
    const answer = await dashboardsApi(this.api).validate(
      { workspaceName: this.editor.workspaceName, dashboardId: this.editor.dashboardId },
      { ...this.doc, metrics: [...this.doc.metrics, metric] },
    )
    const own = answer.metrics.find((m) => m.metricId === metric.metricId)
    return own && !own.valid ? (own.error ?? 'The warehouse refused the statement.') : undefined
  }

  private async submit(e: SubmitEvent): Promise<void> {
    e.preventDefault()
    const form = e.target as HTMLFormElement
    const add = (e.submitter as HTMLButtonElement | null)?.value === 'add'
    const metric = this.metricOf(form)
    this.busy = add ? 'add' : 'check'
    this.error = ''
    this.result = undefined
    try {
      const problem = await this.check(metric)
      if (problem) {
        this.result = { ok: false, text: `The warehouse refused it: ${problem}` }
      } else if (add) {
        const layout = this.doc.layout ?? []
        await this.editor.write(
          {
            ...this.doc,
            metrics: [...this.doc.metrics, metric],
            layout: [...layout, { metricId: metric.metricId, ...nextPlace(layout) }],
          },
          `“${metric.name}” added to the dashboard.`,
        )
        this.result = { ok: true, text: `“${metric.name}” was added to the dashboard (id ${metric.metricId}).` }
        form.reset()
      } else {
        this.result = { ok: true, text: 'The statement ran on the warehouse: it can be added.' }
      }
    } catch (err) {
      this.error = messageOf(err)
    } finally {
      this.busy = ''
    }
  }

  override render() {
    return html`<h2>SQL metric</h2>
      <p class="lead">One SELECT on the warehouse. Tenancy still applies: each tenant's rows only. Write <code>{{clientId}}</code> where the tenant's id belongs.</p>
      ${this.error ? html`<p class="notice error" role="alert">${this.error}</p>` : nothing}
      ${this.result ? html`<p class="notice ${this.result.ok ? 'ok' : 'error'}" role=${this.result.ok ? 'status' : 'alert'}>${this.result.text}</p>` : nothing}
      <form @submit=${this.submit} aria-label="SQL metric" class="wide">
        <div class="field"><label for="sql-name">Name</label> <span class="req" aria-hidden="true">*</span>
          <input id="sql-name" name="name" required maxlength="200" /></div>
        <div class="field"><label for="sql-text">SQL</label> <span class="req" aria-hidden="true">*</span>
          <textarea id="sql-text" name="sql" required rows="8" spellcheck="false" class="code"
            placeholder="select status, count(*) as orders from public.orders group by status"></textarea></div>
        <div class="grid">
          <div class="field"><label for="sql-chart">Chart</label><select id="sql-chart" name="chart">
            ${CHARTS.map((c) => html`<option value=${c.type}>${c.label}</option>`)}</select></div>
          <div class="field"><label for="sql-x">Category column (x)</label><input id="sql-x" name="x" spellcheck="false" /></div>
          <div class="field"><label for="sql-y">Value columns (y)</label><input id="sql-y" name="y" spellcheck="false" aria-describedby="sql-y-hint" />
            <small id="sql-y-hint">Comma-separated column names of the result.</small></div>
        </div>
        <div class="actions">
          <button type="submit" value="check" ?disabled=${this.busy !== ''}>${this.busy === 'check' ? 'Running…' : 'Run on the warehouse'}</button>
          <button class="primary" type="submit" value="add" ?disabled=${this.busy !== ''}>${this.busy === 'add' ? 'Adding…' : 'Add to the dashboard'}</button>
        </div>
      </form>`
  }
}
