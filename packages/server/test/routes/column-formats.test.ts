/**
 * Column formats (issue 28, item 7): the datamart declares how a column's values read, the load
 * carries every output column's format (the document's, else the datamart's, else inferred from
 * the column's name and type), an unknown or inconsistent format is refused, and the CSV stays raw.
 */
import { describe, expect, it } from 'vitest'
import { salesRelationships, salesTables } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg).each(storeKinds)('column formats on %s', (store) => {
  const { wh, a } = useAnalytics(store)
  const { tokenFor, ok, rt } = runtimeCalls(a)

  const datamart = (columns: object[]) => ({
    datamartName: 'sales',
    tableList: salesTables(wh.schema).map((t) => (t.name === 'orders' ? { ...t, columns } : t)),
    relationships: salesRelationships(wh.schema),
  })
  const metricOf = () => ({
    metricId: 'by_customer',
    name: 'By customer',
    chart: { type: 'table' },
    query: {
      from: `${wh.schema}.orders`,
      dimensions: [{ name: 'customer_id', column: 'customer_id' }],
      measures: [
        { name: 'amount', aggregate: 'sum', column: 'amount' },
        { name: 'orders', aggregate: 'count' },
        { name: 'top_order', aggregate: 'max', column: 'id' },
      ],
      orderBy: [{ name: 'customer_id', direction: 'asc' }],
    },
  })
  const importWith = (metrics: object[]) =>
    a.call('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: { name: 'Sales', metrics },
    })

  it('the load carries each column’s format: declared in the datamart, else inferred; the document’s wins', async () => {
    const metric = metricOf()
    await a.ok(
      'PUT',
      '/api/v2/data-app/datamarts',
      a.serviceToken,
      datamart([{ name: 'amount', format: { style: 'currency', currency: 'EUR' } }]),
    )
    const listed = await a.ok('GET', '/api/v2/data-app/datamarts', a.serviceToken)
    expect(JSON.stringify(listed)).toContain('"format":{"style":"currency","currency":"EUR"}')
    expect((await importWith([metric])).statusCode).toBe(200)
    const token = await tokenFor('acme', { permissions: { isEnableDownloadMetrics: true } })
    const loaded = await ok('GET', a.embedId, '', token)
    expect(loaded.metrics.find((m: { metricId: string }) => m.metricId === 'by_customer').formats).toEqual({
      customer_id: { style: 'id' },
      amount: { style: 'currency', currency: 'EUR' },
      orders: { style: 'number' },
      // the largest of an identifier column is not an identifier to read as written, nor money: a number
      top_order: { style: 'number' },
    })
    // the document's own format of a column wins over the datamart's and the inferred one
    expect(
      (
        await importWith([
          { ...metric, formats: { customer_id: { style: 'number' }, amount: { style: 'currency', currency: 'USD' } } },
        ])
      ).statusCode,
    ).toBe(200)
    const again = await ok('GET', a.embedId, '', token)
    expect(again.metrics[0].formats).toMatchObject({
      customer_id: { style: 'number' },
      amount: { style: 'currency', currency: 'USD' },
    })
    // the CSV stays raw: the customer id as written, the amount a plain decimal
    const csv = await rt('GET', a.embedId, '/metrics/by_customer/download', token)
    expect(csv.statusCode, csv.body).toBe(200)
    const [, first] = csv.body.trim().split(/\r?\n/)
    expect(first).toMatch(/^\d+,\d+(\.\d+)?,\d+,\d+$/)
  })

  it('refuses an unknown format or a currency on the wrong style, with the document validation’s code', async () => {
    const metric = metricOf()
    const bad = await a.call(
      'PUT',
      '/api/v2/data-app/datamarts',
      a.serviceToken,
      datamart([{ name: 'amount', format: { style: 'money' } }]),
    )
    expectError(bad, 400, 'INVALID_REQUEST_BODY')
    const noCurrency = await a.call(
      'PUT',
      '/api/v2/data-app/datamarts',
      a.serviceToken,
      datamart([{ name: 'amount', format: { style: 'currency' } }]),
    )
    expectError(noCurrency, 400, 'INVALID_REQUEST_BODY', /currency/)
    const stray = await a.call(
      'PUT',
      '/api/v2/data-app/datamarts',
      a.serviceToken,
      datamart([{ name: 'id', format: { style: 'id', currency: 'USD' } }]),
    )
    expectError(stray, 400, 'INVALID_REQUEST_BODY', /currency/)
    expectError(
      await importWith([{ ...metric, formats: { customer_id: { style: 'zip' } } }]),
      400,
      'INVALID_REQUEST_BODY',
    )
  })
})
