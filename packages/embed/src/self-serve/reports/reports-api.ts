import type { CreateReport, ReportView } from '@strata/contract/reports'
import type { RuntimeClient } from '../../api/client.js'

/**
 * The email report calls of the runtime API (docs/runtime-api.md#email-reports) through the element's client (its
 * token, its renewal, its error envelopes). Each answers what the server returns, unwrapped.
 */
export type { CreateReport, ReportView }
export type ReportSchedule = CreateReport['schedule']
export type ReportFormat = CreateReport['format']

/** GET /reports: this token's reports of the embed. */
export async function listReports(client: RuntimeClient, signal?: AbortSignal): Promise<ReportView[]> {
  return (await client.call<{ data: ReportView[] }>('GET', '/reports', undefined, signal)).data
}

/** POST /reports: schedules a report; answers its id. */
export async function createReport(client: RuntimeClient, report: CreateReport): Promise<string> {
  return (await client.call<{ data: { reportId: string } }>('POST', '/reports', report)).data.reportId
}

/** DELETE /reports/:reportId. */
export async function deleteReport(client: RuntimeClient, reportId: string): Promise<void> {
  await client.call<unknown>('DELETE', reportPath(reportId))
}

/** POST /reports/:reportId/send: sends it now; answers when and to whom. */
export async function sendReport(
  client: RuntimeClient,
  reportId: string,
): Promise<{ sentAt: string; recipients: string[] }> {
  return (await client.call<{ data: { sentAt: string; recipients: string[] } }>('POST', `${reportPath(reportId)}/send`))
    .data
}

const reportPath = (reportId: string) => `/reports/${encodeURIComponent(reportId)}`
