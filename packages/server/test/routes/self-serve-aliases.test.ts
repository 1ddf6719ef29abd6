/**
 * Regression (issue 24, item 3): an end user read a hidden column through an alias. With the
 * raw `email` hidden and `email_masked` aliased (and labelled) `email`, an end user's definition
 * naming `email` was checked against the visible model (where it is the masked column) but
 * compiled against the full one (where it is the raw column), in every path that runs an end
 * user's metric. Names are now resolved once, against the visible model, and the physical
 * column is what is compiled and stored: the preview, the saved metric's query (after a create
 * and an update), its CSV download, its underlying rows, the AI pilot's metric and summary and
 * an email report of it all answer masked values only. A metric saved on the raw column while it was visible is refused
 * once the datamart hides it, rather than read as the column now aliased with its name.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { requireService } from '../helpers/services.js'
import { startSmtp } from '../helpers/smtp.js'
import { useAnalytics } from '../helpers/suite.js'
import { startOpenAiStandIn } from '../standins/openai/server.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const standIn = await startOpenAiStandIn()
const smtp = await startSmtp()
afterAll(() => Promise.all([standIn.close(), smtp.close()]))

const PROVIDERS = JSON.stringify({
  standin: { baseUrl: standIn.baseUrl, apiKey: 'sk-standin', model: 'standin-model' },
})
/** What only the raw (hidden) column holds: no answer may carry it. */
const RAW = /secret\.test/

