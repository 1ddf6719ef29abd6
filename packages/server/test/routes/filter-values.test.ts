/**
 * Value pickers (docs/runtime-api.md#filter-values): a dashboard filter's distinct values and
 * the builder's twin on a model column, for the token's tenant only — its tenancy, its RLS and
 * its locked filters applied as a metric query applies them — searchable (a bound,
 * case-insensitive contains), paged, cached like metric results, and refused with the API's
 * codes. Checked against the warehouse itself, on both stores.
 */
import { describe, expect, it } from 'vitest'
import { pickerDashboard } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg).each(storeKinds)('filter values on %s', (store) => {
  // 60 more orders of acme's customers: acme has 160 order ids, more than one page of 100
  const { wh, t, a } = useAnalytics(store, {
    app: 'suite',
    prepare: (w) =>
      w.query(
        `insert into ${w.schema}.orders select 1000 + i, 3 * (1 + i % 10), 'acme', 'paid', 10, timestamptz '2026-06-01'
         from generate_series(1, 60) i`,
      ),
  })

  /** The sales dashboard plus a customer filter, a metric with RLS on customers.country, and an embed that may build. */
  let made: Promise<string> | undefined
  const setup = () => {
    made ??= pickerDashboard(a, wh.schema, 'pickers')
    return made
  }
  const rls = (countries: string[]) => ({ rlsSettings: [{ metricId: 'by_country', values: { countries } }] })
  const names = async (tenant: string, countries = ['DE', 'FR', 'US', 'JP']) =>
    (
      await wh.query<{ name: string }>(
        `select distinct name from ${wh.schema}.customers where tenant = $1 and country = any($2) order by name`,
        [tenant, countries],
      )
    ).map((r) => r.name)
  const values = (embedId: string, token: string, path: string) =>
    a.call('GET', `/api/v2/embed/runtime/${embedId}${path}`, token)

  it('lists a filter’s values for the token’s tenant, under its RLS and locked filters', async () => {
    const embedId = await setup()
    const { tokenFor } = runtimeCalls(a)
    for (const tenant of ['acme', 'globex']) {
      const token = await tokenFor(tenant, { params: rls(['DE', 'FR', 'US', 'JP']) })
      const res = await values(embedId, token, '/filters/customer/values')
      expect(res.statusCode, res.body).toBe(200)
      expect(res.json()).toEqual({ data: { values: await names(tenant), nextCursor: null }, error: null })
    }
    // RLS of a company metric restricts the values as it restricts an end user's metric
    const onlyDe = await tokenFor('acme', { params: rls(['DE']) })
    expect((await values(embedId, onlyDe, '/filters/Customer/values')).json().data.values).toEqual(
      await names('acme', ['DE']),
    )
    // a locked (token) filter too; a filter's own default never narrows its list
    const locked = await tokenFor('acme', {
      params: {
        ...rls(['DE', 'FR', 'US', 'JP']),
        dashboardAppFilters: [{ dashboardId: 'pickers', values: { country: ['FR'] } }],
      },
    })
    expect((await values(embedId, locked, '/filters/customer/values')).json().data.values).toEqual(
      await names('acme', ['FR']),
    )
  })

  it('searches case-insensitively with the text bound, hostile text matching only itself', async () => {
    const embedId = await setup()
    const token = await runtimeCalls(a).tokenFor('acme', { params: rls(['DE', 'FR', 'US', 'JP']) })
    const search = async (text: string) =>
      (await values(embedId, token, `/filters/status/values?search=${encodeURIComponent(text)}`)).json().data.values
    const statuses = (
      await wh.query<{ status: string }>(
        `select distinct status from ${wh.schema}.orders where tenant = 'acme' order by 1`,
      )
    ).map((r) => r.status)
    expect(statuses).toEqual(['paid', 'refunded'])
    expect(await search('')).toEqual(statuses)
    expect(await search('PAI')).toEqual(['paid'])
    expect(await search('E')).toEqual(['refunded'])
    for (const hostile of ['%', '_', "' or '1'='1", "paid' --", '\\', "%' union select tenant from customers --"]) {
      expect(await search(hostile), hostile).toEqual([])
    }
    // one compiled statement per shape, however many searches end users type
    const before = t.app.services.metricQueries.compiledShapes
    for (let i = 0; i < 20; i++) await search(`x${i}`)
    expect(t.app.services.metricQueries.compiledShapes).toBe(before)
  })

  it('pages with a cursor, and the builder’s twin lists a visible column but never a tenant column', async () => {
    const embedId = await setup()
    const token = await runtimeCalls(a).tokenFor('acme', { params: rls(['DE', 'FR', 'US', 'JP']) })
    const expected = (
      await wh.query<{ id: number }>(`select id from ${wh.schema}.orders where tenant = 'acme' order by id`)
    ).map((r) => Number(r.id))
    expect(expected.length).toBeGreaterThan(100)
    const path = `/model/columns/${wh.schema}.orders/id/values`
    const first = (await values(embedId, token, path)).json().data
    expect(first.values).toHaveLength(100)
    expect(first.nextCursor).toBe('2')
    const second = (await values(embedId, token, `${path}?cursor=2`)).json().data
    expect(second.nextCursor).toBeNull()
    expect([...first.values, ...second.values].map(Number)).toEqual(expected)
    expectError(
      await values(embedId, token, `/model/columns/${wh.schema}.orders/tenant/values`),
      400,
      'INVALID_REQUEST_BODY',
    )
    expectError(await values(embedId, token, `/model/columns/${wh.schema}.nope/id/values`), 400, 'INVALID_REQUEST_BODY')
    expectError(await values(embedId, token, `${path}?cursor=0`), 400, 'INVALID_REQUEST_BODY')
  })

  it('refuses with the API’s codes', async () => {
    const embedId = await setup()
    const { tokenFor } = runtimeCalls(a)
    const token = await tokenFor('acme', { params: rls(['DE']) })
    expectError(await values(embedId, token, '/filters/nope/values'), 400, 'INVALID_REQUEST_BODY', /no filter named/)
    expectError(await values(embedId, token, '/filters/period/values'), 400, 'INVALID_REQUEST_BODY', /date-range/)
    const hidden = await tokenFor('acme', { params: { ...rls(['DE']), hideDashboardFilters: ['Customer'] } })
    expectError(await values(embedId, hidden, '/filters/customer/values'), 403, 'UNAUTHORIZED')
    const closed = await tokenFor('acme', {
      params: { ...rls(['DE']), accessPermissions: { isAllowEndUserDashboardFilter: false } },
    })
    expectError(await values(embedId, closed, '/filters/customer/values'), 403, 'UNAUTHORIZED')
    const noCreate = await tokenFor('acme', { params: rls(['DE']), permissions: { isDisableMetricCreation: true } })
    expectError(
      await values(embedId, noCreate, `/model/columns/${wh.schema}.customers/name/values`),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
    // an end-user metric's RLS fails closed: no value for a declared variable refuses the values on its table
    const noRls = await tokenFor('acme')
    expectError(await values(embedId, noRls, '/filters/customer/values'), 400, 'INVALID_REQUEST_BODY')
    expectError(await values(embedId, 'not-a-token', '/filters/customer/values'), 401, 'AUTHENTICATION_ERROR')
  })
})
