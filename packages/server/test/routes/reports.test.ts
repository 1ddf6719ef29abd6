/**
 * docs/runtime-api.md#email-reports: scheduled email reports. The runtime routes (POST/GET /reports, DELETE
 * /reports/:reportId, POST /reports/:reportId/send; capability emailReports =
 * accessSettings.isAllowEmailReports) and the data app's GET/DELETE /api/v2/data-app/reports:
 * success, permission refusals, validation, another tenant's report, and 400
 * EMAIL_NOT_CONFIGURED without SMTP_URL/EMAIL_FROM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ACCESS } from '../helpers/analytics.js'
import { storeKinds } from '../helpers/app.js'
import { expectError } from '../helpers/expect-error.js'
import { requireService } from '../helpers/services.js'
import { startSmtp } from '../helpers/smtp.js'
import { type AnalyticsSuite, useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const smtp = await startSmtp()
afterAll(() => smtp.close())

interface ReportView {
  reportId: string
  embedId: string
  name: string
  format: string
  recipients: string[]
  clientId: string
  userIdentifier: string | null
  nextRunAt: string
  timezone: string
  status: { state: string; lastSentAt: string | null; lastError: string | null; attempts: number }
}

const BODY = {
  name: 'Weekly revenue',
  metricIds: ['revenue_by_country'],
  format: 'csv',
  schedule: { frequency: 'weekly', time: '08:00', dayOfWeek: 1 },
  recipients: ['Ops@Example.com'],
}

function helpers(a: AnalyticsSuite['a']) {
  const mint = async (clientId: string, params: object = {}) =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        params: { reportRecipients: ['@example.com'], ...params },
      })
    ).token as string
  const rt = (method: 'GET' | 'POST' | 'DELETE', path: string, token: string, body?: object, embedId = a.embedId) =>
    a.call(method, `/api/v2/embed/runtime/${embedId}${path}`, token, body)
  const create = async (token: string, body: object = BODY) => {
    const res = await rt('POST', '/reports', token, body)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { data: { reportId: string } }).data.reportId
  }
  const list = async (token: string) => {
    const res = await rt('GET', '/reports', token)
    expect(res.statusCode, res.body).toBe(200)
    return (res.json() as { data: ReportView[] }).data
  }
  const setAccess = (accessSettings: object) =>
    a.ok('PUT', '/api/v2/data-app/embeds', a.dataAppKey, { embedId: a.embedId, accessSettings })
  return { mint, rt, create, list, setAccess }
}

describe.skipIf(!hasPg).each(storeKinds)('email report routes on %s', (store) => {
  const { t, a } = useAnalytics(store, {
    app: 'suite',
    env: { SMTP_URL: smtp.url, EMAIL_FROM: 'Strata <reports@example.com>', REPORT_POLL_INTERVAL_MS: '3600000' },
  })

  it('are refused (403 INSUFFICIENT_PERMISSIONS) on an embed without isAllowEmailReports', async () => {
    const { mint, rt, setAccess } = helpers(a)
    await setAccess({ isAllowEmailReports: false })
    const token = await mint('acme')
    for (const [method, path, body] of [
      ['POST', '/reports', BODY],
      ['GET', '/reports', undefined],
      ['DELETE', '/reports/r_whatever', undefined],
      ['POST', '/reports/r_whatever/send', undefined],
    ] as const) {
      expectError(await rt(method, path, token, body), 403, 'INSUFFICIENT_PERMISSIONS', /Email reports/)
    }
    await setAccess({ isAllowEmailReports: true })
  })

  it("the load's reports.available follows the emailReports permission when SMTP is configured", async () => {
    const { mint, setAccess } = helpers(a)
    const available = async () => {
      const load = await a.ok('GET', `/api/v2/embed/runtime/${a.embedId}`, await mint('acme'))
      return { permission: load.permissions.emailReports, reports: load.reports }
    }
    await setAccess({ isAllowEmailReports: false })
    expect(await available()).toEqual({ permission: false, reports: { available: false, recipients: [] } })
    await setAccess({ isAllowEmailReports: true })
    expect(await available()).toEqual({ permission: true, reports: { available: true, recipients: ['@example.com'] } })
  })

  it('creates, lists (own key only, no sealed claims), sends now and deletes a report', async () => {
    const { mint, rt, create, list } = helpers(a)
    const acme = await mint('acme', { timezone: 'Europe/Paris', userIdentifier: 'ann' })
    const reportId = await create(acme)
    expect(reportId).toMatch(/^r_/)
    const [report, ...rest] = await list(acme)
    expect(rest).toEqual([])
    expect(report).toMatchObject({
      reportId,
      embedId: a.embedId,
      name: 'Weekly revenue',
      format: 'csv',
      recipients: ['ops@example.com'],
      clientId: 'acme',
      userIdentifier: 'ann',
      timezone: 'Europe/Paris',
      status: { state: 'scheduled', lastSentAt: null, lastError: null, attempts: 0 },
    })
    // next Monday 08:00 in Paris: a Monday, in the future, at 07:00 or 06:00 UTC
    const next = new Date(report!.nextRunAt)
    expect(next.getTime()).toBeGreaterThan(Date.now())
    expect(next.getUTCDay()).toBe(1)
    expect([6, 7]).toContain(next.getUTCHours())
    expect(JSON.stringify(report)).not.toMatch(/claims|lease|token/i)

    const before = smtp.received.length
    const sent = await rt('POST', `/reports/${reportId}/send`, acme)
    expect(sent.statusCode, sent.body).toBe(200)
    expect(sent.json()).toMatchObject({ data: { reportId, recipients: ['ops@example.com'] }, error: null })
    const [mail] = (await smtp.waitFor(before + 1)).slice(before)
    expect(mail!.rcptTo).toEqual(['ops@example.com'])
    expect(mail!.mail.subject).toBe('Weekly revenue — Sales overview')
    expect(mail!.mail.attachments.map((x) => x.filename)).toEqual(['revenue_by_country.csv'])
    const [after] = await list(acme)
    expect(after!.status.lastSentAt).toBe((sent.json() as { data: { sentAt: string } }).data.sentAt)
    // the schedule is unchanged by a send-now
    expect(after!.nextRunAt).toBe(report!.nextRunAt)

    // the tenant without the user, another user and another tenant see none of it
    for (const other of [await mint('acme'), await mint('acme', { userIdentifier: 'bob' }), await mint('globex')]) {
      expect(await list(other)).toEqual([])
      expectError(await rt('DELETE', `/reports/${reportId}`, other), 400, 'EMBED_PARAM_ERROR', /not in embed/)
      expectError(await rt('POST', `/reports/${reportId}/send`, other), 400, 'EMBED_PARAM_ERROR')
    }
    expect(smtp.received.length).toBe(before + 1)

    const deleted = await rt('DELETE', `/reports/${reportId}`, acme)
    expect(deleted.statusCode, deleted.body).toBe(200)
    expect(deleted.json()).toEqual({ data: { reportId }, error: null })
    expect(await list(acme)).toEqual([])
    expectError(await rt('DELETE', `/reports/${reportId}`, acme), 400, 'EMBED_PARAM_ERROR')
    expectError(await rt('POST', `/reports/${reportId}/send`, acme), 400, 'EMBED_PARAM_ERROR')
  })

  it.each([
    [{ ...BODY, schedule: { frequency: 'daily', time: '8:00' } }, 'INVALID_REQUEST_BODY', /time/],
    [{ ...BODY, schedule: { frequency: 'daily', time: '24:00' } }, 'INVALID_REQUEST_BODY', /time/],
    [{ ...BODY, schedule: { frequency: 'hourly', time: '08:00' } }, 'INVALID_REQUEST_BODY', /frequency/],
    [{ ...BODY, schedule: { frequency: 'daily', time: '08:00', dayOfWeek: 2 } }, 'INVALID_REQUEST_BODY', /dayOfWeek/],
    [
      { ...BODY, schedule: { frequency: 'monthly', time: '08:00', dayOfMonth: 32 } },
      'INVALID_REQUEST_BODY',
      /dayOfMonth/,
    ],
    [{ ...BODY, recipients: ['not-an-address'] }, 'INVALID_REQUEST_BODY', /recipients/],
    [{ ...BODY, recipients: [] }, 'INVALID_REQUEST_BODY', /recipients/],
    [{ ...BODY, format: 'xlsx' }, 'INVALID_REQUEST_BODY', /format/],
    [{ ...BODY, name: '   ' }, 'INVALID_REQUEST_BODY', /name/],
    [{ ...BODY, sql: 'select 1' }, 'INVALID_REQUEST_BODY', /sql/],
    [{ ...BODY, metricIds: ['nope'] }, 'EMBED_PARAM_ERROR', /nope/],
    [{ ...BODY, dashboardFilter: { nope: ['x'] } }, 'INVALID_REQUEST_BODY', /nope/],
  ])('refuses %j with 400 %s', async (body, code, message) => {
    const { mint, rt } = helpers(a)
    expectError(await rt('POST', '/reports', await mint('acme'), body), 400, code, message)
  })

  // Regression (issue 24, item 5): a guest token with the reports capability sent 50 messages to
  // 50 external recipients each, an attacker's subject and all: reports were a mail relay. Only
  // params.reportRecipients (else the token's own userIdentifier address) may receive them.
  it('sends only to the recipients the token allows: its reportRecipients, else its own address', async () => {
    const { rt, create } = helpers(a)
    const mint = async (clientId: string, params: object) =>
      (await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId, params }))
        .token as string
    const to = (...recipients: string[]) => ({ ...BODY, recipients })
    const refused = (address: string) => new RegExp(`^recipients: ${address.replace(/[.]/g, '\\.')} is not allowed`)

    // no reportRecipients, a userIdentifier that is no address: no one
    const nobody = await mint('acme', { userIdentifier: 'user-42' })
    expectError(await rt('POST', '/reports', nobody, to('ops@example.com')), 400, 'INVALID_REQUEST_BODY', /to no one/)
    // no reportRecipients, an address as userIdentifier: that address only
    const ann = await mint('acme', { userIdentifier: 'Ann@Acme.com' })
    expect(await create(ann, to('ann@acme.com'))).toMatch(/^r_/)
    expectError(
      await rt('POST', '/reports', ann, to('ann@acme.com', 'victim@elsewhere.org')),
      400,
      'INVALID_REQUEST_BODY',
      refused('victim@elsewhere.org'),
    )
    // reportRecipients: those addresses, and every address of exactly an @domain
    const listed = await mint('acme', { reportRecipients: ['Boss@Globex.com', '@acme.com'], userIdentifier: 'a@b.co' })
    expect(await create(listed, to('boss@globex.com', 'Team@ACME.com', 'x@acme.com'))).toMatch(/^r_/)
    for (const address of ['a@b.co', 'x@eu.acme.com', 'x@notacme.com', 'other@globex.com']) {
      const res = await rt('POST', '/reports', listed, to('x@acme.com', address))
      expectError(res, 400, 'INVALID_REQUEST_BODY', refused(address))
      expect(res.json().error.message).toContain('it may send reports to boss@globex.com, @acme.com')
    }
    // the load says who, for the dialog
    const load = await a.ok('GET', `/api/v2/embed/runtime/${a.embedId}`, listed)
    expect(load.reports).toEqual({ available: true, recipients: ['boss@globex.com', '@acme.com'] })
    await t.app.services.store.db.deleteFrom('email_reports').execute()
  })

  it('refuses a report saved before the policy, on send-now and on its schedule: nothing is sent', async () => {
    const { mint, rt, create, list } = helpers(a)
    const token = await mint('acme', { userIdentifier: 'ann' })
    const reportId = await create(token)
    // as if saved before recipients were checked: its sealed claims allow @example.com only
    const db = t.app.services.store.db
    const row = await db
      .selectFrom('email_reports')
      .select('definition')
      .where('report_id', '=', reportId)
      .executeTakeFirstOrThrow()
    const definition = { ...JSON.parse(row.definition), recipients: ['ops@example.com', 'victim@elsewhere.org'] }
    await db
      .updateTable('email_reports')
      .set({ definition: JSON.stringify(definition) })
      .where('report_id', '=', reportId)
      .execute()
    const before = smtp.received.length
    expectError(
      await rt('POST', `/reports/${reportId}/send`, token),
      400,
      'INVALID_REQUEST_BODY',
      /^recipients: victim@elsewhere\.org is not allowed/,
    )
    const due = new Date()
    await db
      .updateTable('email_reports')
      .set({ next_run_at: new Date(due.getTime() - 1000).toISOString() })
      .where('report_id', '=', reportId)
      .execute()
    expect(await t.app.services.reportScheduler?.tick(due)).toContain(reportId)
    const [stopped] = (await list(token)).filter((r) => r.reportId === reportId)
    expect(stopped?.status.state).toBe('stopped')
    expect(stopped?.status.lastError).toMatch(/victim@elsewhere\.org is not allowed/)
    await new Promise((r) => setTimeout(r, 200))
    expect(smtp.received.length).toBe(before)
    await db.deleteFrom('email_reports').execute()
  })

  it('mint refuses a reportRecipients entry that is neither an address nor an @domain, or over 100 of them', async () => {
    const mint = (params: object) =>
      a.call('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId: 'acme', params })
    for (const entry of ['acme.com', '@acme', 'a b@acme.com', '@.com', 'ann@@acme.com']) {
      expectError(
        await mint({ reportRecipients: ['ok@acme.com', entry] }),
        400,
        'INVALID_REQUEST_BODY',
        /^params\.reportRecipients\[1\] must be an e-mail address \(ann@example\.com\) or @domain/,
      )
    }
    const many = Array.from({ length: 101 }, (_, i) => `u${i}@acme.com`)
    expectError(
      await mint({ reportRecipients: many }),
      400,
      'INVALID_REQUEST_BODY',
      /reportRecipients must have at most 100/,
    )
    expect((await mint({ reportRecipients: many.slice(1) })).statusCode).toBe(200)
  })

  it('refuses an id outside allowedEmbeds with 403 UNAUTHORIZED', async () => {
    const { mint, rt } = helpers(a)
    const other = await a.ok('POST', '/api/v2/data-app/embeds', a.dataAppKey, {
      dashboardId: 'sales-overview',
      embedType: 'dashboard',
      workspaceName: 'main',
      name: 'Other',
      accessSettings: { ...ACCESS, isAllowEmailReports: true },
    })
    const elsewhere = await mint('acme', { allowedEmbeds: [other.id] })
    expectError(await rt('POST', '/reports', elsewhere, BODY), 403, 'UNAUTHORIZED')
    expectError(await rt('GET', '/reports', elsewhere), 403, 'UNAUTHORIZED')
    expectError(await rt('POST', '/reports/r_x/send', elsewhere), 403, 'UNAUTHORIZED')
    await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${other.id}`, a.dataAppKey)
  })

  it('the data app lists every tenant’s reports with its key and deletes by ?reportId=', async () => {
    const { mint, create } = helpers(a)
    const acme = await create(await mint('acme'), { ...BODY, name: 'acme report' })
    const globex = await create(await mint('globex'), { ...BODY, name: 'globex report' })
    const listed = async (query = '') => {
      const res = await a.call('GET', `/api/v2/data-app/reports${query}`, a.dataAppKey)
      expect(res.statusCode, res.body).toBe(200)
      return (res.json() as { data: ReportView[] }).data.map((r) => [r.reportId, r.clientId])
    }
    expect(await listed()).toEqual([
      [acme, 'acme'],
      [globex, 'globex'],
    ])
    expect(await listed('?clientId=globex')).toEqual([[globex, 'globex']])
    expect(await listed(`?embedId=${a.embedId}`)).toHaveLength(2)
    expect(await listed('?embedId=other')).toEqual([])
    expectError(await a.call('GET', '/api/v2/data-app/reports?bogus=1', a.dataAppKey), 400, 'INVALID_REQUEST_BODY')
    expectError(await a.call('GET', '/api/v2/data-app/reports', 'sk_wrong'), 401, 'INVALID_DATA_APP_API_KEY')
    expectError(await a.call('GET', '/api/v2/data-app/reports', a.serviceToken), 401, 'INVALID_DATA_APP_API_KEY')
    // a guest token is not the data app's key
    expectError(await a.call('GET', '/api/v2/data-app/reports', await mint('acme')), 401, 'INVALID_DATA_APP_API_KEY')

    // another data app of the organization sees none of them and deletes none
    const other = (await a.ok('POST', '/api/v2/data-app', a.serviceToken, { name: 'otherapp' })).key as string
    const foreign = await a.call('GET', '/api/v2/data-app/reports', other)
    expect(foreign.json()).toEqual({ data: [] })
    expectError(await a.call('DELETE', `/api/v2/data-app/reports?reportId=${acme}`, other), 400, 'INVALID_REQUEST_BODY')
    expect(await listed()).toHaveLength(2)

    const del = await a.call('DELETE', `/api/v2/data-app/reports?reportId=${acme}`, a.dataAppKey)
    expect(del.statusCode, del.body).toBe(200)
    expect(del.json()).toEqual({ data: { reportId: acme }, error: null })
    expect(await listed()).toEqual([[globex, 'globex']])
    expectError(
      await a.call('DELETE', `/api/v2/data-app/reports?reportId=${acme}`, a.dataAppKey),
      400,
      'INVALID_REQUEST_BODY',
      /no report/,
    )
    expectError(await a.call('DELETE', '/api/v2/data-app/reports', a.dataAppKey), 400, 'INVALID_REQUEST_BODY')
    await a.ok('DELETE', `/api/v2/data-app/reports?reportId=${globex}`, a.dataAppKey)
  })
})

describe.skipIf(!hasPg)('email report routes without SMTP_URL and EMAIL_FROM', () => {
  const { a } = useAnalytics('sqlite', { app: 'suite' })

  beforeAll(async () => {
    await helpers(a).setAccess({ isAllowEmailReports: true })
  })

  it("the load's reports.available is false though the embed allows email reports", async () => {
    const load = await a.ok('GET', `/api/v2/embed/runtime/${a.embedId}`, await helpers(a).mint('acme'))
    expect(load.permissions.emailReports).toBe(true)
    expect(load.reports).toEqual({ available: false, recipients: [] })
  })

  it('answer 400 EMAIL_NOT_CONFIGURED on every route', async () => {
    const { mint, rt } = helpers(a)
    const token = await mint('acme')
    for (const [method, path, body] of [
      ['POST', '/reports', BODY],
      ['GET', '/reports', undefined],
      ['DELETE', '/reports/r_x', undefined],
      ['POST', '/reports/r_x/send', undefined],
    ] as const) {
      expectError(await rt(method, path, token, body), 400, 'EMAIL_NOT_CONFIGURED', /SMTP_URL/)
    }
    expectError(await a.call('GET', '/api/v2/data-app/reports', a.dataAppKey), 400, 'EMAIL_NOT_CONFIGURED')
    expectError(
      await a.call('DELETE', '/api/v2/data-app/reports?reportId=r_x', a.dataAppKey),
      400,
      'EMAIL_NOT_CONFIGURED',
    )
  })
})
