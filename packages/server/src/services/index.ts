import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Redis } from 'ioredis'
import type { Config } from '../config.js'
import { EngineHost, type EngineLog } from '../connectors/engine-host/supervisor.js'
import { dialectOf } from '../connectors/registry.js'
import { badRequest } from '../errors.js'
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from '../plugins/app/rate-limit/stores.js'
import { validateDocument } from '../query/document.js'
import { type Keyring, loadKeyring } from '../security/keyring.js'
import { openStore, type Store } from '../store/store.js'
import { AdminAccounts } from './admin/admin-accounts.js'
import { ServiceTokens } from './admin/service-tokens.js'
import { AiPilot } from './ai/ai-pilot.js'
import { LlmClient } from './ai/client.js'
import { Dashboards } from './dashboards/dashboards.js'
import { withSchemaHint } from './dashboards/schema-hint.js'
import { DataApps } from './data-apps/data-apps.js'
import { Datamarts } from './datamarts/datamarts.js'
import { Datasources } from './datasources/datasources.js'
import { DatasourceFiles } from './datasources/files.js'
import { Embeds } from './embeds/embeds.js'
import { InvalidationBus } from './events/bus.js'
import { GuestTokens } from './guest-tokens/guest-tokens.js'
import { WorkspaceGuestTokens } from './guest-tokens/workspace-tokens.js'
import { MetricQueries, type QueryLog } from './query/metric-queries.js'
import { Sources } from './query/sources.js'
import { type Mailer, smtpMailer } from './reports/mailer.js'
import { Reports } from './reports/reports.js'
import { ReportScheduler } from './reports/scheduler.js'
import { checkRollups } from './rollups/definition.js'
import { RollupReader } from './rollups/reader.js'
import { ReadyRollups } from './rollups/ready.js'
import { Rollups } from './rollups/rollups.js'
import { S3RollupStorage } from './rollups/s3-storage.js'
import { RollupScheduler } from './rollups/scheduler.js'
import { LocalRollupStorage, type RollupStorage } from './rollups/storage.js'
import { FilterValues } from './runtime/filter-values.js'
import { Runtime } from './runtime/runtime.js'
import { Layouts } from './self-serve/layouts.js'
import { MetricPublishing } from './self-serve/metric-publishing.js'
import { EndUserMetricStore } from './self-serve/metric-store.js'
import { revalidateEndUserMetrics } from './self-serve/revalidate.js'
import { SelfServeMetrics } from './self-serve/self-serve-metrics.js'
import { TenantStates } from './self-serve/tenant-state.js'
import { Views } from './self-serve/views.js'
import { StudioPreviewTokens } from './studio/preview-tokens.js'
import { StudioTenants } from './studio/tenant-values.js'
import { Workspaces } from './workspaces/workspaces.js'

/** Everything the routes call into; built once per app, closed on shutdown. */
export interface Services {
  readonly config: Config
  readonly store: Store
  readonly keyring: Keyring
  readonly redis: Redis | undefined
  readonly admin: AdminAccounts
  readonly serviceTokens: ServiceTokens
  readonly dataApps: DataApps
  readonly datasources: Datasources
  /** The engine process DuckDB runs in (csv, awss3): started on first use, stopped on close. */
  readonly engine: EngineHost
  readonly files: DatasourceFiles
  readonly datamarts: Datamarts
  readonly workspaces: Workspaces
  readonly bus: InvalidationBus
  readonly sources: Sources
  readonly dashboards: Dashboards
  readonly embeds: Embeds
  readonly guestTokens: GuestTokens
  /** The v1 guest token: a workspace in place of a data app. */
  readonly workspaceGuestTokens: WorkspaceGuestTokens
  /** The studio's guest tokens (preview as a tenant, author), minted without a data app key. */
  readonly studioPreviewTokens: StudioPreviewTokens
  /** The tenants the studio's preview offers (a workspace's tenant column values or databases). */
  readonly studioTenants: StudioTenants
  readonly metricQueries: MetricQueries
  readonly runtime: Runtime
  readonly layouts: Layouts
  readonly views: Views
  readonly selfServeMetrics: SelfServeMetrics
  /** Value pickers: a dashboard filter's or a model column's values for the token's tenant. */
  readonly filterValues: FilterValues
  readonly endUserMetrics: EndUserMetricStore
  /** Publishing end users' metrics by data app key. */
  readonly metricPublishing: MetricPublishing
  /** The rate limiter's counters: the request limits (app.ts) and EMAIL_RATE_LIMIT's report sends. */
  readonly rateLimitStore: RateLimitStore
  readonly reports: Reports
  /** Sends due reports; started when the app is ready, only with SMTP configured. */
  readonly reportScheduler: ReportScheduler | undefined
  readonly aiPilot: AiPilot
  /** Rollups' state and builds (docs/rollups.md). */
  readonly rollups: Rollups
  /** Builds due rollups once across instances; started when the app is ready (not with ROLLUP_POLL_INTERVAL_MS=0). */
  readonly rollupScheduler: RollupScheduler | undefined
  close(): Promise<void>
}

