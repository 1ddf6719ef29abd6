import type { BrowserSuite } from './browser.js'
import { DEMO_EMBED } from './browser.js'

/**
 * The company's side of the demo dashboard in a browser suite: an admin account and its service
 * token (made once, on the first call), to export the dashboard's document and put a changed
 * one back, as a customer's backend would when it ships a new version of a metric.
 */
export interface DemoCompany {
  /** The demo dashboard's document, as exported. */
  exportDocument(): Promise<DemoDocument>
  /** Puts `document` back as the demo dashboard's (a new version of every metric it changed). */
  importDocument(document: DemoDocument): Promise<void>
  /** Renames one metric of the demo dashboard: a new company version of it. */
  renameMetric(metricId: string, name: string): Promise<void>
  /** Adds metrics to the demo dashboard's document. */
  addMetrics(metrics: readonly object[]): Promise<void>
}

export interface DemoDocument {
  readonly metrics: readonly { readonly metricId: string; readonly name: string }[]
  readonly [key: string]: unknown
}

export function demoCompany(b: BrowserSuite): DemoCompany {
  let service: Promise<string> | undefined
  const post = async (path: string, body: unknown, token?: string): Promise<Record<string, unknown>> => {
    const res = await fetch(`${b.server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as Record<string, unknown>
  }
  const serviceToken = () => {
    service ??= (async () => {
      const admin = await post('/api/v2/admin-account', {
        firstName: 'Alice',
        email: 'alice@example.com',
        password: 'Str0ng!Pass',
        companyName: 'Acme',
      })
      const created = await post('/api/v2/service-token', {}, (admin.data as { accessToken: string }).accessToken)
      return created.key as string
    })()
    return service
  }
  const call = async (method: string, path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${b.server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await serviceToken()}` },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as Record<string, unknown>
  }
  const company: DemoCompany = {
    async exportDocument() {
      const { data } = await call('POST', '/api/v2/data-app/export-dashboard', {
        dashboardId: DEMO_EMBED,
        workspaceName: 'demo',
      })
      return data as DemoDocument
    },
    async importDocument(document) {
      await call('PUT', '/api/v2/data-app/dashboard', {
        workspaceName: 'demo',
        dashboardId: DEMO_EMBED,
        importDashboardData: document,
      })
    },
    async renameMetric(metricId, name) {
      const document = await company.exportDocument()
      await company.importDocument({
        ...document,
        metrics: document.metrics.map((m) => (m.metricId === metricId ? { ...m, name } : m)),
      })
    },
    async addMetrics(metrics) {
      const document = await company.exportDocument()
      await company.importDocument({
        ...document,
        metrics: [...document.metrics, ...(metrics as DemoDocument['metrics'])],
      })
    },
  }
  return company
}
