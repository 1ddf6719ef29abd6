import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { ACCESS, salesDocument, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'
import { reachable } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse } from '../helpers/warehouse.js'

/** The four token kinds of the API (and the OpenAPI security scheme names). */
export type TokenKind = 'adminToken' | 'serviceToken' | 'dataAppKey' | 'guestToken'

export interface Fixture {
  readonly app: FastifyInstance
  readonly tokens: Record<TokenKind, string>
  /** Known-good values by field name; what valid-looking requests use to reach past lookups. */
  readonly pools: Readonly<Record<string, readonly unknown[]>>
  /**
   * Whole request bodies known to be served, by `METHOD /path` (the OpenAPI template): the
   * nesting mutations nest into these, so that a deep field reaches as far as a valid one.
   */
  readonly examples: Readonly<Record<string, readonly unknown[]>>
  /** Embeds that deleting requests may target (deleting the main one would end the run's depth). */
  readonly victims: string[]
  /** Whether the fixture has a warehouse (setupAnalytics) or only the bootstrap credentials. */
  readonly analytics: boolean
}

/**
 * Relaxed limits so the fuzzer is not answered 429 for everything: the rate-limit code
 * still runs on every request (a limit of 0 would switch it off).
 */
const FUZZ_ENV = {
  LOG_LEVEL: 'silent',
  RATE_LIMIT: '1000000000',
  AUTH_ROUTE_RATE_LIMIT: '1000000000',
  REFRESH_ROUTE_RATE_LIMIT: '1000000000',
  QUERY_TIMEOUT_MS: '5000',
}

/**
 * One app on SQLite set up with setupAnalytics (a Postgres warehouse) when PostgreSQL is
 * there, else with the bootstrap credentials only. The store lives on /dev/shm when there is
 * one: the fuzzer tests answers, not fsync.
 */
export class FuzzTarget {
  private ctx: TestContext | undefined
  private warehouse: PgWarehouse | undefined
  private dataDir: string | undefined
  fixture!: Fixture
  rebuilds = 0

  static async create(): Promise<FuzzTarget> {
    const target = new FuzzTarget()
    if (await reachable('127.0.0.1', 5432)) target.warehouse = await createPgWarehouse()
    await target.build()
    return target
  }

  /** Builds a fresh app and fixture (first time, or after the fuzzer broke the old one). */
  async build(): Promise<void> {
    await this.disposeApp()
    const base = process.platform === 'linux' ? '/dev/shm' : tmpdir()
    let dir: string
    try {
      dir = mkdtempSync(join(base, 'strata-fuzz-'))
    } catch {
      dir = mkdtempSync(join(tmpdir(), 'strata-fuzz-'))
    }
    this.dataDir = dir
    const ctx = await createTestApp('sqlite', { ...FUZZ_ENV, DATA_DIR: dir })
    this.ctx = ctx
    this.fixture = this.warehouse ? await analyticsFixture(ctx.app, this.warehouse) : await bareFixture(ctx.app)
  }

  /** Cheap probes that the fixture still works: every token kind authenticates. */
  async healthy(): Promise<boolean> {
    const { app, tokens } = this.fixture
    const probes: [string, string, TokenKind][] = [
      ['GET', '/api/v2/data-app', 'serviceToken'],
      ['GET', '/api/v2/data-app/whitelist-domains', 'dataAppKey'],
    ]
    const embedId = this.fixture.pools.embedId?.[0]
    if (this.fixture.analytics) {
      probes.push(['GET', `/api/v2/embed/runtime/${embedId}`, 'guestToken'])
      probes.push(['POST', '/api/v2/data-app/query', 'dataAppKey'])
    }
    for (const [method, url, kind] of probes) {
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: bearer(tokens[kind]),
        ...(method === 'POST' ? { payload: { embedId, metricId: 'revenue', clientId: 'acme' } } : {}),
      })
      if (res.statusCode !== 200) return false
    }
    return true
  }

  /** Follows credentials a fuzzed request replaced (a new service token is the only one that can). */
  observe(method: string, url: string, status: number, body: string): void {
    if (status !== 200 || method !== 'POST') return
    if (url.startsWith('/api/v2/service-token') && !url.includes('reset-password')) {
      try {
        const key = (JSON.parse(body) as { key?: unknown }).key
        if (typeof key === 'string') this.fixture.tokens.serviceToken = key
      } catch {}
    }
  }

  private async disposeApp(): Promise<void> {
    await this.ctx?.close()
    this.ctx = undefined
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true })
  }

  async close(): Promise<void> {
    await this.disposeApp()
    await this.warehouse?.drop()
  }
}

