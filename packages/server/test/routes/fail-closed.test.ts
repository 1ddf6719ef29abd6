import { describe, expect, it } from 'vitest'
import { ACCESS, byCountryRls, type EmbedTenancy, salesDocument, tenantedEmbed } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

interface Setup extends Omit<EmbedTenancy, 'datasource' | 'hidden'> {
  /** The datasource's tenancySettings. */
  readonly tenancySettings?: (schema: string) => object
}

/**
 * Regression (issue 12, fail closed): clientId "None" turned tenancy off even where tenancy is
 * configured, so a tenant whose id could be chosen as "None" read every tenant's rows. It is
 * refused there (400 INVALID_REQUEST_BODY: the clientId is a bad value of the request or of the
 * token's claims, the API's validation code), on the runtime query and on the secret-key query
 * (preferred and legacy path); where nothing is configured it still means no tenancy.
 */
describe.skipIf(!hasPg).each(storeKinds)('clientId None on %s', (store) => {
  const { wh, a } = useAnalytics(store, { app: 'suite' })

  /** A datasource, datamart, workspace, dashboard and embed of their own, tenanted as `setup` says. */
  const embedWith = (name: string, setup: Setup): Promise<string> =>
    tenantedEmbed(a, wh, name, { ...setup, datasource: { tenancySettings: setup.tenancySettings } })

  const mintNone = async () =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId: 'None',
        permissions: { isEnableDownloadMetrics: true },
      })
    ).token as string

  const everyPath = async (embedId: string) => {
    const token = await mintNone()
    return [
      await a.call('POST', `/api/v2/embed/runtime/${embedId}/query`, token, { metricId: 'revenue' }),
      await a.call('GET', `/api/v2/embed/runtime/${embedId}/metrics/revenue/download`, token),
      ...(await Promise.all(
        ['/api/v2/data-app/query', '/api/v2/dataApp/query'].map((path) =>
          a.call('POST', path, a.dataAppKey, { embedId, metricId: 'revenue', clientId: 'None' }),
        ),
      )),
    ]
  }

  it.each<[string, string, Setup, RegExp]>([
    ['a datamart client column (TABLE)', 'column', { clientColumn: true }, /datamart martcolumn has client columns/],
    [
      'datasource TABLE tenancySettings',
      'table',
      {
        tenancySettings: (schema) => ({
          tenancyLevel: 'TABLE',
          clientColumnType: 'STRING',
          schemaName: schema,
          tableName: 'customers',
          tableClientNameColumn: 'tenant',
          tablePrimaryKeyColumn: 'id',
        }),
      },
      /TABLE tenancy/,
    ],
    [
      'datasource DATABASE tenancySettings',
      'db',
      { tenancySettings: () => ({ tenancyLevel: 'DATABASE' }) },
      /DATABASE tenancy/,
    ],
    ['embed tableTenancySettings', 'embed', { tableTenancy: true }, /embed .* has tableTenancySettings/],
  ])(
    'is refused under %s: runtime query and download, secret-key query on both paths',
    async (_l, name, setup, reason) => {
      const answers = await everyPath(await embedWith(name, setup))
      expect(answers).toHaveLength(4)
      for (const res of answers) expectError(res, 400, 'CLIENT_ID_ERROR', /clientId: "None" means no tenancy/)
      for (const res of answers) expect(res.json().error.message).toMatch(reason)
    },
  )

  it('still means no tenancy where none is configured: every row', async () => {
    const embedId = await embedWith('open', {})
    const [row] = await wh.query<{ s: string }>(`select sum(amount) s from ${wh.schema}.orders`)
    const all = Math.round(Number(row?.s) * 100) / 100
    const [runtime, csv, preferred, legacy] = await everyPath(embedId)
    for (const res of [runtime, preferred, legacy]) {
      expect(res?.statusCode, res?.body).toBe(200)
      expect(Math.round(Number(res?.json().data[0].revenue) * 100) / 100).toBe(all)
    }
    expect(csv?.statusCode, csv?.body).toBe(200)
    expect(Math.round(Number(csv?.body.trim().split('\n')[1]) * 100) / 100).toBe(all)
  })
})

