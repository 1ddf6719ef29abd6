import { randomBytes } from 'node:crypto'
import { appendFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresDatabase } from '../helpers/app.js'
import { bootstrapOver, removeDir, request, type ServerProcess, startServer, tempDataDir } from '../helpers/process.js'
import { REDIS_URL, requireService } from '../helpers/services.js'
import { ACCESS_SETTINGS, csvDataset, expectOk, setupFilesAnalytics, smallDocument } from './live.js'

/**
 * docs/architecture.md#redis-and-the-event-bus: with DATABASE_URL and REDIS_URL, any number of stateless replicas. Two server
 * processes on one PostgreSQL database and one Redis: what one instance changes, the other
 * serves correctly at once, although it holds the old state in memory (embeds, dashboards,
 * datasources, metric results). The shared rate limit has its own test
 * (test/process/rate-limit-redis.integration.test.ts).
 */
const available =
  (await requireService('PostgreSQL', '127.0.0.1', 5432)) && (await requireService('Redis', '127.0.0.1', 6379))

describe.runIf(available)('two instances on one PostgreSQL and one Redis', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  let a: ServerProcess
  let b: ServerProcess
  let creds: Awaited<ReturnType<typeof bootstrapOver>>
  let csv: string

  beforeAll(async () => {
    const database = await createPostgresDatabase()
    cleanups.push(database.drop)
    const key = randomBytes(32).toString('hex')
    const dirs = [tempDataDir(), tempDataDir()]
    csv = csvDataset()
    cleanups.push(() => {
      for (const dir of [...dirs, csv]) removeDir(dir)
    })
    const env = (dataDir: string) => ({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      REDIS_URL,
      ENCRYPTION_KEY: key,
      RATE_LIMIT: '0',
      FILES_ROOT: csv, // shared by the instances, as a volume would be
    })
    a = await startServer({ env: env(dirs[0] as string) }) // applies the migrations first
    cleanups.push(async () => void (await a.stop()))
    b = await startServer({ env: env(dirs[1] as string) })
    cleanups.push(async () => void (await b.stop()))
    creds = await bootstrapOver(a.url)
    await setupFilesAnalytics(a.url, creds)
  })
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  const embedOn = async (server: ServerProcess, dashboardId: string, name: string) =>
    expectOk(
      await request(server.url, 'POST', '/api/v2/data-app/embeds', {
        token: creds.dataAppKey,
        body: { dashboardId, embedType: 'dashboard', workspaceName: 'main', name, accessSettings: ACCESS_SETTINGS },
      }),
      'embed',
    ).id as string
  const mint = async (server: ServerProcess, clientId: string) =>
    expectOk(
      await request(server.url, 'POST', '/api/v2/guest-token/create', {
        token: creds.dataAppKey,
        body: { dataAppName: 'salesapp', clientId },
      }),
      'mint',
    ).token as string

  it('deleting an embed on one instance stops its guest tokens on the other at once', async () => {
    const rounds: string[] = []
    for (let round = 0; round < Number(process.env.INSTANCE_ROUNDS ?? 5); round++) {
      const embedId = await embedOn(a, 'sales-overview', `doomed ${round}`)
      const token = await mint(a, 'acme')
      // B has the embed in memory, and answers the token
      expect((await request(b.url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token })).status).toBe(200)
      const query = { token, body: { metricId: 'orders' } }
      expect((await request(b.url, 'POST', `/api/v2/embed/runtime/${embedId}/query`, query)).status).toBe(200)
      // deleted on A: B's very next requests are refused
      expectOk(
        await request(a.url, 'DELETE', `/api/v2/data-app/embeds?embedId=${embedId}`, { token: creds.dataAppKey }),
        'delete',
      )
      // The invalidation travels over Redis pub/sub: B applies it as soon as its event loop reads
      // the message (well under a millisecond when idle; the bound absorbs a loaded CI machine).
      const deletedAt = performance.now()
      let load = await request(b.url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token })
      while (load.status === 200 && performance.now() - deletedAt < 1_000) {
        load = await request(b.url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token })
      }
      const lagMs = Math.round(performance.now() - deletedAt)
      const run = await request(b.url, 'POST', `/api/v2/embed/runtime/${embedId}/query`, query)
      expect([load.status, load.body.error?.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
      expect([run.status, run.body.error?.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
      rounds.push(`${load.status}/${run.status} after ${lagMs} ms`)
    }
    console.log(`[instances] embed deleted on A, B's first runtime load/query right after: ${rounds.join(' ')}`)
  })

  it('a revoked API key (and the guest tokens it minted) and a replaced service token stop on the other instance at once', async () => {
    // an extra API key, used on B (now in B's memory), revoked on A
    const created = expectOk(
      await request(a.url, 'POST', '/api/v2/data-app/api-tokens', {
        token: creds.serviceToken,
        body: { dataAppName: 'salesapp', name: 'short-lived' },
      }),
      'key',
    )
    const secret = created.key as string
    const keyId = /^(sk_[0-9a-f]+)_/.exec(secret)?.[1] as string
    expect((await request(b.url, 'GET', '/api/v2/data-app/whitelist-domains', { token: secret })).status).toBe(200)
    // a guest token that key minted on A, in use on B
    const embedId = await embedOn(a, 'sales-overview', 'key revocation')
    const guest = expectOk(
      await request(a.url, 'POST', '/api/v2/guest-token/create', {
        token: secret,
        body: { dataAppName: 'salesapp', clientId: 'acme' },
      }),
      'mint',
    ).token as string
    expect((await request(b.url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token: guest })).status).toBe(200)
    expectOk(
      await request(a.url, 'DELETE', `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${keyId}`, {
        token: creds.serviceToken,
      }),
      'revoke',
    )
    const revoked = await request(b.url, 'GET', '/api/v2/data-app/whitelist-domains', { token: secret })
    expect(revoked.status).toBe(401)
    const guestOnB = await request(b.url, 'GET', `/api/v2/embed/runtime/${embedId}`, { token: guest })
    expect([guestOnB.status, guestOnB.body.error?.code]).toEqual([401, 'AUTHENTICATION_ERROR'])
    // the service token, used on B, replaced on A (POST /service-token revokes the old one at once)
    const old = creds.serviceToken
    expect((await request(b.url, 'GET', '/api/v2/data-app', { token: old })).status).toBe(200)
    const replaced = expectOk(
      await request(a.url, 'POST', '/api/v2/service-token', { token: creds.accessToken, body: {} }),
      'replace',
    )
    creds.serviceToken = replaced.key
    const onB = await request(b.url, 'GET', '/api/v2/data-app', { token: old })
    const onA = await request(a.url, 'GET', '/api/v2/data-app', { token: old })
    expect([onA.status, onB.status]).toEqual([401, 401])
    expect((await request(b.url, 'GET', '/api/v2/data-app', { token: replaced.key })).status).toBe(200)
    console.log(
      `[instances] API key revoked on A: B answered ${revoked.status}, its guest token ${guestOnB.status}; service token replaced on A: old token on A ${onA.status}, on B ${onB.status}`,
    )
  })

  it('a dashboard re-imported on one instance is what the other serves, never the old one', async () => {
    const document = (version: number) => {
      const doc = smallDocument(`Dynamic v${version}`)
      return {
        ...doc,
        layout: doc.layout.map((l) => ({ ...l, metricId: `${l.metricId}_v${version}` })),
        metrics: doc.metrics.map((m) => ({ ...m, metricId: `${m.metricId}_v${version}` })),
      }
    }
    const importOn = async (server: ServerProcess, version: number) =>
      expectOk(
        await request(server.url, 'POST', '/api/v2/data-app/import-dashboard', {
          token: creds.serviceToken,
          body: { workspaceName: 'main', dashboardId: 'dynamic', importDashboardData: document(version) },
        }),
        'import',
      )
    await importOn(a, 1)
    const first = await embedOn(a, 'dynamic', 'dynamic')
    const token = await mint(a, 'globex')
    const v1 = expectOk(await request(b.url, 'GET', `/api/v2/embed/runtime/${first}`, { token }), 'load v1')
    expect(v1.dashboard.name).toBe('Dynamic v1')
    // A replaces it: embed and dashboard deleted, v2 imported under the same id, embedded again
    expectOk(
      await request(a.url, 'DELETE', `/api/v2/data-app/embeds?embedId=${first}&isDeleteDashboard=true`, {
        token: creds.dataAppKey,
      }),
      'delete',
    )
    await importOn(a, 2)
    const second = await embedOn(a, 'dynamic', 'dynamic again')
    const old = await request(b.url, 'GET', `/api/v2/embed/runtime/${first}`, { token })
    expect(old.status).toBe(401)
    const v2 = expectOk(await request(b.url, 'GET', `/api/v2/embed/runtime/${second}`, { token }), 'load v2')
    expect(v2.dashboard.name).toBe('Dynamic v2')
    expect(v2.metrics.map((m: { metricId: string }) => m.metricId)).toEqual(['revenue_v2', 'orders_v2'])
    // by dashboard id too: B resolves "dynamic" to the new embed and the new document
    const byDashboard = expectOk(await request(b.url, 'GET', '/api/v2/embed/runtime/dynamic', { token }), 'by id')
    expect(byDashboard.dashboard.name).toBe('Dynamic v2')
    const query = await request(b.url, 'POST', `/api/v2/embed/runtime/${second}/query`, {
      token,
      body: { metricId: 'orders_v2' },
    })
    expect(query.status, JSON.stringify(query.body)).toBe(200)
    console.log(
      '[instances] dashboard re-imported on A: B served v2 (load, by dashboard id, query) and refused the old embed',
    )
  })

  it('what an end user saves on one instance (metric, layout, view) is what the other loads at once', async () => {
    const embedId = expectOk(
      await request(a.url, 'POST', '/api/v2/data-app/embeds', {
        token: creds.dataAppKey,
        body: {
          dashboardId: 'sales-overview',
          embedType: 'dashboard',
          workspaceName: 'main',
          name: 'self-serve',
          accessSettings: {
            ...ACCESS_SETTINGS,
            isAllowMetricCreation: true,
            isAllowMetricLayoutChange: true,
            isAllowCreateDashboardView: true,
            isAllowMetricDeletion: true,
          },
        },
      }),
      'embed',
    ).id as string
    const token = expectOk(
      await request(a.url, 'POST', '/api/v2/guest-token/create', {
        token: creds.dataAppKey,
        body: {
          dataAppName: 'salesapp',
          clientId: 'initech',
          params: { userIdentifier: 'ann@initech.example' },
          permissions: {
            isEnableCustomizeLayout: true,
            isEnableCreateDashboardView: true,
            isEnableManageMetrics: true,
          },
        },
      }),
      'mint',
    ).token as string
    const runtime = `/api/v2/embed/runtime/${embedId}`
    const loadOn = async (server: ServerProcess) =>
      expectOk(await request(server.url, 'GET', runtime, { token }), 'load')
    // B holds the untouched state in memory
    const before = await loadOn(b)
    expect(before.metrics.some((m: { origin: string }) => m.origin === 'tenant')).toBe(false)
    expect(before.dashboard.customLayout).toBe(false)
    expect(before.views).toEqual([])
    // A saves a metric, a layout and a view
    const { metricId } = expectOk(
      await request(a.url, 'POST', `${runtime}/metrics`, {
        token,
        body: {
          metric: {
            name: 'Orders per country',
            chart: { type: 'bar' },
            query: {
              from: 'main.customers',
              measures: [{ name: 'customers', aggregate: 'count' }],
              dimensions: [{ name: 'country', column: 'country' }],
            },
          },
        },
      }),
      'metric',
    ).data
    const layout = [{ metricId, x: 0, y: 0, w: 12, h: 5 }]
    expectOk(await request(a.url, 'PUT', `${runtime}/layout`, { token, body: { layout } }), 'layout')
    expectOk(await request(a.url, 'POST', `${runtime}/views`, { token, body: { name: 'All', filters: {} } }), 'view')
    // B loads all three at once
    const after = await loadOn(b)
    expect(
      after.metrics
        .filter((m: { origin: string }) => m.origin === 'tenant')
        .map((m: { metricId: string }) => m.metricId),
    ).toEqual([metricId])
    expect(after.dashboard.customLayout).toBe(true)
    expect(after.dashboard.layout[0]).toEqual(layout[0])
    expect(after.views.map((v: { name: string }) => v.name)).toEqual(['All'])
    // A resets the layout and deletes the metric: B follows at once
    expectOk(await request(a.url, 'DELETE', `${runtime}/layout`, { token }), 'reset')
    expectOk(await request(a.url, 'DELETE', `${runtime}/metrics/${metricId}`, { token }), 'delete')
    const reset = await loadOn(b)
    expect(reset.dashboard.customLayout).toBe(false)
    expect(reset.metrics.some((m: { metricId: string }) => m.metricId === metricId)).toBe(false)
    console.log('[instances] self-serve metric, layout and view saved on A: B loaded each at once, and their removal')
  })

  it('metric results cached on one instance are recomputed after a datasource sync on the other', async () => {
    const embedId = await embedOn(a, 'sales-overview', 'cached')
    const token = await mint(a, 'umbrella')
    const count = async (server: ServerProcess) => {
      const res = expectOk(
        await request(server.url, 'POST', `/api/v2/embed/runtime/${embedId}/query`, {
          token,
          body: { metricId: 'orders', dashboardFilter: { period: 'All time' } },
        }),
        'query',
      )
      return Number(res.data[0].orders)
    }
    const before = await count(b) // cached on B (and in Redis)
    expect(await count(b)).toBe(before)
    // the warehouse changes: 7 more umbrella orders; A syncs the datasource
    const orders = join(csv, 'files', 'orders.csv')
    const lines = readFileSync(orders, 'utf8').trimEnd().split('\n')
    const last = lines.at(-1)?.split(',') as string[]
    const customer = lines.find((l) => l.split(',')[2] === 'umbrella')?.split(',')[1]
    const added = Array.from({ length: 7 }, (_, i) =>
      [
        Number(last[0]) + 1 + i,
        customer,
        'umbrella',
        'paid',
        'Web',
        'Software',
        1,
        '10.00',
        '2026-06-01T00:00:00Z',
      ].join(','),
    )
    appendFileSync(orders, `${added.join('\n')}\n`)
    expectOk(
      await request(a.url, 'POST', '/api/v2/datasource/sync', {
        token: creds.serviceToken,
        body: { input: { datasourceId: 'files' } },
      }),
      'sync',
    )
    const afterOnB = await count(b)
    const afterOnA = await count(a)
    expect(afterOnB).toBe(before + 7)
    expect(afterOnA).toBe(before + 7)
    console.log(
      `[instances] result cached on B (${before} orders); data changed and synced on A: B answered ${afterOnB}, A ${afterOnA}`,
    )
  })
})
