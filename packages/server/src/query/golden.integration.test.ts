import { DuckDBInstance } from '@duckdb/node-api'
import type { Metric } from '@strata/contract/document'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { GOLDEN_CASES, type GoldenCase } from '../../test/fixtures/golden-cases.js'
import { type Engine, GOLDEN_NOW, goldenDatamart, goldenSql, goldenTables } from '../../test/fixtures/golden-data.js'
import { checkedStatement, expectGoldenRows } from '../../test/fixtures/golden-oracle.js'
import { requireService } from '../../test/helpers/services.js'
import { type CompileContext, compileMetric } from './compile.js'
import { getDialect } from './dialects/registry.js'
import { buildModel } from './model.js'

/**
 * Live golden test: each metric is compiled for the engine, run on a small multi-tenant
 * dataset, and its rows must equal a hand-written query's rows on the same engine.
 * ClickHouse runs the same set on a current engine (chdb) through its connector:
 * connectors/clickhouse/golden.chdb.test.ts.
 */

type Run = (sql: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>

interface Harness {
  run: Run
  close: () => Promise<void>
}

const schemaName = `golden_${process.pid}_${Date.now() % 100_000}`

async function postgres(): Promise<Harness> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: 5432,
    user: 'postgres',
    database: 'test',
    types: { getTypeParser: (oid: number) => (v: string) => (oid === 16 ? v === 't' : v) },
  } as pg.ClientConfig)
  await client.connect()
  await client.query(`CREATE SCHEMA "${schemaName}"`)
  for (const s of goldenSql('postgres', schemaName)) await client.query(s)
  return {
    run: async (sql, params) => (await client.query({ text: sql, values: [...params] })).rows,
    close: async () => {
      await client.query(`DROP SCHEMA "${schemaName}" CASCADE`)
      await client.end()
    },
  }
}

async function mariadb(): Promise<Harness> {
  const conn = await mysql.createConnection({
    host: '127.0.0.1',
    port: 3306,
    user: 'root',
    password: '',
    dateStrings: true,
    decimalNumbers: true,
    supportBigNumbers: true,
  })
  await conn.query(`CREATE DATABASE \`${schemaName}\``)
  for (const s of goldenSql('mysql', schemaName)) await conn.query(s)
  return {
    run: async (sql, params) => {
      const [rows] = await conn.query(sql, [...params])
      return rows as Record<string, unknown>[]
    },
    close: async () => {
      await conn.query(`DROP DATABASE \`${schemaName}\``)
      await conn.end()
    },
  }
}

async function duckdb(): Promise<Harness> {
  const db = await DuckDBInstance.create(':memory:')
  const conn = await db.connect()
  await conn.run(`CREATE SCHEMA "${schemaName}"`)
  for (const s of goldenSql('duckdb', schemaName)) await conn.run(s)
  return {
    run: async (sql, params) => {
      const reader = await conn.runAndReadAll(sql, params.length > 0 ? ([...params] as never) : undefined)
      return reader.getRowObjectsJson() as Record<string, unknown>[]
    },
    close: async () => conn.closeSync(),
  }
}

const qualified = (engine: Engine, table: string) =>
  engine === 'mysql' ? `\`${schemaName}\`.${table}` : `"${schemaName}".${table}`

function oracle(engine: Engine, c: GoldenCase): string {
  const sql = typeof c.expected === 'string' ? c.expected : c.expected[engine]
  if (sql === undefined) throw new Error(`${c.name}: no expected SQL for ${engine}`)
  return tables(engine, sql)
}

/** `{o}`, `{c}`, `{t}` → the engine's qualified orders, customers, tenants tables. */
const tables = (engine: Engine, sql: string) =>
  sql.replace(/\{([oct])\}/g, (_, t: string) =>
    qualified(engine, t === 'o' ? 'orders' : t === 'c' ? 'customers' : 'tenants'),
  )

const SERVICES: Record<Engine, () => Promise<boolean>> = {
  postgres: () => requireService('PostgreSQL (golden metrics)', '127.0.0.1', 5432),
  mysql: () => requireService('MariaDB (golden metrics)', '127.0.0.1', 3306),
  duckdb: async () => true,
}
const HARNESS: Record<Engine, () => Promise<Harness>> = { postgres, mysql: mariadb, duckdb }

for (const engine of ['postgres', 'mysql', 'duckdb'] as const) {
  const up = await SERVICES[engine]()
  describe.skipIf(!up)(`golden metrics on ${engine}`, () => {
    let h: Harness
    beforeAll(async () => {
      h = await HARNESS[engine]()
    })
    afterAll(async () => {
      await h?.close()
    })

    const cases = GOLDEN_CASES.filter((c) => !(c.skip ?? []).includes(engine))
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const schema = schemaName
      const model = buildModel(goldenTables(schema), goldenDatamart(schema, c.convertCreatedAt === true))
      const context: CompileContext = {
        tenancy: { kind: 'none' },
        rls: {},
        filters: [],
        timezone: 'UTC',
        now: GOLDEN_NOW,
        ...c.context?.(schema, (t) => qualified(engine, t)),
      }
      const metric: Metric = c.metric.sql === undefined ? c.metric : { ...c.metric, sql: tables(engine, c.metric.sql) }
      const compiled = compileMetric({ metric, model, dialect: getDialect(engine), context })
      const target = checkedStatement(compiled, c)
      const actual = await h.run(target.sql, target.params)
      const expected = await h.run(oracle(engine, c), [])
      expectGoldenRows(actual, expected, c)
    })
  })
}