const NAMES = {
  workspaceName: ['main'],
  dataAppName: ['salesapp'],
  datamartName: ['sales'],
  dataMartName: ['sales'],
  datasourceName: ['warehouse'],
  datasourceId: ['warehouse'],
  clientId: ['acme', 'globex', 'initech', 'None'],
  email: ['alice@example.com'],
  metricCreationMode: ['DRAG_DROP', 'CHAT'],
}

async function bareFixture(app: FastifyInstance): Promise<Fixture> {
  const creds = await bootstrap(app)
  const guest = await app.inject({
    method: 'POST',
    url: '/api/v2/guest-token/create',
    payload: { dataAppName: 'salesapp', clientId: 'acme' },
    headers: bearer(creds.dataAppKey),
  })
  return {
    app,
    tokens: {
      adminToken: creds.accessToken,
      serviceToken: creds.serviceToken,
      dataAppKey: creds.dataAppKey,
      guestToken: (guest.json() as { token: string }).token,
    },
    pools: NAMES,
    examples: {},
    victims: [],
    analytics: false,
  }
}

async function analyticsFixture(app: FastifyInstance, wh: PgWarehouse): Promise<Fixture> {
  const a = await setupAnalytics(app, wh)
  const metricEmbed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
    dashboardId: 'sales-overview',
    embedType: 'metric',
    metricId: 'revenue',
    workspaceName: 'main',
  })
  const victims: string[] = []
  for (let i = 0; i < 3; i++) {
    const victim = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'dashboard',
      workspaceName: 'main',
      name: `victim ${i}`,
      accessSettings: ACCESS,
    })
    victims.push(victim.id as string)
  }
  const guestBody = {
    dataAppName: 'salesapp',
    clientId: 'acme',
    permissions: { isEnableDownloadMetrics: true },
    params: {
      dashboardAppFilters: [{ dashboardId: 'sales-overview', values: { Country: ['DE', 'FR'] } }],
      accessPermissions: { isAllowEndUserDashboardFilter: true },
    },
  }
  const guest = await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, guestBody)
  const doc = salesDocument(wh.schema)
  const filters = { dashboardFilter: { country: ['DE'], amount: { min: 20 } }, metricFilter: { paid: ['paid'] } }
  const queries = [
    { embedId: a.embedId, metricId: 'revenue_by_country', clientId: 'acme', ...filters },
    { embedId: a.embedId, metricId: 'orders_by_month', clientId: 'globex', dashboardFilter: { period: 'This year' } },
    { embedId: metricEmbed.id, metricId: 'revenue', clientId: 'acme' },
  ]
  const runtime = [
    { metricId: 'revenue_by_country', ...filters },
    { metricId: 'orders_by_month', dashboardFilter: { period: { startDate: '2026-01-01', endDate: '2026-12-31' } } },
  ]
  const filterObjects = [
    { country: ['DE'] },
    { Country: 'JP', amount: { min: 20 } },
    { 'Order status': ['paid', 'shipped'] },
    { period: { startDate: '2026-02-01', endDate: '2026-02-28' } },
    { period: 'This year' },
    { paid: ['paid'] },
    { 'Paid only': { sql: 'select status from orders', columnName: 'status' } },
    { tenant: 'globex' },
  ]
  return {
    app,
    tokens: {
      adminToken: a.accessToken,
      serviceToken: a.serviceToken,
      dataAppKey: a.dataAppKey,
      guestToken: (guest as { token: string }).token,
    },
    pools: {
      ...NAMES,
      embedId: [a.embedId, metricEmbed.id, 'sales-overview'],
      metricId: ['revenue', 'revenue_by_country', 'orders_by_month'],
      dashboardId: ['sales-overview'],
      dashboardNames: ['Sales overview'],
      importDashboardData: [doc, { ...doc, metrics: [] }, { ...doc, filters: [{ name: 'x' }] }],
      dashboardFilter: filterObjects,
      metricFilter: filterObjects,
      values: filterObjects,
      schemaName: [wh.schema, 'public'],
      tableName: [`${wh.schema}.orders`, 'orders', 'customers'],
      name: ['orders', 'customers', 'sales', 'warehouse', 'salesapp', 'main'],
      columns: [['country'], ['status', 'tenant']],
    },
    examples: {
      'POST /api/v2/data-app/query': queries,
      'POST /api/v2/dataApp/query': queries,
      'POST /api/v2/embed/runtime/{embedId}/query': runtime,
      'POST /api/v2/embed/runtime/{embedId}/underlying': runtime,
      'POST /api/v2/guest-token/create': [guestBody],
      'POST /api/v2/data-app/import-dashboard': [{ workspaceName: 'main', importDashboardData: doc }],
      'POST /api/v2/data-app/embeds': [
        { dashboardId: 'sales-overview', embedType: 'dashboard', workspaceName: 'main', accessSettings: ACCESS },
      ],
    },
    victims,
    analytics: true,
  }
}
