/**
 * Email reports (docs/operations.md#email-reports-smtp) against a real SMTP server on loopback (helpers/smtp.ts): what a report sends
 * (recipients, subject, a CSV attachment holding exactly its tenant's numbers, computed here
 * in SQL on the warehouse), the scheduler's pass (a due report goes out once and moves to its
 * next run), retries with backoff visible in the status, and a report stopping when the key
 * that minted its token is revoked or disappearing with its embed.
 */
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { storeKinds } from '../helpers/app.js'
import { requireService } from '../helpers/services.js'
import { startSmtp } from '../helpers/smtp.js'
import { useAnalytics } from '../helpers/suite.js'

const hasPg = await requireService('PostgreSQL', '127.0.0.1', 5432)
const smtp = await startSmtp()
afterAll(() => smtp.close())

interface Status {
  state: string
  lastSentAt: string | null
  lastError: string | null
  attempts: number
}
interface ReportView {
  reportId: string
  nextRunAt: string
  status: Status
}

const BODY = {
  name: 'Revenue by country',
  metricIds: ['revenue_by_country'],
  format: 'csv',
  schedule: { frequency: 'daily', time: '07:00' },
}

/** RFC 4180 rows of the attachments this file's reports send (no quoted cells in them). */
const rowsOf = (csv: string) =>
  csv
    .trim()
    .split('\r\n')
    .map((line) => line.split(','))

