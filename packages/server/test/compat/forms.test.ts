import { describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'

/**
 * Forms the hosted service's published examples use, replayed: the datasource create and update
 * answers read by their top-level `name`; the embeds list's `externalDashboard.metadata` with the
 * dashboard's `createdAt`/`updatedAt`; the older accessSettings spellings (`isAllowAipilot`,
 * `tableList`) on the legacy embed update. Bodies written for these tests after the service's
 * public API reference, over helpers/analytics.ts.
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

const isIso = (x: unknown) => typeof x === 'string' && new Date(x).toISOString() === x
const LISTS = [
  ['GET', '/api/v2/data-app/embeds?isPagination=true&pageNumber=1', undefined],
  ['POST', '/api/v2/dataApp/embed/list', { isPagination: true, pageNumber: 1 }],
] as const

describe.skipIf(!hasPg).each(storeKinds)('hosted-service forms on %s', (store) => {
  const { wh, a } = useAnalytics(store)

  it('answers datasource create and update with the name at the top level', async () => {
    const body = { datasourceType: 'postgres', credentials: { name: 'production-postgres', ...wh.credentials } }
    for (const method of ['POST', 'PUT'] as const) {
      const res = await a.call(method, '/api/v2/datasource', a.serviceToken, body)
      expect(res.statusCode, res.body).toBe(200)
      const answer = res.json()
      expect(answer.name, method).toBe('production-postgres')
      expect(answer.data.name, method).toBe('production-postgres')
      expect(answer.error).toBeNull()
      expect(Object.keys(answer).sort()).toEqual(['data', 'error', 'name'])
    }
  })

  it("lists each dashboard embed's metadata: the dashboard's createdAt and updatedAt, and what it was created with", async () => {
    const created = await a.ok('POST', '/api/v2/data-app/dashboard-embeds', a.dataAppKey, {
      dashboardId: 'client-acme-dashboard',
      workspaceName: 'main',
      clientId: 'acme-corp-123',
      metadata: { clientName: 'Acme Corporation', region: 'North America' },
      name: 'ACME Analytics Dashboard',
      embedDescription: 'Analytics dashboard for ACME Corp',
      accessSettings: ACCESS,
    })
    const listed = async () => {
      const answers = []
      for (const [method, url, body] of LISTS) {
        const res = await a.call(method, url, a.dataAppKey, body)
        expect(res.statusCode, res.body).toBe(200)
        answers.push(res.json().data as Record<string, Record<string, unknown>>[])
      }
      expect(answers[1], 'the legacy list answers as the preferred one').toEqual(answers[0])
      return answers[0] ?? []
    }
    const [sales, acme] = await listed()
    const meta = sales?.externalDashboard?.metadata as Record<string, unknown>
    expect(Object.keys(meta).sort()).toEqual(['createdAt', 'updatedAt'])
    expect(isIso(meta.createdAt) && isIso(meta.updatedAt), JSON.stringify(meta)).toBe(true)
    // the dashboard's, not the embed's: setup imported the dashboard (with a dry run) before embedding it
    expect(String(meta.createdAt) < String(sales?.embedMetadata?.createdAt), JSON.stringify(sales)).toBe(true)
    expect(sales?.embedMetadata?.embedDescription).toBeNull()
    expect(acme?.embedId).toBe(created.embedId)
    expect(acme?.externalDashboard?.metadata).toEqual({
      clientName: 'Acme Corporation',
      region: 'North America',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    expect(acme?.embedMetadata?.embedDescription).toBe('Analytics dashboard for ACME Corp')

    // the timestamps are the dashboard's: renaming the embed alone leaves them, renaming the
    // dashboard too moves its updatedAt, not its createdAt
    const before = acme?.externalDashboard?.metadata as Record<string, string>
    await new Promise((resolve) => setTimeout(resolve, 5))
    await a.ok('PUT', '/api/v2/data-app/embeds/rename', a.dataAppKey, { embedId: created.embedId, name: 'ACME' })
    expect((await listed())[1]?.externalDashboard?.metadata).toEqual(before)
    await new Promise((resolve) => setTimeout(resolve, 5))
    await a.ok('PUT', '/api/v2/data-app/embeds/rename', a.dataAppKey, {
      embedId: created.embedId,
      name: 'ACME (renamed)',
      isRenameDashboard: true,
    })
    const after = (await listed())[1]?.externalDashboard?.metadata as Record<string, string>
    expect(after.createdAt).toBe(before.createdAt)
    expect((after.updatedAt ?? '') > (before.updatedAt ?? '')).toBe(true)
    expect(after.region).toBe('North America')
  })

  it('refuses metadata that names the timestamps or is too large', async () => {
    const body = (metadata: object) => ({
      dashboardId: 'meta',
      workspaceName: 'main',
      clientId: 'acme',
      metadata,
      accessSettings: ACCESS,
    })
    const path = '/api/v2/data-app/dashboard-embeds'
    expectError(
      await a.call('POST', path, a.dataAppKey, body({ createdAt: 'x' })),
      400,
      'INVALID_REQUEST_BODY',
      /metadata\.createdAt/,
    )
    const big = { note: 'x'.repeat(10_001) }
    expectError(await a.call('POST', path, a.dataAppKey, body(big)), 400, 'INVALID_REQUEST_BODY', /metadata: at most/)
    // nothing was created by the refusals
    expect((await a.call('POST', path, a.dataAppKey, body({ ok: true }))).statusCode).toBe(200)
  })

  it('reads isAllowAipilot and tableList on the legacy embed update, and only there', async () => {
    const legacy = (accessSettings: object) =>
      a.call('POST', '/api/v2/dataApp/embed/update', a.dataAppKey, { embedId: a.embedId, accessSettings })
    // the service's update example, with this warehouse's names
    const res = await legacy({
      datamartName: 'sales',
      isAllowAipilot: true,
      isAllowEmailReports: false,
      isAllowManageMetrics: true,
      isAllowMetricCreation: true,
      isAllowMetricDeletion: true,
      isAllowMetricLayoutChange: true,
      isAllowMetricUpdate: true,
      isAllowUnderlyingData: false,
      metricCreationMode: 'DRAG_DROP',
      tableList: [{ clientColumn: 'tenant', name: `${wh.schema}.orders` }],
    })
    expect(res.json(), res.body).toEqual({ id: a.embedId, error: null })
    const settings = async () =>
      (await a.ok('GET', `/api/v2/data-app/embeds/export?embedId=${a.embedId}`, a.dataAppKey))._meta
        .embedDataAppAccessSetting
    const saved = await settings()
    expect(saved).toMatchObject({
      isAllowAiPilot: true,
      tableTenancySettings: [{ name: `${wh.schema}.orders`, clientColumn: 'tenant' }],
      isAllowManageMetrics: true,
    })
    expect(saved).not.toHaveProperty('isAllowAipilot')
    expect(saved).not.toHaveProperty('tableList')

    // both spellings: the same value is one field, different values are refused naming both
    expect((await legacy({ isAllowAiPilot: false, isAllowAipilot: false })).statusCode).toBe(200)
    expect((await settings()).isAllowAiPilot).toBe(false)
    expectError(
      await legacy({ isAllowAiPilot: true, isAllowAipilot: false }),
      400,
      'INVALID_ACCESS_SETTINGS',
      /isAllowAiPilot and isAllowAipilot/,
    )
    expectError(await legacy({ tableList: [{ name: 'orders' }] }), 400, 'INVALID_ACCESS_SETTINGS', /clientColumn/)

    // the preferred update and the creates keep refusing them as undeclared fields
    const preferred = await a.call('PUT', '/api/v2/data-app/embeds', a.dataAppKey, {
      embedId: a.embedId,
      accessSettings: { isAllowAipilot: true },
    })
    expectError(preferred, 400, 'INVALID_ACCESS_SETTINGS', /isAllowAipilot/)
    const create = await a.call('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'dashboard',
      workspaceName: 'main',
      accessSettings: { ...ACCESS, tableList: [] },
    })
    expectError(create, 400, 'INVALID_REQUEST_BODY', /tableList/)
    // the guest-token body too (strict: undeclared fields are refused)
    const token = await a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, {
      dataAppName: 'salesapp',
      clientId: 'acme',
      permissions: { isAllowAipilot: true },
    })
    expectError(token, 400, 'INVALID_REQUEST_BODY', /isAllowAipilot/)
  })
})
