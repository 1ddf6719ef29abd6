/**
 * The golden metric set on a current ClickHouse engine: each golden metric
 * (test/fixtures/golden-cases.ts) compiled by the clickhouse dialect and run through the real
 * connector (@clickhouse/client over HTTP, query parameters bound by the engine, the case's time
 * zone as the session time zone, DATABASE tenancy as the `database` parameter) against chdb
 * behind its HTTP front (src/connectors/clickhouse/standin/front.ts), must return the rows its hand-written
 * oracle query returns on DuckDB over the same data. chdb is installed by
 * scripts/install-chdb.sh: without it this file is skipped loudly, and fails under CI=true.
 */
import { randomBytes } from 'node:crypto'
import type { Metric } from '@strata/contract/document'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GOLDEN_CASES } from '../../../test/fixtures/golden-cases.js'
import { GOLDEN_NOW, goldenDatamart, goldenSql, goldenTables } from '../../../test/fixtures/golden-data.js'
import {
  checkedStatement,
  duckdbOracle,
  expectGoldenRows,
  type GoldenOracle,
  inSchema,
} from '../../../test/fixtures/golden-oracle.js'
import { type CompileContext, compileMetric } from '../../query/compile.js'
import { getDialect } from '../../query/dialects/registry.js'
import { buildModel } from '../../query/model.js'
import { createConnector } from '../registry.js'
import type { Connector } from '../types.js'
import { type ChdbFront, requireChdb, startChdbFront } from './standin/process.js'

const DB = `golden_${randomBytes(4).toString('hex')}`
const hasChdb = requireChdb('the golden metric set on ClickHouse (chdb)')

const backticks = (s: string) => `\`${s}\``

describe.skipIf(!hasChdb)(
  'golden metrics on ClickHouse (chdb) through the connector, against the DuckDB oracle',
  () => {
    let front: ChdbFront
    let connector: Connector
    let oracle: GoldenOracle

    beforeAll(async () => {
      front = await startChdbFront({ users: { default: '', golden: 'golden-pw' } })
      await front.admin(`CREATE DATABASE ${DB}`)
      for (const s of goldenSql('clickhouse', DB)) await front.admin(s)
      connector = createConnector(
        'clickhouse',
        { name: 'golden', host: '127.0.0.1', port: front.port, user: 'golden', password: 'golden-pw', database: DB },
        { connectTimeoutMs: 5000, poolMax: 2 },
      )
      oracle = await duckdbOracle(DB)
    })

    afterAll(async () => {
      await connector?.close()
      await front?.stop()
      oracle?.close()
    })

    it('is a current ClickHouse engine, with query parameters and the session time zone', async () => {
      expect(Number(front.version.split('.')[0])).toBeGreaterThanOrEqual(24)
      await connector.test()
    })

    it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const model = buildModel(goldenTables(DB), goldenDatamart(DB, c.convertCreatedAt === true))
      const context: CompileContext = {
        tenancy: { kind: 'none' },
        rls: {},
        filters: [],
        timezone: 'UTC',
        now: GOLDEN_NOW,
        ...c.context?.(DB, (t) => `${backticks(DB)}.${t}`),
      }
      const metric: Metric =
        c.metric.sql === undefined ? c.metric : { ...c.metric, sql: inSchema(c.metric.sql, DB, backticks) }
      const compiled = compileMetric({ metric, model, dialect: getDialect('clickhouse'), context })
      const target = checkedStatement(compiled, c)
      const database = context.tenancy.kind === 'database' ? context.tenancy.database : undefined
      // the session time zone is the token's zone, as the query service sends it for clickhouse
      const actual = await connector.execute(target.sql, {
        params: target.params,
        timeoutMs: 10_000,
        maxRows: 10_000,
        timezone: context.timezone,
        ...(database ? { database } : {}),
      })
      expectGoldenRows(actual.rows, await oracle.expected(c), c)
    })
  },
)
