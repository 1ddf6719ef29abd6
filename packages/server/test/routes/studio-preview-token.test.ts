/**
 * `POST /api/v2/studio/preview-token`: the studio's guest token, minted for the signed-in admin
 * without the data app key. It is a tenant's token (the numbers are that tenant's rows only),
 * loads one dashboard, is refused to every token but the admin's, and checks its body as the
 * guest-token route does.
 */
import { describe, expect, it } from 'vitest'
import { salesDocument } from '../helpers/analytics.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const PATH = '/api/v2/studio/preview-token'

describe.skipIf(!hasPg)('the studio preview token', () => {
  const { wh, a } = useAnalytics('sqlite', { app: 'suite' })
  const body = (extra: object = {}) => ({
    dataAppName: 'salesapp',
    workspaceName: 'main',
    dashboardId: 'sales-overview',
    clientId: 'acme',
    ...extra,
  })
  const preview = async (extra: object = {}) =>
    (await a.ok('POST', PATH, a.accessToken, body(extra))).data as { token: string; embedId: string; expiresAt: string }
  const revenueOf = async (tenant: string) => {
    const [row] = await wh.query<{ s: string }>(`select sum(amount) s from ${wh.schema}.orders where tenant = $1`, [
      tenant,
    ])
    return Number(row?.s)
  }
  const revenueSeenBy = async (token: string, embedId: string) => {
    const res = await a.call('POST', `/api/v2/embed/runtime/${embedId}/query`, token, { metricId: 'revenue' })
    expect(res.statusCode, res.body).toBe(200)
    const [row] = res.json().data as { revenue: number | string }[]
    return Number(row?.revenue)
  }

  it("mints a tenant's token with the admin access token: each tenant sees its own rows only", async () => {
    // the fixture's tenants have the same revenue: one more order makes acme's differ
    await wh.query(
      `insert into ${wh.schema}.orders values (9001, 3, 'acme', 'paid', 500, timestamptz '2026-03-01 00:00:00+00')`,
    )
    const acme = await preview()
    expect(acme.embedId).toBe('sales-overview')
    expect(Date.parse(acme.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000)
    const globex = await preview({ clientId: 'globex' })
    const [acmeRevenue, globexRevenue] = [
      await revenueSeenBy(acme.token, acme.embedId),
      await revenueSeenBy(globex.token, globex.embedId),
    ]
    expect(acmeRevenue).toBeCloseTo(await revenueOf('acme'), 2)
    expect(globexRevenue).toBeCloseTo(await revenueOf('globex'), 2)
    expect(acmeRevenue).not.toBeCloseTo(globexRevenue, 2)
  })

  it('loads the embed end users load (read-only here), and only this dashboard', async () => {
    const { token } = await preview()
    const loaded = await a.call('GET', '/api/v2/embed/runtime/sales-overview', token)
    expect(loaded.statusCode, loaded.body).toBe(200)
    expect(loaded.json().embedId).toBe(a.embedId)
    expect(loaded.json().permissions.metricCreation).toBe(false)
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'other',
      importDashboardData: salesDocument(wh.schema),
    })
    const other = await a.call('GET', '/api/v2/embed/runtime/other', token)
    expect(other.statusCode).toBe(403)
    expect(other.json().error.code).toBe('UNAUTHORIZED')
  })

  it('a dashboard no data app embeds yet: read-only for a preview, the builder for the author', async () => {
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'draft',
      importDashboardData: salesDocument(wh.schema),
    })
    const read = await preview({ dashboardId: 'draft' })
    const seen = await a.call('GET', '/api/v2/embed/runtime/draft', read.token)
    expect(seen.statusCode, seen.body).toBe(200)
    expect(seen.json().permissions).toMatchObject({ metricCreation: false, customizeLayout: false })
    expect(await revenueSeenBy(read.token, 'draft')).toBeCloseTo(await revenueOf('acme'), 2)

    const author = await preview({ dashboardId: 'draft', author: true })
    const authored = await a.call('GET', '/api/v2/embed/runtime/draft', author.token)
    expect(authored.json().permissions).toMatchObject({
      metricCreation: true,
      metricUpdate: true,
      customizeLayout: true,
      metricDeletion: false,
    })
    const model = await a.call('GET', '/api/v2/embed/runtime/draft/model', author.token)
    expect(model.statusCode, model.body).toBe(200)
    expect(model.json().data.tables.length).toBeGreaterThan(0)
    // the builder previews, but nothing is saved in a tenant's name: the studio writes the document
    const metric = {
      name: 'Orders',
      chart: { type: 'single-value' },
      query: { from: `${wh.schema}.orders`, measures: [{ name: 'orders', aggregate: 'count' }] },
    }
    const previewed = await a.call('POST', '/api/v2/embed/runtime/draft/preview', author.token, { metric })
    expect(previewed.statusCode, previewed.body).toBe(200)
    for (const [method, url, payload] of [
      ['POST', '/api/v2/embed/runtime/draft/metrics', { metric }],
      ['PUT', '/api/v2/embed/runtime/draft/layout', { layout: [{ metricId: 'revenue', x: 0, y: 0, w: 3, h: 2 }] }],
      ['POST', '/api/v2/embed/runtime/draft/views', { name: 'Mine', filters: {} }],
    ] as const) {
      const refused = await a.call(method, url, author.token, payload)
      expect(refused.statusCode, `${method} ${url}`).toBe(403)
      expect(refused.json().error.code).toBe('INSUFFICIENT_PERMISSIONS')
    }
  })

  it('refuses the service token, a guest token and no token', async () => {
    const { token } = await preview()
    for (const credential of [a.serviceToken, a.dataAppKey, token]) {
      const res = await a.call('POST', PATH, credential, body())
      expect(res.statusCode).toBe(401)
      expect(res.json().error.code).toBe('AUTHENTICATION_ERROR')
    }
    const none = await a.call('POST', PATH, '', body())
    expect(none.statusCode).toBe(401)
  })

  it('refuses a bad body with the codes of the guest-token route', async () => {
    for (const clientId of ['', 'x'.repeat(501), 42]) {
      const studio = await a.call('POST', PATH, a.accessToken, body({ clientId }))
      const guest = await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
      })
      expect(studio.statusCode).toBe(400)
      expect(studio.json().error.code).toBe(guest.json().error.code)
      expect(studio.json().error.code).toBe('INVALID_REQUEST_BODY')
      expect(studio.json().error.message).toMatch(/clientId/)
    }
    const cases: [object, string, RegExp][] = [
      [{ dataAppName: 'nope' }, 'INVALID_REQUEST_BODY', /dataAppName/],
      [{ workspaceName: 'nope' }, 'WORKSPACE_ID_ERROR', /workspaceName/],
      [{ dashboardId: 'nope' }, 'INVALID_REQUEST_BODY', /dashboardId/],
      [{ rlsSettings: [{ metricId: 'nope', values: { x: ['a'] } }] }, 'RLS_SETTINGS_PARAM_ERROR', /rlsSettings\[0\]/],
      [{ permissions: { isEnableEverything: true } }, 'INVALID_REQUEST_BODY', /isEnableEverything/],
      [{ expiryTime: 5000 }, 'INVALID_REQUEST_BODY', /expiryTime/],
    ]
    for (const [extra, code, message] of cases) {
      const res = await a.call('POST', PATH, a.accessToken, body(extra))
      expect(res.statusCode, JSON.stringify(extra)).toBe(400)
      expect(res.json().error).toMatchObject({ code, message: expect.stringMatching(message) })
    }
  })
})
