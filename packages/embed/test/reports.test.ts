import { describe, expect, it } from 'vitest'
import { canReport, wantsSelfServe } from '../src/self-serve/permissions.js'
import { draftProblems, emptyDraft, reportBody } from '../src/self-serve/reports/report-draft.js'
import {
  allowedInWords,
  filterValueInWords,
  ordinal,
  recipientsProblem,
  reportErrorInWords,
  scheduleInWords,
  splitRecipients,
  statusInWords,
} from '../src/self-serve/reports/report-words.js'
import type { ReportView } from '../src/self-serve/reports/reports-api.js'
import { noPermissions } from './fixtures.js'

describe('report schedules in words', () => {
  it('says when, in the time zone', () => {
    expect(scheduleInWords({ frequency: 'daily', time: '07:00' }, 'UTC')).toBe('Every day at 07:00, UTC')
    expect(scheduleInWords({ frequency: 'weekly', time: '09:00', dayOfWeek: 1 }, 'Europe/Paris')).toBe(
      'Every Monday at 09:00, Europe/Paris',
    )
    expect(scheduleInWords({ frequency: 'weekly', time: '09:00', dayOfWeek: 0 }, 'UTC')).toBe(
      'Every Sunday at 09:00, UTC',
    )
    // the server's defaults: Monday, the 1st
    expect(scheduleInWords({ frequency: 'weekly', time: '09:00' }, 'UTC')).toBe('Every Monday at 09:00, UTC')
    expect(scheduleInWords({ frequency: 'monthly', time: '08:30' }, 'UTC')).toBe('Every month on the 1st at 08:30, UTC')
    expect(scheduleInWords({ frequency: 'monthly', time: '08:30', dayOfMonth: 31 }, 'Asia/Tokyo')).toBe(
      'Every month on the 31st (or its last day) at 08:30, Asia/Tokyo',
    )
  })

  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 30].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '30th',
    ])
  })
})

