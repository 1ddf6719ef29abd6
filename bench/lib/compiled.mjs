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
