/**
 * The golden metric set on awss3 over S3, live: the golden tables are Parquet objects on s3rver
 * (a real S3-protocol server), the connector caches and introspects them, and every golden
 * metric, compiled for DuckDB over the introspected model, must return the rows of its
 * hand-written query run on the same connector (as query/golden.integration.test.ts does for
 * the live engines, whose cases and normalisation these are).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Metric } from '@strata/contract/document'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GOLDEN_CASES, type GoldenCase } from '../../../test/fixtures/golden-cases.js'
import { GOLDEN_NOW, goldenDatamart } from '../../../test/fixtures/golden-data.js'
import { checkedStatement, expectGoldenRows } from '../../../test/fixtures/golden-oracle.js'
import { type CompileContext, compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import { createConnector } from '../registry.js'
import type { Connector, TableInfo } from '../types.js'
import { putGolden } from './standin/golden-objects.js'
import { type LocalS3, S3RVER_KEYS, S3RVER_REGION, startLocalS3 } from './standin/server.js'

const SCHEMA = 'main'
const qualified = (table: string) => `"${SCHEMA}".${table}`
const tables = (sql: string) =>
  sql.replace(/\{([oct])\}/g, (_, t: string) => qualified(t === 'o' ? 'orders' : t === 'c' ? 'customers' : 'tenants'))

describe('golden metrics on awss3 over S3 (live: s3rver, cached, DuckDB)', () => {
  let s3: LocalS3
  let cacheDir: string
  let connector: Connector
  let introspected: TableInfo[]

  beforeAll(async () => {
    s3 = await startLocalS3(['lake'])
    await putGolden(s3, 'lake', 'golden/')
    cacheDir = await mkdtemp(path.join(tmpdir(), 'strata-golden-s3-'))
    connector = createConnector(
      'awss3',
      { name: 'lake', bucket: 'lake', region: S3RVER_REGION, ...S3RVER_KEYS, prefix: 'golden/', endpoint: s3.endpoint },
      { connectTimeoutMs: 5000, poolMax: 2, cacheDir },
    )
    await connector.test()
    introspected = await connector.introspect()
  })
  afterAll(async () => {
    await connector?.close()
    await s3?.close()
    await rm(cacheDir, { recursive: true, force: true })
  })

  it('introspects the three objects as tables of main with the golden column types', () => {
    const shape = introspected.map((t) => [t.schema, t.name, t.columns.map((c) => `${c.name}:${c.dataType}`)])
    expect(shape).toEqual([
      ['main', 'customers', ['id:integer', 'client_id:string', 'name:string', 'country:string', 'segment:string']],
      [
        'main',
        'orders',
        [
          'id:integer',
          'client_id:string',
          'tenant_id:integer',
          'customer_id:integer',
          'amount:number',
          'status:string',
          'paid:boolean',
          'created_at:datetime',
          'ordered_on:date',
          'note:string',
        ],
      ],
      ['main', 'tenants', ['id:integer', 'name:string']],
    ])
  })

  const cases = GOLDEN_CASES.filter((c) => !(c.skip ?? []).includes('duckdb'))
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c: GoldenCase) => {
    const model = buildModel(introspected, goldenDatamart(SCHEMA, c.convertCreatedAt === true))
    const context: CompileContext = {
      tenancy: { kind: 'none' },
      rls: {},
      filters: [],
      timezone: 'UTC',
      now: GOLDEN_NOW,
      ...c.context?.(SCHEMA, qualified),
    }
    const metric: Metric = c.metric.sql === undefined ? c.metric : { ...c.metric, sql: tables(c.metric.sql) }
    const compiled = compileMetric({ metric, model, dialect: getDialect('duckdb'), context })
    const target = checkedStatement(compiled, c)
    const run = async (sql: string, params: readonly unknown[]) =>
      (await connector.execute(sql, { params, timeoutMs: 10_000, maxRows: 100_000 })).rows
    const expectedSql = typeof c.expected === 'string' ? c.expected : c.expected.duckdb
    if (expectedSql === undefined) throw new Error(`${c.name}: no expected SQL for duckdb`)
    const actual = await run(target.sql, target.params)
    const expected = await run(tables(expectedSql), [])
    expectGoldenRows(actual, expected, c)
  })
})
