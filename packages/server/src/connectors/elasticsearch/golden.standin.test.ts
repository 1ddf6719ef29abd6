/**
 * Semantic goldens against the search STAND-IN (not a live test): the golden metric set
 * (test/fixtures/golden-cases.ts) is compiled by the elasticsearch dialect, run through the
 * connector and both official clients on the stand-in (as Elasticsearch 7.17, 8.x and 9.x, and OpenSearch) (which evaluates the query DSL and
 * aggregations with mingo), and must return the rows DuckDB gives for the same hand-written
 * oracle SQL over the same golden data — the expected results of the live golden test. The
 * metrics one search request cannot express must be refused with a 400 naming why (listed below).
 */
import { afterAll, beforeAll, describe, it } from 'vitest'
import { GOLDEN_CASES } from '../../../test/fixtures/golden-cases.js'
import { GOLDEN_NOW, goldenDatamart, goldenRows } from '../../../test/fixtures/golden-data.js'
import {
  checkedStatement,
  duckdbOracle,
  expectGoldenRows,
  expectRefused,
  type GoldenOracle,
} from '../../../test/fixtures/golden-oracle.js'
import { type CompileContext, compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import type { Connector } from '../types.js'
import { SearchConnector } from './connector.js'
import { SearchStandIn } from './standin/server.js'

/** Golden cases one search request cannot express, and the refusal each must give. */
const REFUSED: Record<string, RegExp> = {
  'avg by customer country through the join, both tables tenant-scoped': /join/,
  'value form: string on a joined table (dashboard filter)': /join/,
  'value form: { sql, columnName } from the token (trusted)': /subquery/,
  'text filter: case-insensitive contains on a joined column': /join/,
  'RLS variable bound to a joined column (list)': /join/,
  'TABLE tenancy through the tenancy table': /subquery/,
  'SQL metric with {{clientId}} and a metric-filter list': /SQL metric|no SQL/,
  'custom SQL column from the datamart': /custom SQL column/,
}

const SCHEMA = 'golden'

function loadGolden(standIn: SearchStandIn): void {
  const { customers, orders } = goldenRows()
  standIn.createIndex('tenants', { id: { type: 'integer' }, name: { type: 'keyword' } }, [
    { id: 1, name: 'acme' },
    { id: 2, name: 'globex' },
    { id: 3, name: 'initech' },
  ])
  standIn.createIndex(
    'customers',
    {
      id: { type: 'integer' },
      client_id: { type: 'keyword' },
      name: { type: 'text', fields: { keyword: { type: 'keyword' } } },
      country: { type: 'keyword' },
      segment: { type: 'keyword' },
    },
    customers.map((c) => ({ ...c })),
  )
  standIn.createIndex(
    'orders',
    {
      id: { type: 'integer' },
      client_id: { type: 'keyword' },
      tenant_id: { type: 'integer' },
      customer_id: { type: 'integer' },
      amount: { type: 'double' },
      // text + keyword: exact matches and grouping must read the sub-field
      status: { type: 'text', fields: { keyword: { type: 'keyword' } } },
      paid: { type: 'boolean' },
      created_at: { type: 'date', format: 'yyyy-MM-dd HH:mm:ss' },
      ordered_on: { type: 'date', format: 'yyyy-MM-dd' },
      note: { type: 'text', fields: { keyword: { type: 'keyword' } } },
    },
    orders.map((o) => ({ ...o })),
  )
}

/** Elasticsearch 7.17, 8.x and 9.x (each refusing the media types it refuses), and OpenSearch. */
const VARIANTS = [
  { flavour: 'elasticsearch', version: '7.17.0' },
  { flavour: 'elasticsearch', version: '8.15.0' },
  { flavour: 'elasticsearch', version: '9.0.0' },
  { flavour: 'opensearch', version: undefined },
] as const

for (const { flavour, version } of VARIANTS) {
  describe(`golden metrics on the ${flavour} ${version ?? ''} stand-in (mingo), expected rows from DuckDB`, () => {
    const standIn = new SearchStandIn({ flavour, users: { u: 'golden-pass' }, ...(version ? { version } : {}) })
    let connector: Connector
    let oracle: GoldenOracle

    beforeAll(async () => {
      loadGolden(standIn)
      await standIn.start()
      connector = new SearchConnector(
        { name: 'g', server_type: 'self-managed', server_url: standIn.url, username: 'u', password: 'golden-pass' },
        { connectTimeoutMs: 5000, poolMax: 2 },
        flavour,
      )
      oracle = await duckdbOracle(SCHEMA)
    })
    afterAll(async () => {
      await connector?.close()
      oracle?.close()
      await standIn.stop()
    })

    it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const tables = await connector.introspect()
      const model = buildModel(tables, goldenDatamart('', c.convertCreatedAt === true))
      const context: { -readonly [K in keyof CompileContext]: CompileContext[K] } = {
        tenancy: { kind: 'none' },
        rls: {},
        filters: [],
        timezone: 'UTC',
        now: GOLDEN_NOW,
        ...c.context?.('', (t) => t),
      }
      // DATABASE tenancy: the unit is an index, which replaces the metric's
      if (context.tenancy.kind === 'database') context.tenancy = { kind: 'database', database: 'orders' }
      const refusal = REFUSED[c.name]
      const compile = () => compileMetric({ metric: c.metric, model, dialect: getDialect('elasticsearch'), context })
      if (refusal !== undefined) {
        expectRefused(compile, refusal)
        return
      }
      const target = checkedStatement(compile(), c)
      const database = context.tenancy.kind === 'database' ? 'orders' : undefined
      const actual = await connector.execute(target.sql, {
        params: target.params,
        timeoutMs: 10_000,
        maxRows: 10_000,
        ...(database ? { database } : {}),
      })
      expectGoldenRows(actual.rows, await oracle.expected(c), c)
    })
  })
}
