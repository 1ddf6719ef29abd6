// A company's backend jobs, written against the hosted embedded-analytics service's public API
// reference: mint guest tokens, create embeds, list and query, export and re-import dashboards.
// Plain Node (18 or later, for fetch), no dependencies. Pointing it at Strata means changing
// BASE_URL and nothing else.
//
//   BASE_URL=https://strata.example.com \
//   DATABRAIN_API_KEY=... DATABRAIN_SERVICE_TOKEN=... node backend.mjs
//
// Each step prints one JSON line, { step, ok, result } or { step, ok: false, error }; the exit
// code is 0 when every step succeeded.

const env = process.env
const BASE_URL = (env.BASE_URL ?? 'https://api.usedatabrain.com').replace(/\/$/, '')
const API_KEY = required('DATABRAIN_API_KEY') // the data app's API token
const SERVICE_TOKEN = required('DATABRAIN_SERVICE_TOKEN') // the organization's service token
const DATA_APP = env.DATA_APP_NAME ?? 'salesapp'
const WORKSPACE = env.WORKSPACE_NAME ?? 'main'
const DATAMART = env.DATAMART_NAME ?? 'sales'
const DASHBOARD_ID = env.DASHBOARD_ID ?? 'sales-overview'
const METRIC_ID = env.METRIC_ID ?? 'revenue'
const DATE_FILTER = env.DATE_FILTER_NAME ?? 'period'
const CLIENT_ID = env.CLIENT_ID ?? 'acme'
const FROM = env.REPORT_FROM ?? '2026-01-01'
const TO = env.REPORT_TO ?? '2026-01-31'

function required(name) {
  const value = env[name]
  if (!value) {
    console.error(`${name} is not set`)
    process.exit(2)
  }
  return value
}

/** One call; the parsed answer, or an Error carrying the service's { error: { code, message } }. */
async function call(method, path, token, body) {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  const answer = text ? JSON.parse(text) : null
  if (!res.ok) {
    const error = answer?.error ?? {}
    throw new Error(`${method} ${path}: ${res.status} ${error.code ?? ''} ${error.message ?? text}`.trim())
  }
  return answer
}

const accessSettings = {
  datamartName: DATAMART,
  isAllowEmailReports: false,
  isAllowManageMetrics: false,
  isAllowCreateDashboardView: false,
  isAllowMetricCreation: false,
  isAllowMetricDeletion: false,
  isAllowMetricLayoutChange: false,
  isAllowMetricUpdate: false,
  isAllowUnderlyingData: true,
  metricCreationMode: 'DRAG_DROP',
}

// What each step found, for the steps after it.
const found = {}

