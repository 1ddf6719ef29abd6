import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * The SQL the server runs for a metric, compiled by the server's own build (dist/) against the
 * same introspected tables and datamart, so that a baseline runs exactly that statement.
 */
export async function compiledSql({ root, type, credentials, filesRoot, tableList, metric, clientId }) {
  const dist = pathToFileURL(join(root, 'packages/server/dist/')).href
  const load = (path) => import(new URL(path, dist).href)
  const [{ createConnector, dialectOf }, { buildModel }, { compileMetric }, { getDialect }] = await Promise.all([
    load('connectors/registry.js'),
    load('query/model.js'),
    load('query/compile.js'),
    load('query/dialects/registry.js'),
  ])
  const connector = createConnector(type, credentials, { connectTimeoutMs: 10_000, poolMax: 1, filesRoot })
  let tables
  try {
    tables = await connector.introspect()
  } finally {
    await connector.close()
  }
  const model = buildModel(tables, { tableList, relationships: [] })
  // as the secret-key query (the scenarios' server side) runs it: without RLS
  const { rls: _rls, ...unrestricted } = metric
  const compiled = compileMetric({
    metric: unrestricted,
    model,
    dialect: getDialect(dialectOf(type)),
    context: {
      tenancy: clientId === 'None' ? { kind: 'none' } : { kind: 'table', clientId, clientColumns: new Map() },
      rls: {},
      filters: [],
      timezone: 'UTC',
      now: new Date(),
    },
  })
  return { sql: compiled.sql, params: [...compiled.params] }
}

/**
 * The GROUP BY the server runs to (re)build the rollup `name` of dashboard document `doc`,
 * planned and rendered by the server's own build (dist/) against the same introspected tables
 * and datamart; `since`: an incremental refresh's start (the server's own `refreshStart` of the
 * window ending `now`), else a full build.
 */
export async function rollupSql({ root, type, credentials, tableList, doc, name, incrementalMs, now = new Date() }) {
  const dist = pathToFileURL(join(root, 'packages/server/dist/')).href
  const load = (path) => import(new URL(path, dist).href)
  const [{ createConnector, dialectOf }, { buildModel }, { plansOf }, { rollupStatement }, { refreshStart }, d] =
    await Promise.all([
      load('connectors/registry.js'),
      load('query/model.js'),
      load('services/rollups/plans.js'),
      load('services/rollups/statement.js'),
      load('services/rollups/partitions.js'),
      load('query/dialects/registry.js'),
    ])
  const connector = createConnector(type, credentials, { connectTimeoutMs: 10_000, poolMax: 1 })
  let tables
  try {
    tables = await connector.introspect()
  } finally {
    await connector.close()
  }
  const model = buildModel(tables, { tableList, relationships: [] })
  const found = plansOf(doc, model).find((p) => p.name === name)
  if (!found?.plan) throw new Error(`rollup ${name}: ${found?.error ?? 'not declared'}`)
  const plan = found.plan
  const since =
    incrementalMs === undefined ? undefined : refreshStart(new Date(now.getTime() - incrementalMs), plan.time.grain)
  const compiled = rollupStatement(plan, model, d.getDialect(dialectOf(type)), since ? { since } : {})
  return { sql: compiled.sql, params: [...compiled.params], since }
}
