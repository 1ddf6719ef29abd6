import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, storeKinds, type TestContext } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const FULL_PARAMS = {
  rlsSettings: [{ metricId: 'revenue', values: { region: 'EU' } }],
  appFilters: [{ metricId: 'revenue_by_country', values: { paid: ['paid'] } }],
  dashboardAppFilters: [{ dashboardId: 'sales-overview', values: { country: ['DE', 'FR'] }, isShowOnUrl: false }],
  hideDashboardFilters: ['amount'],
  allowedEmbeds: ['sales-overview'],
  accessPermissions: {
    isAllowEndUserDashboardFilter: true,
    dashboardFilterColumns: [{ tableName: 'orders', columns: ['status'] }],
  },
  userIdentifier: 'user-1',
  timezone: 'Europe/Berlin',
}

describe.skipIf(!hasPg).each(storeKinds)('guest tokens on %s', (store) => {
  let wh: PgWarehouse
  let t: TestContext
  let a: Awaited<ReturnType<typeof setupAnalytics>>
  beforeAll(async () => {
    wh = await createPgWarehouse()
  })
  afterAll(async () => wh.drop())
  beforeEach(async () => {
    t = await createTestApp(store)
    a = await setupAnalytics(t.app, wh)
  })
  afterEach(async () => t.close())

  const mint = (body: object, key = a.dataAppKey) => a.call('POST', '/api/v2/guest-token/create', key, body)

  it('mints an opaque token with every declared field, stored only as a hash', async () => {
    const res = await mint({
      dataAppName: 'salesapp',
      clientId: 'acme',
      params: FULL_PARAMS,
      permissions: { isEnableDownloadMetrics: true, isShowSideBar: false, isDisableMetricCreation: true },
      expiryTime: 60_000,
      datasourceName: 'warehouse',
      datamartName: 'sales',
    })
    expect(res.statusCode, res.body).toBe(200)
    const { token } = res.json() as unknown as { token: string }
    expect(token).toMatch(/^gt_[A-Za-z0-9_-]{40,}$/)
    expect(Object.keys(res.json())).toEqual(['token'])
    const rows = await t.app.services.store.db.selectFrom('guest_tokens').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(token)
    expect(rows[0]?.expires_at).not.toBeNull()
    expect(t.rawLogs.join('\n')).not.toContain(token)
    const claims = JSON.parse(rows[0]?.claims ?? '{}')
    expect(claims.params.dashboardAppFilters[0].isShowOnUrl).toBe(false)
  })

  it('rejects every undeclared field and the named invalid ones with INVALID_REQUEST_BODY', async () => {
    const base = { dataAppName: 'salesapp', clientId: 'acme' }
    for (const body of [
      { ...base, dataAppId: 'x' },
      { ...base, client_id: 'acme' },
      { ...base, tenant_id: 'acme' },
      { ...base, permissions: { dashboards: ['x'] } },
      { ...base, params: { nope: 1 } },
      { ...base, params: { rlsSettings: [{ metricId: 'm', values: {}, extra: 1 }] } },
      { ...base, params: { appFilters: [{ values: {} }] } },
      { ...base, params: { dashboardAppFilters: [{ values: {} }] } },
      { ...base, params: { dashboardAppFilters: [{ dashboardId: 'd', values: {}, isShowOnUrl: 'no' }] } },
      { ...base, params: { accessPermissions: { dashboardFilterColumns: [{ tableName: 't' }] } } },
      { ...base, params: { timezone: 'Mars/Olympus' } },
      { ...base, params: { timezone: 'not a zone' } },
      { ...base, params: { hideDashboardFilters: 'amount' } },
      { ...base, permissions: { isShowSideBar: 'true' } },
      { ...base, expiryTime: -5 },
      { ...base, expiryTime: '60000' },
      { dataAppName: 'salesapp' },
      { clientId: 'acme' },
      { ...base, dataAppName: 'sales app' },
    ]) {
      expectError(await mint(body), 400, 'INVALID_REQUEST_BODY')
    }
    const named = await mint({ ...base, dataAppId: 'x' })
    expect(named.json().error.message).toMatch(/dataAppId/)
    expectError(await mint({ ...base, dataAppName: 'otherapp' }), 400, 'INVALID_REQUEST_BODY', /dataAppName/)
  })

  it('answers AUTHENTICATION_ERROR 401 for a bad key, and refuses other token kinds', async () => {
    const body = { dataAppName: 'salesapp', clientId: 'acme' }
    expectError(await mint(body, 'sk_nope'), 401, 'AUTHENTICATION_ERROR')
    expectError(await mint(body, a.serviceToken), 401, 'AUTHENTICATION_ERROR')
    expectError(await mint(body, a.accessToken), 401, 'AUTHENTICATION_ERROR')
    const guest = (await mint(body)).json() as unknown as { token: string }
    expectError(await mint(body, guest.token), 401, 'AUTHENTICATION_ERROR')
    // and a guest token opens none of the secret-key routes
    expectError(await a.call('GET', '/api/v2/data-app/embeds', guest.token), 400, 'INVALID_DATA_APP_API_KEY')
    expectError(await a.call('GET', '/api/v2/datasource', guest.token), 401, 'AUTHENTICATION_ERROR')
    // and a secret key opens no browser route
    expectError(await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, a.dataAppKey), 401, 'AUTHENTICATION_ERROR')
  })

  it('expires after expiryTime (401), is cleaned up, and never expires when omitted', async () => {
    const short = (await mint({ dataAppName: 'salesapp', clientId: 'acme', expiryTime: 300 })).json() as unknown as {
      token: string
    }
    const forever = (await mint({ dataAppName: 'salesapp', clientId: 'acme' })).json() as unknown as { token: string }
    expect((await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, short.token)).statusCode).toBe(200)
    await new Promise((r) => setTimeout(r, 400))
    expectError(await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, short.token), 401, 'AUTHENTICATION_ERROR')
    expect(await t.app.services.guestTokens.cleanup()).toBe(1)
    const left = await t.app.services.store.db.selectFrom('guest_tokens').select('expires_at').execute()
    expect(left).toEqual([{ expires_at: null }])
    expectError(await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, short.token), 401, 'AUTHENTICATION_ERROR')
    expect((await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, forever.token)).statusCode).toBe(200)
  })

  it('loads only allowedEmbeds (403 UNAUTHORIZED otherwise); a deleted embed is 401 at once', async () => {
    const other = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'metric',
      metricId: 'revenue',
      workspaceName: 'main',
    })
    const { token } = (
      await mint({ dataAppName: 'salesapp', clientId: 'acme', params: { allowedEmbeds: [a.embedId] } })
    ).json() as unknown as { token: string }
    expect((await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, token)).statusCode).toBe(200)
    expectError(await a.call('GET', `/api/v2/embed/runtime/${other.id}`, token), 403, 'UNAUTHORIZED')
    expectError(
      await a.call('POST', `/api/v2/embed/runtime/${other.id}/query`, token, { metricId: 'revenue' }),
      403,
      'UNAUTHORIZED',
    )
    // a dashboard id names the dashboard's embed
    const byDashboard = (
      await mint({ dataAppName: 'salesapp', clientId: 'acme', params: { allowedEmbeds: ['sales-overview'] } })
    ).json() as unknown as { token: string }
    expect((await a.call('GET', '/api/v2/embed/runtime/sales-overview', byDashboard.token)).json().embedId).toBe(
      a.embedId,
    )

    await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${a.embedId}`, a.dataAppKey)
    expectError(await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, token), 401, 'AUTHENTICATION_ERROR')
    expectError(
      await a.call('POST', `/api/v2/embed/runtime/${a.embedId}/query`, token, { metricId: 'revenue' }),
      401,
      'AUTHENTICATION_ERROR',
    )
  })

  it('gives the browser the embed minus hidden filters, pinned filters with isShowOnUrl, and effective permissions', async () => {
    const { token } = (
      await mint({
        dataAppName: 'salesapp',
        clientId: 'acme',
        params: { ...FULL_PARAMS, rlsSettings: [], allowedEmbeds: [a.embedId] },
        permissions: { isEnableDownloadMetrics: true, isShowSideBar: false },
      })
    ).json() as unknown as { token: string }
    const res = await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, token)
    expect(res.statusCode, res.body).toBe(200)
    const body = res.json() as unknown as {
      dashboard: { filters: { name: string; pinned?: unknown; isShowOnUrl?: boolean }[]; layout: unknown[] }
      metrics: { metricId: string }[]
      permissions: Record<string, boolean>
      timezone: string
    }
    expect(body.dashboard.filters.map((f) => f.name)).toEqual(['country', 'status', 'period'])
    expect(body.dashboard.filters[0]).toMatchObject({ pinned: ['DE', 'FR'], isShowOnUrl: false })
    expect(body.metrics.map((m) => m.metricId)).toEqual(['revenue', 'revenue_by_country', 'orders_by_month'])
    expect(body.permissions).toMatchObject({
      download: true,
      showSideBar: false,
      showDashboardName: true,
      underlyingData: false,
    })
    expect(body.timezone).toBe('Europe/Berlin')
  })
})