const steps = [
  [
    'create-embed',
    async () => {
      const { id } = await call('POST', '/api/v2/data-app/embeds', API_KEY, {
        dashboardId: DASHBOARD_ID,
        embedType: 'dashboard',
        workspaceName: WORKSPACE,
        name: 'Customer portal: sales',
        accessSettings,
      })
      found.embedId = id
      return { id }
    },
  ],
  [
    'create-metric-embed',
    async () => {
      const { id } = await call('POST', '/api/v2/data-app/embeds', API_KEY, {
        dashboardId: DASHBOARD_ID,
        embedType: 'metric',
        metricId: METRIC_ID,
        workspaceName: WORKSPACE,
        name: 'Customer portal: revenue',
      })
      found.metricEmbedId = id
      return { id }
    },
  ],
  [
    'guest-token',
    async () => {
      const { token } = await call('POST', '/api/v2/guest-token/create', API_KEY, {
        clientId: CLIENT_ID,
        dataAppName: DATA_APP,
        params: {
          dashboardAppFilters: [{ dashboardId: DASHBOARD_ID, values: { [DATE_FILTER]: { start: FROM, end: TO } } }],
        },
        expiryTime: 3_600_000,
      })
      return { tokenLength: token.length }
    },
  ],
  [
    'guest-token-v1',
    async () => {
      const { token } = await call('POST', '/api/v1/guest-token/create', API_KEY, {
        clientId: CLIENT_ID,
        workspaceName: WORKSPACE,
      })
      return { tokenLength: token.length }
    },
  ],
  [
    'list-embeds',
    async () => {
      const { data } = await call('GET', '/api/v2/data-app/embeds?isPagination=true&pageNumber=1', API_KEY)
      return {
        embeds: data.map((e) => ({
          embedId: e.embedId,
          embedType: e.embedType,
          dashboardId: e.embedMetadata.dashboardId,
          metricId: e.embedMetadata.metricId,
        })),
      }
    },
  ],
  [
    'dashboard-last-updated',
    async () => {
      const { data } = await call('GET', '/api/v2/data-app/embeds', API_KEY)
      const embed = data.find((e) => e.embedId === needs('embedId'))
      const updatedAt = embed?.externalDashboard?.metadata?.updatedAt
      if (typeof updatedAt !== 'string') throw new Error('externalDashboard.metadata.updatedAt is missing')
      return { updatedAt }
    },
  ],
  [
    'list-dashboards',
    async () => {
      const { data } = await call('GET', '/api/v2/data-app/dashboards?isPagination=true&pageNumber=1', API_KEY)
      return { dashboards: data.map((d) => d.externalDashboardId) }
    },
  ],
  [
    'list-metrics',
    async () => {
      const query = new URLSearchParams({ embedId: needs('embedId'), clientId: CLIENT_ID, isMetric: 'true' })
      const { data } = await call('GET', `/api/v2/data-app/metrics?${query}`, API_KEY)
      return { metrics: data.map((m) => m.metricId) }
    },
  ],
  [
    'query',
    async () => {
      const answer = await call('POST', '/api/v2/data-app/query', API_KEY, {
        embedId: needs('embedId'),
        metricId: METRIC_ID,
        clientId: CLIENT_ID,
        dashboardFilter: { [DATE_FILTER]: { start: FROM, end: TO } },
      })
      return {
        rows: answer.data,
        totalRecords: answer.totalRecords,
        columns: answer.metaData.columns.map((c) => c.name),
      }
    },
  ],
  [
    'publish-metric',
    async () => {
      const { id } = await call('PUT', '/api/v2/data-app/metrics/publish', API_KEY, {
        embedId: needs('embedId'),
        metricId: METRIC_ID,
        isPublished: true,
      })
      return { id }
    },
  ],
  [
    'export-embed',
    async () => {
      const exported = await call('GET', `/api/v2/data-app/embeds/export?embedId=${needs('embedId')}`, API_KEY)
      found.embedExport = exported.data
      return { embedId: exported._meta.embedId, dashboardId: exported._meta.dashboardId }
    },
  ],
  [
    'reimport',
    async () => {
      const { data } = await call('POST', '/api/v2/data-app/import-dashboard', SERVICE_TOKEN, {
        workspaceName: WORKSPACE,
        importDashboardData: needs('embedExport'),
        dashboardId: `${DASHBOARD_ID}-copy`,
        dashboardName: 'Sales (copy)',
      })
      return { dashboardId: data.response.dashboardId, message: data.response.message }
    },
  ],
  [
    'export-dashboard',
    async () => {
      const exported = await call('POST', '/api/v2/data-app/export-dashboard', SERVICE_TOKEN, {
        dashboardId: `${DASHBOARD_ID}-copy`,
        workspaceName: WORKSPACE,
      })
      return { dashboardId: exported._meta.dashboardId, metrics: exported.data.metrics.length }
    },
  ],
  [
    'import-hosted-export',
    async () => {
      // a dashboard as the hosted service exports it (its reference page's example)
      const { data } = await call('POST', '/api/v2/data-app/import-dashboard', SERVICE_TOKEN, {
        workspaceName: WORKSPACE,
        importDashboardData: { name: 'Exported from the hosted service', layout: [], filters: [], gridMargin: {} },
        dashboardId: 'from-hosted',
      })
      return { dashboardId: data.response.dashboardId, warnings: data.warnings ?? data.response.warnings ?? [] }
    },
  ],
  [
    'create-client-dashboard',
    async () => {
      const answer = await call('POST', '/api/v2/data-app/dashboard-embeds', API_KEY, {
        dashboardId: `${DASHBOARD_ID}-${CLIENT_ID}`,
        workspaceName: WORKSPACE,
        clientId: CLIENT_ID,
        name: `Sales for ${CLIENT_ID}`,
        isRenameDashboard: true,
        importDashboardData: needs('embedExport'),
        accessSettings,
      })
      // the answer's id is the new dashboard's id: it is listed under it
      const names = new URLSearchParams({
        isPagination: 'false',
        pageNumber: '1',
        dashboardNames: `Sales for ${CLIENT_ID}`,
      })
      const { data } = await call('GET', `/api/v2/data-app/dashboards?${names}`, API_KEY)
      if (!data.some((d) => d.externalDashboardId === answer.id)) throw new Error(`no dashboard ${answer.id} is listed`)
      return { id: answer.id }
    },
  ],
  [
    'rename-embed',
    async () => {
      const answer = await call('PUT', '/api/v2/data-app/embeds/rename', API_KEY, {
        embedId: needs('embedId'),
        name: 'Customer portal: sales (2026)',
      })
      return { id: answer.id, name: answer.name }
    },
  ],
  [
    'update-embed',
    async () => {
      const { id } = await call('PUT', '/api/v2/data-app/embeds', API_KEY, {
        embedId: needs('embedId'),
        accessSettings: { isAllowUnderlyingData: false },
      })
      return { id }
    },
  ],
  [
    'delete-embed',
    async () => {
      const { id } = await call('DELETE', `/api/v2/data-app/embeds?embedId=${needs('metricEmbedId')}`, API_KEY)
      return { id }
    },
  ],
]

/** A value an earlier step found; a step that lacks it fails naming it. */
function needs(name) {
  if (found[name] === undefined) throw new Error(`needs ${name}, which an earlier step did not produce`)
  return found[name]
}

let failures = 0
for (const [step, run] of steps) {
  try {
    console.log(JSON.stringify({ step, ok: true, result: await run() }))
  } catch (error) {
    failures += 1
    console.log(JSON.stringify({ step, ok: false, error: error instanceof Error ? error.message : String(error) }))
  }
}
process.exitCode = failures === 0 ? 0 : 1