describe.skipIf(!hasPg).each(storeKinds)('email reports over SMTP on %s', (store) => {
  const { wh, t, a } = useAnalytics(store, {
    app: 'suite',
    // the test drives the scheduler's passes itself
    env: {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Strata Reports <reports@example.com>',
      REPORT_POLL_INTERVAL_MS: '3600000',
      REPORT_RETRY_BASE_MS: '60000',
    },
  })
  afterEach(() => {
    smtp.refuse = false
  })

  const services = () => (t.app as FastifyInstance).services
  const mint = async (clientId: string, key = a.dataAppKey) =>
    (
      await a.ok('POST', '/api/v2/guest-token/create', key, {
        dataAppName: 'salesapp',
        clientId,
        params: { timezone: 'Europe/Paris', reportRecipients: ['@example.com'] },
      })
    ).token as string
  const create = async (token: string, body: object) =>
    (await a.ok('POST', `/api/v2/embed/runtime/${a.embedId}/reports`, token, body)).data.reportId as string
  const listed = async (token: string, reportId: string) => {
    const res = await a.call('GET', `/api/v2/embed/runtime/${a.embedId}/reports`, token)
    return (res.json() as { data: ReportView[] }).data.find((r) => r.reportId === reportId)
  }
  /** Makes the report due now (as if its time had come) and returns its row's next_run_at. */
  const makeDue = async (reportId: string, at: Date) => {
    await services()
      .store.db.updateTable('email_reports')
      .set({ next_run_at: new Date(at.getTime() - 1000).toISOString() })
      .where('report_id', '=', reportId)
      .execute()
  }
  const expected = async (tenant: string) =>
    wh.query<{ country: string; revenue: string; orders: string }>(
      `select c.country, sum(o.amount) as revenue, count(*) as orders
         from ${wh.schema}.orders o join ${wh.schema}.customers c on c.id = o.customer_id
        where o.tenant = $1 and c.tenant = $1 group by c.country order by c.country`,
      [tenant],
    )

  it("sends each tenant exactly its own numbers, to the report's recipients", async () => {
    await a.ok('PUT', '/api/v2/data-app/embeds', a.dataAppKey, {
      embedId: a.embedId,
      accessSettings: { isAllowEmailReports: true },
    })
    const tenants = ['acme', 'globex'] as const
    for (const tenant of tenants) {
      const token = await mint(tenant)
      const reportId = await create(token, { ...BODY, recipients: [`${tenant}-ops@example.com`, 'cfo@example.com'] })
      const before = smtp.received.length
      await a.ok('POST', `/api/v2/embed/runtime/${a.embedId}/reports/${reportId}/send`, token)
      const [received] = (await smtp.waitFor(before + 1)).slice(before)
      expect(received!.rcptTo.sort()).toEqual([`${tenant}-ops@example.com`, 'cfo@example.com'].sort())
      expect(received!.mail.subject).toBe('Revenue by country — Sales overview')
      expect(received!.mail.from?.value[0]?.address).toBe('reports@example.com')
      const [attachment, ...more] = received!.mail.attachments
      expect(more).toEqual([])
      expect(attachment!.filename).toBe('revenue_by_country.csv')
      expect(attachment!.contentType).toBe('text/csv')
      const [header, ...rows] = rowsOf(attachment!.content.toString('utf8'))
      expect(header).toEqual(['Country', 'Revenue (USD)', 'Orders'])
      const truth = await expected(tenant)
      expect(truth.length).toBeGreaterThan(0)
      expect(rows.map(([country, revenue, orders]) => [country, Number(revenue), Number(orders)])).toEqual(
        truth.map((r) => [r.country, Number(r.revenue), Number(r.orders)]),
      )
    }
  })

  it('sends png and pdf reports as the rendered charts (one PNG per metric, one PDF of the whole report)', async () => {
    await a.ok('PUT', '/api/v2/data-app/embeds', a.dataAppKey, {
      embedId: a.embedId,
      accessSettings: { isAllowEmailReports: true },
    })
    const token = await mint('acme')
    for (const [format, contentType, magic] of [
      ['png', 'image/png', '\x89PNG'],
      ['pdf', 'application/pdf', '%PDF-'],
    ] as const) {
      const reportId = await create(token, { ...BODY, format, recipients: ['ops@example.com'] })
      const before = smtp.received.length
      await a.ok('POST', `/api/v2/embed/runtime/${a.embedId}/reports/${reportId}/send`, token)
      const [received] = (await smtp.waitFor(before + 1)).slice(before)
      const [attachment, ...more] = received!.mail.attachments
      expect(more, format).toEqual([])
      expect(attachment!.contentType, format).toBe(contentType)
      expect(attachment!.filename, format).toMatch(new RegExp(`\\.${format}$`))
      expect(attachment!.content.subarray(0, magic.length).toString('latin1'), format).toBe(magic)
      expect(attachment!.content.length, format).toBeGreaterThan(2_000)
    }
  })

  it('a due report goes out once, then waits for its next run (the schedule, in the token zone)', async () => {
    const token = await mint('initech')
    const reportId = await create(token, { ...BODY, recipients: ['initech@example.com'] })
    const now = new Date()
    await makeDue(reportId, now)
    const before = smtp.received.length
    const scheduler = services().reportScheduler!
    expect(await scheduler.tick(now)).toContain(reportId)
    await smtp.waitFor(before + 1)
    // the same moment again: nothing is due any more
    expect(await scheduler.tick(now)).not.toContain(reportId)
    expect(smtp.received.slice(before).map((m) => m.rcptTo)).toEqual([['initech@example.com']])
    const report = await listed(token, reportId)
    expect(report!.status).toEqual({ state: 'scheduled', lastSentAt: now.toISOString(), lastError: null, attempts: 0 })
    // 07:00 in Paris: 05:00 or 06:00 UTC, within the next day
    const next = new Date(report!.nextRunAt)
    expect(next.getTime()).toBeGreaterThan(now.getTime())
    expect(next.getTime() - now.getTime()).toBeLessThanOrEqual(86_400_000)
    expect([5, 6]).toContain(next.getUTCHours())
    expect(next.getUTCMinutes()).toBe(0)
  })

  it('a refused send is retried with exponential backoff, visible in the status, and succeeds later', async () => {
    const token = await mint('acme')
    const reportId = await create(token, { ...BODY, recipients: ['retry@example.com'] })
    const scheduler = services().reportScheduler!
    smtp.refuse = true
    let now = new Date()
    await makeDue(reportId, now)
    const delays: number[] = []
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await scheduler.tick(now)).toContain(reportId)
      const report = await listed(token, reportId)
      expect(report!.status).toMatchObject({ state: 'retrying', attempts: attempt, lastSentAt: null })
      expect(report!.status.lastError).toMatch(/Mailbox temporarily unavailable|451/)
      const retryAt = new Date(report!.nextRunAt)
      delays.push(retryAt.getTime() - now.getTime())
      // not due before its backoff has passed
      expect(await scheduler.tick(new Date(retryAt.getTime() - 1000))).not.toContain(reportId)
      now = retryAt
    }
    expect(delays).toEqual([60_000, 120_000, 240_000])
    // send-now while the server refuses: 502, and the status says why
    const res = await a.call('POST', `/api/v2/embed/runtime/${a.embedId}/reports/${reportId}/send`, token)
    expect([res.statusCode, (res.json() as { error: { code: string } }).error.code]).toEqual([502, 'EMAIL_SEND_FAILED'])
    smtp.refuse = false
    const before = smtp.received.length
    expect(await scheduler.tick(now)).toContain(reportId)
    await smtp.waitFor(before + 1)
    const report = await listed(token, reportId)
    expect(report!.status).toEqual({ state: 'scheduled', lastSentAt: now.toISOString(), lastError: null, attempts: 0 })
  })

  it('gives up after 5 attempts and waits for the next scheduled time', async () => {
    const token = await mint('globex')
    const reportId = await create(token, { ...BODY, recipients: ['giveup@example.com'] })
    const scheduler = services().reportScheduler!
    smtp.refuse = true
    let now = new Date()
    await makeDue(reportId, now)
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await scheduler.tick(now)).toContain(reportId)
      now = new Date((await listed(token, reportId))!.nextRunAt)
    }
    const report = await listed(token, reportId)
    expect(report!.status).toMatchObject({ state: 'scheduled', attempts: 0 })
    expect(report!.status.lastError).toMatch(/gave up after 5 attempts/)
    expect([5, 6]).toContain(new Date(report!.nextRunAt).getUTCHours())
  })

  it("stops when the key that minted the report's token is revoked; the embed's deletion removes it", async () => {
    const created = await a.ok('POST', '/api/v2/data-app/api-tokens', a.serviceToken, {
      dataAppName: 'salesapp',
      name: 'reports',
    })
    const secret = created.key as string
    const keyId = secret.split('_').slice(0, 2).join('_')
    const token = await mint('acme', secret)
    const reportId = await create(token, { ...BODY, recipients: ['revoked@example.com'] })
    await a.ok('DELETE', `/api/v2/data-app/api-tokens?dataAppName=salesapp&key=${keyId}`, a.serviceToken)
    const now = new Date()
    await makeDue(reportId, now)
    const before = smtp.received.length
    expect(await services().reportScheduler!.tick(now)).toContain(reportId)
    const stopped = (await a.ok('GET', '/api/v2/data-app/reports?clientId=acme', a.dataAppKey)).data.find(
      (r: ReportView) => r.reportId === reportId,
    ) as ReportView
    expect(stopped.status.state).toBe('stopped')
    expect(stopped.status.lastError).toMatch(/revoked/)
    // a stopped report is never due again
    expect(await services().reportScheduler!.tick(new Date(now.getTime() + 86_400_000 * 3))).not.toContain(reportId)
    expect(smtp.received.slice(before).flatMap((m) => m.rcptTo)).not.toContain('revoked@example.com')

    // deleting the embed deletes its reports
    expect((await a.ok('GET', '/api/v2/data-app/reports', a.dataAppKey)).data.length).toBeGreaterThan(0)
    await a.ok('DELETE', `/api/v2/data-app/embeds?embedId=${a.embedId}`, a.dataAppKey)
    expect((await a.ok('GET', '/api/v2/data-app/reports', a.dataAppKey)).data).toEqual([])
  })
})

