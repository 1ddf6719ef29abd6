/**
 * The AI pilot's routes (docs/runtime-api.md#ai-pilot) against a local OpenAI-compatible stand-in
 * (test/standins/openai), through the real `openai` SDK: each route's success, its permission
 * refusals and its errors (no provider, a provider failing, slow, or answering what does not
 * validate — the tenant column, a hidden column, SQL in a field, malformed JSON, no tool call),
 * the one retry with the validation error, the key sent as Bearer but never logged or answered,
 * and a slow provider blocking no other request.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { ACCESS, byCountryRls, salesDocument } from '../helpers/analytics.js'
import { expectError } from '../helpers/expect-error.js'
import { runtimeCalls } from '../helpers/runtime-calls.js'
import { requireService } from '../helpers/services.js'
import { useAnalytics } from '../helpers/suite.js'
import { type RecordedRequest, startOpenAiStandIn } from '../standins/openai/server.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const standIn = await startOpenAiStandIn()
afterAll(() => standIn.close())

const KEY = 'sk-standin-7f3a9c1e55d04b2a'
const TIMEOUT_MS = 1_500
const PROVIDERS = JSON.stringify({ standin: { baseUrl: standIn.baseUrl, apiKey: KEY, model: 'standin-model' } })
const AI = { ...ACCESS, isAllowAiPilot: true, isAllowMetricCreation: true, metricCreationMode: 'CHAT' }

describe.skipIf(!hasPg)('AI pilot routes against the stand-in', () => {
  const { wh, t, a } = useAnalytics('sqlite', {
    app: 'suite',
    env: { LLM_PROVIDERS: PROVIDERS, LLM_TIMEOUT_MS: String(TIMEOUT_MS), RATE_LIMIT: '0' },
  })

  const embedWith = async (accessSettings: object): Promise<string> =>
    (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'AI',
        accessSettings,
      })
    ).id
  const { tokenFor } = runtimeCalls(a)
  const workspace = (settings: object) =>
    a.ok('PUT', '/api/v2/workspace', a.serviceToken, {
      name: 'main',
      connectionType: 'DATAMART',
      datamartName: 'sales',
      ...settings,
    })
  const rt = (method: 'GET' | 'POST', embedId: string, path: string, token: string, body?: object) =>
    a.call(method, `/api/v2/embed/runtime/${embedId}${path}`, token, body)
  const ask = (embedId: string, token: string, question = 'How many orders per status?') =>
    rt('POST', embedId, '/ai/metric', token, { question })

  const byStatus = () => ({
    name: 'Orders by status',
    chart: { type: 'bar', x: 'status', y: ['orders'] },
    query: {
      from: `${wh.schema}.orders`,
      measures: [{ name: 'orders', aggregate: 'count' }],
      dimensions: [{ name: 'status', column: 'status' }],
    },
  })
  const createMetric = (metric: unknown, explanation = 'Orders counted per status.') => ({
    toolCall: { name: 'create_metric', arguments: { metric, explanation } },
  })
  const since = (n: number) => standIn.requests.slice(n)
  const systemPrompt = (r: RecordedRequest) => String(r.body.messages?.[0]?.content ?? '')

  it('answers a validated metric for a question; the model saw the visible model only, with the key as Bearer', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    const before = standIn.requests.length
    standIn.script(createMetric(byStatus()))
    const res = await ask(embed, acme)
    expect(res.statusCode, res.body).toBe(200)
    const { metric, explanation } = res.json().data
    expect(explanation).toBe('Orders counted per status.')
    expect(metric).toMatchObject({ name: 'Orders by status', query: { from: `${wh.schema}.orders` } })
    const [request] = since(before)
    expect(request?.authorization).toBe(`Bearer ${KEY}`)
    expect(request?.body.model).toBe('standin-model')
    expect(request?.body.tools?.map((tool) => tool.function.name)).toEqual(['create_metric'])
    expect(request?.body.tool_choice).toEqual({ type: 'function', function: { name: 'create_metric' } })
    const prompt = systemPrompt(request as RecordedRequest)
    expect(prompt).toContain(`${wh.schema}.orders`)
    expect(prompt).toContain('"status"')
    // the tenant column and tenant values are nowhere in what the model is sent
    const sent = JSON.stringify(request?.body.messages)
    expect(sent).not.toMatch(/"tenant"|acme|globex|initech/)
    // the answer previews and saves through the self-serve routes, with the tenant's rows
    const preview = await rt('POST', embed, '/preview', acme, { metric })
    expect(preview.statusCode, preview.body).toBe(200)
    const want = await wh.query<{ n: string }>(`select count(*) n from ${wh.schema}.orders where tenant = 'acme'`)
    const total = preview.json().data.reduce((s: number, r: { orders: unknown }) => s + Number(r.orders), 0)
    expect(total).toBe(Number(want[0]?.n))
    const saved = await rt('POST', embed, '/metrics', acme, { metric })
    expect(saved.statusCode, saved.body).toBe(200)
    // the key is neither in an answer nor in a log line
    expect(res.body).not.toContain(KEY)
    expect(t.rawLogs.join('\n')).not.toContain(KEY)
  })

  it('retries once with the validation error, then answers the corrected metric', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    const before = standIn.requests.length
    const tenantColumn = {
      ...byStatus(),
      query: { ...byStatus().query, dimensions: [{ name: 't', column: 'tenant' }] },
    }
    standIn.script(createMetric(tenantColumn), createMetric(byStatus()))
    const res = await ask(embed, acme)
    expect(res.statusCode, res.body).toBe(200)
    const requests = since(before)
    expect(requests).toHaveLength(2)
    const messages = requests[1]?.body.messages ?? []
    const feedback = messages[messages.length - 1]
    expect(feedback?.role).toBe('tool')
    expect(String(feedback?.content)).toMatch(/no column "tenant"/)
    expect(messages[messages.length - 2]?.tool_calls).toBeDefined()
  })

  const hostile = (schema: string): [string, unknown][] => {
    const base = {
      name: 'x',
      chart: { type: 'table' },
      query: { from: `${schema}.orders`, measures: [{ name: 'n', aggregate: 'count' }] },
    }
    return [
      [
        'the tenant column',
        { ...base, query: { ...base.query, where: [{ column: 'tenant', operator: 'eq', values: ['globex'] }] } },
      ],
      ['another schema’s table', { ...base, query: { ...base.query, from: 'pg_catalog.pg_user' } }],
      [
        'SQL in every string field',
        {
          name: "x'; drop table orders; --",
          chart: { type: 'table' },
          query: {
            from: `${schema}.orders where 1=1 --`,
            measures: [{ name: 'n) from orders; --', aggregate: 'sum', column: 'amount) + (select 1' }],
            dimensions: [{ name: 'd', column: 'status || (select tenant from customers limit 1)' }],
          },
        },
      ],
      ['a sql field', { ...base, sql: `select * from ${schema}.orders` }],
      ['not an object', 'select * from orders'],
    ]
  }

  it('answers 502 AI_PROVIDER_ERROR when both answers do not validate, whatever they hold', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    for (const [what, metric] of hostile(wh.schema)) {
      const before = standIn.requests.length
      standIn.script(createMetric(metric), createMetric(metric))
      const res = await ask(embed, acme)
      expectError(res, 502, 'AI_PROVIDER_ERROR', /not valid after one retry/)
      expect(since(before), what).toHaveLength(2)
    }
    const cases: [string, Parameters<typeof standIn.script>[0]][] = [
      ['malformed JSON arguments', { toolCall: { name: 'create_metric', arguments: '{"metric": {"name": ' } }],
      ['no tool call', { text: 'SELECT * FROM orders' }],
      ['another tool', { toolCall: { name: 'run_sql', arguments: { sql: 'select 1' } } }],
    ]
    for (const [what, answer] of cases) {
      const before = standIn.requests.length
      standIn.script(answer, answer)
      expectError(await ask(embed, acme), 502, 'AI_PROVIDER_ERROR', /not valid after one retry/)
      expect(since(before), what).toHaveLength(2)
    }
  })

  it('answers 502 for a provider error status, a body that is not JSON, and no answer within the timeout', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    standIn.script({ status: 500 })
    expectError(await ask(embed, acme), 502, 'AI_PROVIDER_ERROR', /"standin" failed: it answered HTTP 500$/)
    standIn.script({ status: 401, body: JSON.stringify({ error: { message: `bad key ${KEY}` } }) })
    const unauthorized = await ask(embed, acme)
    expectError(unauthorized, 502, 'AI_PROVIDER_ERROR', /HTTP 401$/)
    expect(unauthorized.body).not.toContain(KEY)
    standIn.script({ raw: '<html>bad gateway' })
    expectError(await ask(embed, acme), 502, 'AI_PROVIDER_ERROR', /"standin" failed/)
    standIn.script({ hang: true })
    expectError(await ask(embed, acme), 502, 'AI_PROVIDER_ERROR', new RegExp(`no answer within ${TIMEOUT_MS} ms`))
    standIn.releaseHanging()
    expect(t.rawLogs.join('\n')).not.toContain(KEY)
    expect(t.rawLogs.some((line) => line.includes('AI_PROVIDER_ERROR'))).toBe(true)
  })

  it('reads the provider’s answer with a byte limit: a 64 MB answer → 502 naming the limit, the connection dropped after a few MB, on /ai/metric and /ai/summary (issue 24, item 9)', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    await workspace({ isEnableMetricSummary: true })
    const bytes = 64 * 1024 * 1024
    const routes = [() => ask(embed, acme), () => rt('POST', embed, '/ai/summary', acme, { metricId: 'revenue' })]
    for (const route of routes) {
      // streamed without a length, and announced by Content-Length
      for (const announceLength of [false, true]) {
        const before = standIn.requests.length
        standIn.script({ huge: { bytes, announceLength } })
        expectError(
          await route(),
          502,
          'AI_PROVIDER_ERROR',
          /"standin" failed: its answer was too large \(more than 2097152 bytes; LLM_MAX_ANSWER_BYTES\)$/,
        )
        expect(standIn.requests.length - before).toBe(1) // a provider failure: no retry
        const streamed = standIn.streams.at(-1)
        await streamed?.done
        // the server hung up long before the end: what it read is the limit plus socket buffers
        expect(streamed?.closedEarly).toBe(true)
        expect(streamed?.written).toBeLessThan(16 * 1024 * 1024)
      }
    }
    // the same route answers normally afterwards
    standIn.script({ text: 'Fine.' })
    expect((await routes[1]?.())?.json()).toEqual({ data: { summary: 'Fine.' } })
    await workspace({})
  })

  /**
   * Issue 24, item 10: the token's own refusal found while checking the model's answer (an RLS
   * variable it gives no value) was taken for a model mistake: one wasted retry, then 502
   * AI_PROVIDER_ERROR. It is the token's 400, as `/preview` answers it: at once, one call.
   */
  it('answers the token’s own refusal (an RLS variable without a value) as /preview does, after one call and no retry', async () => {
    const document = salesDocument(wh.schema)
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'main',
      dashboardId: 'rls-ai',
      importDashboardData: {
        ...document,
        layout: [...document.layout, { metricId: 'by_country', x: 0, y: 8, w: 6, h: 4 }],
        metrics: [...document.metrics, byCountryRls(wh.schema)],
      },
    })
    const embed = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'rls-ai',
        embedType: 'dashboard',
        workspaceName: 'main',
        name: 'AI with RLS',
        accessSettings: AI,
      })
    ).id as string
    await workspace({ isEnableMetricSummary: true, isEnableMetricSuggestions: true })
    // no value for `countries`: any metric over customers is the token's refusal
    const acme = await tokenFor('acme')
    const overCustomers = {
      name: 'Customers by country',
      chart: { type: 'bar', x: 'country', y: ['customers'] },
      query: {
        from: `${wh.schema}.customers`,
        measures: [{ name: 'customers', aggregate: 'count' }],
        dimensions: [{ name: 'country', column: 'country' }],
      },
    }
    const preview = await rt('POST', embed, '/preview', acme, { metric: overCustomers })
    expectError(preview, 400, 'INVALID_REQUEST_BODY', /declares the RLS variable "countries".*gives it no value/)
    const refusal = preview.json().error

    let before = standIn.requests.length
    standIn.script(createMetric(overCustomers), createMetric(byStatus()))
    const metric = await ask(embed, acme, 'How many customers per country?')
    expect(metric.statusCode, metric.body).toBe(400)
    expect(metric.json()).toEqual({ error: refusal })
    expect(standIn.requests.length - before).toBe(1)
    standIn.clearScript()

    before = standIn.requests.length
    standIn.script(
      {
        toolCall: {
          name: 'suggest_metrics',
          arguments: { suggestions: [{ name: 'Customers', metric: overCustomers }] },
        },
      },
      { toolCall: { name: 'suggest_metrics', arguments: { suggestions: [{ name: 'Orders', metric: byStatus() }] } } },
    )
    const suggestions = await rt('GET', embed, '/ai/suggestions', acme)
    expect(suggestions.statusCode, suggestions.body).toBe(400)
    expect(suggestions.json()).toEqual({ error: refusal })
    expect(standIn.requests.length - before).toBe(1)
    standIn.clearScript()

    // a summary runs the token's own query first: refused as /query refuses it, before any call
    before = standIn.requests.length
    const query = await rt('POST', embed, '/query', acme, { metricId: 'by_country' })
    expectError(query, 400, 'INVALID_REQUEST_BODY', /gives it no value/)
    const summary = await rt('POST', embed, '/ai/summary', acme, { metricId: 'by_country' })
    expect(summary.statusCode, summary.body).toBe(400)
    expect(summary.json()).toEqual(query.json())
    expect(standIn.requests.length - before).toBe(0)

    // with a value for the variable the same answer is served; a genuine model mistake still gets its retry
    const scoped = await tokenFor('acme', {
      params: { rlsSettings: [{ metricId: 'by_country', values: { countries: ['DE'] } }] },
    })
    before = standIn.requests.length
    standIn.script(
      createMetric({ ...overCustomers, query: { ...overCustomers.query, from: 'secret.table' } }),
      createMetric(overCustomers),
    )
    const served = await ask(embed, scoped, 'How many customers per country?')
    expect(served.statusCode, served.body).toBe(200)
    expect(standIn.requests.length - before).toBe(2)
    await workspace({})
  })

  it('a slow provider blocks no other request', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    const before = standIn.requests.length
    standIn.script({ hang: true })
    const order: string[] = []
    const slow = ask(embed, acme).then((res) => {
      order.push('ai')
      return res
    })
    await standIn.received(before + 1)
    // the AI call is now waiting on the provider; the load and a query answer meanwhile
    const load = await rt('GET', embed, '', acme)
    expect(load.statusCode).toBe(200)
    const query = await rt('POST', embed, '/query', acme, { metricId: 'revenue' })
    expect(query.statusCode).toBe(200)
    order.push('others')
    standIn.releaseHanging()
    expectError(await slow, 502, 'AI_PROVIDER_ERROR')
    expect(order).toEqual(['others', 'ai'])
  })

  it('refuses without the AI pilot, without create, and without chat mode (403), and reports it in the load', async () => {
    const acme = await tokenFor('acme')
    const cases: [object, RegExp][] = [
      [{ ...AI, isAllowAiPilot: false }, /The AI pilot is not allowed/],
      [{ ...AI, isAllowMetricCreation: false }, /Creating metrics is not allowed/],
      [{ ...AI, metricCreationMode: 'DRAG_DROP' }, /metricCreationMode is DRAG_DROP/],
    ]
    const before = standIn.requests.length
    for (const [settings, message] of cases) {
      const embed = await embedWith(settings)
      expectError(await ask(embed, acme), 403, 'INSUFFICIENT_PERMISSIONS', message)
      expect((await a.ok('GET', `/api/v2/embed/runtime/${embed}`, acme)).ai.metric).toBe(false)
    }
    // the token's own flag turns creation (so chat creation) off
    const embed = await embedWith(AI)
    const noCreate = await tokenFor('acme', { permissions: { isDisableMetricCreation: true } })
    expectError(await ask(embed, noCreate), 403, 'INSUFFICIENT_PERMISSIONS', /Creating metrics/)
    expect(standIn.requests.length).toBe(before)
    expect((await a.ok('GET', `/api/v2/embed/runtime/${embed}`, acme)).ai).toEqual({
      metric: true,
      summary: false,
      suggestions: false,
    })
    // outside allowedEmbeds: 403 UNAUTHORIZED; no token: 401
    const other = await tokenFor('acme', { params: { allowedEmbeds: [a.embedId] } })
    expectError(await ask(embed, other), 403, 'UNAUTHORIZED')
    expectError(
      await t.app.inject({
        method: 'POST',
        url: `/api/v2/embed/runtime/${embed}/ai/metric`,
        payload: { question: 'x' },
      }),
      401,
      'AUTHENTICATION_ERROR',
    )
    // a body that is not { question }
    expectError(await rt('POST', embed, '/ai/metric', acme, { question: '' }), 400, 'INVALID_REQUEST_BODY')
  })

  it('summarises a metric from the tenant’s rows only, with the workspace’s custom prompt', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    expectError(
      await rt('POST', embed, '/ai/summary', acme, { metricId: 'revenue_by_country' }),
      403,
      'INSUFFICIENT_PERMISSIONS',
      /summaries are off/,
    )
    await workspace({
      isEnableMetricSummary: true,
      summaryType: 'custom',
      customSummaryPrompt: 'Answer in one sentence, like a pirate.',
    })
    expect((await a.ok('GET', `/api/v2/embed/runtime/${embed}`, acme)).ai.summary).toBe(true)
    const before = standIn.requests.length
    standIn.script({ text: '  Revenue is highest in DE.  ' })
    const res = await rt('POST', embed, '/ai/summary', acme, { metricId: 'revenue_by_country' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ data: { summary: 'Revenue is highest in DE.' } })
    const [request] = since(before)
    expect(request?.body.tools).toBeUndefined()
    expect(request?.body.messages?.[0]).toEqual({ role: 'system', content: 'Answer in one sentence, like a pirate.' })
    // the rows sent are exactly this tenant's result
    const result = await a.ok('POST', `/api/v2/embed/runtime/${embed}/query`, acme, { metricId: 'revenue_by_country' })
    const user = String(request?.body.messages?.[1]?.content)
    const rows = JSON.parse(user.slice(user.indexOf('\n[') + 1))
    expect(rows).toEqual(result.data)
    const globex = await a.ok('POST', `/api/v2/embed/runtime/${embed}/query`, await tokenFor('globex'), {
      metricId: 'revenue_by_country',
    })
    expect(rows).not.toEqual(globex.data)
    // a metric the token cannot see, an empty answer, a failing provider
    expectError(await rt('POST', embed, '/ai/summary', acme, { metricId: 'nope' }), 400, 'EMBED_PARAM_ERROR')
    standIn.script({ text: '   ' })
    expectError(
      await rt('POST', embed, '/ai/summary', acme, { metricId: 'revenue' }),
      502,
      'AI_PROVIDER_ERROR',
      /no text/,
    )
    standIn.script({ status: 503 })
    expectError(
      await rt('POST', embed, '/ai/summary', acme, { metricId: 'revenue' }),
      502,
      'AI_PROVIDER_ERROR',
      /HTTP 503/,
    )
    await workspace({})
  })

  it('suggests only the metrics that validate, and refuses when suggestions are off', async () => {
    const embed = await embedWith({ ...AI, metricCreationMode: 'DRAG_DROP' })
    const acme = await tokenFor('acme')
    expectError(await rt('GET', embed, '/ai/suggestions', acme), 403, 'INSUFFICIENT_PERMISSIONS', /suggestions are off/)
    await workspace({ isEnableMetricSuggestions: true })
    const [tenantColumn] = hostile(wh.schema)
    standIn.script({
      toolCall: {
        name: 'suggest_metrics',
        arguments: {
          suggestions: [
            { name: 'By status', metric: byStatus() },
            { name: 'Leak', metric: tenantColumn?.[1] },
            { name: 'Hidden', metric: { ...byStatus(), query: { ...byStatus().query, from: 'secret.table' } } },
          ],
        },
      },
    })
    const res = await rt('GET', embed, '/ai/suggestions', acme)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().data.map((s: { name: string }) => s.name)).toEqual(['By status'])
    // nothing that validates, twice: 502; an empty list is an answer
    const none = {
      toolCall: { name: 'suggest_metrics', arguments: { suggestions: [{ name: 'Leak', metric: tenantColumn?.[1] }] } },
    }
    standIn.script(none, none)
    expectError(await rt('GET', embed, '/ai/suggestions', acme), 502, 'AI_PROVIDER_ERROR')
    standIn.script({ toolCall: { name: 'suggest_metrics', arguments: { suggestions: [] } } })
    expect((await a.ok('GET', `/api/v2/embed/runtime/${embed}/ai/suggestions`, acme)).data).toEqual([])
    // without the AI pilot: 403
    const off = await embedWith({ ...AI, isAllowAiPilot: false })
    expectError(await rt('GET', off, '/ai/suggestions', acme), 403, 'INSUFFICIENT_PERMISSIONS', /AI pilot/)
    await workspace({})
  })

  it('answers 400 AI_NOT_CONFIGURED when the workspace names a provider that is not configured', async () => {
    const embed = await embedWith(AI)
    const acme = await tokenFor('acme')
    await workspace({ llmName: 'azure', isEnableMetricSummary: true, isEnableMetricSuggestions: true })
    expectError(await ask(embed, acme), 400, 'AI_NOT_CONFIGURED', /llmName "azure" is not configured/)
    expectError(await rt('GET', embed, '/ai/suggestions', acme), 400, 'AI_NOT_CONFIGURED')
    expectError(await rt('POST', embed, '/ai/summary', acme, { metricId: 'revenue' }), 400, 'AI_NOT_CONFIGURED')
    expect((await a.ok('GET', `/api/v2/embed/runtime/${embed}`, acme)).ai).toEqual({
      metric: false,
      summary: false,
      suggestions: false,
    })
    await workspace({ llmName: 'standin' })
    standIn.script(createMetric(byStatus()))
    expect((await ask(embed, acme)).statusCode).toBe(200)
    await workspace({})
  })
})

