import { GUEST_TOKEN, type OperationError, operations, WAREHOUSE_ERRORS } from '../../schemas/openapi.js'
import { browser, outside, tokenOrEmbedGone } from './guest.docs.js'

const refused = (what: string): OperationError => [
  403,
  'INSUFFICIENT_PERMISSIONS',
  `${what} is off for this embed (accessSettings) or this token (permissions): docs/guest-tokens.md, "permissions".`,
]
const unknownMetric: OperationError = [
  400,
  'EMBED_PARAM_ERROR',
  "The metric is not one this token sees (another tenant's, another user's private one, or none): existence is never told.",
]
const badDefinition: OperationError = [
  400,
  'INVALID_REQUEST_BODY',
  'The definition names a table or column outside the visible model (unknown, hidden or a tenant column), carries a field it may not (sql …), is over 16 KB, or does not compile for this token.',
]

/** The self-serve metric routes under /api/v2/embed/runtime (docs/runtime-api.md#self-serve-metrics); guest token. */
export const docs = operations('embed runtime', {
  getSelfServeModel: {
    summary: 'The model an end user may build metrics on',
    description: `${browser} The visible tables and columns of the embed's model (never a tenant column or a hidden table or column) and the relationships between them. Needs the create permission.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, refused('Creating metrics')],
    returns: 'The visible tables, their columns and relationships.',
  },
  previewMetric: {
    summary: 'Run a metric definition without saving it',
    description: `${browser} Runs \`metric\` (a structured definition, never SQL) with the token's tenancy, RLS and fixed filters, narrowed by \`dashboardFilter\` and \`metricFilter\`. Needs the create or the update permission.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, refused('Creating or updating metrics'), badDefinition, ...WAREHOUSE_ERRORS],
    returns: 'The rows of the metric with their columns.',
  },
  createMetric: {
    summary: "Save an end user's metric",
    description: `${browser} Saves \`metric\` for the token's tenant; \`visibility: "private"\` for the token's user only (needs params.userIdentifier), the default when the token has one and the dashboard has \`isAllowPrivateMetricsByDefault\`. The server assigns the metricId (\`u_\` and 12 characters). Needs the create permission; a dashboard embed. At most 200 metrics per tenant on a dashboard, 50 of them private per user.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused('Creating metrics'),
      [
        400,
        'INVALID_REQUEST_BODY',
        `${badDefinition[2]} Or the tenant has 200 metrics on the dashboard, or the user 50 private ones, already.`,
      ],
      ...WAREHOUSE_ERRORS,
    ],
    returns: 'The new metricId.',
  },
  updateMetric: {
    summary: 'Change a metric (a company metric: this tenant’s own version)',
    description: `${browser} Replaces the metric's definition. On a company metric this saves the tenant's version of it under the same metricId (copy on write); every other tenant keeps the company's. SQL metrics cannot be edited. Needs the update permission.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, refused('Updating metrics'), unknownMetric, badDefinition, ...WAREHOUSE_ERRORS],
    returns: 'The metricId.',
  },
  deleteMetric: {
    summary: 'Delete a metric (a company metric: hide it for this tenant)',
    description: `${browser} Deletes the tenant's metric; a company metric is hidden for this tenant only (its tenant version, if any, is dropped). Needs the delete permission.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, refused('Deleting metrics'), unknownMetric],
    returns: 'The metricId.',
  },
  archiveMetric: {
    summary: 'Archive a metric',
    description: `${browser} The metric leaves the dashboard for this tenant (for a private one: its user) and is listed by the load as \`archivedMetrics\`. Needs the archive permission.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, refused('Archiving metrics'), unknownMetric],
    returns: 'The metricId.',
  },
  unarchiveMetric: {
    summary: 'Restore an archived metric',
    description: `${browser} Brings a metric of \`archivedMetrics\` back to the dashboard. Needs the archive permission.`,
    auth: GUEST_TOKEN,
    errors: [tokenOrEmbedGone, outside, refused('Restoring archived metrics'), unknownMetric],
    returns: 'The metricId.',
  },
  restoreMetric: {
    summary: 'Show a hidden company metric again',
    description: `${browser} A company metric this tenant hid (DELETE …/metrics/:metricId; the load lists them as \`hiddenMetrics\`) comes back to the dashboard for the whole tenant. Needs the manage permission.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused('Restoring hidden metrics'),
      [400, 'EMBED_PARAM_ERROR', 'The metric is not a company metric this tenant hid (or not one this token sees).'],
    ],
    returns: 'The metricId.',
  },
  resetMetricOverride: {
    summary: "Reset a tenant's version of a company metric to the company's",
    description: `${browser} Drops this tenant's own version of a company metric (made by PUT …/metrics/:metricId): the company's metric, as it is now, answers again for the whole tenant. A company metric without a version is left as it is. The load marks a version with \`tenantVersion: true\`, and with \`companyVersionChanged: true\` once the company has changed the metric since the copy was made. Needs the update permission.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused('Resetting a metric to the company’s version'),
      unknownMetric,
      [400, 'INVALID_REQUEST_BODY', "The metric is this tenant's own: it has no company version."],
    ],
    returns: 'The metricId.',
  },
  keepMetricVersion: {
    summary: "Keep a tenant's version after the company changed the metric",
    description: `${browser} "Keep mine": this tenant keeps its own version of a company metric that the load marks \`companyVersionChanged: true\`. The version then counts as made from the company's metric as it is now, so the load stops marking it, for every user of the tenant and after a reload, until the company changes the metric again. The version's definition is unchanged. Needs the update permission.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused('Keeping a version of a company metric'),
      unknownMetric,
      [400, 'INVALID_REQUEST_BODY', "The metric has no version of this tenant's over a company metric."],
    ],
    returns: 'The metricId.',
  },
  publishMetric: {
    summary: "Publish a user's private metric to the tenant",
    description: `${browser} A private metric of the token's user becomes visible to the whole tenant (\`isPublished: true\`, \`visibility: "shared"\`); a shared one stays as it is. Company metrics are refused (400). Needs the manage permission.`,
    auth: GUEST_TOKEN,
    errors: [
      tokenOrEmbedGone,
      outside,
      refused('Publishing metrics'),
      unknownMetric,
      [400, 'INVALID_REQUEST_BODY', 'The metric is a company metric.'],
    ],
    returns: 'The metricId.',
  },
})