interface Setup extends Omit<EmbedTenancy, 'datasource' | 'hidden'> {
  /** The datasource's tenancySettings. */
  readonly tenancySettings?: (schema: string) => object
}

/**
 * Regression (issue 12, fail closed): a metric declaring RLS variables ran unrestricted when the
 * token's rlsSettings named only other metrics (or none). Refused (400 naming metric and
 * variable) on every runtime data path; the secret-key query, which carries no RLS (its caller
 * names any clientId), is unchanged.
 */
describe.skipIf(!hasPg).each(storeKinds)('RLS variables without a value on %s', (store) => {
  const { wh, a } = useAnalytics(store, { app: 'suite' })

  const byCountry = (schema: string) => {
    const metric = byCountryRls(schema)
    return { ...metric, query: { ...metric.query, orderBy: [{ name: 'country', direction: 'asc' }] } }
  }

  const embedWithRls = async (): Promise<string> => {
    const document = salesDocument(wh.schema)
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'rls-dash',
      importDashboardData: {
        ...document,
        layout: [...document.layout, { metricId: 'by_country', x: 0, y: 8, w: 6, h: 4 }],
        metrics: [...document.metrics, byCountry(wh.schema)],
      },
    })
    const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'rls-dash',
      embedType: 'dashboard',
      workspaceName: 'main',
      accessSettings: { ...ACCESS, isAllowUnderlyingData: true },
    })
    return embed.id as string
  }

  it('refuses the metric when the token gives its variable no value; binds it when it does', async () => {
    const embedId = await embedWithRls()
    const mint = async (rlsSettings?: object[]) =>
      (
        await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
          dataAppName: 'salesapp',
          clientId: 'acme',
          ...(rlsSettings ? { params: { rlsSettings } } : {}),
          permissions: { isEnableDownloadMetrics: true, isEnableUnderlyingData: true },
        })
      ).token as string
    const paths = (token: string) => [
      a.call('POST', `/api/v2/embed/runtime/${embedId}/query`, token, { metricId: 'by_country' }),
      a.call('POST', `/api/v2/embed/runtime/${embedId}/underlying`, token, { metricId: 'by_country' }),
      a.call('GET', `/api/v2/embed/runtime/${embedId}/metrics/by_country/download`, token),
    ]
    for (const token of [await mint(), await mint([{ metricId: 'revenue', values: {} }])]) {
      for (const res of await Promise.all(paths(token))) {
        expectError(
          res,
          400,
          'INVALID_REQUEST_BODY',
          /metric by_country declares the RLS variable "countries", and the token gives it no value/,
        )
      }
      // metrics without RLS are not affected
      const revenue = await a.call('POST', `/api/v2/embed/runtime/${embedId}/query`, token, { metricId: 'revenue' })
      expect(revenue.statusCode, revenue.body).toBe(200)
    }
    const scoped = await mint([{ metricId: 'by_country', values: { countries: ['DE'] } }])
    for (const res of await Promise.all(paths(scoped))) expect(res.statusCode, res.body).toBe(200)
    const rows = (await paths(scoped)[0])?.json().data as { country: string }[]
    expect(rows.map((r) => r.country)).toEqual(['DE'])
    // the secret-key query carries no RLS: the whole tenant, as before
    const viaKey = await a.call('POST', '/api/v2/data-app/query', a.dataAppKey, {
      embedId,
      metricId: 'by_country',
      clientId: 'acme',
    })
    expect(viaKey.statusCode, viaKey.body).toBe(200)
    expect((viaKey.json().data as { country: string }[]).map((r) => r.country)).toEqual(['DE', 'FR', 'JP', 'US'])
  })
})
