/**
 * `GET /api/v2/studio/tenants`: the tenants the studio's preview offers. The distinct values of
 * the workspace's tenant column, read with no tenancy; searched with a bound contains in which
 * `%` and `_` are plain characters; 100 a page; the admin's access token only.
 */
import { describe, expect, it } from 'vitest'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const PATH = '/api/v2/studio/tenants'

interface Page {
  source: string
  column: string | null
  values: string[]
  nextCursor: string | null
}

describe.skipIf(!hasPg)('the studio tenant list', () => {
  const { wh, a } = useAnalytics('sqlite', { app: 'suite' })
  const list = async (query: string) =>
    (await a.ok('GET', `${PATH}?workspaceName=main${query}`, a.accessToken)).data as Page
  let nextId = 20_000
  const addTenants = async (tenants: readonly string[]) => {
    for (const tenant of tenants) {
      await wh.query(
        `insert into ${wh.schema}.orders values ($1, 1, $2, 'paid', 1, timestamptz '2026-03-01 00:00:00+00')`,
        [nextId++, tenant],
      )
    }
  }

  it("lists the tenant column's distinct values, every tenant's, ascending", async () => {
    const rows = await wh.query<{ tenant: string }>(
      `select distinct tenant from ${wh.schema}.orders where tenant is not null order by tenant`,
    )
    expect(rows.length).toBeGreaterThan(1)
    const page = await list('')
    expect(page).toEqual({
      source: 'column',
      column: `${wh.schema}.orders.tenant`,
      values: rows.map((r) => r.tenant),
      nextCursor: null,
    })
  })

  it('searches case-insensitively, with % and _ matching only themselves', async () => {
    await addTenants(['a%b', 'a_b', 'axb', 'AXB-two', 'a\\b'])
    expect((await list(`&search=${encodeURIComponent('%')}`)).values).toEqual(['a%b'])
    expect((await list(`&search=${encodeURIComponent('a_b')}`)).values).toEqual(['a_b'])
    expect((await list(`&search=${encodeURIComponent('\\')}`)).values).toEqual(['a\\b'])
    expect((await list('&search=axb')).values).toEqual(['axb', 'AXB-two'].sort())
    expect((await list('&search=nobody-has-this')).values).toEqual([])
  })

  it('pages by 100 with a cursor', async () => {
    const many = Array.from({ length: 130 }, (_, i) => `zz-${String(i).padStart(3, '0')}`)
    await addTenants(many)
    const first = await list('&search=zz-')
    expect(first.values).toEqual(many.slice(0, 100))
    expect(first.nextCursor).toBe('2')
    const second = await list(`&search=zz-&cursor=${first.nextCursor}`)
    expect(second.values).toEqual(many.slice(100))
    expect(second.nextCursor).toBeNull()
  })

  it("under DATABASE tenancy, lists the datasource's databases, searched; with no tenancy, nothing", async () => {
    await a.ok('POST', '/api/v2/data-app/datamarts', a.serviceToken, {
      name: 'bydb',
      datasourceName: 'warehouse',
      tableList: [{ schemaName: wh.schema, name: 'orders' }],
      tenancySettings: { tenancyLevel: 'DATABASE' },
    })
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
      name: 'bydb',
      connectionType: 'DATAMART',
      datamartName: 'bydb',
    })
    const databases = (
      await wh.query<{ datname: string }>(
        'select datname from pg_database where not datistemplate and datallowconn order by datname',
      )
    ).map((r) => r.datname)
    const all = (await a.ok('GET', `${PATH}?workspaceName=bydb`, a.accessToken)).data as Page
    expect(all).toMatchObject({ source: 'database', column: null, nextCursor: null })
    expect(all.values).toEqual(databases.slice(0, 100))
    const own = wh.credentials.database
    const found = (await a.ok('GET', `${PATH}?workspaceName=bydb&search=${own.toUpperCase()}`, a.accessToken))
      .data as Page
    expect(found.values).toContain(own)
    expect(found.values.every((d) => d.toLowerCase().includes(own.toLowerCase()))).toBe(true)

    await a.ok('POST', '/api/v2/data-app/datamarts', a.serviceToken, {
      name: 'open',
      datasourceName: 'warehouse',
      tableList: [{ schemaName: wh.schema, name: 'orders' }],
    })
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
      name: 'open',
      connectionType: 'DATAMART',
      datamartName: 'open',
    })
    const none = (await a.ok('GET', `${PATH}?workspaceName=open`, a.accessToken)).data as Page
    expect(none).toEqual({ source: 'none', column: null, values: [], nextCursor: null })
  })

  it('refuses every token but the admin access token', async () => {
    const { data } = (await a.ok('POST', '/api/v2/studio/preview-token', a.accessToken, {
      dataAppName: 'salesapp',
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      clientId: 'acme',
    })) as { data: { token: string } }
    for (const credential of [a.serviceToken, a.dataAppKey, data.token, '']) {
      const res = await a.call('GET', `${PATH}?workspaceName=main`, credential)
      expect(res.statusCode).toBe(401)
      expect(res.json().error.code).toBe('AUTHENTICATION_ERROR')
    }
  })

  it('names what is wrong with a request', async () => {
    const cases: [string, string, RegExp][] = [
      ['?workspaceName=nope', 'WORKSPACE_ID_ERROR', /workspaceName/],
      ['', 'INVALID_REQUEST_BODY', /workspaceName/],
      ['?workspaceName=main&cursor=x', 'INVALID_REQUEST_BODY', /cursor/],
      ['?workspaceName=main&cursor=0', 'INVALID_REQUEST_BODY', /cursor/],
      [`?workspaceName=main&search=${'x'.repeat(201)}`, 'INVALID_REQUEST_BODY', /search/],
    ]
    for (const [query, code, message] of cases) {
      const res = await a.call('GET', `${PATH}${query}`, a.accessToken)
      expect(res.statusCode, query).toBe(400)
      expect(res.json().error).toMatchObject({ code, message: expect.stringMatching(message) })
    }
  })
})
