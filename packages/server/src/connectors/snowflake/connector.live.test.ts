/**
 * Opt-in LIVE suite against a real Snowflake account, for maintainers: runs only when
 * STRATA_LIVE_SNOWFLAKE_HOST, _USER, _PASSWORD, _WAREHOUSE, _DATABASE, _SCHEMA and _ROLE are set
 * (skipped loudly otherwise). It creates a scratch schema in that database (the role needs
 * CREATE SCHEMA there), loads the golden data with quoted lower-case names, and drops it after.
 * It checks: login, wrong password, introspection, hostile binds, the server-side timeout,
 * the session time zone, and that every golden metric compiled by the snowflake dialect runs
 * and returns rows where the golden case expects some (the hand-written oracle SQL of the golden
 * set is per engine and has no Snowflake version yet).
 */
import { randomBytes } from 'node:crypto'
import type { Metric } from '@strata/contract/document'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GOLDEN_CASES } from '../../../test/fixtures/golden-cases.js'
import { GOLDEN_NOW, goldenDatamart, goldenRows, goldenTables, TENANTS } from '../../../test/fixtures/golden-data.js'
import { caught } from '../../../test/fixtures/net.js'
import type { ApiError } from '../../errors.js'
import { type CompileContext, compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import type { ExecuteOptions, SnowflakeCredentials } from '../types.js'
import { SnowflakeConnector } from './connector.js'

const VARS = ['HOST', 'USER', 'PASSWORD', 'WAREHOUSE', 'DATABASE', 'SCHEMA', 'ROLE'].map(
  (v) => `STRATA_LIVE_SNOWFLAKE_${v}`,
)
const missing = VARS.filter((v) => !process.env[v])
if (missing.length > 0) {
  console.warn(`snowflake live suite SKIPPED: set ${missing.join(', ')} to run it against a real account`)
}
const env = (v: string) => process.env[`STRATA_LIVE_SNOWFLAKE_${v}`] ?? ''
const BASE: ExecuteOptions = { params: [], timeoutMs: 60_000, maxRows: 10_000 }

describe.skipIf(missing.length > 0)('snowflake connector LIVE (real account)', () => {
  const scratch = `STRATA_LIVE_${randomBytes(4).toString('hex').toUpperCase()}`
  const credentials = (): SnowflakeCredentials => ({
    name: 'live',
    host: env('HOST'),
    username: env('USER'),
    password: env('PASSWORD'),
    warehouse: env('WAREHOUSE'),
    database: env('DATABASE'),
    schema: scratch,
    role: env('ROLE'),
    service: 'username/password',
  })
  let c: SnowflakeConnector

  beforeAll(async () => {
    const admin = new SnowflakeConnector(
      { ...credentials(), schema: env('SCHEMA') },
      { connectTimeoutMs: 10_000, poolMax: 1 },
    )
    try {
      const run = (sql: string, params: unknown[] = []) => admin.execute(sql, { ...BASE, params })
      await run(`CREATE SCHEMA "${scratch}"`)
      const t = (name: string) => `"${scratch}"."${name}"`
      await run(`CREATE TABLE ${t('tenants')} ("id" INTEGER, "name" TEXT)`)
      await run(
        `CREATE TABLE ${t('customers')} ("id" INTEGER, "client_id" TEXT, "name" TEXT, "country" TEXT, "segment" TEXT)`,
      )
      await run(
        `CREATE TABLE ${t('orders')} ("id" INTEGER, "client_id" TEXT, "tenant_id" INTEGER, "customer_id" INTEGER, "amount" NUMBER(10,2), "status" TEXT, "paid" BOOLEAN, "created_at" TIMESTAMP_NTZ, "ordered_on" DATE, "note" TEXT)`,
      )
      const insert = async (table: string, rows: object[]) => {
        for (const row of rows) {
          const values = Object.values(row)
          await run(`INSERT INTO ${t(table)} VALUES (${values.map((_, i) => `:${i + 1}`).join(', ')})`, values)
        }
      }
      const { customers, orders } = goldenRows()
      await insert(
        'tenants',
        TENANTS.map((name, i) => ({ id: i + 1, name })),
      )
      await insert('customers', customers)
      await insert('orders', orders)
    } finally {
      await admin.close()
    }
    c = new SnowflakeConnector(credentials(), { connectTimeoutMs: 10_000, poolMax: 2 })
  }, 600_000)

  afterAll(async () => {
    await c?.execute(`DROP SCHEMA IF EXISTS "${scratch}"`, BASE).catch(() => undefined)
    await c?.close()
  })

  it('logs in, and refuses a wrong password as DATASOURCE_CONNECTION_ERROR', async () => {
    await c.test()
    const wrong = new SnowflakeConnector(
      { ...credentials(), password: 'wrong-password-xyz' },
      { connectTimeoutMs: 10_000, poolMax: 1 },
    )
    const { error } = await caught(wrong.test())
    await wrong.close()
    expect((error as ApiError).code).toBe('DATASOURCE_CONNECTION_ERROR')
    expect((error as Error).message).not.toContain('wrong-password-xyz')
  })

  it('introspects the golden tables with mapped types', async () => {
    const tables = await c.introspect()
    const orders = tables.find((x) => x.name === 'orders')
    expect(orders?.columns.map((col) => [col.name, col.dataType])).toEqual(
      goldenTables(scratch)
        .find((x) => x.name === 'orders')
        ?.columns.map((col) => [col.name, col.dataType]),
    )
  })

  it('returns hostile strings as data', async () => {
    const hostile = ["'; DROP TABLE x; --", "a\\b \\' c", ':1 ? $1', 'ünïcødé ✓']
    const { rows } = await c.execute(`SELECT ${hostile.map((_, i) => `:${i + 1} AS "v${i}"`).join(', ')}`, {
      ...BASE,
      params: hostile,
    })
    expect(rows).toEqual([Object.fromEntries(hostile.map((v, i) => [`v${i}`, v]))])
  })

  it('stops a long statement at STATEMENT_TIMEOUT_IN_SECONDS as QUERY_TIMEOUT', async () => {
    const { error } = await caught(c.execute(`CALL SYSTEM$WAIT(30)`, { ...BASE, timeoutMs: 2000 }))
    expect((error as ApiError).code).toBe('QUERY_TIMEOUT')
  })

  it('renders TIMESTAMP_LTZ in the session time zone', async () => {
    const sql = `SELECT TO_TIMESTAMP_LTZ('2024-01-01 00:00:00 +00:00') AS "t"`
    const tokyo = await c.execute(sql, { ...BASE, timezone: 'Asia/Tokyo' })
    const kolkata = await c.execute(sql, { ...BASE, timezone: 'Asia/Kolkata' })
    expect([tokyo.rows[0]?.t, kolkata.rows[0]?.t]).toEqual(['2024-01-01T09:00:00+09:00', '2024-01-01T05:30:00+05:30'])
  })

  const cases = GOLDEN_CASES.filter((gc) => gc.metric.sql === undefined)
  it.each(cases.map((gc) => [gc.name, gc] as const))('golden metric runs on Snowflake: %s', async (_name, gc) => {
    const model = buildModel(goldenTables(scratch), goldenDatamart(scratch, gc.convertCreatedAt === true))
    const context: CompileContext = {
      tenancy: { kind: 'none' },
      rls: {},
      filters: [],
      timezone: 'UTC',
      now: GOLDEN_NOW,
      ...gc.context?.(scratch, (table) => `"${scratch}"."${table}"`),
    }
    const compiled = compileMetric({ metric: gc.metric as Metric, model, dialect: getDialect('snowflake'), context })
    const target = gc.check === 'count' ? compiled.countSql : gc.check === 'comparison' ? compiled.comparison : compiled
    if (target === undefined) throw new Error(`${gc.name}: nothing compiled for ${gc.check}`)
    const { rows } = await c.execute(target.sql, { ...BASE, params: target.params })
    expect(rows.length).toBeGreaterThan(gc.allowEmpty ? -1 : 0)
  })
})
