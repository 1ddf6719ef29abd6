/**
 * Semantic goldens for MongoDB: each golden metric (test/fixtures/golden-cases.ts) compiled to
 * a pipeline, run through the connector and the official driver on the STAND-IN (mingo
 * evaluates the pipeline), must return the rows its hand-written oracle query returns on DuckDB
 * over the same data — the expected results of the live golden test (query/golden.integration).
 * Metrics a pipeline cannot express are listed in REFUSED and must be a 400 naming the reason.
 *
 * Data as a MongoDB user would hold it: created_at a BSON date, ordered_on a `YYYY-MM-DD`
 * string (MongoDB has no date-only type; the golden model declares it a date, as for every
 * engine, and date strings compare in calendar order), SQL NULL as null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GOLDEN_CASES } from '../../../test/fixtures/golden-cases.js'
import { GOLDEN_NOW, goldenDatamart, goldenRows, goldenTables, TENANTS } from '../../../test/fixtures/golden-data.js'
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
import { createConnector } from '../registry.js'
import type { Connector } from '../types.js'
import { MongoStandIn } from './standin/server.js'

const DB = 'golden'

/** Cases a pipeline cannot express, with the words of the 400 that refuses them. */
const REFUSED: Readonly<Record<string, RegExp>> = {
  'value form: { sql, columnName } from the token (trusted)': /SQL-driven list/,
  'TABLE tenancy through the tenancy table': /tenancy table/,
  'SQL metric with {{clientId}} and a metric-filter list': /SQL metrics are refused|SQL metric/,
  'custom SQL column from the datamart': /custom SQL column/,
}

let standIn: MongoStandIn
let connector: Connector
let oracle: GoldenOracle

beforeAll(async () => {
  standIn = new MongoStandIn({ users: { golden: 'golden-pw' } })
  const port = await standIn.start()
  const { customers, orders } = goldenRows()
  standIn.insert(
    DB,
    'tenants',
    TENANTS.map((name, i) => ({ id: i + 1, name })),
  )
  standIn.insert(
    DB,
    'customers',
    customers.map((c) => ({ ...c })),
  )
  standIn.insert(
    DB,
    'orders',
    orders.map((o) => ({ ...o, created_at: new Date(`${o.created_at.replace(' ', 'T')}Z`) })),
  )
  connector = createConnector(
    'mongodb',
    { name: 'g', host: '127.0.0.1', port, user: 'golden', password: 'golden-pw' },
    { connectTimeoutMs: 2000, poolMax: 2 },
  )
  oracle = await duckdbOracle(DB)
})

afterAll(async () => {
  await connector?.close()
  await standIn?.stop()
  oracle?.close()
})

describe('golden metrics as MongoDB pipelines (stand-in: mingo) against the DuckDB oracle', () => {
  it('every refused case is a golden case', () => {
    for (const name of Object.keys(REFUSED)) expect(GOLDEN_CASES.map((c) => c.name)).toContain(name)
  })

  it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('%s', async (name, c) => {
    const model = buildModel(goldenTables(DB), goldenDatamart(DB, c.convertCreatedAt === true))
    const context: CompileContext = {
      tenancy: { kind: 'none' },
      rls: {},
      filters: [],
      timezone: 'UTC',
      now: GOLDEN_NOW,
      ...c.context?.(DB, (t) => `${DB}.${t}`),
    }
    const compile = () => compileMetric({ metric: c.metric, model, dialect: getDialect('mongodb'), context })
    const refused = REFUSED[name]
    if (refused !== undefined) {
      expectRefused(compile, refused)
      return
    }
    const target = checkedStatement(compile(), c)
    const database = context.tenancy.kind === 'database' ? context.tenancy.database : undefined
    const actual = await connector.execute(target.sql, {
      params: target.params,
      timeoutMs: 10_000,
      maxRows: 10_000,
      ...(database ? { database } : {}),
    })
    expectGoldenRows(actual.rows, await oracle.expected(c), c)
  })
})
