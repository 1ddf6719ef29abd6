/**
 * Composite paging against the search STAND-IN (not a live test): a grouping with more groups
 * than one composite page (COMPOSITE_PAGE buckets) is read page after page by `after_key`, under
 * TABLE tenancy, with the row cap and the metric's order and limit applied to every group.
 */

import type { Metric } from '@strata/contract/document'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { compileMetric } from '../../query/compile.js'
import { COMPOSITE_PAGE } from '../../query/dialects/elasticsearch/statement.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel, type SemanticModel } from '../../query/model.js'
import type { Connector } from '../types.js'
import { SearchConnector } from './connector.js'
import { SearchStandIn } from './standin/server.js'

/** Users of tenant `a` (more than two composite pages); user i has i % 3 + 1 events. */
const USERS = COMPOSITE_PAGE * 2 + 345
const events = (tenant: string, users: number) =>
  Array.from({ length: users }, (_, i) =>
    Array.from({ length: (i % 3) + 1 }, () => ({ client_id: tenant, user: `u${String(i).padStart(5, '0')}` })),
  ).flat()

describe('composite paging on the elasticsearch stand-in (mingo)', () => {
  const standIn = new SearchStandIn({ flavour: 'elasticsearch' })
  let connector: Connector
  let model: SemanticModel

  beforeAll(async () => {
    // tenant b shares the first 50 user names: its events must never be counted for a
    standIn.createIndex('events', { client_id: { type: 'keyword' }, user: { type: 'keyword' } }, [
      ...events('a', USERS),
      ...events('b', 50),
    ])
    await standIn.start()
    connector = new SearchConnector(
      { name: 'p', server_type: 'self-managed', server_url: standIn.url, disableAuth: true },
      { connectTimeoutMs: 5000, poolMax: 2 },
      'elasticsearch',
    )
    model = buildModel(await connector.introspect())
  })
  afterAll(async () => {
    await connector?.close()
    await standIn.stop()
  })

  const run = async (m: Metric, maxRows = 100_000) => {
    const tenancy = { kind: 'table' as const, clientId: 'a', clientColumns: new Map([['events', 'client_id']]) }
    const compiled = compileMetric({
      metric: m,
      model,
      dialect: getDialect('elasticsearch'),
      context: ctx({ tenancy }),
    })
    return connector.execute(compiled.sql, { params: compiled.params, timeoutMs: 20_000, maxRows })
  }
  const byUser = (extra: Partial<NonNullable<Metric['query']>> = {}) =>
    metric({
      from: 'events',
      measures: [{ name: 'n', aggregate: 'count' }],
      dimensions: [{ name: 'user', column: 'user' }],
      ...extra,
    })

  it('a statement nested deeper than any request is QUERY_ERROR, not a stack overflow', async () => {
    const deep = `${'{"bool":'.repeat(100_000)}{}${'}'.repeat(100_000)}`
    const text = `{"index":"events","body":{"query":${deep}},"plan":{"shape":"rows"}}`
    const refused = await connector.execute(text, { params: [], timeoutMs: 5000, maxRows: 10 }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: 'QUERY_ERROR', message: expect.stringMatching(/nests deeper than 32/) })
  })

  it('reads every group across pages, each counted once and only for the tenant', async () => {
    const { rows, truncated } = await run(byUser())
    expect(truncated).toBe(false)
    expect(rows).toHaveLength(USERS)
    expect(new Set(rows.map((r) => r.user)).size).toBe(USERS)
    rows.forEach((r) => {
      const i = Number(String(r.user).slice(1))
      expect(Number(r.n), String(r.user)).toBe((i % 3) + 1)
    })
    expect(rows.reduce((sum, r) => sum + Number(r.n), 0)).toBe(events('a', USERS).length)
  })

  it('caps rows across pages (truncated) and orders every group before the limit', async () => {
    const capped = await run(byUser(), COMPOSITE_PAGE + 10)
    expect([capped.rows.length, capped.truncated]).toEqual([COMPOSITE_PAGE + 10, true])
    const top = await run(byUser({ orderBy: [{ name: 'user', direction: 'desc' }], limit: 3 }))
    const last = USERS - 1
    expect(top.rows.map((r) => r.user)).toEqual([last, last - 1, last - 2].map((i) => `u${String(i).padStart(5, '0')}`))
  })
})
