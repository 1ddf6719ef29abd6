import { beforeEach, describe, expect, it } from 'vitest'
import { ACCESS, embedDashboard } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

/**
 * `PUT /api/v2/data-app/metrics/publish` (data app key), replayed after the hosted service's
 * example `{ embedId, metricId, isPublished }` → `{ id }`: the backend publishes a metric an end
 * user made (every user of the tenant sees it) or unpublishes it (only its creator does; the
 * metrics list shows it with `isPublished: false`). The dashboard's own metrics are always
 * published. Over helpers/analytics.ts, with an embed that lets end users create and manage.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const SELF_SERVE = { ...ACCESS, isAllowMetricCreation: true, isAllowManageMetrics: true }

describe.skipIf(!hasPg).each(storeKinds)('publishing metrics by key on %s', (store) => {
  const { wh, a } = useAnalytics(store)
  const { tokenFor, ok } = runtimeCalls(a)
  let embedId: string
  let ann: string
  let bob: string
  let metricId: string

  // ann (of acme) makes a private metric on a self-serve embed; bob is another user of acme
  beforeEach(async () => {
    embedId = await embedDashboard(a, 'sales-overview', { name: 'Self-serve', accessSettings: SELF_SERVE })
    ann = await tokenFor('acme', { params: { userIdentifier: 'ann' } })
    bob = await tokenFor('acme', { params: { userIdentifier: 'bob' } })
    const metric = {
      name: 'Orders by status',
      chart: { type: 'bar', x: 'status', y: ['orders'] },
      query: {
        from: `${wh.schema}.orders`,
        measures: [{ name: 'orders', aggregate: 'count' }],
        dimensions: [{ name: 'status', column: 'status' }],
      },
    }
    metricId = (await ok('POST', embedId, '/metrics', ann, { metric, visibility: 'private' })).data.metricId
  })

  const publish = (body: object) => a.call('PUT', '/api/v2/data-app/metrics/publish', a.dataAppKey, body)
  const seenBy = async (token: string) =>
    ((await ok('GET', embedId, '', token)).metrics as { metricId: string }[]).some((m) => m.metricId === metricId)
  const listed = async (query = '') =>
    (
      (await a.ok('GET', `/api/v2/data-app/metrics?embedId=${embedId}&clientId=acme${query}`, a.dataAppKey)).data as {
        metricId: string
        isPublished: boolean
        createdByUser: string | null
      }[]
    ).find((m) => m.metricId === metricId)

  it("publishes and unpublishes an end user's metric, as the service's example does", async () => {
    expect([await seenBy(ann), await seenBy(bob)]).toEqual([true, false])
    const res = await publish({ embedId, metricId, isPublished: true })
    expect([res.statusCode, res.json()], res.body).toEqual([200, { id: metricId }])
    expect([await seenBy(ann), await seenBy(bob)]).toEqual([true, true])
    expect(await listed()).toEqual({ name: 'Orders by status', metricId, isPublished: true, createdByUser: 'ann' })

    expect((await publish({ embedId, metricId, isPublished: false })).json()).toEqual({ id: metricId })
    // hidden from the tenant but kept: its creator still sees it, the list shows it unpublished
    expect([await seenBy(ann), await seenBy(bob)]).toEqual([true, false])
    expect(await listed()).toMatchObject({ metricId, isPublished: false, createdByUser: 'ann' })
    // another tenant never saw it and still does not
    expect(await seenBy(await tokenFor('globex', { params: { userIdentifier: 'ann' } }))).toBe(false)

    // and back again
    await publish({ embedId, metricId, isPublished: true })
    expect(await seenBy(bob)).toBe(true)
  })

  it("keeps the dashboard's own metrics published; unknown ids are INVALID_METRIC_ID", async () => {
    expect((await publish({ embedId, metricId: 'revenue', isPublished: true })).json()).toEqual({ id: 'revenue' })
    expectError(
      await publish({ embedId, metricId: 'revenue', isPublished: false }),
      400,
      'INVALID_REQUEST_BODY',
      /dashboard itself/,
    )
    expect(((await ok('GET', embedId, '', bob)).metrics as { metricId: string }[]).map((m) => m.metricId)).toContain(
      'revenue',
    )
    // the service's example ids name nothing here
    expectError(
      await publish({ embedId: 'embed_abc123', metricId: 'metric_xyz789', isPublished: true }),
      400,
      'INVALID_METRIC_ID',
      /embed_abc123/,
    )
    expectError(await publish({ embedId, metricId: 'metric_xyz789', isPublished: true }), 400, 'INVALID_METRIC_ID')
    // another data app's embed is as unknown to this key
    const other = await a.ok('POST', '/api/v2/data-app', a.serviceToken, { name: 'otherapp' })
    expectError(
      await a.call('PUT', '/api/v2/data-app/metrics/publish', other.key, { embedId, metricId, isPublished: false }),
      400,
      'INVALID_METRIC_ID',
    )
    expect(await seenBy(ann)).toBe(true)
    expectError(await publish({ embedId, metricId, isPublished: 'true' }), 400, 'INVALID_REQUEST_BODY')
    expectError(await publish({ embedId, metricId }), 400, 'INVALID_REQUEST_BODY', /isPublished/)
    expectError(
      await a.call('PUT', '/api/v2/data-app/metrics/publish', a.serviceToken, { embedId, metricId, isPublished: true }),
      401,
      'INVALID_DATA_APP_API_KEY',
    )
  })
})
