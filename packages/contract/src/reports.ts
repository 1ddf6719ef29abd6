import { type Static, Type } from 'typebox'
import { FilterValuesSchema } from './runtime.js'

/**
 * Scheduled email reports (docs/runtime-api.md#email-reports): the runtime routes' bodies and answers
 * (`/api/v2/embed/runtime/:embedId/reports…`) and the data app's list. The claims a report runs
 * with are sealed in the server's store and never part of any answer.
 */
const closed = { additionalProperties: false } as const

export const ReportFormat = Type.Union([Type.Literal('csv'), Type.Literal('png'), Type.Literal('pdf')], {
  description: 'csv: one attachment per metric; png: one chart image per metric; pdf: the dashboard as one document',
})

export const ReportSchedule = Type.Object(
  {
    frequency: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')]),
    time: Type.String({
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
      description: "HH:MM, 24-hour, in the token's params.timezone (UTC when absent)",
    }),
    dayOfWeek: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 6, description: 'weekly: 0 = Sunday … 6 = Saturday (default 1, Monday)' }),
    ),
    dayOfMonth: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 31,
        description: 'monthly: 1–31 (default 1); a month without that day sends on its last day',
      }),
    ),
  },
  closed,
)

export const CreateReportBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    metricIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        minItems: 1,
        maxItems: 100,
        description: 'Metrics of the embed the token sees; all of them when absent',
      }),
    ),
    format: ReportFormat,
    schedule: ReportSchedule,
    recipients: Type.Array(Type.String({ format: 'email', maxLength: 254 }), { minItems: 1, maxItems: 50 }),
    dashboardFilter: Type.Optional(FilterValuesSchema),
  },
  {
    ...closed,
    examples: [
      {
        name: 'Weekly revenue',
        metricIds: ['revenue_by_country'],
        format: 'csv',
        schedule: { frequency: 'weekly', time: '08:00', dayOfWeek: 1 },
        recipients: ['ops@example.com'],
      },
    ],
  },
)
export type CreateReport = Static<typeof CreateReportBody>

export const ReportStatus = Type.Object({
  state: Type.Union([Type.Literal('scheduled'), Type.Literal('retrying'), Type.Literal('stopped')], {
    description:
      'scheduled: waits for nextRunAt; retrying: the last send failed and is retried at nextRunAt; stopped: the embed was deleted or the minting key revoked, it never sends again',
  }),
  lastSentAt: Type.Union([Type.String(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  /** Failed attempts of the current run (0 after a success). */
  attempts: Type.Integer(),
})

export const Report = Type.Object({
  reportId: Type.String(),
  embedId: Type.String(),
  name: Type.String(),
  metricIds: Type.Union([Type.Array(Type.String()), Type.Null()]),
  format: ReportFormat,
  schedule: ReportSchedule,
  recipients: Type.Array(Type.String()),
  dashboardFilter: Type.Union([FilterValuesSchema, Type.Null()]),
  timezone: Type.String(),
  clientId: Type.String(),
  userIdentifier: Type.Union([Type.String(), Type.Null()]),
  nextRunAt: Type.String({ description: 'ISO 8601 instant of the next send (or retry)' }),
  status: ReportStatus,
  createdAt: Type.String(),
})
export type ReportView = Static<typeof Report>

export const ReportParams = Type.Object({
  embedId: Type.String({ minLength: 1, maxLength: 200 }),
  reportId: Type.String({ minLength: 1, maxLength: 200 }),
})

export const CreatedReportResponse = Type.Object({ data: Type.Object({ reportId: Type.String() }) })
export const ReportsResponse = Type.Object({ data: Type.Array(Report) })
export const DeletedReportResponse = Type.Object({
  data: Type.Object({ reportId: Type.String() }),
  error: Type.Null(),
})
export const SentReportResponse = Type.Object({
  data: Type.Object({ reportId: Type.String(), sentAt: Type.String(), recipients: Type.Array(Type.String()) }),
  error: Type.Null(),
})

/** GET /api/v2/data-app/reports: every report of the data app (optionally of one embed or client). */
export const DataAppReportsQuery = Type.Object(
  {
    embedId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  closed,
)
/** DELETE /api/v2/data-app/reports?reportId=… (the data app routes take their target in the query). */
export const DataAppDeleteReportQuery = Type.Object({ reportId: Type.String({ minLength: 1, maxLength: 200 }) }, closed)
