import { html, type TemplateResult } from 'lit'
import type { MetricState } from '../embed-controller.js'

/** The list of metrics (`permissions.showSideBar`); a click scrolls to the metric and focuses it. */
export function renderSidebar(metrics: readonly MetricState[], go: (metricId: string) => void): TemplateResult {
  return html`<nav class="sidebar" part="sidebar" aria-label="Metrics">
    <h2>Metrics</h2>
    <ul>
      ${metrics.map(
        (m) =>
          html`<li>
            <button type="button" part="sidebar-item" @click=${() => go(m.metric.metricId)}>${m.metric.name}</button>
          </li>`,
      )}
    </ul>
  </nav>`
}