describe.skipIf(!hasPg)('EMAIL_RATE_LIMIT on report sends', () => {
  const { a } = useAnalytics('sqlite', {
    app: 'suite',
    env: {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'reports@example.com',
      REPORT_POLL_INTERVAL_MS: '3600000',
      EMAIL_RATE_LIMIT: '5',
    },
  })

  // Regression (issue 24, item 5): the limit counted messages, so one send to 50 recipients
  // cost one. It counts deliveries now: a send takes one per recipient, or is refused whole.
  it('counts deliveries (recipients) per client: a send over what is left is 429 and sends nothing', async () => {
    await a.ok('PUT', '/api/v2/data-app/embeds', a.dataAppKey, {
      embedId: a.embedId,
      accessSettings: { isAllowEmailReports: true },
    })
    const send = async (clientId: string, count: number) => {
      const { token } = await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, {
        dataAppName: 'salesapp',
        clientId,
        params: { reportRecipients: ['@example.com'] },
      })
      const recipients = Array.from({ length: count }, (_, i) => `${clientId}-${i}@example.com`)
      const reportId = (
        await a.ok('POST', `/api/v2/embed/runtime/${a.embedId}/reports`, token, { ...BODY, recipients })
      ).data.reportId as string
      const before = smtp.received.length
      const res = await a.call('POST', `/api/v2/embed/runtime/${a.embedId}/reports/${reportId}/send`, token)
      if (res.statusCode === 200) await smtp.waitFor(before + 1)
      return { res, sent: smtp.received.length - before }
    }
    const refused = (res: Awaited<ReturnType<typeof send>>['res'], left: number, recipients: number) => {
      const error = (res.json() as { error: { code: string; message: string } }).error
      expect([res.statusCode, error.code]).toEqual([429, 'RATE_LIMIT_EXCEEDED'])
      expect(error.message).toMatch(
        new RegExp(
          `^EMAIL_RATE_LIMIT: .*5 emails \\(one per recipient\\).* ${left} left; this report has ${recipients} recipients`,
        ),
      )
    }
    expect((await send('acme', 3)).res.statusCode).toBe(200)
    // 3 + 3 > 5: refused before anything is sent, and it used none of what is left
    const over = await send('acme', 3)
    refused(over.res, 2, 3)
    expect(over.sent).toBe(0)
    expect((await send('acme', 2)).res.statusCode).toBe(200)
    refused((await send('acme', 1)).res, 0, 1)
    // another client has its own count
    expect((await send('globex', 5)).res.statusCode).toBe(200)
  })
})
