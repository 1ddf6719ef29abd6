import { GUEST_TOKEN, type OperationError, operations, WAREHOUSE_ERRORS } from '../../schemas/openapi.js'
import { browser, tokenOrEmbedGone } from './guest.docs.js'

const denied: OperationError = [
  403,
  'UNAUTHORIZED',
  'The id is outside the allowedEmbeds of the token, a permission it needs is off, a filter is hidden or not allowed, or the origin is not whitelisted.',
]
const running: readonly OperationError[] = [
  [400, 'EMBED_PARAM_ERROR', 'The metric is not in this embed.'],
  [
    400,
    'DATASOURCE_NAME_ERROR',
    "The embed's workspace has several datasources (MULTI_DATASOURCE) and the embed names none, or one it no longer has.",
  ],
  [
    400,
    'DATAMART_NAME_ERROR',
    "The embed's workspace has several datamarts (MULTI_DATAMART) and the embed names none, or one it no longer has.",
  ],
  [400, 'INVALID_REQUEST_BODY', 'Also when a filter key names no filter or a value does not fit its filter.'],
  ...WAREHOUSE_ERRORS,
]

/** The web component's API under /api/v2/embed/runtime; guest token. */
export const docs = operations('embed runtime', {
  getRuntimeEmbed: {
    summary: 'Load an embed: its dashboard, metrics and permissions',
    description: `${browser} \`embedId\` is an embed id or the dashboardId of an embed of the data app. Answers the dashboard (filters, layout), its metrics (chart options, time grains; a tenant's version of a company metric marked \`tenantVersion\`, and \`companyVersionChanged\` once the company changed it since), the tenant's archived and hidden metrics, and the effective permissions, whether the AI pilot and email reports work for this token (\`ai\`, \`reports.available\`), and the time zone. An embed that grants no self-serve capability shows the dashboard as the company authored it, untouched by any tenant's changes.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, denied],
  },
  queryRuntimeMetric: {
    summary: "Query a metric with the token's tenancy and filters",
    description: `${browser} Runs a metric with the tenancy, RLS values and fixed filters of the token, narrowed by the end user's \`dashboardFilter\`, \`metricFilter\` and \`drill\` (values of visible model columns, a time dimension at another grain; when the embed allows end-user filters). Results are cached per tenant; \`Strata-Truncated: true\` marks rows cut at QUERY_ROW_LIMIT.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, denied, ...running],
    returns: 'The rows of the metric with their columns.',
  },
  getUnderlyingData: {
    summary: 'The rows behind a metric, 100 a page',
    description: `${browser} The raw rows behind a structured metric, under the same tenancy and filters, 100 per \`pageNumber\`; \`sort\` orders them by one column they show (ascending or descending) across every page, the other columns breaking ties; needs the underlying-data permission (embed and token).`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, denied, ...running],
    returns: 'The rows behind the metric.',
  },
  downloadMetric: {
    summary: 'Download a metric as CSV',
    description: `${browser} The metric's rows as a CSV attachment, under the same tenancy and filters (\`dashboardFilter\`: a JSON object in the query string); needs the download permission of the token.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, denied, ...running],
    returns: 'The CSV file (text/csv).',
  },
})
