import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type ChdbFront, requireChdb, startChdbFront } from '../../src/connectors/clickhouse/standin/process.js'
import { RollupScheduler } from '../../src/services/rollups/scheduler.js'
import { loadWarehouse, writeCsv } from '../reliability/ground-truth.js'
import { ACCESS, type Analytics, salesRelationships, salesTables } from './analytics.js'
import type { TestContext } from './app.js'
import { type ClickhouseWarehouse, createClickhouseWarehouse } from './clickhouse-warehouse.js'
import { createMariaWarehouse, type MariaWarehouse } from './mariadb-warehouse.js'
import { requireService } from './services.js'
import type { PgWarehouse } from './warehouse.js'

/** The live engines rollups are served from end to end. */
export type RollupEngine = 'postgres' | 'mariadb' | 'chdb' | 'duckdb'

/**
 * The engines reachable here: PostgreSQL and DuckDB always, MariaDB and chdb when there (locally a
 * missing one is skipped loudly; under CI=true each is required).
 */
export async function rollupEngines(what: string): Promise<RollupEngine[]> {
  const hasMaria = await requireService('MariaDB', '127.0.0.1', 3306)
  const hasChdb = requireChdb(what)
  return ['postgres', ...(hasMaria ? ['mariadb' as const] : []), ...(hasChdb ? ['chdb' as const] : []), 'duckdb']
}

/** One engine's copy of the warehouse of helpers/warehouse.ts, behind a datasource, datamart and workspace of its own. */
export interface EngineSource {
  readonly engine: RollupEngine
  /** The workspace (and datamart) name. */
  readonly workspace: string
  readonly datamart: string
  /** The tables' schema as the model names them (`<schema>.orders`). */
  readonly schema: string
}

export interface EngineSources {
  readonly sources: ReadonlyMap<RollupEngine, EngineSource>
  source(engine: RollupEngine): EngineSource
  close(): Promise<void>
}

/**
 * For each engine, the same customers and orders (those of the PostgreSQL warehouse `wh`) behind
 * a datasource, a datamart with the tenant column on both tables, and a workspace:
 * - postgres: the datasource, datamart `sales` and workspace `main` setupAnalytics made;
 * - mariadb: a database of its own on the local MariaDB, a `mysql` datasource (`maria`);
 * - chdb: a database on a current ClickHouse engine (chdb behind its HTTP front), a `clickhouse` datasource;
 * - duckdb: CSV files of a `csv` datasource (`files`, schema `main`).
 */
export async function engineSources(
  ctx: TestContext,
  a: Analytics,
  wh: PgWarehouse,
  engines: readonly RollupEngine[],
): Promise<EngineSources> {
  const data = await loadWarehouse(wh)
  const sources = new Map<RollupEngine, EngineSource>()
  let maria: MariaWarehouse | undefined
  let chdb: { front: ChdbFront; warehouse?: ClickhouseWarehouse } | undefined
  const model = async (engine: RollupEngine, name: string, schema: string): Promise<void> => {
    await a.ok('POST', '/api/v2/data-app/datamarts', a.serviceToken, {
      name,
      datasourceName: name,
      tableList: salesTables(schema),
      relationships: salesRelationships(schema),
    })
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, { name, connectionType: 'DATAMART', datamartName: name })
    sources.set(engine, { engine, workspace: name, datamart: name, schema })
  }
  const close = async () => {
    await maria?.drop()
    await chdb?.warehouse?.drop()
    await chdb?.front.stop()
  }
  try {
    for (const engine of engines) {
      if (engine === 'postgres') {
        sources.set(engine, { engine, workspace: 'main', datamart: 'sales', schema: wh.schema })
      } else if (engine === 'mariadb') {
        maria = await createMariaWarehouse(data)
        await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
          datasourceType: 'mysql',
          credentials: { name: 'maria', ...maria.credentials },
        })
        await model(engine, 'maria', maria.database)
      } else if (engine === 'chdb') {
        const front = await startChdbFront({ users: { default: '' } })
        chdb = { front }
        chdb.warehouse = await createClickhouseWarehouse(data, {
          host: '127.0.0.1',
          port: front.port,
          user: 'default',
          password: '',
        })
        await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
          datasourceType: 'clickhouse',
          credentials: { name: 'chdb', ...chdb.warehouse.credentials },
        })
        await model(engine, 'chdb', chdb.warehouse.database)
      } else {
        mkdirSync(join(ctx.config.filesRoot, 'files'), { recursive: true })
        writeCsv(join(ctx.config.filesRoot, 'files'), data)
        await a.ok('POST', '/api/v2/datasource', a.serviceToken, {
          datasourceType: 'csv',
          credentials: { name: 'files', path: 'files' },
        })
        await model(engine, 'files', 'main')
      }
    }
  } catch (err) {
    await close()
    throw err
  }
  return {
    sources,
    source(engine) {
      const s = sources.get(engine)
      if (s === undefined) throw new Error(`no source for engine ${engine}`)
      return s
    },
    close,
  }
}

/** Imports `document` as `dashboardId` into the engine's workspace and embeds it (read-only, its datamart): the embed's id. */
export async function importAndEmbed(
  a: Analytics,
  source: EngineSource,
  dashboardId: string,
  document: object,
  accessSettings: object = {},
): Promise<string> {
  await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
    workspaceName: source.workspace,
    dashboardId,
    importDashboardData: document,
  })
  const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
    dashboardId,
    embedType: 'dashboard',
    workspaceName: source.workspace,
    name: `${dashboardId} on ${source.engine}`,
    accessSettings: { ...ACCESS, datamartName: source.datamart, ...accessSettings },
  })
  return embed.id as string
}

/** The scheduler, logging to the app's log as the server's does (its lines in `ctx.logs`). */
class LoggedScheduler extends RollupScheduler {
  constructor(ctx: TestContext) {
    super(ctx.app.services.store, ctx.app.services.rollups, { pollMs: 1000, leaseMs: 60_000 })
    this.log = ctx.app.log
  }
}

/** Builds every due rollup once, as the scheduler does (a tick a few seconds from now): the names built. */
export async function buildDueRollups(ctx: TestContext): Promise<string[]> {
  const scheduler = new LoggedScheduler(ctx)
  const built: string[] = []
  // BATCH rollups per tick: tick until none is due
  for (;;) {
    const names = await scheduler.tick(new Date(Date.now() + 5_000))
    if (names.length === 0) return built.sort()
    built.push(...names)
  }
}
