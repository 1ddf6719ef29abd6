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
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GOLDEN_CASES } from '../../../test/fixtures/golden-cases.js'
import {
  GOLDEN_NOW,
  goldenDatamart,
  goldenRows,
  goldenSql,
  goldenTables,
  TENANTS,
} from '../../../test/fixtures/golden-data.js'
import { normRows } from '../../../test/fixtures/golden-rows.js'
import { ApiError } from '../../errors.js'
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
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>

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
  const db = await DuckDBInstance.create(':memory:')
  duck = await db.connect()
  await duck.run(`CREATE SCHEMA "${DB}"`)
  for (const s of goldenSql('duckdb', DB)) await duck.run(s)
})

afterAll(async () => {
  await connector?.close()
  await standIn?.stop()
  duck?.closeSync()
})

const oracle = (sql: string) =>
  sql.replace(/\{([oct])\}/g, (_, t: string) => `"${DB}".${t === 'o' ? 'orders' : t === 'c' ? 'customers' : 'tenants'}`)

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
      let error: unknown
      try {
        compile()
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).status).toBe(400)
      expect((error as ApiError).message).toMatch(refused)
      return
    }
    const compiled = compile()
    const target = c.check === 'count' ? compiled.countSql : c.check === 'comparison' ? compiled.comparison : compiled
    expect(target, `${name}: nothing compiled for ${c.check}`).toBeDefined()
    if (target === undefined) return
    const database = context.tenancy.kind === 'database' ? context.tenancy.database : undefined
    const actual = await connector.execute(target.sql, {
      params: target.params,
      timeoutMs: 10_000,
      maxRows: 10_000,
      ...(database ? { database } : {}),
    })
    const sql = typeof c.expected === 'string' ? c.expected : c.expected.duckdb
    expect(sql, `${name}: no DuckDB oracle`).toBeDefined()
    const expected = (await duck.runAndReadAll(oracle(sql as string))).getRowObjectsJson() as Record<string, unknown>[]
    expect(actual.rows.length, `${name} returned no rows`).toBeGreaterThan(c.allowEmpty ? -1 : 0)
    expect(normRows(actual.rows, c.ordered === true)).toEqual(normRows(expected, c.ordered === true))
  })
})
