import { refusedRecipient } from '@strata/contract/report-recipients'
import type { ReportSchedule, ReportView } from './reports-api.js'

/**
 * Reports in words: a schedule ("Every Monday at 09:00, Europe/Paris"), recipients typed as a
 * list (each address checked), the dashboard filters a report carries, and the server's
 * errors as an end user should read them.
 */

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const

export const ordinal = (n: number): string => {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${n}${suffix}`
}

/** "Every day at 07:00, UTC", "Every Monday at 09:00, Europe/Paris", "Every month on the 15th at 08:30, UTC". */
export function scheduleInWords(s: ReportSchedule, timezone: string): string {
  const when =
    s.frequency === 'daily'
      ? 'Every day'
      : s.frequency === 'weekly'
        ? `Every ${WEEKDAYS[s.dayOfWeek ?? 1]}`
        : `Every month on the ${ordinal(s.dayOfMonth ?? 1)}${(s.dayOfMonth ?? 1) > 28 ? ' (or its last day)' : ''}`
  return `${when} at ${s.time}, ${timezone}`
}

const EMAIL = /^[^\s@,;<>()"]+@[^\s@,;<>()"]+\.[^\s@,;<>()".]{2,}$/

/** The addresses in what was typed (commas, semicolons, spaces or new lines between them). */
export const splitRecipients = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)

export const isEmail = (address: string): boolean => address.length <= 254 && EMAIL.test(address)

export const MAX_RECIPIENTS = 50

/** Who reports may go to, as a person reads it: "ann@acme.com or anyone at acme.com". */
export function allowedInWords(allowed: readonly string[]): string {
  const words = allowed.map((e) => (e.startsWith('@') ? `anyone at ${e.slice(1)}` : e))
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : (words[0] ?? 'no one')
}

/**
 * What is wrong with the recipients typed, or undefined. `allowed` is the load's
 * `reports.recipients` (who the token may send to), checked as the server does.
 */
export function recipientsProblem(text: string, allowed?: readonly string[]): string | undefined {
  const all = splitRecipients(text)
  if (all.length === 0) return 'Add at least one email address.'
  const bad = all.filter((a) => !isEmail(a))
  if (bad.length === 1) return `“${bad[0]}” is not a valid email address.`
  if (bad.length > 1) return `These are not valid email addresses: ${bad.map((b) => `“${b}”`).join(', ')}.`
  if (new Set(all.map((a) => a.toLowerCase())).size > MAX_RECIPIENTS)
    return `At most ${MAX_RECIPIENTS} recipients per report.`
  const refused = allowed && refusedRecipient(allowed, all)
  if (allowed && refused !== undefined) {
    return allowed.length === 0
      ? 'Reports cannot be sent to anyone from here.'
      : `“${refused}” cannot receive reports from here: only ${allowedInWords(allowed)}.`
  }
  return undefined
}

/** A filter value as a person reads it: lists joined, a range as "from – to", a preset by name. */
export function filterValueInWords(value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (Array.isArray(value)) return value.map(filterValueInWords).join(', ')
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>
    const from = o.startDate ?? o.from ?? o.min
    const to = o.endDate ?? o.to ?? o.max
    if (from !== undefined || to !== undefined) return `${from ?? '…'} – ${to ?? '…'}`
    return Object.values(o).map(filterValueInWords).join(', ')
  }
  return String(value)
}

/** A server error in the words of the dialog and the list (the code stays visible beside it). */
export function reportErrorInWords(code: string, status: number, message: string): string {
  if (code === 'EMAIL_NOT_CONFIGURED')
    return 'Email is not set up on this server yet, so reports cannot be sent. Ask your administrator to configure SMTP.'
  if (status === 429) {
    const wait = /retry in (\d+) s/.exec(message)?.[1]
    return `Too many emails were sent from this account just now. ${wait ? `Try again in ${wait} seconds.` : 'Wait a minute and try again.'}`
  }
  if (code === 'INSUFFICIENT_PERMISSIONS') return 'You are no longer allowed to schedule reports on this dashboard.'
  return message
}

/**
 * A report's status in words, times in the token's zone: "Last sent Mon 23 Nov, 09:00 · next
 * Mon 30 Nov, 09:00"; a failure after an earlier success says both; a retry says which attempt.
 */
export function statusInWords(r: ReportView, timezone: string): string {
  const at = (iso: string) => {
    try {
      return new Intl.DateTimeFormat(undefined, {
        timeZone: timezone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(iso))
    } catch {
      return iso
    }
  }
  const s = r.status
  if (s.state === 'stopped') return 'Stopped: the access it was created with was revoked.'
  if (s.state === 'retrying')
    return `Failed${s.lastError ? `: ${s.lastError}` : ''} · retrying ${at(r.nextRunAt)} (attempt ${s.attempts + 1})`
  const sent = s.lastSentAt ? `Last sent ${at(s.lastSentAt)}` : undefined
  const failed = s.lastError ? `last attempt failed: ${s.lastError}` : undefined
  const last = sent && failed ? `${sent} · ${failed}` : (sent ?? (failed ? `L${failed.slice(1)}` : 'Not sent yet'))
  return `${last} · next ${at(r.nextRunAt)}`
}
