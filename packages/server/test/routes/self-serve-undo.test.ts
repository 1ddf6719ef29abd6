/**
 * Where an end user's changes show, and how each is undone (issue 24, item 13): one user's
 * archive, chart change, new metric, hidden metric and layout made through a self-serve embed
 * never reach a read-only embed of the same dashboard for the same tenant; a hidden company
 * metric is listed and restored; a tenant's version of a company metric is reset to the
 * company's, and the load says when the company changed the metric since the copy was made.
 */
import { describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const FULL = {
  ...ACCESS,
  isAllowMetricCreation: true,
  isAllowMetricUpdate: true,
  isAllowMetricDeletion: true,
  isAllowManageMetrics: true,
  isAllowMetricLayoutChange: true,
  isAllowCreateDashboardView: true,
}

interface LoadedMetric {
  metricId: string
  name: string
  chart: { type: string }
  origin: string
  tenantVersion?: true
  companyVersionChanged?: true
}

describe.skipIf(!hasPg).each(storeKinds)('where end users’ changes show, and their undo, on %s', (store) => {
  const { wh, a } = useAnalytics(store)

  const embedWith = async (accessSettings: object): Promise<string> =>
    (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        accessSettings,
      })
    ).id
  const { tokenFor, rt, ok } = runtimeCalls(a)
  const load = (embedId: string, token: string) => ok('GET', embedId, '', token)
  const metric = async (embedId: string, token: string, metricId: string): Promise<LoadedMetric | undefined> =>
    (await load(embedId, token)).metrics.find((m: LoadedMetric) => m.metricId === metricId)
  const ids = async (embedId: string, token: string) =>
    (await load(embedId, token)).metrics.map((m: LoadedMetric) => m.metricId)
  const count = (name: string) => ({
    name,
    chart: { type: 'single-value', y: ['revenue'] },
    query: { from: `${wh.schema}.orders`, measures: [{ name: 'revenue', aggregate: 'count' }] },
  })
  const exported = async () =>
    (
      await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
        dashboardId: 'sales-overview',
        workspaceName: 'main',
      })
    ).data
  const reimport = (document: object) =>
    a.ok('PUT', '/api/v2/data-app/dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'sales-overview',
      importDashboardData: document,
    })
  const sums = async (tenant: string) => {
    const [row] = await wh.query<{ s: string; n: string }>(
      `select sum(amount) s, count(*) n from ${wh.schema}.orders where tenant = $1`,
      [tenant],
    )
    return { sum: Number(row?.s), count: Number(row?.n) }
  }

  it('a read-only embed shows the dashboard as authored, whatever the tenant changed through a self-serve one', async () => {
    const selfServe = await embedWith(FULL)
    // the company's read-only embed: ACCESS grants no self-serve capability
    const readOnly = a.embedId
    const alice = await tokenFor('acme', { params: { userIdentifier: 'alice' } })
    const anyone = await tokenFor('acme')
    const authored = await load(readOnly, anyone)

    // one user of the tenant changes everything a self-serve embed lets her change
    await ok('POST', selfServe, '/metrics/revenue/archive', alice)
    await ok('PUT', selfServe, '/metrics/revenue_by_country', alice, {
      metric: {
        name: 'Orders per country',
        chart: { type: 'pie', x: 'country', y: ['orders'] },
        query: {
          from: `${wh.schema}.orders`,
          measures: [{ name: 'orders', aggregate: 'count' }],
          dimensions: [{ name: 'country', table: `${wh.schema}.customers`, column: 'country' }],
        },
      },
    })
    const created = (await ok('POST', selfServe, '/metrics', anyone, { metric: count('New metric') })).data.metricId
    await ok('DELETE', selfServe, '/metrics/orders_by_month', alice)
    await ok('PUT', selfServe, '/layout', anyone, {
      layout: [{ metricId: 'revenue_by_country', x: 0, y: 0, w: 12, h: 6 }],
    })
    // the self-serve embed shows the tenant's version
    const changed = await load(selfServe, anyone)
    expect(changed.metrics.map((m: LoadedMetric) => m.metricId)).toEqual(['revenue_by_country', created])
    expect(changed.archivedMetrics).toEqual([{ metricId: 'revenue', name: 'Revenue' }])
    expect(changed.hiddenMetrics).toEqual([{ metricId: 'orders_by_month', name: 'Orders by month' }])
    expect(changed.dashboard.customLayout).toBe(true)

    // the read-only embed, for every user of the tenant, is exactly what it was
    for (const token of [alice, anyone, await tokenFor('acme', { params: { userIdentifier: 'bob' } })]) {
      const shown = await load(readOnly, token)
      expect(shown.metrics).toEqual(authored.metrics)
      expect(shown.dashboard).toEqual(authored.dashboard)
      expect(shown.archivedMetrics).toEqual([])
      expect(shown.hiddenMetrics).toEqual([])
      expect(shown.metrics.find((m: LoadedMetric) => m.metricId === 'revenue_by_country')).toMatchObject({
        name: 'Revenue by country',
        chart: { type: 'bar' },
      })
    }
    // and its data paths run the company's metrics: the archived one, the changed one as authored
    const revenue = await ok('POST', readOnly, '/query', anyone, { metricId: 'revenue' })
    expect(Number(revenue.data[0].revenue)).toBeCloseTo((await sums('acme')).sum)
    const byCountry = await ok('POST', readOnly, '/query', anyone, { metricId: 'revenue_by_country' })
    expect(byCountry.metaData.columns.map((c: { name: string }) => c.name)).toEqual(['country', 'revenue', 'orders'])
    await ok('POST', readOnly, '/query', anyone, { metricId: 'orders_by_month' })
    expectError(await rt('POST', readOnly, '/query', anyone, { metricId: created }), 400, 'EMBED_PARAM_ERROR')
    // nothing can be changed through it
    expectError(await rt('POST', readOnly, '/metrics/revenue/unarchive', anyone), 403, 'INSUFFICIENT_PERMISSIONS')
    expectError(await rt('POST', readOnly, '/metrics/orders_by_month/restore', anyone), 403, 'INSUFFICIENT_PERMISSIONS')
    expectError(
      await rt('DELETE', readOnly, '/metrics/revenue_by_country/override', anyone),
      403,
      'INSUFFICIENT_PERMISSIONS',
    )
  })

  it('a hidden company metric is listed to who may restore it, and restored for the whole tenant', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const globex = await tokenFor('globex')
    await ok('DELETE', embed, '/metrics/orders_by_month', acme)
    const hidden = await load(embed, acme)
    expect(hidden.hiddenMetrics).toEqual([{ metricId: 'orders_by_month', name: 'Orders by month' }])
    expect(hidden.metrics.map((m: LoadedMetric) => m.metricId)).toEqual(['revenue', 'revenue_by_country'])
    expectError(await rt('POST', embed, '/query', acme, { metricId: 'orders_by_month' }), 400, 'EMBED_PARAM_ERROR')
    expect((await load(embed, globex)).hiddenMetrics).toEqual([])
    // a metric embed of another metric neither lists nor restores it
    const single = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'metric',
        metricId: 'revenue',
        workspaceName: 'main',
        accessSettings: FULL,
      })
    ).id as string
    expect((await load(single, acme)).hiddenMetrics).toEqual([])
    expectError(await rt('POST', single, '/metrics/orders_by_month/restore', acme), 400, 'EMBED_PARAM_ERROR')

    // without the manage capability: not listed, and refused, by the embed's setting or the token's flag
    const deleteOnly = await embedWith({ ...FULL, isAllowManageMetrics: false })
    expect((await load(deleteOnly, acme)).hiddenMetrics).toEqual([])
    expectError(
      await rt('POST', deleteOnly, '/metrics/orders_by_month/restore', acme),
      403,
      'INSUFFICIENT_PERMISSIONS',
      /^Restoring hidden metrics is not allowed for this embed and token$/,
    )
    const flagged = await tokenFor('acme', { permissions: { isEnableManageMetrics: false } })
    expect((await load(embed, flagged)).hiddenMetrics).toEqual([])
    expectError(await rt('POST', embed, '/metrics/orders_by_month/restore', flagged), 403, 'INSUFFICIENT_PERMISSIONS')

    // ids that are not this tenant's hidden metrics: the one answer for a metric it cannot restore
    for (const [token, metricId] of [
      [acme, 'u_000000000000'],
      [acme, 'revenue'],
      [globex, 'orders_by_month'],
    ] as const) {
      expectError(
        await rt('POST', embed, `/metrics/${metricId}/restore`, token),
        400,
        'EMBED_PARAM_ERROR',
        new RegExp(`^Metric ${metricId} is not in embed ${embed}$`),
      )
    }

    expect(await ok('POST', embed, '/metrics/orders_by_month/restore', acme)).toEqual({
      data: { metricId: 'orders_by_month' },
      error: null,
    })
    const restored = await load(embed, await tokenFor('acme', { params: { userIdentifier: 'bob' } }))
    expect(restored.hiddenMetrics).toEqual([])
    expect(restored.metrics.map((m: LoadedMetric) => m.metricId)).toEqual([
      'revenue',
      'revenue_by_country',
      'orders_by_month',
    ])
    await ok('POST', embed, '/query', acme, { metricId: 'orders_by_month' })
  })

  it('a tenant’s version of a company metric is reset to the company’s, for that tenant only', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const globex = await tokenFor('globex')
    const value = async (token: string) =>
      Number((await ok('POST', embed, '/query', token, { metricId: 'revenue' })).data[0].revenue)
    await ok('PUT', embed, '/metrics/revenue', acme, { metric: count('Orders (acme)') })
    await ok('PUT', embed, '/metrics/revenue', globex, { metric: count('Orders (globex)') })
    expect(await metric(embed, acme, 'revenue')).toMatchObject({ name: 'Orders (acme)', tenantVersion: true })
    expect((await metric(embed, acme, 'revenue'))?.companyVersionChanged).toBeUndefined()
    expect(await metric(embed, acme, 'revenue_by_country')).not.toHaveProperty('tenantVersion')
    expect(await value(acme)).toBe((await sums('acme')).count)

    // refused without the update capability, by the embed's setting or the token's flag
    const noUpdate = await embedWith({ ...FULL, isAllowMetricUpdate: false })
    expectError(
      await rt('DELETE', noUpdate, '/metrics/revenue/override', acme),
      403,
      'INSUFFICIENT_PERMISSIONS',
      /is not allowed for this embed and token$/,
    )
    const flagged = await tokenFor('acme', { permissions: { isEnableMetricUpdation: false } })
    expectError(await rt('DELETE', embed, '/metrics/revenue/override', flagged), 403, 'INSUFFICIENT_PERMISSIONS')
    // an id the token does not see; a tenant's own metric has no company version
    expectError(await rt('DELETE', embed, '/metrics/u_000000000000/override', acme), 400, 'EMBED_PARAM_ERROR')
    const own = (await ok('POST', embed, '/metrics', acme, { metric: count('Own') })).data.metricId
    expectError(
      await rt('DELETE', embed, `/metrics/${own}/override`, acme),
      400,
      'INVALID_REQUEST_BODY',
      /has no company version/,
    )

    expect(await ok('DELETE', embed, '/metrics/revenue/override', acme)).toEqual({
      data: { metricId: 'revenue' },
      error: null,
    })
    const reset = await metric(embed, acme, 'revenue')
    expect(reset).toMatchObject({ name: 'Revenue', origin: 'company', chart: { type: 'single-value' } })
    expect(reset).not.toHaveProperty('tenantVersion')
    expect(await value(acme)).toBeCloseTo((await sums('acme')).sum)
    // globex keeps its own version; a second reset of acme's is a no-op
    expect(await metric(embed, globex, 'revenue')).toMatchObject({ name: 'Orders (globex)', tenantVersion: true })
    expect(await value(globex)).toBe((await sums('globex')).count)
    await ok('DELETE', embed, '/metrics/revenue/override', acme)
    expect(await metric(embed, acme, 'revenue')).toMatchObject({ name: 'Revenue' })
  })

  it('says companyVersionChanged once the company changes a metric a tenant has its own version of', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    await ok('PUT', embed, '/metrics/revenue', acme, { metric: count('Orders (acme)') })
    const document = await exported()
    // the same document again, its metric's keys in another order: the same version
    const reordered = {
      ...document,
      metrics: document.metrics.map((m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).reverse())),
    }
    await reimport(reordered)
    expect((await metric(embed, acme, 'revenue'))?.companyVersionChanged).toBeUndefined()
    // another metric changes: not this one
    await reimport({
      ...document,
      metrics: document.metrics.map((m: { metricId: string; name: string }) =>
        m.metricId === 'orders_by_month' ? { ...m, name: 'Orders per month' } : m,
      ),
    })
    expect((await metric(embed, acme, 'revenue'))?.companyVersionChanged).toBeUndefined()
    // the company changes revenue: the tenant's version says so, and keeps answering
    await reimport({
      ...document,
      metrics: document.metrics.map((m: { metricId: string; name: string }) =>
        m.metricId === 'revenue' ? { ...m, name: 'Revenue (net)' } : m,
      ),
    })
    expect(await metric(embed, acme, 'revenue')).toMatchObject({
      name: 'Orders (acme)',
      tenantVersion: true,
      companyVersionChanged: true,
    })
    // editing the version again does not hide that the company moved on
    await ok('PUT', embed, '/metrics/revenue', acme, { metric: count('Orders (acme, again)') })
    expect(await metric(embed, acme, 'revenue')).toMatchObject({ companyVersionChanged: true })
    // reset: the company's new version
    await ok('DELETE', embed, '/metrics/revenue/override', acme)
    const now = await metric(embed, acme, 'revenue')
    expect(now).toMatchObject({ name: 'Revenue (net)' })
    expect(now).not.toHaveProperty('companyVersionChanged')
    // a new copy of the new version is current again
    await ok('PUT', embed, '/metrics/revenue', acme, { metric: count('Orders (acme, new)') })
    expect((await metric(embed, acme, 'revenue'))?.companyVersionChanged).toBeUndefined()
    expect(await ids(embed, acme)).toEqual(['revenue', 'revenue_by_country', 'orders_by_month'])
  })

  it('"Keep mine" dismisses companyVersionChanged for that company version only, for the whole tenant', async () => {
    const embed = await embedWith(FULL)
    const acme = await tokenFor('acme')
    const acmeOther = await tokenFor('acme', { params: { userIdentifier: 'bob@acme.test' } })
    const globex = await tokenFor('globex')
    // nothing to keep: a company metric without a version, a metric the token does not see
    expectError(await rt('POST', embed, '/metrics/revenue/keep-version', acme), 400, 'INVALID_REQUEST_BODY')
    expectError(await rt('POST', embed, '/metrics/nope/keep-version', acme), 400, 'EMBED_PARAM_ERROR')
    await ok('PUT', embed, '/metrics/revenue', acme, { metric: count('Orders (acme)') })
    await ok('PUT', embed, '/metrics/revenue', globex, { metric: count('Orders (globex)') })
    const document = await exported()
    const renamed = (name: string) => ({
      ...document,
      metrics: document.metrics.map((m: { metricId: string }) => (m.metricId === 'revenue' ? { ...m, name } : m)),
    })
    await reimport(renamed('Revenue (net)'))
    expect(await metric(embed, acme, 'revenue')).toMatchObject({ companyVersionChanged: true })
    // the update permission, as for reset
    const readOnly = await embedWith(ACCESS)
    expectError(await rt('POST', readOnly, '/metrics/revenue/keep-version', acme), 403, 'INSUFFICIENT_PERMISSIONS')
    await ok('POST', embed, '/metrics/revenue/keep-version', acme)
    // kept: the tenant's version still answers, unmarked, for another user of the tenant too, after a reload
    expect(await metric(embed, acme, 'revenue')).toMatchObject({ name: 'Orders (acme)', tenantVersion: true })
    expect((await metric(embed, acme, 'revenue'))?.companyVersionChanged).toBeUndefined()
    expect((await metric(embed, acmeOther, 'revenue'))?.companyVersionChanged).toBeUndefined()
    // another tenant's note is its own
    expect(await metric(embed, globex, 'revenue')).toMatchObject({ companyVersionChanged: true })
    // the company changes the metric again: the note comes back
    await reimport(renamed('Revenue (gross)'))
    expect(await metric(embed, acme, 'revenue')).toMatchObject({ name: 'Orders (acme)', companyVersionChanged: true })
  })
})