describe.skipIf(!hasPg)('an alias equal to a hidden column’s name (item 3)', () => {
  const { wh, a } = useAnalytics('sqlite', {
    app: 'suite',
    env: {
      LLM_PROVIDERS: PROVIDERS,
      RATE_LIMIT: '0',
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'reports@example.com',
      REPORT_POLL_INTERVAL_MS: '3600000',
    },
    // contacts(id, tenant, email, email_masked): the raw address and its masked form
    prepare: (w) =>
      w.query(`
        create table ${w.schema}.contacts (id integer primary key, tenant text not null, email text not null,
          email_masked text not null);
        insert into ${w.schema}.contacts
          select i, (array['acme','globex'])[1 + i % 2], 'user' || i || '@secret.test', 'u***' || i || '@***'
          from generate_series(1, 12) i;`),
  })

  /** contacts with the raw `email` hidden and `email_masked` aliased `email` (or, `collide: false`, both plain and visible). */
  const tableList = (collide: boolean) => [
    {
      schemaName: wh.schema,
      name: 'contacts',
      clientColumn: 'tenant',
      columns: collide
        ? [
            { name: 'email', isHide: true },
            { name: 'email_masked', alias: 'email', label: 'Email' },
          ]
        : [],
    },
  ]
  let embedId = ''
  const setUp = async () => {
    if (embedId !== '') return embedId
    await a.ok('POST', '/api/v2/data-app/datamarts', a.serviceToken, {
      name: 'people',
      datasourceName: 'warehouse',
      tableList: tableList(true),
    })
    await a.ok('POST', '/api/v2/workspace', a.serviceToken, {
      name: 'people',
      connectionType: 'DATAMART',
      datamartName: 'people',
      isEnableMetricSummary: true,
    })
    await a.ok('POST', '/api/v2/data-app/import-dashboard', a.serviceToken, {
      workspaceName: 'people',
      dashboardId: 'people-dash',
      importDashboardData: {
        name: 'People',
        metrics: [
          {
            metricId: 'contacts',
            name: 'Contacts',
            chart: { type: 'single-value' },
            query: { from: `${wh.schema}.contacts`, measures: [{ name: 'n', aggregate: 'count' }] },
          },
        ],
      },
    })
    const embed = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'people-dash',
      embedType: 'dashboard',
      workspaceName: 'people',
      accessSettings: {
        ...ACCESS,
        datamartName: 'people',
        isAllowMetricCreation: true,
        isAllowMetricUpdate: true,
        isAllowUnderlyingData: true,
        isAllowAiPilot: true,
        metricCreationMode: 'CHAT',
        isAllowEmailReports: true,
      },
    })
    embedId = embed.id as string
    return embedId
  }
  const token = async (clientId = 'acme') =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        params: { reportRecipients: ['@example.com'] },
        permissions: { isEnableDownloadMetrics: true, isEnableUnderlyingData: true },
      })
    ).token as string
  const rt = (method: 'GET' | 'POST' | 'PUT', path: string, tk: string, body?: object) =>
    a.call(method, `/api/v2/embed/runtime/${embedId}${path}`, tk, body)
  const ok = async (method: 'GET' | 'POST' | 'PUT', path: string, tk: string, body?: object) => {
    const res = await rt(method, path, tk, body)
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200)
    expect(res.body, `${method} ${path}`).not.toMatch(RAW)
    return res
  }
  const emails = (where?: object[]) => ({
    name: 'Emails',
    chart: { type: 'table' },
    query: {
      from: `${wh.schema}.contacts`,
      dimensions: [
        { name: 'id', column: 'id' },
        { name: 'email', column: 'email' },
      ],
      orderBy: [{ name: 'id', direction: 'asc' }],
      ...(where ? { where } : {}),
    },
  })
  /** acme's contacts as the masked column holds them. */
  const masked = async () =>
    (
      await wh.query<{ id: number; email: string }>(
        `select id, email_masked email from ${wh.schema}.contacts where tenant = 'acme' order by id`,
      )
    ).map((r) => ({ id: Number(r.id), email: r.email }))
  const rows = (body: { data: { id: unknown; email: unknown }[] }) =>
    body.data.map((r) => ({ id: Number(r.id), email: r.email }))

  it('answers only the masked column in the model, preview, saved metric, download, underlying rows, AI pilot and reports', async () => {
    await setUp()
    const acme = await token()
    const want = await masked()
    expect(want.length).toBeGreaterThan(0)

    const model = (await ok('GET', '/model', acme)).json().data
    const contacts = model.tables.find((t: { name: string }) => t.name === `${wh.schema}.contacts`)
    expect(contacts.columns).toEqual([
      { name: 'id', label: 'id', dataType: 'integer' },
      { name: 'email', label: 'Email', dataType: 'string' },
    ])

    expect(rows((await ok('POST', '/preview', acme, { metric: emails() })).json())).toEqual(want)
    // a condition on "email" is on the masked column too: the raw address matches nothing
    const onRaw = [{ column: 'email', operator: 'contains', values: ['secret'] }]
    expect((await ok('POST', '/preview', acme, { metric: emails(onRaw) })).json().data).toEqual([])

    const metricId = (await ok('POST', '/metrics', acme, { metric: emails() })).json().data.metricId as string
    expect(rows((await ok('POST', '/query', acme, { metricId })).json())).toEqual(want)
    // the builder gets the definition back under the names the model shows
    const load = (await ok('GET', '', acme)).json()
    const listed = load.metrics.find((m: { metricId: string }) => m.metricId === metricId)
    expect(listed.definition.query.dimensions).toEqual([
      { name: 'id', column: 'id' },
      { name: 'email', column: 'email' },
    ])
    await ok('PUT', `/metrics/${metricId}`, acme, { metric: emails(onRaw) })
    expect((await ok('POST', '/query', acme, { metricId })).json().data).toEqual([])
    await ok('PUT', `/metrics/${metricId}`, acme, { metric: emails() })
    expect(rows((await ok('POST', '/query', acme, { metricId })).json())).toEqual(want)

    const csv = (await ok('GET', `/metrics/${metricId}/download`, acme)).body
    expect(csv.split('\r\n').slice(1, 3)).toEqual(want.slice(0, 2).map((r) => `${r.id},${r.email}`))
    const underlying = (await ok('POST', '/underlying', acme, { metricId })).json()
    expect(underlying.data.map((r: { email_masked: unknown }) => r.email_masked)).toEqual(want.map((r) => r.email))

    // the AI pilot: its metric is checked and answered as the builder's, its summary reads masked rows
    standIn.script({
      toolCall: { name: 'create_metric', arguments: { metric: emails(), explanation: 'Every contact.' } },
    })
    const ai = (await ok('POST', '/ai/metric', acme, { question: 'Who are my contacts?' })).json().data
    expect(ai.metric.query.dimensions[1]).toEqual({ name: 'email', column: 'email' })
    expect(rows((await ok('POST', '/preview', acme, { metric: ai.metric })).json())).toEqual(want)
    const before = standIn.requests.length
    standIn.script({ text: 'Twelve contacts.' })
    await ok('POST', '/ai/summary', acme, { metricId })
    const sent = JSON.stringify(standIn.requests.slice(before).map((r) => r.body))
    expect(sent).toContain(want[0]?.email)
    expect(sent).not.toMatch(RAW)

    // an email report of the saved metric attaches the masked column
    const reportId = (
      await ok('POST', '/reports', acme, {
        name: 'Emails',
        metricIds: [metricId],
        format: 'csv',
        schedule: { frequency: 'daily', time: '07:00' },
        recipients: ['ops@example.com'],
      })
    ).json().data.reportId as string
    const mails = smtp.received.length
    await ok('POST', `/reports/${reportId}/send`, acme)
    const [mail] = (await smtp.waitFor(mails + 1)).slice(mails)
    const attached = mail?.mail.attachments.map((x) => x.content.toString('utf8')).join('\n') ?? ''
    expect(attached).toContain(want[0]?.email)
    expect(attached).not.toMatch(RAW)
  })

  it('refuses a metric saved on a column the datamart hides since, rather than reading the column now aliased with its name', async () => {
    await setUp()
    const acme = await token()
    const kept = (await ok('POST', '/metrics', acme, { metric: emails() })).json().data.metricId as string
    // the company shows the raw column for a while: a metric saved then names it
    await a.ok('PUT', '/api/v2/data-app/datamarts', a.serviceToken, {
      datamartName: 'people',
      tableList: tableList(false),
    })
    const raw = await rt('POST', '/metrics', acme, { metric: emails() })
    expect(raw.statusCode, raw.body).toBe(200)
    const rawId = raw.json().data.metricId as string
    const shown = await rt('POST', '/query', acme, { metricId: rawId })
    expect(shown.statusCode, shown.body).toBe(200)
    expect(shown.body).toMatch(RAW)
    // then hides it again, and aliases the masked column with its name
    await a.ok('PUT', '/api/v2/data-app/datamarts', a.serviceToken, {
      datamartName: 'people',
      tableList: tableList(true),
    })
    const refused = await rt('POST', '/query', acme, { metricId: rawId })
    expect(refused.statusCode, refused.body).toBe(400)
    expect(refused.json().error.message).toMatch(
      /no column "email" in .*contacts that end users may see \(it was hidden after metric/,
    )
    expect(refused.body).not.toMatch(RAW)
    for (const path of [`/metrics/${rawId}/download`]) {
      const res = await rt('GET', path, acme)
      expect(res.statusCode, res.body).toBe(400)
    }
    // the builder is offered no definition of it; the metric saved on the masked column runs as before
    const load = (await ok('GET', '', acme)).json()
    expect(load.metrics.find((m: { metricId: string }) => m.metricId === rawId).definition).toBeUndefined()
    expect(rows((await ok('POST', '/query', acme, { metricId: kept })).json())).toEqual(await masked())
  })
})
