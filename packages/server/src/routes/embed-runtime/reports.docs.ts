import { GUEST_TOKEN, type OperationError, operations } from '../../schemas/openapi.js'
import { browser, outside, tokenOrEmbedGone } from './guest.docs.js'

const whose =
  "A report belongs to the token's key: its `clientId` and, with `params.userIdentifier`, that user; another tenant or another user never sees, deletes or sends it."
const refused: OperationError = [
  403,
  'INSUFFICIENT_PERMISSIONS',
  'The embed does not allow email reports (accessSettings.isAllowEmailReports).',
]
const unconfigured: OperationError = [
  400,
  'EMAIL_NOT_CONFIGURED',
  'The server has no SMTP_URL and EMAIL_FROM: email reports are off.',
]
const unknown: OperationError = [400, 'EMBED_PARAM_ERROR', 'No report with this id for this token and embed.']

/** POST/GET /reports, DELETE /reports/:reportId, POST /reports/:reportId/send under /api/v2/embed/runtime/:embedId. */
export const docs = operations('embed runtime', {
  createReport: {
    summary: 'Schedule an email report of the dashboard',
    description: `${browser} ${whose} Sends the metrics (\`metricIds\`, else every metric the token sees) to \`recipients\` daily, weekly (\`dayOfWeek\` 0 = Sunday, default Monday) or monthly (\`dayOfMonth\`, default 1; a shorter month sends on its last day) at \`time\`, in the token's \`params.timezone\` (UTC when absent). \`csv\`: one CSV attachment per metric; \`png\`: one chart per metric; \`pdf\`: the dashboard. Each send runs with the claims of the token that created the report (kept sealed on the server, never returned): the same tenancy, RLS and locked filters, whoever triggers it. The report stops when its embed is deleted or the data app key that minted the token is revoked. At most 50 reports per key and embed. Recipients must be ones the token allows: its \`params.reportRecipients\` (addresses, and \`@domain\` for every address of exactly that domain), else its \`params.userIdentifier\` when that is an e-mail address; the load's \`reports.recipients\` lists them.`,
    auth: GUEST_TOKEN,
    errors: [
      unconfigured,
      tokenOrEmbedGone,
      outside,
      refused,
      [
        403,
        'UNAUTHORIZED',
        'dashboardFilter: end-user filters are off for the embed or the token, or a column is not allowed.',
      ],
      [400, 'EMBED_PARAM_ERROR', 'A metricId is not a metric this token sees.'],
      [
        400,
        'INVALID_REQUEST_BODY',
        'A missing or malformed field (time not HH:MM, a recipient not an email address, dayOfWeek on a daily schedule …), a recipient the token does not allow (named), a dashboardFilter naming no filter, 50 reports already.',
      ],
    ],
    returns: 'The new report’s id.',
  },
  listReports: {
    summary: "The token's email reports of this embed",
    description: `${browser} ${whose} Oldest first, each with its schedule, \`nextRunAt\` and \`status\`: \`scheduled\`, \`retrying\` (the last send failed; retried with exponential backoff at \`nextRunAt\`, \`attempts\` counting, up to 5), or \`stopped\` (embed deleted, key revoked), with \`lastSentAt\` and \`lastError\`.`,
    auth: GUEST_TOKEN,
    errors: [unconfigured, tokenOrEmbedGone, outside, refused],
  },
  deleteReport: {
    summary: 'Delete an email report',
    description: `${browser} ${whose} It is never sent again.`,
    auth: GUEST_TOKEN,
    errors: [unconfigured, tokenOrEmbedGone, outside, refused, unknown],
  },
  sendReport: {
    summary: 'Send an email report now',
    description: `${browser} ${whose} Sends it at once, with the claims it was created with (not the caller's), and records \`lastSentAt\` (or \`lastError\`); its schedule is unchanged. Counted against EMAIL_RATE_LIMIT per client, like a scheduled send: one delivery per recipient, and refused whole (nothing sent) when fewer are left. Its recipients are checked again against the claims it was created with.`,
    auth: GUEST_TOKEN,
    errors: [
      unconfigured,
      tokenOrEmbedGone,
      outside,
      refused,
      unknown,
      [400, 'INVALID_REQUEST_BODY', 'A recipient the claims of the report do not allow (named).'],
      [
        429,
        'RATE_LIMIT_EXCEEDED',
        "The client's EMAIL_RATE_LIMIT window has fewer deliveries left than the report has recipients.",
      ],
      [502, 'EMAIL_SEND_FAILED', 'The SMTP server refused the message or could not be reached.'],
    ],
  },
})
