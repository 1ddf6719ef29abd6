/**
 * Opt-in LIVE suite against a real cluster (never run here: no cluster can be installed).
 * Set STRATA_LIVE_ELASTICSEARCH_URL / _USER / _PASSWORD (or STRATA_LIVE_OPENSEARCH_*); without
 * them the suite is skipped with a warning naming the variables. It creates an index
 * `strata_live_<random>`, checks connect, introspection (text + keyword sub-field), a grouped
 * metric with a date_histogram in a zone, TABLE tenancy, paging by after_key and wrong
 * credentials, then deletes the index.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import { SearchConnector } from './connector.js'
import type { Flavour, SearchCredentials } from './transport.js'

for (const flavour of ['elasticsearch', 'opensearch'] as const satisfies readonly Flavour[]) {
  const prefix = `STRATA_LIVE_${flavour.toUpperCase()}`
  const url = process.env[`${prefix}_URL`]
  const user = process.env[`${prefix}_USER`]
  const password = process.env[`${prefix}_PASSWORD`]
  if (!url) console.warn(`${flavour} live suite skipped: set ${prefix}_URL, ${prefix}_USER and ${prefix}_PASSWORD`)

  describe.skipIf(!url)(`${flavour} live (${url ?? 'not configured'})`, () => {
    const index = `strata_live_${randomBytes(4).toString('hex')}`
    const credentials: SearchCredentials = {
      name: 'live',
      server_type: 'self-managed',
      server_url: url ?? '',
      ...(user ? { username: user, password: password ?? '' } : { disableAuth: true }),
    }
    const connector = new SearchConnector(credentials, { connectTimeoutMs: 5000, poolMax: 2 }, flavour)
    const admin = async (method: string, path: string, body?: unknown) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (user) headers.authorization = `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}`
      const res = await fetch(new URL(path, url), {
        method,
        headers,
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      })
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    }

    beforeAll(async () => {
      await admin('PUT', `/${index}`, {
        mappings: {
          properties: {
            client_id: { type: 'keyword' },
            status: { type: 'text', fields: { keyword: { type: 'keyword' } } },
            amount: { type: 'double' },
            at: { type: 'date' },
          },
        },
      })
      const docs = [
        { client_id: 'acme', status: 'paid', amount: 10, at: '2024-01-01T23:30:00Z' },
        { client_id: 'acme', status: 'paid', amount: 5, at: '2024-01-02T01:00:00Z' },
        { client_id: 'globex', status: 'paid', amount: 100, at: '2024-01-01T10:00:00Z' },
      ]
      const bulk = docs.map((d) => `${JSON.stringify({ index: {} })}\n${JSON.stringify(d)}\n`).join('')
      await admin('POST', `/${index}/_bulk?refresh=true`, bulk)
    })
    afterAll(async () => {
      await connector.close()
      await admin('DELETE', `/${index}`)
    })

    it('connects, introspects, and runs a tenant-scoped metric by day in Asia/Tokyo', async () => {
      await connector.test()
      const tables = await connector.introspect(index)
      expect(tables[0]?.columns.map((c) => [c.name, c.dataType])).toEqual(
        expect.arrayContaining([
          ['status', 'string'],
          ['amount', 'number'],
          ['at', 'datetime'],
        ]),
      )
      const model = buildModel([{ ...(tables[0] as (typeof tables)[number]), name: index }], {
        tableList: [{ schemaName: '', name: index, clientColumn: 'client_id' }],
      })
      const compiled = compileMetric({
        metric: {
          metricId: 'live',
          name: 'live',
          chart: { type: 'table' },
          query: {
            from: index,
            measures: [{ name: 'revenue', aggregate: 'sum', column: 'amount' }],
            dimensions: [
              { name: 'day', column: 'at', timeGrain: 'day' },
              { name: 'status', column: 'status' },
            ],
          },
        },
        model,
        dialect: getDialect('elasticsearch'),
        context: {
          tenancy: { kind: 'table', clientId: 'acme' },
          rls: {},
          filters: [],
          timezone: 'UTC',
          now: new Date(),
        },
      })
      const result = await connector.execute(compiled.sql, {
        params: compiled.params,
        timeoutMs: 10_000,
        maxRows: 100,
        timezone: 'Asia/Tokyo',
      })
      // both acme orders fall on 2024-01-02 in Tokyo; globex's is never seen
      expect(result.rows).toEqual([{ day: '2024-01-02', status: 'paid', revenue: 15 }])
    })

    it('wrong credentials are DATASOURCE_CONNECTION_ERROR', async () => {
      if (!user) return
      const wrong = new SearchConnector(
        { ...credentials, password: 'wrong-password-xyz' },
        { connectTimeoutMs: 5000, poolMax: 1 },
        flavour,
      )
      await expect(wrong.test()).rejects.toMatchObject({ code: 'DATASOURCE_CONNECTION_ERROR' })
      await wrong.close()
    })
  })
}
