/**
 * Semantic proof of the bigquery dialect, offline: every metric of the golden set (and every
 * time grain × aggregate) is compiled for BigQuery and analysed by ZetaSQL — Google's SQL
 * front end that BigQuery runs (name resolution, type checking, function signatures, implicit
 * coercions) — against a catalog of the golden tables in BigQuery types, with the query
 * parameters typed exactly as the connector sends them (connectors/bigquery/params.ts).
 * A query ZetaSQL rejects, BigQuery would reject.
 *
 * `@fivetrandevelopers/zetasql` is an optional dev dependency (~112 MB download; it ships the
 * ZetaSQL local service as a prebuilt binary for linux/darwin x64/arm64 and starts it on a
 * local port: nothing is downloaded at run time). Without it this file is skipped loudly.
 */
import { createRequire } from 'node:module'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GOLDEN_CASES } from '../../../test/fixtures/golden-cases.js'
import { GOLDEN_NOW, goldenDatamart, goldenTables } from '../../../test/fixtures/golden-data.js'
import { ctx, metric } from '../../../test/fixtures/query.js'
import { bindParams, type ParamType } from '../../connectors/bigquery/params.js'
import { type CompileContext, compileMetric } from '../compile.js'
import { buildModel } from '../model.js'
import type { TableInfo } from '../types.js'
import { getDialect } from './registry.js'

interface TypeProto {
  typeKind: string
  arrayType?: { elementType: TypeProto }
}
interface ZetaClient {
  testConnection(): Promise<boolean>
  analyze(request: unknown): Promise<unknown>
}
interface ZetaModule {
  runServer(port: number): Promise<void>
  terminateServer(): void
  ZetaSQLClient: { init(port: number): void; getInstance(): ZetaClient }
  LanguageOptions: new () => { enableMaximumLanguageFeatures(): Promise<{ serialize(): unknown }> }
}

function load(): ZetaModule | undefined {
  try {
    return createRequire(import.meta.url)('@fivetrandevelopers/zetasql') as ZetaModule
  } catch {
    return undefined
  }
}
const zeta = load()
if (zeta === undefined) {
  console.warn(
    'SKIPPED bigquery.zetasql.test.ts: @fivetrandevelopers/zetasql is not installed (optional dev dependency; `npm install` at the root installs it)',
  )
}

const SCHEMA = 'golden'
const KIND: Record<string, string> = {
  STRING: 'TYPE_STRING',
  INT64: 'TYPE_INT64',
  FLOAT64: 'TYPE_DOUBLE',
  BOOL: 'TYPE_BOOL',
  TIMESTAMP: 'TYPE_TIMESTAMP',
  DATE: 'TYPE_DATE',
}

/** The column types BigQuery would introspect for the golden tables (INTEGER → INT64 …). */
function columnKind(column: TableInfo['columns'][number]): string {
  if (/^TIMESTAMP$/i.test(column.nativeType)) return 'TYPE_TIMESTAMP'
  switch (column.dataType) {
    case 'integer':
      return 'TYPE_INT64'
    case 'number':
      return 'TYPE_NUMERIC'
    case 'boolean':
      return 'TYPE_BOOL'
    case 'date':
      return 'TYPE_DATE'
    case 'datetime':
      return 'TYPE_DATETIME'
    default:
      return 'TYPE_STRING'
  }
}

function typeProto(t: ParamType): TypeProto {
  if (typeof t === 'string') return { typeKind: KIND[t] ?? 'TYPE_UNKNOWN' }
  return { typeKind: 'TYPE_ARRAY', arrayType: { elementType: typeProto(t[0]) } }
}

/** The golden tables, with created_at as a naive DATETIME (as in the golden model) or a TIMESTAMP. */
function tables(createdAt: 'DATETIME' | 'TIMESTAMP'): TableInfo[] {
  return goldenTables(SCHEMA).map((t) => ({
    ...t,
    columns: t.columns.map((c) =>
      c.name === 'created_at' && createdAt === 'TIMESTAMP' ? { ...c, nativeType: 'TIMESTAMP' } : c,
    ),
  }))
}

