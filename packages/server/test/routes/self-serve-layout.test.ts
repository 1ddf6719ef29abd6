/**
 * docs/runtime-api.md#the-end-users-layout: an end user's layout (PUT/DELETE /layout) and dashboard views
 * (GET/POST /views, DELETE /views/:viewId), keyed by dashboard, data app, clientId and
 * userIdentifier, overlaid on the company's dashboard by the load.
 */

import { VIEW_MAX_BYTES } from '@strata/contract/self-serve'
import { CompiledQuery, sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { savedLayoutsQuery, viewsQuery } from '../../src/services/self-serve/end-user-state.js'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

interface Item {
  metricId: string
  x: number
  y: number
  w: number
  h: number
}
interface View {
  viewId: string
  name: string
  filters: Record<string, unknown>
  layout?: Item[]
}
interface Loaded {
  dashboard: { layout: Item[]; customLayout: boolean }
  views: View[]
  permissions: { customizeLayout: boolean; dashboardViews: boolean }
}

const item = (metricId: string, x: number, y: number, w: number, h: number): Item => ({ metricId, x, y, w, h })
/** The sales document's layout (helpers/analytics.ts). */
const COMPANY = [
  item('revenue', 0, 0, 3, 2),
  item('revenue_by_country', 3, 0, 6, 4),
  item('orders_by_month', 0, 4, 12, 4),
]
const ON = { isAllowMetricLayoutChange: true, isAllowCreateDashboardView: true }

describe.skipIf(!hasPg).each(storeKinds)('self-serve layout and views on %s', (store) => {
  const { wh, t, a } = useAnalytics(store, { app: 'suite' })

  const setAccess = (accessSettings: object, embedId = a.embedId) =>
    a.ok('PUT', '/api/v2/data-app/embeds', a.dataAppKey, { embedId, accessSettings })
  const mint = async (clientId: string, user?: string, extra: { permissions?: object; params?: object } = {}) =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        params: { ...(user ? { userIdentifier: user } : {}), ...extra.params },
        ...(extra.permissions ? { permissions: extra.permissions } : {}),
      })
    ).token as string
  const rt = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    token: string,
    body?: object,
    embedId = a.embedId,
  ) => a.call(method, `/api/v2/embed/runtime/${embedId}${path}`, token, body)
  const load = async (token: string, embedId = a.embedId): Promise<Loaded> => {
    const res = await rt('GET', '', token, undefined, embedId)
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as Loaded
  }
  const putLayout = async (token: string, layout: Item[]) => {
    const res = await rt('PUT', '/layout', token, { layout })
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { data: { layout: Item[] } }).data.layout
  }
  const resetLayout = async (token: string) => {
    const res = await rt('DELETE', '/layout', token)
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as { data: { layout: Item[] }; error: null }
  }
  const saveView = async (token: string, body: object) => {
    const res = await rt('POST', '/views', token, body)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { data: { viewId: string; name: string } }).data
  }
  const listViews = async (token: string) => {
    const res = await rt('GET', '/views', token)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { data: View[] }).data
  }

  beforeAll(async () => {
    await setAccess(ON)
  })

  it("a saved layout survives a reload, other tenants keep the company's, DELETE restores it", async () => {
    const acme = await mint('acme')
    const before = await load(acme)
    expect(before.dashboard).toMatchObject({ layout: COMPANY, customLayout: false })
    // metrics left out are appended below, two per row (w 6, h 4)
    const mine = [item('revenue_by_country', 0, 0, 12, 6)]
    const appended = [...mine, item('revenue', 0, 6, 6, 4), item('orders_by_month', 6, 6, 6, 4)]
    expect(await putLayout(acme, mine)).toEqual(appended)
    // a new token of the tenant (a reload) gets it
    expect((await load(await mint('acme'))).dashboard).toMatchObject({ layout: appended, customLayout: true })
    expect((await load(await mint('globex'))).dashboard).toMatchObject({ layout: COMPANY, customLayout: false })
    // PUT again replaces it
    const again = [
      item('orders_by_month', 0, 0, 12, 3),
      item('revenue', 0, 3, 4, 3),
      item('revenue_by_country', 4, 3, 8, 3),
    ]
    expect(await putLayout(acme, again)).toEqual(again)
    expect((await load(acme)).dashboard.layout).toEqual(again)
    expect(await resetLayout(acme)).toEqual({ data: { layout: COMPANY }, error: null })
    expect((await load(await mint('acme'))).dashboard).toMatchObject({ layout: COMPANY, customLayout: false })
  })

  it("a user's layout is theirs: their tenant and its other users keep the tenant's, another tenant's user of the same name sees nothing", async () => {
    const tenant = await mint('acme')
    const u1 = await mint('acme', 'u1')
    const u2 = await mint('acme', 'u2')
    const globexU1 = await mint('globex', 'u1')
    const tenantLayout = [
      item('revenue', 0, 0, 12, 2),
      item('revenue_by_country', 0, 2, 6, 4),
      item('orders_by_month', 6, 2, 6, 4),
    ]
    const u1Layout = [
      item('orders_by_month', 0, 0, 6, 8),
      item('revenue', 6, 0, 6, 4),
      item('revenue_by_country', 6, 4, 6, 4),
    ]
    await putLayout(tenant, tenantLayout)
    await putLayout(u1, u1Layout)
    expect((await load(u1)).dashboard).toMatchObject({ layout: u1Layout, customLayout: true })
    expect((await load(u2)).dashboard).toMatchObject({ layout: tenantLayout, customLayout: true })
    expect((await load(tenant)).dashboard.layout).toEqual(tenantLayout)
    expect((await load(globexU1)).dashboard).toMatchObject({ layout: COMPANY, customLayout: false })
    // another user's and another tenant's PUT and DELETE touch only their own
    await putLayout(globexU1, [item('revenue', 0, 0, 12, 9)])
    expect((await resetLayout(u2)).data.layout).toEqual(tenantLayout)
    expect((await load(u1)).dashboard.layout).toEqual(u1Layout)
    expect((await load(tenant)).dashboard.layout).toEqual(tenantLayout)
    // u1 forgets theirs: back to the tenant's; the tenant forgets: the company's
    expect((await resetLayout(u1)).data.layout).toEqual(tenantLayout)
    expect((await resetLayout(tenant)).data.layout).toEqual(COMPANY)
    expect((await load(u1)).dashboard).toMatchObject({ layout: COMPANY, customLayout: false })
    await resetLayout(globexU1)
  })

  it('a page on another, whitelisted origin may PUT and DELETE (the CORS preflight allows them)', async () => {
    await a.ok('PUT', '/api/v2/data-app/whitelist-domains', a.dataAppKey, { domains: ['app.example.com'] })
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `/api/v2/embed/runtime/${a.embedId}/layout`,
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PUT' },
    })
    expect(preflight.statusCode).toBe(204)
    const methods = String(preflight.headers['access-control-allow-methods']).split(/,\s*/)
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']))
  })

  describe('each route is refused by the embed setting and, separately, by the token flag', () => {
    const routes = {
      customizeLayout: {
        setting: 'isAllowMetricLayoutChange',
        flag: 'isEnableCustomizeLayout',
        calls: [
          ['PUT', '/layout', { layout: [item('revenue', 0, 0, 6, 4)] }],
          ['DELETE', '/layout', undefined],
        ],
      },
      dashboardViews: {
        setting: 'isAllowCreateDashboardView',
        flag: 'isEnableCreateDashboardView',
        calls: [
          ['GET', '/views', undefined],
          ['POST', '/views', { name: 'permission probe', filters: {} }],
          ['DELETE', '/views/v_nonexistent1', undefined],
        ],
      },
    } as const
    for (const [capability, { setting, flag, calls }] of Object.entries(routes)) {
      it(`${capability}: ${calls.map(([m, p]) => `${m} ${p}`).join(', ')}`, async () => {
        try {
          // the embed allows it, the token turns it off
          const off = await mint('perm', undefined, { permissions: { [flag]: false } })
          expect((await load(off)).permissions).toMatchObject({ [capability]: false })
          for (const [method, path, body] of calls) {
            expectError(await rt(method, path, off, body), 403, 'INSUFFICIENT_PERMISSIONS')
          }
          // the token enables it, the embed does not allow it
          await setAccess({ [setting]: false })
          const on = await mint('perm', undefined, { permissions: { [flag]: true } })
          expect((await load(on)).permissions).toMatchObject({ [capability]: false })
          for (const [method, path, body] of calls) {
            expectError(await rt(method, path, on, body), 403, 'INSUFFICIENT_PERMISSIONS')
          }
          // both: allowed (the DELETE of an unknown view is then the 400 of a view that is not there)
          await setAccess({ [setting]: true })
          const statuses: number[] = []
          for (const [method, path, body] of calls) statuses.push((await rt(method, path, on, body)).statusCode)
          expect(statuses).toEqual(calls.map(([, path]) => (path.startsWith('/views/') ? 400 : 200)))
          // an omitted token flag inherits the embed's setting
          expect((await load(await mint('perm'))).permissions).toMatchObject({ [capability]: true })
        } finally {
          await setAccess(ON)
        }
      })
    }

    it('the load lists views only with the views permission', async () => {
      const token = await mint('viewsperm')
      await saveView(token, { name: 'mine', filters: {} })
      expect((await load(token)).views.map((v) => v.name)).toEqual(['mine'])
      const without = await mint('viewsperm', undefined, { permissions: { isEnableCreateDashboardView: false } })
      expect((await load(without)).views).toEqual([])
    })
  })

  it('views: saved, listed and deleted under the token’s key only; no other key sees, changes or deletes them', async () => {
    const u1 = await mint('acme', 'u1')
    const u2 = await mint('acme', 'u2')
    const tenant = await mint('acme')
    const globexU1 = await mint('globex', 'u1')
    const layout = [item('revenue_by_country', 0, 0, 12, 6)]
    const created = await saveView(u1, {
      name: 'Germany, paid',
      filters: { Country: ['DE'], status: ['paid'] },
      layout,
    })
    expect(created).toEqual({ viewId: expect.stringMatching(/^v_[A-Za-z0-9_-]{12}$/), name: 'Germany, paid' })
    const expected: View = {
      viewId: created.viewId,
      name: 'Germany, paid',
      // keyed by the filters' names
      filters: { country: ['DE'], status: ['paid'] },
      layout: [...layout, item('revenue', 0, 6, 6, 4), item('orders_by_month', 6, 6, 6, 4)],
    }
    expect(await listViews(u1)).toEqual([expected])
    expect((await load(await mint('acme', 'u1'))).views).toEqual([expected])
    for (const other of [u2, tenant, globexU1]) {
      expect(await listViews(other)).toEqual([])
      expect((await load(other)).views).toEqual([])
    }
    // another key's view is answered as one that does not exist
    const unknown = await rt('DELETE', '/views/v_doesnotexist', u2)
    expectError(unknown, 400, 'EMBED_PARAM_ERROR', /^View v_doesnotexist is not in embed /)
    for (const other of [u2, tenant, globexU1]) {
      const res = await rt('DELETE', `/views/${created.viewId}`, other)
      expectError(res, 400, 'EMBED_PARAM_ERROR')
      expect((res.json() as { error: { message: string } }).error.message).toBe(
        (unknown.json() as { error: { message: string } }).error.message.replace('v_doesnotexist', created.viewId),
      )
    }
    // a name is unique per key: taken for u1, free for u2
    expectError(
      await rt('POST', '/views', u1, { name: 'Germany, paid', filters: {} }),
      400,
      'INVALID_REQUEST_BODY',
      /^name: a view named "Germany, paid" is already saved/,
    )
    const u2View = await saveView(u2, { name: 'Germany, paid', filters: { period: 'Last 90 days' } })
    expect(await listViews(u1)).toEqual([expected])
    expect(await rt('DELETE', `/views/${created.viewId}`, u1).then((r) => [r.statusCode, r.json()])).toEqual([
      200,
      { data: { viewId: created.viewId }, error: null },
    ])
    expect(await listViews(u1)).toEqual([])
    expectError(await rt('DELETE', `/views/${created.viewId}`, u1), 400, 'EMBED_PARAM_ERROR')
    expect((await listViews(u2)).map((v) => v.viewId)).toEqual([u2View.viewId])
    await rt('DELETE', `/views/${u2View.viewId}`, u2)
  })

  it('hostile layouts are 400 and change nothing', async () => {
    const token = await mint('hostile')
    const refused = async (layout: unknown, code: string, message?: RegExp) =>
      expectError(await rt('PUT', '/layout', token, { layout }), 400, code, message)
    await refused([item('revenue', 7, 0, 6, 4)], 'INVALID_REQUEST_BODY', /^layout\[0\]\.w must keep x \+ w ≤ 12/)
    await refused([item('revenue', 12, 0, 1, 4)], 'INVALID_REQUEST_BODY', /^layout\[0\]\.x/)
    await refused([item('revenue', -1, 0, 6, 4)], 'INVALID_REQUEST_BODY', /^layout\[0\]\.x/)
    await refused([item('revenue', 0, -1, 6, 4)], 'INVALID_REQUEST_BODY', /^layout\[0\]\.y/)
    await refused([item('revenue', 0, 0, 0, 4)], 'INVALID_REQUEST_BODY', /^layout\[0\]\.w/)
    await refused([item('revenue', 0, 0, 6, 41)], 'INVALID_REQUEST_BODY', /^layout\[0\]\.h/)
    await refused([item('revenue', 0, 0, 6, 1.5)], 'INVALID_REQUEST_BODY', /^layout\[0\]\.h/)
    await refused([{ ...item('revenue', 0, 0, 6, 4), sql: 'x' }], 'INVALID_REQUEST_BODY', /sql/)
    await refused(
      [item('revenue', 0, 0, 6, 4), item('revenue', 6, 0, 6, 4)],
      'INVALID_REQUEST_BODY',
      /^layout\[1\]\.metricId repeats metric revenue$/,
    )
    await refused([item('no_such_metric', 0, 0, 6, 4)], 'EMBED_PARAM_ERROR', /^Metric no_such_metric is not in embed /)
    const many = Array.from({ length: 501 }, (_, i) => item('revenue', 0, i, 1, 1))
    await refused(many, 'INVALID_REQUEST_BODY', /^layout must NOT have more than 500 items|^layout .*500/)
    await refused('revenue', 'INVALID_REQUEST_BODY')
    expectError(await rt('PUT', '/layout', token, {}), 400, 'INVALID_REQUEST_BODY', /layout/)
    expect((await load(token)).dashboard).toMatchObject({ layout: COMPANY, customLayout: false })
  })

  it('hostile views are 400 and save nothing', async () => {
    const token = await mint('hostile', 'h1', { params: { hideDashboardFilters: ['Order status'] } })
    const refused = async (body: object, code: string, message?: RegExp) =>
      expectError(await rt('POST', '/views', token, body), 400, code, message)
    // a hidden filter is answered as one that does not exist
    await refused(
      { name: 'v', filters: { status: ['paid'] } },
      'INVALID_REQUEST_BODY',
      /^filters: no filter named "status"$/,
    )
    await refused({ name: 'v', filters: { nope: 1 } }, 'INVALID_REQUEST_BODY', /^filters: no filter named "nope"$/)
    await refused({ name: 'v', filters: { country: ['DE'], Country: ['FR'] } }, 'INVALID_REQUEST_BODY', /a second time/)
    await refused({ name: 'x'.repeat(101), filters: {} }, 'INVALID_REQUEST_BODY', /^name /)
    await refused({ name: '', filters: {} }, 'INVALID_REQUEST_BODY', /^name /)
    await refused({ name: '   ', filters: {} }, 'INVALID_REQUEST_BODY', /^name: /)
    await refused({ name: 'v' }, 'INVALID_REQUEST_BODY', /filters/)
    await refused({ name: 'v', filters: { country: { sql: 'select 1', columnName: 'c' } } }, 'INVALID_REQUEST_BODY')
    await refused({ name: 'v', filters: {}, sql: 'select 1' }, 'INVALID_REQUEST_BODY')
    await refused(
      { name: 'v', filters: {}, layout: [item('revenue', 8, 0, 6, 4)] },
      'INVALID_REQUEST_BODY',
      /^layout\[0\]\.w/,
    )
    await refused({ name: 'v', filters: {}, layout: [item('ghost', 0, 0, 6, 4)] }, 'EMBED_PARAM_ERROR', /^Metric ghost/)
    expect(await listViews(token)).toEqual([])
    // a filter column outside the token's dashboardFilterColumns: as the runtime query answers
    const narrow = await mint('hostile', 'h2', {
      params: {
        accessPermissions: { dashboardFilterColumns: [{ tableName: `${wh.schema}.orders`, columns: ['status'] }] },
      },
    })
    expectError(await rt('POST', '/views', narrow, { name: 'v', filters: { country: ['DE'] } }), 403, 'UNAUTHORIZED')
    expect((await rt('POST', '/views', narrow, { name: 'v', filters: { status: ['paid'] } })).statusCode).toBe(200)
  })

  it('at most 100 views per key', async () => {
    const token = await mint('many', 'm1')
    for (let i = 0; i < 100; i++) await saveView(token, { name: `view ${i}`, filters: {} })
    expectError(
      await rt('POST', '/views', token, { name: 'one more', filters: {} }),
      400,
      'INVALID_REQUEST_BODY',
      /at most 100 views/,
    )
    // another user has their own 100
    await saveView(await mint('many', 'm2'), { name: 'one more', filters: {} })
    expect(await listViews(token)).toHaveLength(100)
  })

  // Issue 24, item 7: every load of a key carries its views, each up to the body limit (1 MiB)
  // before; a view is bounded in bytes as a metric definition is.
  it('a view holds at most 32 KiB of filters and layout as JSON: at the limit, then 400', async () => {
    const token = await mint('weighty', 'w1')
    const filtersOf = (n: number) => ({ country: Array.from({ length: n }, (_, i) => `${i}`.padEnd(100, 'x')) })
    const bytes = (n: number) => Buffer.byteLength(JSON.stringify(filtersOf(n)))
    let n = 1
    while (bytes(n + 1) <= VIEW_MAX_BYTES) n++
    await saveView(token, { name: 'at the limit', filters: filtersOf(n) })
    expectError(
      await rt('POST', '/views', token, { name: 'past it', filters: filtersOf(n + 1) }),
      400,
      'INVALID_REQUEST_BODY',
      new RegExp(
        `^filters: a view holds at most ${VIEW_MAX_BYTES} bytes of filters and layout as JSON; this one is ${bytes(n + 1)} bytes$`,
      ),
    )
    expect((await listViews(token)).map((v) => v.name)).toEqual(['at the limit'])
  })

  it("a new company document drops the metrics it no longer has from saved layouts at load; another tenant's metric cannot be placed", async () => {
    const doc = salesDocument(wh.schema)
    const put = (document: object) =>
      a.ok('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
        workspaceName: 'main',
        dashboardId: 'sales-overview',
        importDashboardData: document,
      })
    const acme = await mint('acme', 'doc')
    const saved = [
      item('revenue_by_country', 0, 0, 12, 6),
      item('revenue', 0, 6, 4, 2),
      item('orders_by_month', 4, 6, 8, 2),
    ]
    await putLayout(acme, saved)
    const view = await saveView(acme, {
      name: 'by country',
      filters: { country: ['DE'], amount: { min: 5 } },
      layout: saved,
    })
    try {
      // v2: revenue_by_country and the amount filter are gone; a metric only globex sees is added
      const globexOnly = { ...doc.metrics[0]!, metricId: 'globex_only', name: 'Globex', createdByClient: 'globex' }
      await put({
        ...doc,
        filters: doc.filters.filter((f) => f.name !== 'amount'),
        layout: doc.layout.filter((l) => l.metricId !== 'revenue_by_country'),
        metrics: [...doc.metrics.filter((m) => m.metricId !== 'revenue_by_country'), globexOnly],
      })
      const loaded = await load(acme)
      expect(loaded.dashboard).toEqual(
        expect.objectContaining({
          // the gone metric's place does not stay empty: the cards below rise into it
          layout: [item('revenue', 0, 0, 4, 2), item('orders_by_month', 4, 0, 8, 2)],
          customLayout: true,
        }),
      )
      expect(loaded.views).toEqual([
        { viewId: view.viewId, name: 'by country', filters: { country: ['DE'] }, layout: loaded.dashboard.layout },
      ])
      // globex sees its metric appended to the company's layout; acme may not place it
      expect((await load(await mint('globex'))).dashboard.layout).toContainEqual(item('globex_only', 0, 6, 6, 4))
      const foreign = await rt('PUT', '/layout', acme, { layout: [item('globex_only', 0, 0, 6, 4)] })
      const absent = await rt('PUT', '/layout', acme, { layout: [item('never_existed', 0, 0, 6, 4)] })
      expectError(foreign, 400, 'EMBED_PARAM_ERROR', /^Metric globex_only is not in embed /)
      expect((foreign.json() as { error: { message: string } }).error.message.replace('globex_only', 'x')).toBe(
        (absent.json() as { error: { message: string } }).error.message.replace('never_existed', 'x'),
      )
      // the metric comes back: so does its saved place
      await put(doc)
      expect((await load(acme)).dashboard.layout).toEqual(saved)
    } finally {
      await put(doc)
      await resetLayout(acme)
      await rt('DELETE', `/views/${view.viewId}`, acme)
    }
  })

  it('layouts and views belong to dashboard embeds: a metric embed is refused and loads none', async () => {
    const created = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'metric',
      metricId: 'revenue',
      workspaceName: 'main',
      accessSettings: { ...ACCESS, ...ON },
    })
    const embedId = created.id as string
    try {
      const token = await mint('metricembed')
      await putLayout(token, [item('revenue', 0, 0, 12, 9)])
      const loaded = await load(token, embedId)
      expect(loaded.views).toEqual([])
      expectError(await rt('PUT', '/layout', token, { layout: [] }, embedId), 400, 'EMBED_PARAM_ERROR')
      expectError(await rt('POST', '/views', token, { name: 'v', filters: {} }, embedId), 400, 'EMBED_PARAM_ERROR')
      await resetLayout(token)
    } finally {
      await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${embedId}`, a.dataAppKey)
    }
  })

  it('with 10,000 tenants stored, the load reads its layouts and views through the keys’ indexes (no scan)', async () => {
    const db = t.app.services.store.db
    const embed = await db
      .selectFrom('embeds')
      .select(['dashboard_row_id', 'data_app_id'])
      .where('embed_id', '=', a.embedId)
      .executeTakeFirstOrThrow()
    const base = { dashboard_row_id: embed.dashboard_row_id, data_app_id: embed.data_app_id }
    const layout = (n: number) => JSON.stringify([item('orders_by_month', 0, n % 10, 12, 3)])
    for (let start = 0; start < 10_000; start += 500) {
      const tenants = Array.from({ length: 500 }, (_, i) => `tenant${start + i}`)
      await db
        .insertInto('end_user_layouts')
        .values(
          tenants.map((client_id, i) => ({
            ...base,
            client_id,
            user_identifier: '',
            layout: layout(start + i),
            updated_at: 'now',
          })),
        )
        .execute()
      await db
        .insertInto('dashboard_views')
        .values(
          tenants.map((client_id) => ({
            ...base,
            client_id,
            user_identifier: '',
            view_id: `v_${client_id}`,
            name: 'a view',
            filters: '{}',
            layout: null,
            created_at: 'now',
          })),
        )
        .execute()
    }
    try {
      if (store === 'postgres')
        await sql`analyze end_user_layouts; analyze dashboard_views`.execute(db).catch(() => undefined)
      const key = {
        dashboardRowId: base.dashboard_row_id,
        dataAppId: base.data_app_id,
        clientId: 'tenant5003',
        userIdentifier: 'u1',
      }
      for (const query of [savedLayoutsQuery(db, key), viewsQuery(db, key)]) {
        const compiled = query.compile()
        const explain = store === 'postgres' ? 'explain ' : 'explain query plan '
        const plan = await db.executeQuery<Record<string, unknown>>(
          CompiledQuery.raw(explain + compiled.sql, [...compiled.parameters]),
        )
        const text = plan.rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n')
        if (store === 'postgres') {
          expect(text).toMatch(/Index/)
          expect(text).not.toMatch(/Seq Scan/)
        } else {
          expect(text).toMatch(/SEARCH (end_user_layouts|dashboard_views) USING (INDEX|PRIMARY KEY)/)
          expect(text).not.toMatch(/SCAN (end_user_layouts|dashboard_views)\b(?! USING)/)
        }
      }
      // and the tenants get their own
      const loaded = await load(await mint('tenant5003'))
      // (saved at row 3, shown compacted to the top)
      expect(loaded.dashboard.layout[0]).toEqual(item('orders_by_month', 0, 0, 12, 3))
      expect(loaded.views.map((v) => v.viewId)).toEqual(['v_tenant5003'])
      expect((await load(await mint('untouched'))).dashboard).toMatchObject({ layout: COMPANY, customLayout: false })
    } finally {
      await db.deleteFrom('end_user_layouts').where('client_id', 'like', 'tenant%').execute()
      await db.deleteFrom('dashboard_views').where('client_id', 'like', 'tenant%').execute()
    }
  })

  it('deleting a dashboard cascades to what end users saved on it', async () => {
    const db = t.app.services.store.db
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'unembedded',
      importDashboardData: salesDocument(wh.schema),
    })
    const row = await db
      .selectFrom('dashboards')
      .select('id')
      .where('dashboard_id', '=', 'unembedded')
      .executeTakeFirstOrThrow()
    const app = await db
      .selectFrom('embeds')
      .select('data_app_id')
      .where('embed_id', '=', a.embedId)
      .executeTakeFirstOrThrow()
    const key = { dashboard_row_id: row.id, data_app_id: app.data_app_id, client_id: 'acme', user_identifier: '' }
    await db
      .insertInto('end_user_layouts')
      .values({ ...key, layout: '[]', updated_at: 'now' })
      .execute()
    await db
      .insertInto('dashboard_views')
      .values({ ...key, view_id: 'v_cascade', name: 'n', filters: '{}', layout: null, created_at: 'now' })
      .execute()
    await a.ok('DELETE', '/api/v2/data-app/dashboard?workspaceName=main&dashboardId=unembedded', a.serviceToken)
    expect(
      await db.selectFrom('end_user_layouts').selectAll().where('dashboard_row_id', '=', row.id).execute(),
    ).toEqual([])
    expect(await db.selectFrom('dashboard_views').selectAll().where('dashboard_row_id', '=', row.id).execute()).toEqual(
      [],
    )
  })

  // last: it deletes the suite's embed
  it("deleting the data app's last embed of the dashboard removes its end users' layouts and views; while another remains they stay", async () => {
    const db = t.app.services.store.db
    const token = await mint('acme', 'last')
    await putLayout(token, [item('orders_by_month', 0, 0, 12, 5)])
    await saveView(token, { name: 'kept?', filters: {} })
    const second = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'Second',
        accessSettings: { ...ACCESS, ...ON },
      })
    ).id as string
    const count = async () => ({
      layouts: (await db.selectFrom('end_user_layouts').select('client_id').execute()).length,
      views: (await db.selectFrom('dashboard_views').select('view_id').execute()).length,
    })
    const before = await count()
    expect(before.layouts).toBeGreaterThan(0)
    expect(before.views).toBeGreaterThan(0)
    await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${a.embedId}`, a.dataAppKey)
    expect(await count()).toEqual(before)
    const again = await mint('acme', 'last')
    const loaded = await load(again, second)
    expect(loaded.dashboard.customLayout).toBe(true)
    expect(loaded.dashboard.layout[0]).toEqual(item('orders_by_month', 0, 0, 12, 5))
    expect(loaded.views.map((v) => v.name)).toEqual(['kept?'])
    await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${second}`, a.dataAppKey)
    expect(await count()).toEqual({ layouts: 0, views: 0 })
  })
})
