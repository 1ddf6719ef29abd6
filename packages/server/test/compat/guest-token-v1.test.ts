import { beforeEach, describe, expect, it } from 'vitest'
import { embedDashboard, salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

/**
 * The v1 guest token (`POST /api/v1/guest-token/create`) and the guest-token error codes the
 * hosted service documents, replayed with bodies written after its public pages: v1 names a
 * workspace where v2 names a data app; the token is the key's data app's, narrowed to that
 * workspace's dashboards (and to one with `params.dashboard`). The body stays strict. Over
 * helpers/analytics.ts, with a second workspace holding a second embedded dashboard.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const V1 = '/api/v1/guest-token/create'
const V2 = '/api/v2/guest-token/create'

describe.skipIf(!hasPg).each(storeKinds)('guest tokens as the hosted service documents them on %s', (store) => {
  const { wh, a } = useAnalytics(store)
  const { rt } = runtimeCalls(a)
  const mint = (path: string, body: object) => a.call('POST', path, a.dataAppKey, body)
  const loads = async (token: string, id: string) => (await rt('GET', id, '', token)).statusCode
  let secondInMain: string
  let elsewhere: string

  // main: sales-overview (a.embedId) and sales-copy; other: other-dash
  beforeEach(async () => {
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
      name: 'other',
      connectionType: 'DATAMART',
      datamartName: 'sales',
    })
    for (const [workspaceName, dashboardId] of [
      ['main', 'sales-copy'],
      ['other', 'other-dash'],
    ] as const) {
      await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
        workspaceName,
        dashboardId,
        importDashboardData: salesDocument(wh.schema),
      })
    }
    secondInMain = await embedDashboard(a, 'sales-copy')
    elsewhere = await embedDashboard(a, 'other-dash', { workspaceName: 'other' })
  })

  it("v1's simple body: a token of the key's data app for the workspace's dashboards only", async () => {
    const res = await mint(V1, { clientId: 'acme', workspaceName: 'main' })
    expect(res.statusCode, res.body).toBe(200)
    const { token } = res.json()
    expect(Object.keys(res.json())).toEqual(['token'])
    expect([
      await loads(token, a.embedId),
      await loads(token, secondInMain),
      await loads(token, 'sales-overview'),
    ]).toEqual([200, 200, 200])
    expectError(await rt('GET', elsewhere, '', token), 403, 'UNAUTHORIZED', /another workspace/)
    expectError(await rt('GET', 'other-dash', '', token), 403, 'UNAUTHORIZED')
    // its queries are the tenant's, as a v2 token's are
    const query = await rt('POST', a.embedId, '/query', token, { metricId: 'revenue' })
    expect(query.statusCode, query.body).toBe(200)
    const [row] = await wh.query<{ s: string }>(`select sum(amount) s from ${wh.schema}.orders where tenant = 'acme'`)
    expect(Number(query.json().data[0].revenue)).toBeCloseTo(Number(row?.s), 6)
    // a v2 token of the same key loads every workspace's embeds
    const v2 = (await a.ok('POST', V2, a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' })).token
    expect(await loads(v2, elsewhere)).toBe(200)
  })

  it("v1's dashboard param narrows the token to that dashboard of the workspace", async () => {
    const res = await mint(V1, { clientId: 'acme', workspaceName: 'main', params: { dashboard: { id: 'sales-copy' } } })
    expect(res.statusCode, res.body).toBe(200)
    const { token } = res.json()
    expect([await loads(token, secondInMain), await loads(token, 'sales-copy')]).toEqual([200, 200])
    expectError(await rt('GET', a.embedId, '', token), 403, 'UNAUTHORIZED')
    // a dashboard of another workspace, or none: DASHBOARD_PARAM_ERROR
    for (const id of ['other-dash', 'dashboardid']) {
      expectError(
        await mint(V1, { clientId: 'acme', workspaceName: 'main', params: { dashboard: { id } } }),
        400,
        'DASHBOARD_PARAM_ERROR',
        new RegExp(`params\\.dashboard\\.id: .*"${id}"`),
      )
    }
    expectError(
      await mint(V1, {
        clientId: 'acme',
        workspaceName: 'main',
        params: { dashboard: { id: 'sales-copy' }, allowedEmbeds: [a.embedId] },
      }),
      400,
      'INVALID_REQUEST_BODY',
      /not both/,
    )
  })

  it("v1 with the data app's name in workspaceName: the data app's token, not narrowed; other names refused", async () => {
    const { token } = await a.ok('POST', V1, a.dataAppKey, { clientId: 'acme', workspaceName: 'salesapp' })
    expect([await loads(token, a.embedId), await loads(token, elsewhere)]).toEqual([200, 200])
    const narrowed = await a.ok('POST', V1, a.dataAppKey, {
      clientId: 'acme',
      workspaceName: 'salesapp',
      params: { dashboard: { id: 'other-dash' } },
    })
    expect([await loads(narrowed.token, elsewhere), await loads(narrowed.token, a.embedId)]).toEqual([200, 403])
    expectError(
      await mint(V1, { clientId: 'acme', workspaceName: 'nosuchapp' }),
      400,
      'WORKSPACE_ID_ERROR',
      /nosuchapp/,
    )
    expectError(
      await mint(V1, { clientId: 'acme', workspaceName: 'salesapp', params: { dashboard: { id: 'dashboardid' } } }),
      400,
      'DASHBOARD_PARAM_ERROR',
    )
  })

  it('v1 filters and RLS as the examples send them; the body stays strict', async () => {
    const withFilters = await mint(V1, {
      clientId: 'acme',
      workspaceName: 'main',
      params: {
        appFilters: [{ metricId: 'revenue_by_country', values: { paid: ['paid'] } }],
        dashboardAppFilters: [
          {
            dashboardId: 'sales-overview',
            values: { country: ['DE', 'FR'], period: { startDate: '2026-01-01', endDate: '2026-03-23' } },
            isShowOnUrl: false,
          },
        ],
        rlsSettings: [{ metricId: 'revenue', values: {} }],
      },
      expiryTime: 3_600_000,
    })
    expect(withFilters.statusCode, withFilters.body).toBe(200)
    expect(await loads(withFilters.json().token, a.embedId)).toBe(200)
    for (const [body, code, message] of [
      [
        { clientId: 'acme', workspaceName: 'workspacename' },
        'WORKSPACE_ID_ERROR',
        /workspaceName: no workspace named workspacename/,
      ],
      [{ clientId: 'acme', workspaceName: 'main', dataAppName: 'salesapp' }, 'INVALID_REQUEST_BODY', /dataAppName/],
      [{ clientId: 'acme', dataAppName: 'salesapp' }, 'INVALID_REQUEST_BODY', /workspaceName/],
      [{ clientId: 'acme', workspaceName: 'main', tenant_id: 'acme' }, 'INVALID_REQUEST_BODY', /tenant_id/],
      [
        { clientId: 'acme', workspaceName: 'main', params: { dashboard: { id: 'x', name: 'y' } } },
        'INVALID_REQUEST_BODY',
        /name/,
      ],
      [{ workspaceName: 'main' }, 'INVALID_REQUEST_BODY', /clientId/],
    ] as const) {
      expectError(await mint(V1, body), 400, code, message)
    }
    // v2 keeps its own body: no params.dashboard there
    expectError(
      await mint(V2, { clientId: 'acme', dataAppName: 'salesapp', params: { dashboard: { id: 'sales-overview' } } }),
      400,
      'INVALID_REQUEST_BODY',
      /dashboard/,
    )
    expectError(
      await a.call('POST', V1, a.serviceToken, { clientId: 'acme', workspaceName: 'main' }),
      401,
      'AUTHENTICATION_ERROR',
    )
  })

  it.each([V1, V2])('names the codes of the hosted guest-token table on %s', async (path) => {
    const base =
      path === V1 ? { clientId: 'acme', workspaceName: 'main' } : { clientId: 'acme', dataAppName: 'salesapp' }
    const cases: [object, string, RegExp][] = [
      // the usual mistake: the embed id where the dashboard id belongs
      [
        { dashboardAppFilters: [{ dashboardId: a.embedId, values: { country: 'DE' } }] },
        'APP_FILTER_PARAM_ERROR',
        /dashboardAppFilters\[0\]\.dashboardId: .*is an embed id: name the dashboard/,
      ],
      [
        { dashboardAppFilters: [{ dashboardId: 'dashboard-id', values: {} }] },
        'APP_FILTER_PARAM_ERROR',
        /"dashboard-id"/,
      ],
      [
        { appFilters: [{ metricId: 'nope', values: { amount: 500 } }] },
        'APP_FILTER_PARAM_ERROR',
        /appFilters\[0\]\.metricId/,
      ],
      [
        { rlsSettings: [{ metricId: 'nope', values: { paid_orders: true } }] },
        'RLS_SETTINGS_PARAM_ERROR',
        /rlsSettings\[0\]/,
      ],
    ]
    for (const [params, code, message] of cases) {
      expectError(await mint(path, { ...base, params }), 400, code, message)
    }
    // the dashboard id itself is accepted
    const ok = await mint(path, {
      ...base,
      params: { dashboardAppFilters: [{ dashboardId: 'sales-overview', values: {} }] },
    })
    expect(ok.statusCode, ok.body).toBe(200)
    // "None" where the datamart has client columns: minted, and refused when it queries
    const none = await mint(path, { ...base, clientId: 'None' })
    expect(none.statusCode, none.body).toBe(200)
    expectError(
      await rt('POST', a.embedId, '/query', none.json().token, { metricId: 'revenue' }),
      400,
      'CLIENT_ID_ERROR',
      /clientId: "None" means no tenancy/,
    )
  })
})
