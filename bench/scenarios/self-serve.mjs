import { randomBytes, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { api } from '../lib/http.mjs'
import { comparePair } from '../lib/load.mjs'
import { ACCESS, byRegion, runtimeGuestTokenBody, salesDashboard } from '../lib/setup.mjs'

/** The embed's self-serve switches: creating metrics, saving a layout and views (docs/runtime-api.md#self-serve-metrics). */
const SELF_SERVE_ACCESS = {
  ...ACCESS,
  isAllowMetricCreation: true,
  isAllowMetricLayoutChange: true,
  isAllowCreateDashboardView: true,
  isAllowManageMetrics: true,
}

/** A runtime token whose permissions turn nothing of the embed's off (layout and views need the token's flag). */
const selfServeToken = (embedId, clientId) => {
  const body = runtimeGuestTokenBody(embedId, clientId)
  return {
    ...body,
    permissions: { ...body.permissions, isEnableCustomizeLayout: true, isEnableCreateDashboardView: true },
  }
}

/** Three end-user metrics over the bench table (a bar, a line, a single value), as the builder sends them. */
const tenantMetrics = (from) => [
  {
    name: 'Orders by product',
    chart: { type: 'bar', x: 'product', y: ['orders'] },
    query: {
      from,
      measures: [{ name: 'orders', aggregate: 'count' }],
      dimensions: [{ name: 'product', column: 'product' }],
    },
  },
  {
    name: 'Average amount by region',
    chart: { type: 'line', x: 'region', y: ['avg_amount'] },
    query: {
      from,
      measures: [{ name: 'avg_amount', aggregate: 'avg', column: 'amount' }],
      dimensions: [{ name: 'region', column: 'region' }],
    },
  },
  {
    name: 'Total revenue',
    chart: { type: 'single-value', y: ['revenue'] },
    query: { from, measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }] },
  },
]

/** The seed tenant's saved layout: by_region first, then its metrics two by two (half width). */
const tenantLayout = (metricIds) => [
  { metricId: 'by_region', x: 0, y: 0, w: 6, h: 4 },
  ...metricIds.map((metricId, i) => ({ metricId, x: ((i + 1) % 2) * 6, y: Math.floor((i + 1) / 2) * 4, w: 6, h: 4 })),
]

/** The tables a tenant's self-serve state lives in (migrations 003 and 004), with the column that is its own id. */
const TABLES = [
  { table: 'end_user_metrics', id: 'id', newId: () => randomUUID() },
  { table: 'company_metric_states' },
  { table: 'end_user_layouts' },
  { table: 'dashboard_views', id: 'view_id', newId: () => `v_${randomBytes(9).toString('base64url')}` },
]

/**
 * Copies every self-serve row of tenant `seed` to each of `clients`, in one transaction on the
 * server's own SQLite file (WAL, so the running server keeps serving): the rows keep the exact
 * shape the server wrote (definition JSON, layout JSON, view filters), with the tenant's
 * clientId and fresh primary ids (metric ids `u_…` are per tenant, so they stay as they are).
 */
