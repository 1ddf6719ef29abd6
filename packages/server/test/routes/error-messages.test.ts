import type { LightMyRequestResponse } from 'fastify'
import { describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { bearer } from '../helpers/bootstrap.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

/** `error.details.fields` of a 400. */
const fieldsOf = (res: LightMyRequestResponse) => res.json().error.details?.fields

const EMBED = { dashboardId: 'sales-overview', embedType: 'dashboard', workspaceName: 'main', accessSettings: ACCESS }
/** The create-embed paths: the preferred one checks its body in the handler, the legacy one on the route. */
const CREATE_EMBED = ['/api/v2/data-app/embeds', '/api/v2/dataApp/embeds']

/**
 * Issue 13: a 400 explains itself. One field-path style everywhere, undeclared fields named
 * with the close declared one, the allowed values of an enum, every missing field at once
 * (with `details.fields`), the token kind a route takes, and where a cached schema comes from.
 * Each on real HTTP, on the preferred and the legacy path where a route has both.
 */
describe.skipIf(!hasPg)('request errors explain themselves', () => {
  const { a, t } = useAnalytics('sqlite', { app: 'suite' })

  describe('one field-path style', () => {
    it('body fields: a dotted path from the body, array indexes in brackets', async () => {
      const res = await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId: 'acme',
        params: { allowedEmbeds: [a.embedId, 5] },
      })
      expectError(res, 400, 'INVALID_REQUEST_BODY')
      expect(res.json().error.message).toBe('params.allowedEmbeds[1] must be a string')
      expect(fieldsOf(res)).toEqual([{ in: 'body', path: 'params.allowedEmbeds[1]', problem: 'must be a string' }])
    })

    it('query string fields: query string "name"; the legacy body form names the same field plainly', async () => {
      const query = await a.call('GET', '/api/v2/data-app/embeds?pageNumber=first', a.dataAppKey)
      expectError(query, 400, 'INVALID_REQUEST_BODY')
      expect(query.json().error.message).toBe('query string "pageNumber" must be a page number (1, 2, …)')
      expect(fieldsOf(query)).toEqual([{ in: 'query', path: 'pageNumber', problem: expect.any(String) }])
      const legacy = await a.call('POST', '/api/v2/dataApp/embed/list', a.dataAppKey, { pageNumber: 'first' })
      expectError(legacy, 400, 'INVALID_REQUEST_BODY')
      expect(legacy.json().error.message).toBe('pageNumber must be an integer')
    })

    it('path parameters: :name', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v2/datasource/files/sales/${'x'.repeat(130)}.csv`,
        payload: 'a\n1\n',
        headers: { ...bearer(a.serviceToken), 'content-type': 'text/csv' },
      })
      expectError(res, 400, 'INVALID_REQUEST_BODY')
      expect(res.json().error.message).toBe(':fileName must be at most 128 characters long')
      expect(fieldsOf(res)).toEqual([{ in: 'path', path: 'fileName', problem: 'must be at most 128 characters long' }])
    })

    it('a field checked by a service, with its own code, is named the same way (update embed, both paths)', async () => {
      for (const [method, url] of [
        ['PUT', '/api/v2/data-app/embeds'],
        ['POST', '/api/v2/dataApp/embed/update'],
      ] as const) {
        const res = await a.call(method, url, a.dataAppKey, {
          embedId: a.embedId,
          accessSettings: { tableTenancySettings: [{ name: 'orders', clientColumn: 'tenant' }, { name: 'customers' }] },
        })
        expectError(res, 400, 'INVALID_ACCESS_SETTINGS')
        expect(res.json().error.message, url).toBe('accessSettings.tableTenancySettings[1].clientColumn is required')
        expect(fieldsOf(res)).toEqual([
          { in: 'body', path: 'accessSettings.tableTenancySettings[1].clientColumn', problem: 'is required' },
        ])
      }
    })
  })

  describe('undeclared fields', () => {
    it('are named with their path and the close declared field (create embed, both paths)', async () => {
      for (const url of CREATE_EMBED) {
        const { accessSettings, ...rest } = EMBED
        const top = await a.call('POST', url, a.dataAppKey, { ...rest, acessSettings: accessSettings })
        expectError(top, 400, 'INVALID_REQUEST_BODY')
        expect(top.json().error.message, url).toBe(
          'acessSettings is not an allowed field (did you mean "accessSettings"?)',
        )
        expect(fieldsOf(top)).toEqual([
          { in: 'body', path: 'acessSettings', problem: 'is not an allowed field', suggestion: 'accessSettings' },
        ])
        const { isAllowUnderlyingData, ...settings } = ACCESS
        const nested = await a.call('POST', url, a.dataAppKey, {
          ...EMBED,
          accessSettings: { ...settings, isAllowUnderlyingdata: isAllowUnderlyingData },
        })
        expectError(nested, 400, 'INVALID_REQUEST_BODY')
        expect(nested.json().error.message, url).toBe(
          'accessSettings.isAllowUnderlyingdata is not an allowed field (did you mean "isAllowUnderlyingData"?)',
        )
      }
    })

    it('a misspelt required field is named as both: undeclared, with the suggestion, and missing', async () => {
      const res = await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientID: 'acme',
      })
      expectError(res, 400, 'INVALID_REQUEST_BODY')
      expect(res.json().error.message).toBe(
        'clientID is not an allowed field (did you mean "clientId"?); clientId is required',
      )
    })

    it('a field sent outside its object is pointed to it (datasource sync)', async () => {
      const res = await a.call('POST', '/api/v2/datasource/sync', a.serviceToken, { datasourceId: 'warehouse' })
      expectError(res, 400, 'INVALID_REQUEST_BODY')
      expect(res.json().error.message).toBe(
        'datasourceId is not an allowed field (did you mean "input.datasourceId"?); input is required',
      )
      const typo = await a.call('POST', '/api/v2/datasource/sync', a.serviceToken, { input: { datasourceID: 'x' } })
      expect(typo.json().error.message).toBe(
        'input.datasourceID is not an allowed field (did you mean "datasourceId"?); input.datasourceId is required',
      )
    })

    it('in a query string too (list embeds)', async () => {
      const res = await a.call('GET', '/api/v2/data-app/embeds?clientID=acme', a.dataAppKey)
      expectError(res, 400, 'INVALID_REQUEST_BODY')
      expect(res.json().error.message).toBe(
        'query string "clientID" is not an allowed field (did you mean "clientId"?)',
      )
      const legacy = await a.call('POST', '/api/v2/dataApp/embed/list', a.dataAppKey, { clientID: 'acme' })
      expect(legacy.json().error.message).toBe('clientID is not an allowed field (did you mean "clientId"?)')
    })
  })

  it('an enum or a union of literals lists the allowed values (create embed, both paths)', async () => {
    for (const url of CREATE_EMBED) {
      const res = await a.call('POST', url, a.dataAppKey, {
        ...EMBED,
        accessSettings: { ...ACCESS, metricCreationMode: 'SQL' },
      })
      expectError(res, 400, 'INVALID_REQUEST_BODY')
      expect(res.json().error.message, url).toBe('accessSettings.metricCreationMode must be one of: DRAG_DROP, CHAT')
      expect(fieldsOf(res)).toEqual([
        {
          in: 'body',
          path: 'accessSettings.metricCreationMode',
          problem: 'must be one of: DRAG_DROP, CHAT',
          allowedValues: ['DRAG_DROP', 'CHAT'],
        },
      ])
      const type = await a.call('POST', url, a.dataAppKey, { ...EMBED, embedType: 'Dashboard' })
      expect(type.json().error.message, url).toBe('embedType must be one of: dashboard, metric')
    }
    const query = await a.call('GET', '/api/v2/data-app/embeds?isPagination=yes', a.dataAppKey)
    expect(query.json().error.message).toBe('query string "isPagination" must be one of: true, false')
  })

  describe('every missing required field at once', () => {
    it('an empty accessSettings on create names all of them (both paths)', async () => {
      for (const url of CREATE_EMBED) {
        const res = await a.call('POST', url, a.dataAppKey, { ...EMBED, accessSettings: {} })
        expectError(res, 400, 'INVALID_REQUEST_BODY')
        expect(res.json().error.message, url).toBe(
          'accessSettings is missing required fields: datamartName, isAllowEmailReports, isAllowManageMetrics, ' +
            'isAllowCreateDashboardView, isAllowMetricCreation, isAllowMetricDeletion, isAllowMetricLayoutChange, ' +
            'isAllowMetricUpdate, isAllowUnderlyingData, metricCreationMode',
        )
        expect(fieldsOf(res)).toHaveLength(10)
        expect(fieldsOf(res)[0]).toEqual({ in: 'body', path: 'accessSettings.datamartName', problem: 'is required' })
      }
    })

    it('the missing fields of the body (both paths)', async () => {
      for (const url of CREATE_EMBED) {
        const res = await a.call('POST', url, a.dataAppKey, { embedType: 'dashboard' })
        expectError(res, 400, 'INVALID_REQUEST_BODY')
        expect(res.json().error.message, url).toBe('The body is missing required fields: dashboardId, workspaceName')
        expect(fieldsOf(res)).toEqual([
          { in: 'body', path: 'dashboardId', problem: 'is required' },
          { in: 'body', path: 'workspaceName', problem: 'is required' },
        ])
      }
    })
  })

  describe('a token of the wrong kind: same status and code, the message says which kind the route takes', () => {
    let guest: string
    const guestToken = async () => {
      guest ??= (
        await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' })
      ).json().token
      return guest
    }
    const refusedWithout = (res: LightMyRequestResponse, token: string) => {
      expect(res.body).not.toContain(token)
      expect(res.body).not.toContain(token.slice(-12))
    }

    it('a data app API key or a guest token on a service-token route', async () => {
      const key = await a.call('GET', '/api/v2/datasource', a.dataAppKey)
      expectError(key, 401, 'AUTHENTICATION_ERROR', /^This route takes the organization service token/)
      expect(key.json().error.message).toMatch(/; a data app API key was sent/)
      refusedWithout(key, a.dataAppKey)
      const token = await guestToken()
      const byGuest = await a.call('GET', '/api/v2/datasource', token)
      expectError(byGuest, 401, 'AUTHENTICATION_ERROR', /service token.*; a guest token was sent/)
      refusedWithout(byGuest, token)
      // a route whose code and status differ keeps them (api-tokens: 400)
      const tokens = await a.call('GET', '/api/v2/data-app/api-tokens?dataAppName=salesapp', a.dataAppKey)
      expectError(tokens, 400, 'AUTHENTICATION_ERROR', /service token.*; a data app API key was sent/)
    })

    it('a service token on a data-app route (preferred and legacy path, each with its own status)', async () => {
      const list = await a.call('GET', '/api/v2/data-app/embeds', a.serviceToken)
      expectError(list, 400, 'INVALID_DATA_APP_API_KEY', /^This route takes a data app API key/)
      expect(list.json().error.message).toMatch(/; the token sent has the form of a service token/)
      refusedWithout(list, a.serviceToken)
      const legacy = await a.call('POST', '/api/v2/dataApp/embed/list', a.serviceToken, {})
      expectError(legacy, 400, 'INVALID_DATA_APP_API_KEY', /takes a data app API key.*service token/)
      for (const url of CREATE_EMBED) {
        const create = await a.call('POST', url, a.serviceToken, EMBED)
        expectError(create, 401, 'INVALID_DATA_APP_API_KEY', /takes a data app API key.*service token/)
      }
      const update = await a.call('POST', '/api/v2/dataApp/embed/update', await guestToken(), {})
      expectError(update, 401, 'AUTHENTICATION_ERR', /takes a data app API key.*; a guest token was sent/)
    })

    it('a secret key (or an admin token) on the web component runtime', async () => {
      const res = await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, a.dataAppKey)
      expectError(res, 401, 'AUTHENTICATION_ERROR', /^This route takes a guest token .*; a data app API key was sent/)
      refusedWithout(res, a.dataAppKey)
      const admin = await a.call('GET', `/api/v2/embed/runtime/${a.embedId}`, a.accessToken)
      expectError(admin, 401, 'AUTHENTICATION_ERROR', /takes a guest token.*; an admin access token was sent/)
    })

    it('a service token on an admin route; a token of the right kind but invalid, or of no known form, as before', async () => {
      const rotate = await a.call('POST', '/api/v2/service-token/rotate', a.serviceToken, {})
      expectError(rotate, 401, 'AUTHENTICATION_ERROR', /^This route takes the admin access token/)
      const revoked = await a.call('GET', '/api/v2/data-app/embeds', 'sk_000000000000_nope')
      expectError(revoked, 400, 'INVALID_DATA_APP_API_KEY', /^The data app API key is invalid or expired$/)
      const unknown = await a.call('GET', '/api/v2/datasource', 'not-a-known-form')
      expectError(unknown, 401, 'AUTHENTICATION_ERROR', /^The service token is invalid or expired$/)
      const missing = await t.app.inject({ method: 'GET', url: '/api/v2/data-app/embeds' })
      expectError(missing, 400, 'INVALID_DATA_APP_API_KEY', /^Missing credentials: this route takes a data app API key/)
    })
  })
})

describe.skipIf(!hasPg)('a dashboard naming what the cached schema lacks', () => {
  // a table the datasource has but the datamart does not list
  const { wh, a } = useAnalytics('sqlite', {
    app: 'suite',
    prepare: (w) => w.query(`create table ${w.schema}.returns (id integer primary key, tenant text not null)`),
  })
  const withDiscount = () => {
    const doc = salesDocument(wh.schema)
    doc.metrics[0]?.query.measures.push({ name: 'discount', aggregate: 'sum', column: 'discount' })
    return doc
  }
  const dashboardCalls = [
    ['POST', '/api/v2/data-app/import-dashboard', { dashboardId: 'with-discount' }],
    ['PUT', '/api/v2/data-app/dashboard', { dashboardId: 'sales-overview' }],
    ['POST', '/api/v2/data-app/validate-dashboard', {}],
  ] as const

  it('says the schema is a cached copy and how to refresh it; the sync it names then lets the import through', async () => {
    let datasourceId = ''
    for (const [method, url, extra] of dashboardCalls) {
      const res = await a.call(method, url, a.serviceToken, {
        workspaceName: 'main',
        importDashboardData: withDiscount(),
        ...extra,
      })
      expectError(res, 400, 'INVALID_REQUEST_BODY')
      const { message, details } = res.json().error
      expect(message, url).toMatch(
        new RegExp(
          `^importDashboardData\\.metrics\\[0\\]\\.query\\.measures\\[1\\]\\.column: no column "discount" in ${wh.schema}\\.orders\\. `,
        ),
      )
      expect(message).toMatch(/cached copy of the schema of datasource warehouse/)
      datasourceId = details.datasourceId
      expect(datasourceId).toMatch(/^[0-9a-f-]{36}$/)
      expect(message).toContain(
        `POST /api/v2/datasource/sync and the body {"input":{"datasourceId":"${datasourceId}"}}`,
      )
      expect(details.missing).toEqual({ table: `${wh.schema}.orders`, column: 'discount' })
    }
    await wh.query(`alter table ${wh.schema}.orders add column discount numeric(10,2) not null default 0`)
    const sync = await a.call('POST', '/api/v2/datasource/sync', a.serviceToken, { input: { datasourceId } })
    expect(sync.statusCode, sync.body).toBe(200)
    const imported = await a.call('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'with-discount',
      importDashboardData: withDiscount(),
    })
    expect(imported.statusCode, imported.body).toBe(200)
  })

  it('a datamart naming a table the cached schema lacks gets the same hint', async () => {
    const res = await a.call('POST', '/api/v2/data-app/datamarts', a.serviceToken, {
      name: 'more',
      datasourceName: 'warehouse',
      tableList: [{ schemaName: wh.schema, name: 'refunds', clientColumn: 'tenant' }],
    })
    expectError(res, 400, 'INVALID_REQUEST_BODY')
    expect(res.json().error.message).toMatch(
      new RegExp(
        `^tableList\\[0\\]: no table ${wh.schema}\\.refunds in datasource warehouse\\. Names are checked against Strata's cached copy`,
      ),
    )
    expect(res.json().error.message).toMatch(
      /POST \/api\/v2\/datasource\/sync and the body \{"input":\{"datasourceId":"[0-9a-f-]{36}"\}\}/,
    )
  })

  it('a table the datasource has but the datamart does not list: add it to the datamart', async () => {
    const doc = salesDocument(wh.schema)
    const first = doc.metrics[0]
    if (first) first.query.from = `${wh.schema}.returns`
    const res = await a.call('POST', '/api/v2/data-app/validate-dashboard', a.serviceToken, {
      workspaceName: 'main',
      importDashboardData: doc,
    })
    expectError(res, 400, 'INVALID_REQUEST_BODY')
    expect(res.json().error.message).toBe(
      `importDashboardData.metrics[0].query.from: no table "${wh.schema}.returns". Table ${wh.schema}.returns is in ` +
        "datasource warehouse but not in datamart sales: add it to the datamart's tableList (PUT /api/v2/data-app/datamarts)",
    )
  })
})
