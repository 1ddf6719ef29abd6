import { beforeAll, describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { readRepoFile } from '../helpers/docs.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'
import { HOSTED_EXAMPLES, type HostedExample } from './hosted-examples.js'
import { fill, shapeMismatches } from './shape.js'

/**
 * The hosted service's published examples (hosted-examples.ts) replayed against a real app on
 * each metadata store, in the order of the table (creations before the lists that show them),
 * the way a backend written against those pages would call Strata: same paths, same bodies, its
 * answers read by the same field names. Where Strata differs on purpose the row says why and
 * the test asserts Strata's answer (docs/api.md#differences-from-the-hosted-service).
 */
const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)

describe.skipIf(!hasPg).each(storeKinds)('the hosted service examples on %s', (store) => {
  const { wh, a } = useAnalytics(store, { app: 'suite' })
  const context: Record<string, unknown> = {}

  beforeAll(async () => {
    const embed = (name: string, extra: object = {}) =>
      a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name,
        accessSettings: ACCESS,
        ...extra,
      })
    const metricEmbed = await embed('Revenue', { embedType: 'metric', metricId: 'revenue', accessSettings: undefined })
    const toDelete = await embed('Deleted by DELETE')
    const toDeleteLegacy = await embed('Deleted by the legacy POST')
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
      name: 'Sales Analytics',
      connectionType: 'DATAMART',
      datamartName: 'sales',
    })
    const exported = await a.ok('POST', '/api/v2/data-app/export-dashboard', a.serviceToken, {
      dashboardId: 'sales-overview',
      workspaceName: 'main',
    })
    // the id the service's web application shows, which our update answers with
    const datasource = await a.ok('PUT', '/api/v2/datasource', a.serviceToken, {
      datasourceType: 'postgres',
      credentials: { name: 'warehouse', ...wh.credentials },
    })
    Object.assign(context, {
      datasourceId: datasource.data.id,
      dataAppName: 'salesapp',
      workspace: 'main',
      datamart: 'sales',
      datasource: 'warehouse',
      schema: wh.schema,
      dashboardId: 'sales-overview',
      dashboardName: 'Sales overview',
      dashboardNameQuery: encodeURIComponent('Sales overview'),
      metricId: 'revenue',
      embedId: a.embedId,
      metricEmbedId: metricEmbed.id,
      embedToDelete: toDelete.id,
      embedToDeleteLegacy: toDeleteLegacy.id,
      exported: exported.data,
      pgCredentials: { name: 'production-postgres', ...wh.credentials },
    })
  })

  const replay = async (example: HostedExample) => {
    const token = { key: a.dataAppKey, service: a.serviceToken, 'invalid key': 'not-a-key' }[example.auth]
    const body = example.body === undefined ? undefined : fill(example.body, context)
    const res = await a.call(example.method, fill(example.url, context), token, body)
    const expected = example.difference ?? example
    const answer = res.body ? res.json() : undefined
    expect(res.statusCode, res.body).toBe(expected.status)
    if (expected.answer !== undefined)
      expect(shapeMismatches(answer, fill(expected.answer, context)), res.body).toEqual([])
    for (const [name, pattern] of Object.entries(example.headers ?? {})) expect(res.headers[name]).toMatch(pattern)
  }

  for (const example of HOSTED_EXAMPLES) {
    const title = `${example.name}${example.difference ? ' (Strata differs)' : ''}`
    it(title, () => replay(example))
  }
})

describe('the differences from the hosted service', () => {
  it('are each a row of docs/api.md#differences-from-the-hosted-service', () => {
    const api = readRepoFile('docs/api.md')
    const section = api.slice(api.indexOf('## Differences from the hosted service'))
    const rows = new Set(section.split('\n').map((line) => /^\|\s*(.*?)\s*\|/.exec(line)?.[1]))
    const missing = HOSTED_EXAMPLES.flatMap((e) => (e.difference && !rows.has(e.difference.where) ? [e.name] : []))
    expect(missing).toEqual([])
  })
})