function cloneTenantRows(dataDir, seed, clients) {
  const db = new SQLite(join(dataDir, 'strata.db'))
  try {
    db.pragma('busy_timeout = 10000')
    const copied = {}
    db.transaction(() => {
      for (const { table, id, newId } of TABLES) {
        const rows = db.prepare(`select * from ${table} where client_id = ?`).all(seed)
        copied[table] = rows.length
        if (rows.length === 0) continue
        const columns = Object.keys(rows[0])
        const insert = db.prepare(
          `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
        )
        for (const client of clients) {
          for (const row of rows) insert.run({ ...row, client_id: client, ...(id ? { [id]: newId() } : {}) })
        }
      }
    })()
    return copied
  } finally {
    db.close()
  }
}

/**
 * bench/README.md, `self-serve-load`: the runtime load of a tenant with 3 metrics of its own, a
 * saved layout and 2 views, with 10,000 such tenants stored, against the load of the same
 * content authored by the company (a dashboard with by_region and the same 3 metrics in the same
 * layout) by a tenant with nothing stored, alternating: the ratio is the overlay's cost, not
 * that of drawing 4 metrics instead of 1. One tenant's state is made through the real routes;
 * the other 9,999 are its rows cloned in the store (cloneTenantRows): 60,000 HTTP requests
 * would take minutes.
 */
export async function selfServeLoad(ctx, server, setup) {
  const { opts, log, wh } = ctx
  const tenants = opts.smoke ? 200 : 10_000
  const table = `${wh.schema}.sales_small`
  const newEmbed = async (dashboardId) =>
    (
      await api(server.url, 'POST', '/api/v2/data-app/embeds', {
        token: setup.dataAppKey,
        body: {
          dashboardId,
          embedType: 'dashboard',
          workspaceName: 'pg',
          accessSettings: { datamartName: 'pgmart', ...SELF_SERVE_ACCESS },
        },
      })
    ).id
  const embedId = await newEmbed('pg-sales')
  const mint = async (clientId, id = embedId) =>
    (
      await api(server.url, 'POST', '/api/v2/guest-token/create', {
        token: setup.dataAppKey,
        body: selfServeToken(id, clientId),
      })
    ).token
  const runtime = `/api/v2/embed/runtime/${embedId}`

  // the seed tenant's state, through the routes the web component calls
  const seed = 'ss0'
  const seedToken = await mint(seed)
  const metricIds = []
  for (const metric of tenantMetrics(table)) {
    const created = await api(server.url, 'POST', `${runtime}/metrics`, { token: seedToken, body: { metric } })
    metricIds.push(created.data.metricId)
  }
  await api(server.url, 'PUT', `${runtime}/layout`, { token: seedToken, body: { layout: tenantLayout(metricIds) } })
  await api(server.url, 'POST', `${runtime}/views`, {
    token: seedToken,
    body: { name: 'North and south', filters: { region: ['north', 'south'] } },
  })
  await api(server.url, 'POST', `${runtime}/views`, {
    token: seedToken,
    body: { name: 'Last 90 days', filters: { period: 'Last 90 days' } },
  })

  log(`  cloning the seed tenant's rows to ${tenants - 1} more tenants`)
  const clients = Array.from({ length: tenants - 1 }, (_, i) => `ss${i + 1}`)
  const started = performance.now()
  const rowsPerTenant = cloneTenantRows(server.dataDir, seed, clients)
  const cloneMs = Math.round(performance.now() - started)

  // baseline: the same 4 metrics and layout as the company's own dashboard, for a tenant with nothing stored
  const companyIds = ['orders_by_product', 'avg_amount_by_region', 'total_revenue']
  const companyDoc = salesDashboard('Sales with the tenant’s metrics', table, [
    byRegion('by_region', table),
    ...tenantMetrics(table).map((m, i) => ({ metricId: companyIds[i], ...m })),
  ])
  await api(server.url, 'POST', '/api/v2/data-app/import-dashboard', {
    token: setup.serviceToken,
    body: {
      workspaceName: 'pg',
      dashboardId: 'pg-sales-authored',
      importDashboardData: { ...companyDoc, layout: tenantLayout(companyIds) },
    },
  })
  const baselineEmbedId = await newEmbed('pg-sales-authored')
  const baselineRuntime = `/api/v2/embed/runtime/${baselineEmbedId}`

  // measured: a cloned tenant in the middle of the store (never loaded before)
  const measured = clients[Math.floor(clients.length / 2)]
  const scenarioToken = await mint(measured)
  const baselineToken = await mint('ss-untouched', baselineEmbedId)
  const loaded = await api(server.url, 'GET', runtime, { token: scenarioToken })
  const own = loaded.metrics.filter((m) => m.origin === 'tenant').length
  if (own !== 3 || loaded.views.length !== 2 || loaded.dashboard.customLayout !== true) {
    throw new Error(
      `self-serve-load: tenant ${measured} loads ${own} own metrics, ${loaded.views.length} views, customLayout ${loaded.dashboard.customLayout} (want 3, 2, true)`,
    )
  }
  const untouched = await api(server.url, 'GET', baselineRuntime, { token: baselineToken })
  if (untouched.metrics.some((m) => m.origin === 'tenant') || untouched.views.length !== 0) {
    throw new Error('self-serve-load: the untouched tenant sees self-serve state')
  }
  if (untouched.metrics.length !== loaded.metrics.length) {
    throw new Error(
      `self-serve-load: the baseline shows ${untouched.metrics.length} metrics, the tenant ${loaded.metrics.length}`,
    )
  }

  const result = await comparePair({
    id: 'self-serve-load',
    baseline: {
      url: server.url + baselineRuntime,
      headers: { authorization: `Bearer ${baselineToken}` },
      pid: server.pid,
    },
    scenario: { url: server.url + runtime, headers: { authorization: `Bearer ${scenarioToken}` }, pid: server.pid },
    target: 0.8,
    opts,
    log,
  })
  return { ...result, setup: { tenants, rowsPerTenant, cloneMs, measuredTenant: measured } }
}
