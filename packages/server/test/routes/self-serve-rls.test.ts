/**
 * End users' metrics under the token's row-level security (docs/runtime-api.md
 * "The metric definition", services/self-serve/inherited-rls.ts): a definition declares
 * no RLS of its own; the values the token's rlsSettings give a company metric of the dashboard
 * apply to it, on the column that metric declares, whenever its table reaches that column's
 * table — in the preview, and in the saved metric's query. The end user cannot widen them. A
 * company SQL metric's variables too, on the column its `rls` entry declares; one the server
 * cannot place refuses end users' metrics on the tables the SQL reads.
 */
import { describe, expect, it } from 'vitest'
import { ACCESS, byCountryRls, salesDocument } from '../helpers/analytics.js'
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
        metrics: [...document.metrics, byCountryRls(wh.schema)],
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

  /**
   * Regression (issue 24, item 4): RLS declared by a company SQL metric did not reach end users'
   * metrics. A SQL metric binds its variable in its own text; its `rls` entry says which column
   * that is (here `country`, which of the tables it reads only customers has), and end users'
   * metrics on that table, or reaching it, get the token's value there.
   */
  const sqlEmbed = async (dashboardId: string, rls?: object[]): Promise<string> => {
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId,
      importDashboardData: {
        name: 'SQL',
        metrics: [
          {
            metricId: 'sql_by_country',
            name: 'Orders by country (SQL)',
            chart: { type: 'table' },
            sql: `select c.country, count(*) as orders from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id where c.country in ({{countries}}) group by c.country order by c.country`,
            ...(rls ? { rls } : {}),
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
  const mintSql = async (clientId: string, countries?: string[]) =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        ...(countries ? { params: { rlsSettings: [{ metricId: 'sql_by_country', values: { countries } }] } } : {}),
      })
    ).token as string

  it('a company SQL metric’s RLS variable applies to end users’ metrics on the column its rls entry declares', async () => {
    const embedId = await sqlEmbed('rls-sql', [{ variable: 'countries', column: 'country' }])
    const call = (token: string, path: string, body: object) =>
      a.call('POST', `/api/v2/embed/runtime/${embedId}${path}`, token, body)
    for (const [tenant, countries] of [
      ['acme', ['DE']],
      ['globex', ['FR', 'US']],
    ] as const) {
      const token = await mintSql(tenant, [...countries])
      const label = `${tenant} ${countries}`
      // the company's SQL metric shows only the token's countries
      const company = await call(token, '/query', { metricId: 'sql_by_country' })
      expect(company.statusCode, company.body).toBe(200)
      expect(company.json().data.map((r: { country: string }) => r.country)).toEqual([...countries].sort())
      // and so does the end user's own metric on the same tables: preview, save, query
      for (const metric of [customerRowsOf(wh.schema), byCountryOf(wh.schema), byStatusOf(wh.schema)]) {
        const preview = await call(token, '/preview', { metric })
        expect(preview.statusCode, `${label}: ${preview.body}`).toBe(200)
        const saved = await call(token, '/metrics', { metric })
        expect(saved.statusCode, `${label}: ${saved.body}`).toBe(200)
        const query = await call(token, '/query', { metricId: saved.json().data.metricId })
        expect(query.statusCode, `${label}: ${query.body}`).toBe(200)
        expect(query.json().data, label).toEqual(preview.json().data)
      }
      const rows = async (metric: object) => (await call(token, '/preview', { metric })).json().data
      expect(
        (await rows(customerRowsOf(wh.schema))).map((r: { id: number }) => Number(r.id)),
        label,
      ).toEqual(await expectedCustomers(tenant, [...countries]))
      expect(
        (await rows(byCountryOf(wh.schema))).map((r: { country: string }) => r.country),
        label,
      ).toEqual([...countries].sort())
      expect(
        (await rows(byStatusOf(wh.schema))).map((r: { status: string; orders: unknown }) => ({
          status: r.status,
          orders: Number(r.orders),
        })),
        label,
      ).toEqual(await expectedByStatus(tenant, [...countries]))
    }
  })

  it('fails closed: an RLS variable a SQL metric binds without saying on which column refuses end users’ metrics on its tables', async () => {
    const embedId = await sqlEmbed('rls-sql-2')
    const call = (token: string, path: string, body: object) =>
      a.call('POST', `/api/v2/embed/runtime/${embedId}${path}`, token, body)
    // saved by a token the variable does not restrict
    const free = await mintSql('acme')
    const saved = await call(free, '/metrics', { metric: customerRowsOf(wh.schema) })
    expect(saved.statusCode, saved.body).toBe(200)
    const metricId = saved.json().data.metricId as string
    const de = await mintSql('acme', ['DE'])
    const company = await call(de, '/query', { metricId: 'sql_by_country' })
    expect(company.statusCode, company.body).toBe(200)
    expect(company.json().data.map((r: { country: string }) => r.country)).toEqual(['DE'])
    const refused = new RegExp(
      `the SQL metric sql_by_country binds the RLS variable "countries".*declares no rls entry for it.*over ${wh.schema}\\.orders, ${wh.schema}\\.customers.*"rls": \\[\\{ "variable": "countries", "table": "<schema\\.table>", "column": "<column>" \\}\\]`,
    )
    for (const metric of [customerRowsOf(wh.schema), byStatusOf(wh.schema)]) {
      for (const path of ['/preview', '/metrics']) {
        const res = await call(de, path, { metric })
        expect(res.statusCode, `${path}: ${res.body}`).toBe(400)
        expect(res.json().error.code).toBe('INVALID_REQUEST_BODY')
        expect(res.json().error.message).toMatch(refused)
      }
    }
    const query = await call(de, '/query', { metricId })
    expect(query.statusCode, query.body).toBe(400)
    expect(query.json().error.message).toMatch(refused)
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
