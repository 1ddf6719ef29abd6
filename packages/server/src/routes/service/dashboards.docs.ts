import { operations, SERVICE_TOKEN } from '../../schemas/openapi.js'

const dryRun =
  'The document is checked against the model of the workspace (its datasource or datamart), then every metric, SQL metrics included, is compiled and run on the warehouse with no rows returned.'
const documentRefused =
  'Also when the document does not fit the model or a metric fails its dry run (the message names the metric and the reason), or the workspace is MULTI_DATASOURCE or MULTI_DATAMART.'

/** Dashboards as code: export, import, update, delete, validate; service token. */
export const docs = operations('dashboards', {
  exportDashboard: {
    summary: 'Export a dashboard document',
    description:
      'Answers the dashboard document (what import reads) as a JSON attachment `dashboard-{dashboardId}.json`, with `_meta`. Takes the service token; a bad one answers 400 `AUTH_ERROR`, as the hosted API has it for this path.',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_ID_ERROR'],
      [400, 'INVALID_REQUEST_BODY', 'Also when the workspace has no dashboard with that dashboardId.'],
    ],
    returns: 'The dashboard document in `data`, with `_meta`.',
  },
  importDashboard: {
    summary: 'Import a dashboard document into a workspace',
    description: `Creates a dashboard from \`importDashboardData\` (a dashboard document: the \`data\` of an export; a dashboard the hosted service exported is read into one, what has no place in it named in \`data.warnings\`). ${dryRun} \`schemaPairs\` rename schemas in the document first. \`dashboardId\` is generated when absent; an existing one is refused. Takes the service token; a bad one answers 400 \`AUTHENTICATION_ERROR\`, as the hosted API has it for this path.`,
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_ID_ERROR'],
      [
        400,
        'INVALID_REQUEST_BODY',
        `${documentRefused} Also when the workspace has a dashboard with that dashboardId.`,
      ],
      [400, 'DATASOURCE_CONNECTION_ERROR'],
    ],
    returns: 'What was imported: the message counts the metrics.',
  },
  updateDashboard: {
    summary: 'Replace a dashboard document in place',
    description: `The import body with the \`dashboardId\` to replace. ${dryRun} The dashboard keeps its row: its embeds and the guest tokens that load them keep working, and its cached results are dropped on every instance. Takes the service token.`,
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_ID_ERROR'],
      [
        400,
        'INVALID_REQUEST_BODY',
        `${documentRefused} Also when the workspace has no dashboard with that dashboardId.`,
      ],
      [400, 'DATASOURCE_CONNECTION_ERROR'],
    ],
    returns: 'What was updated: the message counts the metrics.',
  },
  deleteDashboard: {
    summary: 'Delete a dashboard no embed uses',
    description: 'Deletes the dashboard; refused, naming them, while embeds use it. Takes the service token.',
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_ID_ERROR'],
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when the workspace has no dashboard with that dashboardId, or embeds use it.',
      ],
    ],
    returns: 'The dashboardId of the deleted dashboard.',
  },
  validateDashboard: {
    summary: 'Check a dashboard document without saving it',
    description: `The import body (a hosted-service export read as on import, with \`data.warnings\`). ${dryRun} Each metric answers \`valid\`, or the compiler's or the warehouse's reason; nothing is saved. Takes the service token.`,
    auth: SERVICE_TOKEN,
    errors: [
      [400, 'WORKSPACE_ID_ERROR'],
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when the document does not fit the model (a metric that only fails on the warehouse is answered in `metrics`), or the workspace is MULTI_DATASOURCE or MULTI_DATAMART.',
      ],
      [400, 'DATASOURCE_CONNECTION_ERROR'],
    ],
    returns: 'Whether every metric compiled and ran, and the reason of each that did not.',
  },
})
