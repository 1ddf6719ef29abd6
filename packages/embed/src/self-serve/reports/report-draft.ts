import { recipientsProblem, splitRecipients } from './report-words.js'
import type { CreateReport, ReportFormat } from './reports-api.js'

/**
 * What the report dialog edits (every field as typed, so an error never loses anything), its
 * field errors, and the body it sends (POST /reports of docs/runtime-api.md#email-reports).
 */
export interface ReportDraft {
  name: string
  /** The whole dashboard, or the metrics ticked in `metricIds`. */
  scope: 'dashboard' | 'metrics'
  metricIds: readonly string[]
  format: ReportFormat
  frequency: CreateReport['schedule']['frequency']
  dayOfWeek: number
  dayOfMonth: number
  time: string
  recipients: string
}

export const emptyDraft = (): ReportDraft => ({
  name: '',
  scope: 'dashboard',
  metricIds: [],
  format: 'pdf',
  frequency: 'weekly',
  dayOfWeek: 1,
  dayOfMonth: 1,
  time: '09:00',
  recipients: '',
})

export type DraftField = 'name' | 'metrics' | 'time' | 'recipients'

/** The fields in the order the dialog shows them (the first with an error takes focus). */
export const FIELD_ORDER: readonly DraftField[] = ['name', 'metrics', 'time', 'recipients']

const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/

/**
 * Each field's problem, in words (an empty object when the draft can be sent); `allowed`: who
 * the token may send reports to (the load's `reports.recipients`).
 */
export function draftProblems(d: ReportDraft, allowed?: readonly string[]): Partial<Record<DraftField, string>> {
  const out: Partial<Record<DraftField, string>> = {}
  if (!d.name.trim()) out.name = 'Give the report a name (it is the subject of the email).'
  if (d.scope === 'metrics' && d.metricIds.length === 0)
    out.metrics = 'Tick at least one metric, or send the whole dashboard.'
  if (!TIME.test(d.time)) out.time = 'Pick a time as HH:MM (24-hour).'
  const r = recipientsProblem(d.recipients, allowed)
  if (r) out.recipients = r
  return out
}

/** The POST /reports body of a draft without problems, with the dashboard filters in effect. */
export function reportBody(
  d: ReportDraft,
  dashboardFilter: Readonly<Record<string, unknown>> | undefined,
): CreateReport {
  const recipients = [...new Map(splitRecipients(d.recipients).map((r) => [r.toLowerCase(), r])).values()]
  return {
    name: d.name.trim(),
    ...(d.scope === 'metrics' ? { metricIds: [...d.metricIds] } : {}),
    format: d.format,
    schedule: {
      frequency: d.frequency,
      time: d.time,
      ...(d.frequency === 'weekly' ? { dayOfWeek: d.dayOfWeek } : {}),
      ...(d.frequency === 'monthly' ? { dayOfMonth: d.dayOfMonth } : {}),
    },
    recipients,
    ...(dashboardFilter && Object.keys(dashboardFilter).length ? { dashboardFilter: { ...dashboardFilter } } : {}),
  }
}