describe.skipIf(!hasPg)('AI pilot without LLM_PROVIDERS', () => {
  const { a } = useAnalytics('sqlite', { app: 'suite' })

  it('answers 400 AI_NOT_CONFIGURED on every route, and the load shows no AI control', async () => {
    const embed = (
      await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
        dashboardId: 'sales-overview',
        embedType: 'dashboard',
        workspaceName: 'main',
        accessSettings: AI,
      })
    ).id
    await a.ok('PUT', '/api/v2/workspace', a.serviceToken, {
      name: 'main',
      connectionType: 'DATAMART',
      datamartName: 'sales',
      isEnableMetricSummary: true,
      isEnableMetricSuggestions: true,
    })
    const token = (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme' })
    ).token
    const call = (method: 'GET' | 'POST', path: string, body?: object) =>
      a.call(method, `/api/v2/embed/runtime/${embed}${path}`, token, body)
    expectError(
      await call('POST', '/ai/metric', { question: 'Orders?' }),
      400,
      'AI_NOT_CONFIGURED',
      /no provider is configured/,
    )
    expectError(await call('POST', '/ai/summary', { metricId: 'revenue' }), 400, 'AI_NOT_CONFIGURED')
    expectError(await call('GET', '/ai/suggestions'), 400, 'AI_NOT_CONFIGURED')
    const load = (await call('GET', '')).json()
    expect(load.permissions.aiPilot).toBe(true)
    expect(load.ai).toEqual({ metric: false, summary: false, suggestions: false })
  })
})
