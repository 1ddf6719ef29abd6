/**
 * Issue 16: the tenant-isolation property for the AI pilot. Whatever an OpenAI-compatible
 * model answers — here a local stand-in (test/standins/openai) reached through the real
 * `openai` SDK — the metric /ai/metric answers, previewed and saved through the self-serve
 * routes, returns no foreign row. The stand-in's answers are generated: definitions over the
 * visible model (self-serve-oracle.ts, values from the data or hostile strings), and the same
 * made hostile — a condition or dimension on the tenant column, another tenant's name as a
 * value, a hidden or unknown table, SQL in string fields, a `sql` field — besides malformed
 * JSON and answers without the tool call. Every 200 is checked against the warehouse for that
 * tenant alone (exact rows where the oracle covers the conditions, else bounds no foreign row
 * could keep); every refusal is 502 AI_PROVIDER_ERROR after exactly one retry. Another
 * tenant's token cannot query the saved metric. Fixed seed; RUNS sets the number of runs.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCESS, type Analytics, setupAnalytics } from '../helpers/analytics.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { createPgWarehouse, type PgWarehouse, TENANTS } from '../helpers/warehouse.js'
import { type OpenAiStandIn, type Scripted, startOpenAiStandIn } from '../standins/openai/server.js'
import { loadWarehouse, type Warehouse } from './ground-truth.js'
import {
  actual,
  checkBounded,
  type Definition,
  definitionArb,
  expected,
  INJECTIONS,
  type ModelTable,
  normalise,
  tenantTokens,
} from './self-serve-oracle.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const RUNS = Number(process.env.RUNS ?? process.env.ISOLATION_RUNS_AI ?? 30)
const SEED = 16_2026

/** What the stand-in answers, twice (so the one retry gets the same). */
type Answer = { kind: 'valid' | 'hostile'; args: unknown } | { kind: 'raw'; scripted: Scripted }

function hostileArb(schema: string, def: fc.Arbitrary<Definition>): fc.Arbitrary<unknown> {
  const sql = fc.constantFrom(
    ...INJECTIONS,
    `x from ${schema}.orders --`,
    '1; select tenant from orders',
    "') or 1=1 --",
  )
  return fc.oneof(
    // the tenant column, with another tenant's value
    fc.tuple(def, fc.constantFrom(...TENANTS)).map(([d, other]) => ({
      ...d,
      query: { ...d.query, where: [...(d.query.where ?? []), { column: 'tenant', operator: 'eq', values: [other] }] },
    })),
    def.map((d) => ({ ...d, query: { ...d.query, dimensions: [{ name: 'who', column: 'tenant' }] } })),
    def.map((d) => ({
      ...d,
      query: { ...d.query, measures: [{ name: 'n', aggregate: 'count-distinct', column: 'tenant' }] },
    })),
    // another tenant's name as a plain value (allowed: it is a literal, and only narrows this tenant's rows)
    fc.tuple(def, fc.constantFrom(...TENANTS)).map(([d, other]) => ({
      ...d,
      query: { ...d.query, where: [{ column: 'status', table: `${schema}.orders`, operator: 'in', values: [other] }] },
    })),
    // hidden, unknown, foreign tables
    def.map((d) => ({ ...d, query: { ...d.query, from: 'information_schema.tables' } })),
    def.map((d) => ({ ...d, query: { ...d.query, from: `${schema}.secrets` } })),
    // SQL in every string field
    fc.tuple(def, sql).map(([d, s]) => ({
      name: s,
      chart: { type: 'table', x: s },
      query: {
        from: `${d.query.from} ${s}`,
        measures: [{ name: s, aggregate: 'sum', column: s }],
        dimensions: [{ name: s, column: s, table: s }],
        where: [{ column: s, operator: 'eq', values: [s] }],
      },
    })),
    fc.tuple(def, sql).map(([d, s]) => ({
      ...d,
      name: s,
      query: { ...d.query, measures: d.query.measures.map((m) => ({ ...m, name: s })) },
    })),
    def.map((d) => ({ ...d, sql: `select * from ${schema}.orders` })),
    def.map((d) => ({ ...d, query: { ...d.query, sql: 'select 1' } })),
  )
}

