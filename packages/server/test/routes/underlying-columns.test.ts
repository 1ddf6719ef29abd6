import { describe, expect, it } from 'vitest'
import { type EmbedTenancy, tenantedEmbed } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

/**
 * Regression (issue 28): the underlying rows of a metric returned the tenant column (and would
 * have returned any column the tenancy names). They show the columns an end user may see —
 * never a tenant column, never a hidden one — and only the token's tenant's rows.
 */
describe.skipIf(!hasPg).each(storeKinds)('underlying rows on %s', (store) => {
  const { wh, a } = useAnalytics(store, { app: 'suite' })

  const embedWith = (name: string, setup: EmbedTenancy): Promise<string> => tenantedEmbed(a, wh, name, setup)

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

  it.each<[string, string, EmbedTenancy, readonly string[]]>([
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