describe('recipients', () => {
  it('splits on commas, semicolons, spaces and new lines', () => {
    expect(splitRecipients(' ann@example.com,bob@example.com;\ncy@example.org  ')).toEqual([
      'ann@example.com',
      'bob@example.com',
      'cy@example.org',
    ])
  })

  it('names each bad address', () => {
    expect(recipientsProblem('')).toBe('Add at least one email address.')
    expect(recipientsProblem('ann@example.com')).toBeUndefined()
    expect(recipientsProblem('ann@example.com nope')).toBe('“nope” is not a valid email address.')
    expect(recipientsProblem('a@b, x@y.io, ann@example')).toBe(
      'These are not valid email addresses: “a@b”, “ann@example”.',
    )
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.com`).join(',')
    expect(recipientsProblem(many)).toBe('At most 50 recipients per report.')
  })
})

describe('the report draft', () => {
  const valid = { ...emptyDraft(), name: ' Weekly ', recipients: 'ann@example.com, Ann@Example.com, bob@example.com' }

  it('has a problem per field until it can be sent', () => {
    expect(Object.keys(draftProblems(emptyDraft())).sort()).toEqual(['name', 'recipients'])
    expect(draftProblems({ ...valid, scope: 'metrics' })).toEqual({
      metrics: 'Tick at least one metric, or send the whole dashboard.',
    })
    expect(draftProblems({ ...valid, time: '24:00' })).toHaveProperty('time')
    expect(draftProblems(valid)).toEqual({})
  })

  it('sends only what the schedule takes, the chosen metrics and the filters', () => {
    expect(reportBody(valid, undefined)).toEqual({
      name: 'Weekly',
      format: 'pdf',
      schedule: { frequency: 'weekly', time: '09:00', dayOfWeek: 1 },
      recipients: ['Ann@Example.com', 'bob@example.com'],
    })
    expect(
      reportBody(
        { ...valid, scope: 'metrics', metricIds: ['a', 'b'], frequency: 'monthly', dayOfMonth: 15, format: 'csv' },
        { country: ['FR'] },
      ),
    ).toEqual({
      name: 'Weekly',
      metricIds: ['a', 'b'],
      format: 'csv',
      schedule: { frequency: 'monthly', time: '09:00', dayOfMonth: 15 },
      recipients: ['Ann@Example.com', 'bob@example.com'],
      dashboardFilter: { country: ['FR'] },
    })
    expect(reportBody({ ...valid, frequency: 'daily' }, {}).schedule).toEqual({ frequency: 'daily', time: '09:00' })
  })
})

describe('words for filters and errors', () => {
  it('reads filter values', () => {
    expect(filterValueInWords(['FR', 'DE'])).toBe('FR, DE')
    expect(filterValueInWords({ startDate: '2026-01-01', endDate: '2026-03-31' })).toBe('2026-01-01 – 2026-03-31')
    expect(filterValueInWords('Last 12 months')).toBe('Last 12 months')
    expect(filterValueInWords({ min: 10 })).toBe('10 – …')
  })

  it('explains the server errors an end user can meet', () => {
    expect(reportErrorInWords('EMAIL_NOT_CONFIGURED', 400, 'x')).toMatch(/^Email is not set up on this server/)
    expect(reportErrorInWords('RATE_LIMIT_EXCEEDED', 429, 'EMAIL_RATE_LIMIT: …; retry in 42 s')).toBe(
      'Too many emails were sent from this account just now. Try again in 42 seconds.',
    )
    expect(reportErrorInWords('RATE_LIMIT_EXCEEDED', 429, 'slow down')).toBe(
      'Too many emails were sent from this account just now. Wait a minute and try again.',
    )
    expect(reportErrorInWords('EMAIL_SEND_FAILED', 502, 'The SMTP server did not accept the report: 451 busy')).toBe(
      'The SMTP server did not accept the report: 451 busy',
    )
    expect(reportErrorInWords('INVALID_REQUEST_BODY', 400, 'recipients/0 must match format "email"')).toBe(
      'recipients/0 must match format "email"',
    )
  })
})

describe('when the report controls show', () => {
  const none = { ...noPermissions, emailReports: true }

  it("follows the load's reports.available (the permission alone is not enough), which also loads the chunk", () => {
    expect(canReport({ reports: { available: true, recipients: [] } })).toBe(true)
    expect(canReport({ reports: { available: false, recipients: [] } })).toBe(false)
    const ai = { metric: false, summary: false, suggestions: false }
    expect(wantsSelfServe({ permissions: none, ai, reports: { available: false, recipients: [] } })).toBe(false)
    expect(wantsSelfServe({ permissions: none, ai, reports: { available: true, recipients: [] } })).toBe(true)
    expect(
      wantsSelfServe({
        permissions: { ...none, archiveMetrics: true },
        ai,
        reports: { available: false, recipients: [] },
      }),
    ).toBe(true)
    // the AI summary alone loads it too
    expect(
      wantsSelfServe({
        permissions: none,
        ai: { ...ai, summary: true },
        reports: { available: false, recipients: [] },
      }),
    ).toBe(true)
  })
})

describe('statusInWords', () => {
  const report = (status: Partial<ReportView['status']>): ReportView => ({
    reportId: 'r1',
    embedId: 'e1',
    name: 'Weekly',
    metricIds: null,
    format: 'csv',
    schedule: { frequency: 'weekly', time: '09:00', dayOfWeek: 1 },
    recipients: ['ann@example.com'],
    dashboardFilter: null,
    timezone: 'UTC',
    clientId: 'acme',
    userIdentifier: null,
    nextRunAt: '2026-11-30T09:00:00.000Z',
    status: { state: 'scheduled', lastSentAt: null, lastError: null, attempts: 0, ...status },
    createdAt: '2026-11-01T00:00:00.000Z',
  })
  const at = (iso: string) =>
    new Intl.DateTimeFormat(undefined, {
      timeZone: 'UTC',
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(iso))
  const next = `next ${at('2026-11-30T09:00:00.000Z')}`
  const sent = `Last sent ${at('2026-11-23T09:00:00.000Z')}`

  it('says what was sent, what failed, both after an earlier success, and what comes next', () => {
    expect(statusInWords(report({}), 'UTC')).toBe(`Not sent yet · ${next}`)
    expect(statusInWords(report({ lastSentAt: '2026-11-23T09:00:00.000Z' }), 'UTC')).toBe(`${sent} · ${next}`)
    expect(statusInWords(report({ lastError: 'the mail server refused it' }), 'UTC')).toBe(
      `Last attempt failed: the mail server refused it · ${next}`,
    )
    expect(
      statusInWords(report({ lastSentAt: '2026-11-23T09:00:00.000Z', lastError: 'the mail server refused it' }), 'UTC'),
    ).toBe(`${sent} · last attempt failed: the mail server refused it · ${next}`)
  })

  it('says a retry is coming, and a stopped report never sends again', () => {
    expect(statusInWords(report({ state: 'retrying', lastError: 'timeout', attempts: 1 }), 'UTC')).toBe(
      `Failed: timeout · retrying ${at('2026-11-30T09:00:00.000Z')} (attempt 2)`,
    )
    expect(statusInWords(report({ state: 'stopped' }), 'UTC')).toMatch(/^Stopped/)
  })
})

// Issue 24, item 5: the dialog checks the token's allowed recipients (the load's
// reports.recipients) as the server does, and says who may receive reports.
describe('recipients the token allows', () => {
  const allowed = ['ann@acme.com', '@acme.org']

  it('says who in words', () => {
    expect(allowedInWords(allowed)).toBe('ann@acme.com or anyone at acme.org')
    expect(allowedInWords(['ann@acme.com'])).toBe('ann@acme.com')
    expect(allowedInWords([])).toBe('no one')
  })

  it('refuses an address outside them, an @domain matching that domain exactly', () => {
    expect(recipientsProblem('Ann@Acme.com, bob@ACME.org', allowed)).toBeUndefined()
    expect(recipientsProblem('ann@acme.com, eve@eu.acme.org', allowed)).toBe(
      '“eve@eu.acme.org” cannot receive reports from here: only ann@acme.com or anyone at acme.org.',
    )
    expect(recipientsProblem('eve@notacme.org', allowed)).toMatch(/^“eve@notacme.org” cannot receive/)
    expect(recipientsProblem('ann@acme.com', [])).toBe('Reports cannot be sent to anyone from here.')
    // not said by the load: only the address checks
    expect(recipientsProblem('eve@example.com')).toBeUndefined()
    expect(draftProblems({ ...emptyDraft(), name: 'R', recipients: 'eve@example.com' }, allowed).recipients).toMatch(
      /cannot receive reports/,
    )
  })
})
