import { describe, expect, it } from 'vitest'
import { ACCESS, salesDocument, salesRelationships } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

interface Setup {
  /** The datamart's client column on both tables (TABLE tenancy through the datamart). */
  readonly clientColumn?: boolean
  /** The embed's accessSettings.tableTenancySettings on orders and customers. */
  readonly tableTenancy?: boolean
  /** Columns of orders the datamart hides. */
  readonly hidden?: readonly string[]
}

/**
 * Regression (issue 28): the underlying rows of a metric returned the tenant column (and would
 * have returned any column the tenancy names). They show the columns an end user may see —
 * never a tenant column, never a hidden one — and only the token's tenant's rows.
 */
describe.skipIf(!hasPg).each(storeKinds)('underlying rows on %s', (store) => {
  const { wh, a } = useAnalytics(store, { app: 'suite' })

  const embedWith = async (name: string, setup: Setup): Promise<string> => {
    const s = a.serviceToken
    await a.ok('POST', '/api/v2/data-app/datamarts', s, {
      name: `mart${name}`,
      datasourceName: 'warehouse',
      tableList: ['orders', 'customers'].map((table) => ({
        schemaName: wh.schema,
        name: table,
        ...(setup.clientColumn ? { clientColumn: 'tenant' } : {}),
        ...(table === 'orders' && setup.hidden
          ? { columns: setup.hidden.map((c) => ({ name: c, isHide: true })) }
          : {}),
      })),
      relationships: salesRelationships(wh.schema),
    })
    await a.ok('POST', '/api/v2/workspace', s, {
      name: `ws${name}`,
      connectionType: 'DATAMART',
      datamartName: `mart${name}`,
    })
    await a.ok('POST', '/api/v2/data-app/import-dashboard', s, {
      workspaceName: `ws${name}`,
      dashboardId: `dash-${name}`,
      importDashboardData: salesDocument(wh.schema),
    })
    const tableTenancySettings = ['orders', 'customers'].map((t) => ({
      name: `${wh.schema}.${t}`,
      clientColumn: 'tenant',
    }))
    const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: `dash-${name}`,
      embedType: 'dashboard',
      workspaceName: `ws${name}`,
      accessSettings: {
        ...ACCESS,
        datamartName: `mart${name}`,
        ...(setup.tableTenancy ? { tableTenancySettings } : {}),
      },
    })
    return embed.id as string
  }

  const post = async (embedId: string, tenant: string, body: object = {}) => {
    const minted = await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
      dataAppName: 'salesapp',
      clientId: tenant,
      params: { allowedEmbeds: [embedId] },
      permissions: { isEnableUnderlyingData: true },
    })
    return a.call('POST', `/api/v2/embed/runtime/${embedId}/underlying`, minted.token as string, {
      metricId: 'revenue',
      ...body,
    })
  }

  const underlying = async (embedId: string, tenant: string, body: object = {}) => {
    const res = await post(embedId, tenant, body)
    expect(res.statusCode, res.body).toBe(200)
    return res.json() as {
      data: Record<string, unknown>[]
      totalRecords: number
      metaData: { columns: { name: string }[] }
    }
  }

  it.each<[string, string, Setup, readonly string[]]>([
    [
      'a datamart client column',
      'column',
      { clientColumn: true },
      ['amount', 'created_at', 'customer_id', 'id', 'status'],
    ],
    [
      'embed tableTenancySettings',
      'embed',
      { tableTenancy: true },
      ['amount', 'created_at', 'customer_id', 'id', 'status'],
    ],
    [
      'a client column and hidden columns',
      'hidden',
      { clientColumn: true, hidden: ['status', 'customer_id'] },
      ['amount', 'created_at', 'id'],
    ],
  ])('under %s: never the tenant column or a hidden one, only the tenant’s rows', async (_l, name, setup, shown) => {
    const embedId = await embedWith(name, setup)
    for (const tenant of ['acme', 'globex']) {
      const body = await underlying(embedId, tenant)
      expect(body.metaData.columns.map((c) => c.name).sort()).toEqual(shown)
      for (const row of body.data) expect(Object.keys(row).sort()).toEqual(shown)
      const mine = await wh.query<{ id: number }>(`select id from ${wh.schema}.orders where tenant = $1`, [tenant])
      expect(body.totalRecords).toBe(mine.length)
      const ids = new Set(mine.map((r) => Number(r.id)))
      for (const row of body.data) expect(ids.has(Number(row.id)), `order ${row.id} of ${tenant}`).toBe(true)
    }
  })

  it('sorts the rows on the server across pages, the other columns breaking ties', async () => {
    // no tenancy: the 300 orders make three pages (a tenant has 100: one page)
    const embedId = await embedWith('sorted', { hidden: ['status'] })
    for (const direction of ['desc', 'asc'] as const) {
      const ids: number[] = []
      let total = 0
      for (let page = 1; page === 1 || ids.length < total; page++) {
        const body = await underlying(embedId, 'globex', { pageNumber: page, sort: { column: 'amount', direction } })
        total = body.totalRecords
        expect(body.data.length, `page ${page}`).toBeGreaterThan(0)
        ids.push(...body.data.map((r) => Number(r.id)))
      }
      expect(total).toBeGreaterThan(200) // three pages
      const mine = await wh.query<{ id: number }>(
        `select id from ${wh.schema}.orders order by amount ${direction}, id asc`,
      )
      expect(ids).toEqual(mine.map((r) => Number(r.id)))
    }
  })

  let hostile: Promise<string> | undefined
  it.each([
    ['the tenant column', 'tenant'],
    ['a hidden column', 'status'],
    ['a column of another table', 'country'],
    ['a quoted name', '"amount"'],
    ['an expression', 'amount desc; drop table orders --'],
    ['a subquery', '(select 1)'],
  ])('refuses to sort by %s (400, nothing run)', async (_l, column) => {
    hostile ??= embedWith('hostile', { clientColumn: true, hidden: ['status'] })
    const embedId = await hostile
    const res = await post(embedId, 'acme', { sort: { column, direction: 'asc' } })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().error.code).toBe('INVALID_REQUEST_BODY')
    const orders = await wh.query<{ n: string }>(`select count(*) as n from ${wh.schema}.orders`)
    expect(Number(orders[0]?.n)).toBe(300)
  })

  it('refuses a sort direction other than asc or desc (400)', async () => {
    const embedId = await embedWith('direction', { clientColumn: true })
    const res = await post(embedId, 'acme', { sort: { column: 'amount', direction: 'desc, id' } })
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().error.code).toBe('INVALID_REQUEST_BODY')
  })
})