export async function createServices(config: Config, log?: EngineLog & QueryLog): Promise<Services> {
  const keyring = loadKeyring(config.encryptionKey, config.dataDir)
  mkdirSync(config.filesRoot, { recursive: true })
  const store = await openStore(config)
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined
  const bus = new InvalidationBus(redis)
  await bus.start()
  const engine = new EngineHost({ memoryLimitMb: config.engineMemoryLimitMb, ...(log ? { log } : {}) })
  const datasources = new Datasources(
    store,
    keyring,
    {
      connectTimeoutMs: 8_000,
      poolMax: config.poolMax,
      duckdbMemoryLimitMb: config.duckdbMemoryLimitMb,
      filesRoot: config.filesRoot,
      cacheDir: config.cacheDir,
      s3CacheMaxBytes: config.s3CacheMaxBytes,
      engine,
    },
    bus,
  )
  const datamarts = new Datamarts(store, datasources, bus)
  const workspaces = new Workspaces(store, datasources, datamarts, bus)
  const sources = new Sources(datasources, datamarts)
  const rollupStorage: RollupStorage = config.rollupS3
    ? s3RollupStorage(config.rollupS3, join(config.dataDir, 'rollups-s3'), bus)
    : new LocalRollupStorage(join(config.dataDir, 'rollups'))
  const metricQueries = new MetricQueries(sources, datasources, workspaces, bus, {
    queryTimeoutMs: config.queryTimeoutMs,
    rowLimit: config.queryRowLimit,
    tenantConcurrency: config.tenantQueryConcurrency,
    cacheTtlMs: config.resultCacheTtlMs,
    redis,
    rollups: {
      ready: new ReadyRollups(store, bus),
      reader: new RollupReader(engine, rollupStorage, config.duckdbMemoryLimitMb),
      serve: config.rollupServe,
    },
    ...(log ? { log } : {}),
  })
  const endUserMetrics = new EndUserMetricStore(store, bus)
  const dashboards = new Dashboards(
    store,
    workspaces,
    bus,
    async (document, workspace) => {
      if (workspace.connectionType.startsWith('MULTI_')) {
        throw badRequest(
          `workspaceName: ${workspace.name} is ${workspace.connectionType}; import dashboards into a DATASOURCE or DATAMART workspace, whose model the document is checked against`,
        )
      }
      const source = await sources.resolve(workspace)
      try {
        const checked = validateDocument(document, source.model, dialectOf(source.datasource.type))
        checkRollups(source.model, checked, 'importDashboardData')
        return checked
      } catch (err) {
        throw withSchemaHint(err, source)
      }
    },
    (document, workspace) => metricQueries.probe(document, workspace),
    async (dashboardRowId, document, workspace) =>
      revalidateEndUserMetrics(endUserMetrics, dashboardRowId, document, await sources.resolve(workspace)),
  )
  const embeds = new Embeds(store, workspaces, dashboards, datamarts, bus, endUserMetrics)
  const runtime = new Runtime(
    embeds,
    dashboards,
    metricQueries,
    new TenantStates(store, endUserMetrics, bus),
    workspaces,
    sources,
    config.llmProviders,
    config.email !== undefined,
  )
  const selfServeMetrics = new SelfServeMetrics(runtime, endUserMetrics, workspaces, sources)
  const dataApps = new DataApps(store, bus)
  const guestTokens = new GuestTokens(
    store,
    keyring,
    (keyId) => dataApps.keyLive(keyId),
    (dataAppId, fresh) => embeds.ids(dataAppId, fresh),
  )
  const rateLimitStore: RateLimitStore = redis ? new RedisRateLimitStore(redis) : new MemoryRateLimitStore()
  let mailer: Promise<Mailer> | undefined
  const email = config.email
  const reports = new Reports(store, keyring, runtime, {
    email,
    emailLimit: config.rateLimits.email,
    limiter: rateLimitStore,
    keyLive: (keyId) => dataApps.keyLive(keyId),
    mailer: () => {
      if (!email) throw new Error('SMTP_URL is not configured')
      mailer ??= smtpMailer(email.smtpUrl, email.from)
      return mailer
    },
  })
  const reportScheduler = email
    ? new ReportScheduler(store, reports, {
        pollMs: config.reportPollMs,
        retryBaseMs: config.reportRetryBaseMs,
        maxAttempts: 5,
        leaseMs: 10 * 60_000,
      })
    : undefined
  const rollups = new Rollups(
    store,
    workspaces,
    sources,
    datasources,
    engine,
    rollupStorage,
    {
      maxRollups: config.rollupMaxCount,
      maxRows: config.rollupMaxRows,
      timeoutMs: config.rollupBuildTimeoutMs,
      memoryLimitMb: config.duckdbMemoryLimitMb,
    },
    bus,
  )
  const rollupScheduler =
    config.rollupPollMs > 0
      ? new RollupScheduler(store, rollups, { pollMs: config.rollupPollMs, leaseMs: 2 * config.rollupBuildTimeoutMs })
      : undefined
  return {
    config,
    store,
    keyring,
    redis,
    admin: new AdminAccounts(store, keyring, config.selfHosted, config.adminAccessTtlSeconds),
    serviceTokens: new ServiceTokens(store, bus),
    dataApps,
    datasources,
    engine,
    files: new DatasourceFiles(config.filesRoot, config.fileUploadLimit),
    datamarts,
    workspaces,
    bus,
    sources,
    dashboards,
    embeds,
    guestTokens,
    workspaceGuestTokens: new WorkspaceGuestTokens(store, guestTokens, workspaces),
    studioPreviewTokens: new StudioPreviewTokens(
      dataApps,
      workspaces,
      dashboards,
      guestTokens,
      config.studioPreviewTtlSeconds * 1000,
    ),
    studioTenants: new StudioTenants(workspaces, sources, datasources, config.queryTimeoutMs),
    metricQueries,
    runtime,
    layouts: new Layouts(store, runtime, bus),
    views: new Views(store, runtime, bus),
    selfServeMetrics,
    filterValues: new FilterValues(runtime, metricQueries, workspaces, sources),
    endUserMetrics,
    metricPublishing: new MetricPublishing(store, embeds, dashboards, bus),
    rateLimitStore,
    reports,
    reportScheduler,
    aiPilot: new AiPilot(
      runtime,
      selfServeMetrics,
      workspaces,
      config.llmProviders,
      new LlmClient(config.llmTimeoutMs, config.llmMaxAnswerBytes),
    ),
    rollups,
    rollupScheduler,
    async close() {
      // a send (a build) in flight finishes before the store closes
      await reportScheduler?.stop()
      await rollupScheduler?.stop()
      if (mailer) (await mailer).close()
      guestTokens.close()
      bus.close()
      redis?.disconnect()
      await datasources.close()
      await engine.close()
      await store.close()
    },
  }
}

async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis')
  // Commands fail fast while Redis is away (no offline queue) and the client keeps
  // reconnecting in the background, so a Redis outage degrades instead of hanging requests.
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // A partitioned connection neither answers nor errors: fail each command after this long.
    commandTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  })
  redis.on('error', () => {})
  await redis.connect().catch(() => {})
  return redis
}

/**
 * Rollup files on S3, whose manifests this instance holds in memory: a build of a dashboard's
 * rollups (on any instance, with Redis) or a change of the dashboard drops them.
 */
function s3RollupStorage(
  config: NonNullable<Config['rollupS3']>,
  cacheDir: string,
  bus: InvalidationBus,
): S3RollupStorage {
  const storage = new S3RollupStorage(config, cacheDir, { readCopiesMaxBytes: config.readCacheMaxBytes })
  bus.on((event) => {
    if (event.kind === 'rollup' || event.kind === 'dashboard') storage.forget(event.dashboardRowId)
  })
  return storage
}
