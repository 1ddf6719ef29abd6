import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadKeyring } from '../../src/security/keyring.js'
import { hashSecret } from '../../src/security/secrets.js'
import { GuestTokens, MAX_CLAIMS_BYTES, MAX_SEALED_TOKEN } from '../../src/services/guest-tokens/guest-tokens.js'
import { salesDocument } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

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
  const { wh, t, a } = useAnalytics(store)

  const mint = (body: object, key = a.dataAppKey) => a.call('POST', '/api/v2/guest-token/create', key, body)

  const FULL_BODY = {
    dataAppName: 'salesapp',
    clientId: 'acme',
    params: FULL_PARAMS,
    permissions: { isEnableDownloadMetrics: true, isShowSideBar: false, isDisableMetricCreation: true },
    expiryTime: 60_000,
    datasourceName: 'warehouse',
    datamartName: 'sales',
  }
  const runtime = (token: string) => a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, token)

  it('mints a sealed token with every declared field: opaque, nothing written, claims kept', async () => {
    const res = await mint(FULL_BODY)
    expect(res.statusCode, res.body).toBe(200)
    const { token } = res.json() as unknown as { token: string }
    expect(Object.keys(res.json())).toEqual(['token'])
    expect(token).toMatch(/^gt_1\.[A-Za-z0-9_-]{100,}$/)
    expect(token.length).toBeLessThanOrEqual(MAX_SEALED_TOKEN)
    // opaque: none of the claims can be read out of it (claims of four characters or more: a
    // two-letter one such as the RLS value 'EU' turns up by chance in ~1.5% of random ciphertexts)
    const bytes = Buffer.from(token.slice(5), 'base64url').toString('latin1')
    for (const claim of ['acme', 'Europe/Berlin', 'salesapp', 'user-1']) expect(bytes).not.toContain(claim)
    expect(await t.app.services.store.db.selectFrom('guest_tokens').selectAll().execute()).toEqual([])
    expect(t.rawLogs.join('\n')).not.toContain(token)
    const claims = await t.app.services.guestTokens.verify(token)
    expect(claims).toMatchObject({ clientId: 'acme', datasourceName: 'warehouse', datamartName: 'sales' })
    expect(claims?.params.dashboardAppFilters?.[0]?.isShowOnUrl).toBe(false)
    expect(claims?.keyId).toMatch(/^sk_/)
    expect((await runtime(token)).statusCode).toBe(200)
  })

  it('refuses a sealed token altered anywhere, cut short, or sealed by another server', async () => {
    const { token } = (await mint(FULL_BODY)).json() as unknown as { token: string }
    const raw = Buffer.from(token.slice(5), 'base64url')
    for (const at of [0, 11, 12, 27, 28, raw.length - 1]) {
      const bent = Buffer.from(raw)
      bent[at] = (bent[at] ?? 0) ^ 0x20
      expectError(await runtime(`gt_1.${bent.toString('base64url')}`), 401, 'AUTHENTICATION_ERROR')
    }
    expectError(await runtime(token.slice(0, -4)), 401, 'AUTHENTICATION_ERROR')
    expectError(await runtime(`${token}AAAA`), 401, 'AUTHENTICATION_ERROR')
    expectError(await runtime(`gt_1.${'A'.repeat(MAX_SEALED_TOKEN)}`), 401, 'AUTHENTICATION_ERROR')
    const stranger = loadKeyring('c'.repeat(64), mkdtempSync(join(tmpdir(), 'strata-other-')))
    const forged = `gt_1.${stranger.sealToken(JSON.stringify({ ...(await t.app.services.guestTokens.verify(token)), clientId: 'globex' }))}`
    expectError(await runtime(forged), 401, 'AUTHENTICATION_ERROR')
    expect((await runtime(token)).statusCode).toBe(200)
  })

  it('stores claims too large to seal as a hash with the claims, and checks them the same way', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `country-${i}`)
    const params = {
      ...FULL_PARAMS,
      dashboardAppFilters: [{ dashboardId: 'sales-overview', values: { country: many } }],
    }
    const res = await mint({ ...FULL_BODY, params })
    expect(res.statusCode, res.body).toBe(200)
    const { token } = res.json() as unknown as { token: string }
    expect(token).toMatch(/^gt_[A-Za-z0-9_-]{40,}$/)
    const rows = await t.app.services.store.db.selectFrom('guest_tokens').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(JSON.stringify(rows)).not.toContain(token)
    expect(rows[0]?.token_hash).toBe(hashSecret(token))
    expect(rows[0]?.expires_at).not.toBeNull()
    const claims = JSON.parse(rows[0]?.claims ?? '{}')
    expect(claims.params.dashboardAppFilters[0].values.country).toHaveLength(400)
    expect(claims.params.dashboardAppFilters[0].isShowOnUrl).toBe(true)
    expect((await runtime(token)).statusCode).toBe(200)
    // another instance on the same store reads it from there (nothing in its memory)
    const { store, keyring } = t.app.services
    const fresh = new GuestTokens(
      store,
      keyring,
      async () => true,
      (id, f) => t.app.services.embeds.ids(id, f),
    )
    const again = await fresh.verify(token)
    fresh.close()
    expect(again?.params.dashboardAppFilters?.[0]?.values.country).toHaveLength(400)
    expect(await fresh.verify(`${token.slice(0, -1)}x`)).toBeUndefined()
  })

  // Regression (issue 24, item 6): tokens too large to seal were stored whatever their size
  // (1,200 mints of large params: +600 MB in the metadata store). The claims are bounded in bytes.
  it('refuses claims over 64 KiB as JSON with a 400 naming the limit in bytes; just under is stored', async () => {
    const base = { dataAppName: 'salesapp', clientId: 'acme' }
    const filters = (n: number, text: string) => ({
      hideDashboardFilters: Array.from({ length: n }, (_, i) => `${i}${text}`),
    })
    for (const params of [filters(140, 'x'.repeat(480)), filters(70, 'é'.repeat(480))]) {
      expectError(
        await mint({ ...base, params }),
        400,
        'INVALID_REQUEST_BODY',
        new RegExp(
          `^params: a guest token holds at most ${MAX_CLAIMS_BYTES} bytes of claims as JSON; these are \\d+ bytes$`,
        ),
      )
    }
    expect(await t.app.services.store.db.selectFrom('guest_tokens').selectAll().execute()).toEqual([])
    const res = await mint({ ...base, params: filters(120, 'x'.repeat(480)) })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().token).not.toMatch(/^gt_1\./)
    expect((await runtime(res.json().token)).statusCode).toBe(200)
  })

  // Regression (issue 24, item 6): the verify cache weighed an entry by its token string only, so a
  // stored token (a short string) of 60 KB of claims counted as 1 KB against the 32 MiB budget.
  it("weighs each cached token by its claims, and holds no more than its byte budget's worth", async () => {
    const base = { dataAppName: 'salesapp', clientId: 'acme' }
    const large = { hideDashboardFilters: Array.from({ length: 120 }, (_, i) => `${i}${'x'.repeat(480)}`) }
    const tokenOf = async (params: object) => ((await mint({ ...base, params })).json() as { token: string }).token
    const small = await tokenOf({})
    const big = await Promise.all(Array.from({ length: 30 }, () => tokenOf(large)))
    const claimsBytes = Buffer.byteLength(
      (await t.app.services.store.db.selectFrom('guest_tokens').select('claims').executeTakeFirstOrThrow()).claims,
    )
    expect(claimsBytes).toBeGreaterThan(58_000)
    const budget = 1024 * 1024
    const { store, keyring } = t.app.services
    const fresh = new GuestTokens(
      store,
      keyring,
      async () => true,
      (id, f) => t.app.services.embeds.ids(id, f),
      budget,
    )
    try {
      expect(await fresh.verify(small)).toBeDefined()
      const smallWeight = fresh.cached.bytes
      expect(smallWeight).toBeLessThan(4096)
      expect(await fresh.verify(big[0] as string)).toBeDefined()
      expect(fresh.cached.bytes - smallWeight).toBeGreaterThan(2 * claimsBytes)
      for (const token of big) expect(await fresh.verify(token)).toBeDefined()
      // 30 tokens of ~59 KB of claims (~1.8 MB) against a 1 MiB budget: the oldest were let go
      expect(fresh.cached.bytes).toBeLessThanOrEqual(budget)
      expect(fresh.cached.tokens * claimsBytes).toBeLessThanOrEqual(budget)
      // and are read from the store again when used
      expect((await fresh.verify(big[0] as string))?.params.hideDashboardFilters).toHaveLength(120)
    } finally {
      fresh.close()
    }
  })

  it('stops every token minted with a data app key once the key is revoked, and only those', async () => {
    const created = await a.ok('POST', '/api/v2/data-app/api-tokens', a.serviceToken, {
      dataAppName: 'salesapp',
      name: 'ci',
    })
    const secret = created.key as string
    const keyId = secret.split('_').slice(0, 2).join('_')
    const many = Array.from({ length: 400 }, (_, i) => `c${i}`)
    const big = { dashboardAppFilters: [{ dashboardId: 'sales-overview', values: { country: many } }] }
    const body = { dataAppName: 'salesapp', clientId: 'acme' }
    const sealed = ((await mint(body, secret)).json() as unknown as { token: string }).token
    const stored = ((await mint({ ...body, params: big }, secret)).json() as unknown as { token: string }).token
    const other = ((await mint(body)).json() as unknown as { token: string }).token
    for (const token of [sealed, stored, other]) expect((await runtime(token)).statusCode).toBe(200)
    await a.ok('DELETE', `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${keyId}`, a.serviceToken)
    expectError(await runtime(sealed), 401, 'AUTHENTICATION_ERROR')
    expectError(await runtime(stored), 401, 'AUTHENTICATION_ERROR')
    expectError(
      await a.call('POST', `/api/v2/embed/runtime/${a.embedId}/query`, sealed, { metricId: 'revenue' }),
      401,
      'AUTHENTICATION_ERROR',
    )
    expect((await runtime(other)).statusCode).toBe(200)
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

  // Regression (issue 24, item 11): `expiryTime: 60` (seconds meant) minted a 60 ms token that
  // looped the page through refreshes. Refused under one second, the message saying the unit, on
  // a sealed-size and a stored-size body alike (the mint has no legacy path).
  it('refuses an expiryTime under 1000 ms, saying the unit; 1000 is accepted', async () => {
    const base = { dataAppName: 'salesapp', clientId: 'acme' }
    const big = { dashboardAppFilters: [{ dashboardId: 'sales-overview', values: { country: Array(400).fill('DE') } }] }
    for (const body of [base, { ...base, params: big }]) {
      expectError(
        await mint({ ...body, expiryTime: 60 }),
        400,
        'INVALID_REQUEST_BODY',
        /^expiryTime must be at least 1000: it is in milliseconds, so 60 is 0\.06 s$/,
      )
      expectError(await mint({ ...body, expiryTime: 999 }), 400, 'INVALID_REQUEST_BODY', /milliseconds/)
      expect((await mint({ ...body, expiryTime: 1000 })).statusCode).toBe(200)
    }
  })

  // Regression (issue 12): ids naming nothing of the data app were accepted (docs/guest-tokens.md#request-fields: an invalid
  // dashboard ID is a 400). The mint has one path (docs/api.md lists no legacy one).
  it('refuses an id that names nothing of the data app, naming its path', async () => {
    const base = { dataAppName: 'salesapp', clientId: 'acme' }
    const cases: [object, string, RegExp][] = [
      [
        { dashboardAppFilters: [FULL_PARAMS.dashboardAppFilters[0], { dashboardId: 'nope', values: {} }] },
        'APP_FILTER_PARAM_ERROR',
        /^params\.dashboardAppFilters\[1\]\.dashboardId: no dashboard "nope" in data app salesapp$/,
      ],
      [
        { appFilters: [{ metricId: 'nope', values: {} }] },
        'APP_FILTER_PARAM_ERROR',
        /^params\.appFilters\[0\]\.metricId: no metric .*"nope"/,
      ],
      [
        {
          rlsSettings: [
            { metricId: 'revenue', values: {} },
            { metricId: 'nope', values: {} },
          ],
        },
        'RLS_SETTINGS_PARAM_ERROR',
        /^params\.rlsSettings\[1\]\.metricId: no metric .*"nope"/,
      ],
      [
        { allowedEmbeds: [a.embedId, 'emb_nope'] },
        'INVALID_REQUEST_BODY',
        /^params\.allowedEmbeds\[1\]: no embed or dashboard "emb_nope"/,
      ],
      // an id of the organization that this data app does not embed is as unknown
      [
        { allowedEmbeds: [a.embedId.replace(/.$/, (c) => (c === '0' ? '1' : '0'))] },
        'INVALID_REQUEST_BODY',
        /^params\.allowedEmbeds\[0\]/,
      ],
    ]
    for (const [params, code, message] of cases) {
      expectError(await mint({ ...base, params }), 400, code, message)
    }
    // what the data app has is accepted: embed ids, dashboard ids, metric ids of its dashboards
    expect((await mint({ ...base, params: FULL_PARAMS })).statusCode).toBe(200)
    // a dashboard embedded since (the check reads the store again before refusing)
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'second',
      importDashboardData: { name: 'Second', metrics: [] },
    })
    const second = { ...base, params: { dashboardAppFilters: [{ dashboardId: 'second', values: {} }] } }
    expectError(await mint(second), 400, 'APP_FILTER_PARAM_ERROR', /dashboardId: no dashboard "second"/)
    await t.app.services.store.db
      .insertInto('embeds')
      .values({
        ...(await t.app.services.store.db.selectFrom('embeds').selectAll().executeTakeFirstOrThrow()),
        id: 'row-second',
        embed_id: 'emb_second',
        dashboard_row_id: (
          await t.app.services.store.db
            .selectFrom('dashboards')
            .select('id')
            .where('dashboard_id', '=', 'second')
            .executeTakeFirstOrThrow()
        ).id,
      })
      .execute()
    expect((await mint(second)).statusCode).toBe(200)
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
    const big = { dashboardAppFilters: [{ dashboardId: 'sales-overview', values: { country: Array(400).fill('DE') } }] }
    const tokenOf = async (body: object) => ((await mint(body)).json() as unknown as { token: string }).token
    const base = { dataAppName: 'salesapp', clientId: 'acme' }
    // long enough to be used first on a loaded CI machine (300 ms was not, now and then)
    const expiryTime = 2000
    const minted = Date.now()
    const short = [await tokenOf({ ...base, expiryTime }), await tokenOf({ ...base, params: big, expiryTime })]
    const forever = [await tokenOf(base), await tokenOf({ ...base, params: big })]
    expect(short[0]).toMatch(/^gt_1\./) // sealed
    expect(short[1]).not.toMatch(/^gt_1\./) // stored
    for (const token of short) expect((await runtime(token)).statusCode).toBe(200)
    await new Promise((r) => setTimeout(r, minted + expiryTime + 100 - Date.now()))
    for (const token of short) expectError(await runtime(token), 401, 'AUTHENTICATION_ERROR')
    expect(await t.app.services.guestTokens.cleanup()).toBe(1)
    const left = await t.app.services.store.db.selectFrom('guest_tokens').select('expires_at').execute()
    expect(left).toEqual([{ expires_at: null }])
    for (const token of short) expectError(await runtime(token), 401, 'AUTHENTICATION_ERROR')
    for (const token of forever) expect((await runtime(token)).statusCode).toBe(200)
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
    // Regression (issue 12): pinned values were echoed to the browser, isShowOnUrl: false ones and
    // the SQL text of SQL-driven lists included. The filter is locked; its value is not sent.
    expect(body.dashboard.filters[0]).toEqual({
      ...salesDocument(wh.schema).filters[0],
      locked: true,
      isShowOnUrl: false,
    })
    expect(res.body).not.toMatch(/"DE"|"FR"/)
    expect(body.metrics.map((m) => m.metricId)).toEqual(['revenue', 'revenue_by_country', 'orders_by_month'])
    expect(body.permissions).toMatchObject({
      download: true,
      showSideBar: false,
      showDashboardName: true,
      // the token leaves the flag out: it inherits the embed's isAllowUnderlyingData (true)
      underlyingData: true,
    })
    expect(body.timezone).toBe('Europe/Berlin')

    const SQL = `select country from ${wh.schema}.customers where tenant = 'secret-tenant'`
    const shown = (
      await mint({
        dataAppName: 'salesapp',
        clientId: 'acme',
        params: {
          dashboardAppFilters: [
            {
              dashboardId: 'sales-overview',
              values: { Country: { sql: SQL, columnName: 'country' }, status: ['paid'] },
            },
          ],
        },
      })
    ).json() as unknown as { token: string }
    const load = await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, shown.token)
    const [country, status] = (load.json() as { dashboard: { filters: object[] } }).dashboard.filters
    expect(load.body).not.toContain('secret-tenant')
    expect(country).toMatchObject({ name: 'country', locked: true, isShowOnUrl: true })
    expect(country).not.toHaveProperty('pinned')
    // a plain value on the URL is the browser's to show
    expect(status).toMatchObject({ name: 'status', locked: true, pinned: ['paid'], isShowOnUrl: true })
  })
})