function answerArb(schema: string, tables: readonly ModelTable[], data: Warehouse): fc.Arbitrary<Answer> {
  const def = definitionArb(schema, tables, data)
  const explained = (metric: unknown) => ({ metric, explanation: 'stand-in' })
  return fc.oneof(
    { weight: 5, arbitrary: def.map((d): Answer => ({ kind: 'valid', args: explained(d) })) },
    { weight: 5, arbitrary: hostileArb(schema, def).map((m): Answer => ({ kind: 'hostile', args: explained(m) })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Answer>(
        { kind: 'raw', scripted: { toolCall: { name: 'create_metric', arguments: '{"metric": {"name": "x", ' } } },
        { kind: 'raw', scripted: { text: `SELECT * FROM ${schema}.orders` } },
        { kind: 'raw', scripted: { toolCall: { name: 'create_metric', arguments: '"select 1"' } } },
        { kind: 'raw', scripted: { raw: '{"choices": [' } },
      ),
    },
  )
}

describe.skipIf(!hasPg)('tenant isolation of AI pilot metrics (property: zero foreign rows)', () => {
  let wh: PgWarehouse
  let t: TestContext
  let a: Analytics
  let data: Warehouse
  let standIn: OpenAiStandIn
  let embedId: string
  let tokens = new Map<string, string>()

  beforeAll(async () => {
    standIn = await startOpenAiStandIn()
    wh = await createPgWarehouse()
    data = await loadWarehouse(wh)
    t = await createTestApp('sqlite', {
      LOG_LEVEL: 'silent',
      RATE_LIMIT: '0',
      LLM_PROVIDERS: JSON.stringify({ standin: { baseUrl: standIn.baseUrl, apiKey: 'sk-standin', model: 'm' } }),
    })
    a = await setupAnalytics(t.app, wh)
    embedId = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        accessSettings: { ...ACCESS, isAllowAiPilot: true, isAllowMetricCreation: true, metricCreationMode: 'CHAT' },
      })
    ).id
    tokens = await tenantTokens(a, TENANTS)
  })

  afterAll(async () => {
    await t?.close()
    await wh?.drop()
    await standIn?.close()
  })

  it(
    'whatever the model answers, the answered metric previews and saves with the tenant’s rows only',
    async () => {
      const schema = wh.schema
      const token = (tenant: string) => tokens.get(tenant) as string
      const rt = (path: string, tenant: string, body?: object) =>
        a.call(body ? 'POST' : 'GET', `/api/v2/embed/runtime/${embedId}${path}`, token(tenant), body)
      const tables = (await rt('/model', 'acme')).json().data.tables as ModelTable[]
      const stats = {
        runs: 0,
        answered: 0,
        refused: 0,
        hostileAnswered: 0,
        exact: 0,
        bounded: 0,
        saved: 0,
        queryRefused: 0,
      }

      /** A 200's rows are the tenant's alone; anything else is a 4xx in the error shape (a value the warehouse refuses). */
      const checkRows = (tenant: string, def: Definition, res: Awaited<ReturnType<typeof rt>>, label: string) => {
        if (res.statusCode !== 200) {
          stats.queryRefused++
          expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400)
          expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500)
          expect(typeof res.json().error?.code, label).toBe('string')
          return
        }
        const rows = actual('postgres', def, res.json().data)
        const want = expected('postgres', schema, data, tenant, def)
        if (want === 'unmodelled') {
          stats.bounded++
          checkBounded('postgres', schema, data, tenant, def, rows, label)
        } else {
          stats.exact++
          expect(normalise(rows), label).toEqual(normalise(want))
        }
      }

      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...TENANTS),
          fc.constantFrom(...TENANTS),
          answerArb(schema, tables, data),
          async (tenant, other, answer) => {
            stats.runs++
            const scripted: Scripted =
              answer.kind === 'raw' ? answer.scripted : { toolCall: { name: 'create_metric', arguments: answer.args } }
            const before = standIn.requests.length
            standIn.clearScript()
            standIn.script(scripted, scripted)
            const label = `${tenant} ${JSON.stringify(answer).slice(0, 600)}`
            const res = await rt('/ai/metric', tenant, { question: 'Show me something' })
            if (res.statusCode !== 200) {
              stats.refused++
              expectError(res, 502, 'AI_PROVIDER_ERROR')
              // an answer that is not a chat completion fails the call (no retry); any other refusal
              // comes after the one retry: both scripted answers were asked for
              const unreadable = typeof scripted === 'object' && 'raw' in scripted
              expect(standIn.requests.length - before, label).toBe(unreadable ? 1 : 2)
              return
            }
            // an answer on the first attempt leaves the second scripted answer unused: drop it
            standIn.releaseHanging()
            standIn.clearScript()
            stats.answered++
            if (answer.kind === 'hostile') stats.hostileAnswered++
            const metric = res.json().data.metric as Definition
            // never the tenant column, whatever the model sent
            expect(JSON.stringify(metric), label).not.toMatch(/"tenant"/)
            checkRows(tenant, metric, await rt('/preview', tenant, { metric }), `preview ${label}`)
            const saved = await rt('/metrics', tenant, { metric })
            expect(saved.statusCode, `save ${label}: ${saved.body}`).toBe(200)
            stats.saved++
            const { metricId } = saved.json().data as { metricId: string }
            checkRows(tenant, metric, await rt('/query', tenant, { metricId }), `query ${label}`)
            if (other !== tenant) {
              expectError(await rt('/query', other, { metricId }), 400, 'EMBED_PARAM_ERROR')
            }
          },
        ),
        { numRuns: RUNS, seed: SEED },
      )
      console.info(`AI pilot isolation: ${JSON.stringify(stats)}`)
      // the property must reach the rows most of the time, and see hostile answers refused
      expect(stats.answered).toBeGreaterThanOrEqual(Math.ceil(RUNS / 4))
      expect(stats.refused).toBeGreaterThanOrEqual(Math.ceil(RUNS / 10))
    },
    Math.max(60_000, RUNS * 1_000),
  )
})