function catalog(languageOptions: unknown, list: TableInfo[], extra: TableInfo[] = []) {
  const table = (t: TableInfo) => ({
    name: t.name,
    column: t.columns.map((c) => ({ name: c.name, type: { typeKind: columnKind(c) } })),
  })
  return {
    name: 'strata',
    builtinFunctionOptions: { languageOptions },
    catalog: [
      { name: SCHEMA, table: list.map(table) },
      ...[...new Set(extra.map((t) => t.schema))].map((schema) => ({
        name: schema,
        table: extra.filter((t) => t.schema === schema).map(table),
      })),
    ],
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe.skipIf(zeta === undefined)('bigquery dialect, analysed by ZetaSQL (BigQuery’s SQL front end)', () => {
  let client: ZetaClient
  let languageOptions: unknown
  const dialect = getDialect('bigquery')

  beforeAll(async () => {
    const port = await freePort()
    zeta!.runServer(port).catch(() => undefined) // never resolves: the child process runs until terminated
    zeta!.ZetaSQLClient.init(port)
    client = zeta!.ZetaSQLClient.getInstance()
    expect(await client.testConnection()).toBe(true)
    languageOptions = (await new zeta!.LanguageOptions().enableMaximumLanguageFeatures()).serialize()
  }, 30_000)
  afterAll(() => zeta?.terminateServer())

  /** Resolves when ZetaSQL accepts the statement; rejects with its message otherwise. */
  async function analyse(sql: string, params: readonly unknown[], list: TableInfo[], extra: TableInfo[] = []) {
    const { types } = bindParams(params)
    try {
      await client.analyze({
        sqlStatement: sql,
        simpleCatalog: catalog(languageOptions, list, extra),
        options: {
          languageOptions,
          parameterMode: 'PARAMETER_NAMED',
          queryParameters: Object.entries(types).map(([name, t]) => ({ name, type: typeProto(t) })),
        },
      })
    } catch (err) {
      throw new Error(`${(err as { details?: string }).details ?? String(err)}\n${sql}`)
    }
  }

  for (const createdAt of ['DATETIME', 'TIMESTAMP'] as const) {
    it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))(
      `golden metric (created_at ${createdAt}): %s`,
      async (_, c) => {
        const list = tables(createdAt)
        const model = buildModel(list, goldenDatamart(SCHEMA, c.convertCreatedAt === true))
        const context: CompileContext = {
          tenancy: { kind: 'none' },
          rls: {},
          filters: [],
          timezone: 'UTC',
          now: GOLDEN_NOW,
          ...c.context?.(SCHEMA, (t) => `\`${SCHEMA}\`.${t}`),
        }
        // SQL metrics name the tables {o}, {c}, {t} (as in golden.integration.test.ts)
        const tableOf = { o: 'orders', c: 'customers', t: 'tenants' } as const
        const sql = c.metric.sql?.replace(/\{([oct])\}/g, (_, t: 'o' | 'c' | 't') => `\`${SCHEMA}\`.${tableOf[t]}`)
        const m = sql === undefined ? c.metric : { ...c.metric, sql }
        const compiled = compileMetric({ metric: m, model, dialect, context })
        await analyse(compiled.sql, compiled.params, list)
        for (const extra of [compiled.countSql, compiled.comparison]) {
          if (extra !== undefined) await analyse(extra.sql, extra.params, list)
        }
      },
    )
  }

  it('tenancy on a STRING or an INT64 client column: a plain `=` in the column type (pruning), then the byte check', async () => {
    for (const type of ['STRING', 'INT64'] as const) {
      const list = tables('DATETIME').map((t) => ({
        ...t,
        columns: t.columns.map((c) =>
          c.name === 'client_id'
            ? { ...c, nativeType: type, dataType: type === 'INT64' ? ('integer' as const) : ('string' as const) }
            : c,
        ),
      }))
      const model = buildModel(list, goldenDatamart(SCHEMA, false))
      const m = metric({ from: 'orders', measures: [{ name: 'n', aggregate: 'count' }] })
      const out = compileMetric({
        metric: m,
        model,
        dialect,
        context: ctx({ tenancy: { kind: 'table', clientId: '7' } }),
      })
      expect(out.sql).toContain(
        type === 'STRING'
          ? '(`t0`.`client_id` = @p0 AND CAST(`t0`.`client_id` AS BYTES) = CAST(@p0 AS BYTES))'
          : '(`t0`.`client_id` = SAFE_CAST(@p0 AS INT64) AND CAST(CAST(`t0`.`client_id` AS STRING) AS BYTES) = CAST(@p0 AS BYTES))',
      )
      await analyse(out.sql, out.params, list)
    }
  })

  it('rejects what BigQuery rejects (the analyser is not a rubber stamp)', async () => {
    const list = tables('DATETIME')
    await expect(
      analyse('SELECT DATE_TRUNC(created_at, WEEK(MONDAY)) FROM `golden`.`orders` WHERE client_id = 1', [], list),
    ).rejects.toThrow(/No matching signature/)
    await expect(analyse('SELECT * FROM `golden`.`orders` WHERE status ILIKE @p0', ['x'], list)).rejects.toThrow(
      /Syntax error/,
    )
    await expect(analyse('SELECT * FROM "golden"."orders"', [], list)).rejects.toThrow()
  })

  it('every time grain, aggregate, the time-zone conversion, tenancy and a contains filter', async () => {
    const list = tables('TIMESTAMP')
    const model = buildModel(list, goldenDatamart(SCHEMA, true))
    for (const timeGrain of ['hour', 'day', 'week', 'month', 'quarter', 'year'] as const) {
      for (const aggregate of ['sum', 'count', 'count-distinct', 'avg', 'min', 'max'] as const) {
        const m = metric({
          from: 'orders',
          measures: [{ name: 'v', aggregate, column: 'amount' }],
          dimensions: [
            { name: 'g', column: 'created_at', timeGrain },
            { name: 'd', column: 'ordered_on', timeGrain },
          ],
        })
        const out = compileMetric({
          metric: m,
          model,
          dialect,
          context: ctx({
            tenancy: { kind: 'table', clientId: 'acme' },
            timezone: 'Asia/Kolkata',
            filters: [
              { table: `${SCHEMA}.orders`, column: 'status', value: '50%_off', type: 'text', source: 'dashboard' },
            ],
            page: { limit: 10, offset: 20 },
          }),
        })
        await analyse(out.sql, out.params, list)
      }
    }
  })
})
