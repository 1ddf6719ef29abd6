/**
 * End users' metrics under the token's row-level security (docs/runtime-api.md
 * "The metric definition", services/self-serve/overlay.ts `inheritedRls`): a definition declares
 * no RLS of its own; the values the token's rlsSettings give a company metric of the dashboard
 * apply to it, on the column that metric declares, whenever its table reaches that column's
 * table — in the preview, and in the saved metric's query. The end user cannot widen them.
 */
import { describe, expect, it } from 'vitest'
import { ACCESS, salesDocument } from '../helpers/analytics.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg)('self-serve metrics under the token’s RLS', () => {
  const { wh, a } = useAnalytics('sqlite', { app: 'suite' })

  /** The sales dashboard plus a company metric restricted by the RLS variable `countries` on customers.country. */
  const embedWithRls = async (dashboardId = 'rls-dash'): Promise<string> => {
    const document = salesDocument(wh.schema)
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId,
      importDashboardData: {
        ...document,
        metrics: [
          ...document.metrics,
          {
            metricId: 'by_country',
            name: 'Orders by country',
            chart: { type: 'bar', x: 'country', y: ['orders'] },
            query: {
              from: `${wh.schema}.orders`,
              measures: [{ name: 'orders', aggregate: 'count' }],
              dimensions: [{ name: 'country', table: `${wh.schema}.customers`, column: 'country' }],
            },
            rls: [{ variable: 'countries', table: `${wh.schema}.customers`, column: 'country' }],
          },
        ],
      },
    })
    const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId,
      embedType: 'dashboard',
      workspaceName: 'main',
      accessSettings: { ...ACCESS, isAllowMetricCreation: true },
    })
    return embed.id as string
  }
  const mint = async (clientId: string, countries: string[]) =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        params: { rlsSettings: [{ metricId: 'by_country', values: { countries } }] },
      })
    ).token as string

  /** The tenant's orders per status (and their count), only for customers in `countries`: from the warehouse itself. */
  const expectedByStatus = async (tenant: string, countries: string[]) =>
    (
      await wh.query<{ status: string; orders: string }>(
        `select o.status, count(*) orders from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
          where o.tenant = $1 and c.tenant = $1 and c.country = any($2) group by o.status order by o.status`,
        [tenant, countries],
      )
    ).map((r) => ({ status: r.status, orders: Number(r.orders) }))
  const expectedCustomers = async (tenant: string, countries: string[]) =>
    (
      await wh.query<{ id: number }>(
        `select id from ${wh.schema}.customers where tenant = $1 and country = any($2) order by id`,
        [tenant, countries],
      )
    ).map((r) => Number(r.id))

  const byStatusOf = (schema: string) =>
    ({
      name: 'Orders by status',
      chart: { type: 'bar' },
      query: {
        from: `${schema}.orders`,
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'status', column: 'status' }],
        orderBy: [{ name: 'status', direction: 'asc' }],
      },
    }) as const
  const byCountryOf = (schema: string) =>
    ({
      name: 'Orders by country (mine)',
      chart: { type: 'bar' },
      query: {
        from: `${schema}.orders`,
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'country', table: `${schema}.customers`, column: 'country' }],
        orderBy: [{ name: 'country', direction: 'asc' }],
      },
    }) as const
  const customerRowsOf = (schema: string) =>
    ({
      name: 'My customers',
      chart: { type: 'table' },
      query: {
        from: `${schema}.customers`,
        dimensions: [
          { name: 'id', column: 'id' },
          { name: 'country', column: 'country' },
        ],
        orderBy: [{ name: 'id', direction: 'asc' }],
      },
    }) as const

  it('a new metric on the RLS column’s table (or one reaching it) answers only rows matching the token’s RLS value', async () => {
    const embedId = await embedWithRls()
    const byStatus = byStatusOf(wh.schema)
    const byCountry = byCountryOf(wh.schema)
    const customerRows = customerRowsOf(wh.schema)
    const call = (token: string, path: string, body: object) =>
      a.call('POST', `/api/v2/embed/runtime/${embedId}${path}`, token, body)
    const answer = async (token: string, metric: object) => {
      const preview = await call(token, '/preview', { metric })
      expect(preview.statusCode, preview.body).toBe(200)
      const saved = await call(token, '/metrics', { metric })
      expect(saved.statusCode, saved.body).toBe(200)
      const query = await call(token, '/query', { metricId: saved.json().data.metricId })
      expect(query.statusCode, query.body).toBe(200)
      // the saved metric answers what its preview did
      expect(query.json().data).toEqual(preview.json().data)
      return query.json().data as Record<string, unknown>[]
    }

    for (const [tenant, countries] of [
      ['acme', ['DE']],
      ['acme', ['FR', 'JP']],
      ['globex', ['US']],
    ] as const) {
      const token = await mint(tenant, [...countries])
      const label = `${tenant} ${countries}`
      // the definition's own table is the one RLS names
      const customers = (await answer(token, customerRows)).map((r) => Number(r.id))
      const want = await expectedCustomers(tenant, [...countries])
      expect(want.length, label).toBeGreaterThan(0)
      expect(customers, label).toEqual(want)
      // a table that reaches it through the relationship: grouped by the RLS column, and not
      const grouped = await answer(token, byCountry)
      expect(
        grouped.map((r) => r.country),
        label,
      ).toEqual([...countries].sort())
      const statuses = (await answer(token, byStatus)).map((r) => ({ status: r.status, orders: Number(r.orders) }))
      expect(statuses, label).toEqual(await expectedByStatus(tenant, [...countries]))
      // the whole tenant has more: the restriction is real
      const all = await expectedByStatus(tenant, ['DE', 'FR', 'JP', 'US'])
      const sum = (rows: { orders: number }[]) => rows.reduce((s, r) => s + r.orders, 0)
      expect(sum(statuses), label).toBeLessThan(sum(all))
    }

    // the end user's own conditions narrow within the RLS value, never widen it
    const de = await mint('acme', ['DE'])
    const widened = await answer(de, {
      ...customerRows,
      query: {
        ...customerRows.query,
        where: [{ column: 'country', operator: 'in', values: ['DE', 'FR', 'US', 'JP'] }],
      },
    })
    expect(widened.map((r) => Number(r.id))).toEqual(await expectedCustomers('acme', ['DE']))
    const elsewhere = await answer(de, {
      ...customerRows,
      query: { ...customerRows.query, where: [{ column: 'country', operator: 'eq', values: ['FR'] }] },
    })
    expect(elsewhere).toEqual([])
  })

  it('fails closed: a token without a value for a declared RLS variable cannot run an end-user metric reaching its table', async () => {
    const embedId = await embedWithRls('rls-dash-2')
    const call = (token: string, path: string, body: object) =>
      a.call('POST', `/api/v2/embed/runtime/${embedId}${path}`, token, body)
    const withValue = await mint('acme', ['DE'])
    const saved = await call(withValue, '/metrics', { metric: customerRowsOf(wh.schema) })
    expect(saved.statusCode, saved.body).toBe(200)
    const metricId = saved.json().data.metricId as string
    const bare = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' })
    ).token as string
    const refused = /declares the RLS variable "countries".*the token gives it no value/
    // the company metric itself, as before
    const company = await call(bare, '/query', { metricId: 'by_country' })
    expect(company.statusCode, company.body).toBe(400)
    // the end user's metrics on the restricted table and on one reaching it: previewed, saved, queried
    for (const metric of [customerRowsOf(wh.schema), byStatusOf(wh.schema)]) {
      const preview = await call(bare, '/preview', { metric })
      expect(preview.statusCode, preview.body).toBe(400)
      expect(preview.json().error.message).toMatch(refused)
    }
    const query = await call(bare, '/query', { metricId })
    expect(query.statusCode, query.body).toBe(400)
    expect(query.json().error.message).toMatch(refused)
    // with the value the same saved metric runs, restricted
    const ok = await call(withValue, '/query', { metricId })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json().data.map((r: { id: number }) => Number(r.id))).toEqual(await expectedCustomers('acme', ['DE']))
  })
})
