import { DATA_APP_KEY, type OperationDoc, type OperationError, operations } from '../../schemas/openapi.js'

const takesKey = 'Takes the data app API key.'
const createErrors: readonly OperationError[] = [
  [404, 'INVALID_WORKSPACE_NAME'],
  [404, 'INVALID_DASHBOARD_ID'],
  [404, 'INVALID_METRIC_ID'],
  [404, 'INVALID_DATAMART'],
  [
    400,
    'INVALID_REQUEST_BODY',
    'Also when accessSettings lacks a field required on create (the message names it), or metricId is missing for a metric embed.',
  ],
]
const deleteRefused =
  'Also when the data app has no such embed, or (with isDeleteDashboard) its dashboard is internal or used by other embeds.'
const create = {
  summary: 'Create an embed of a dashboard or of one metric',
  description: `Embeds an existing dashboard (\`embedType: dashboard\`) or one of its metrics (\`metric\`, with \`metricId\`) for this data app. \`accessSettings\` say what end users may do: required for a dashboard embed, with \`datamartName\` and every permission flag (\`isAllowEmailReports\`, \`isAllowManageMetrics\`, \`isAllowCreateDashboardView\`, \`isAllowMetricCreation\`, \`isAllowMetricDeletion\`, \`isAllowMetricLayoutChange\`, \`isAllowMetricUpdate\`, \`isAllowUnderlyingData\`, \`metricCreationMode\`). ${takesKey}`,
  auth: DATA_APP_KEY,
  errors: createErrors,
  returns: 'The id of the new embed (what guest tokens and the web component name).',
} satisfies OperationDoc
const list = {
  summary: 'List the embeds of the data app',
  description: `Every embed of this data app with its dashboard or metric; with \`clientId\`, only the dashboard embeds whose dashboard that client created. Pages of 10 when paginating. ${takesKey}`,
  auth: DATA_APP_KEY,
} satisfies OperationDoc
const update = {
  summary: 'Change the access settings of an embed (effective at once)',
  description: `Merges a partial \`accessSettings\` into the embed's; live guest tokens see the change on their next request, on every instance. ${takesKey} A bad key answers 401 \`AUTHENTICATION_ERR\`, as the hosted API spells it for this path.`,
  auth: DATA_APP_KEY,
  errors: [
    [404, 'INVALID_WORKSPACE_NAME'],
    [404, 'EMBED_NOT_FOUND'],
    [403, 'INSUFFICIENT_PERMISSIONS'],
    [400, 'INVALID_ACCESS_SETTINGS'],
    [409, 'CONFLICTING_UPDATE'],
    [404, 'INVALID_DATAMART'],
  ],
  returns: 'The id of the embed.',
} satisfies OperationDoc
const exportEmbed = {
  summary: 'Export an embed with its dashboard document',
  description: `Answers the embed's dashboard document and access settings as a JSON attachment \`dashboard-{embedId}.json\`; its \`data\` can be given as \`importDashboardData\` to create a dashboard embed elsewhere. ${takesKey}`,
  auth: DATA_APP_KEY,
  errors: [
    [400, 'EMBED_PARAM_ERROR', 'The embed belongs to another data app.'],
    [400, 'INVALID_EMBED_ID', 'No embed with that embedId, or it has no dashboard.'],
  ],
  returns: 'The dashboard document in `data`, the embed in `_meta`.',
} satisfies OperationDoc
const dashboardEmbed = {
  summary: 'Create a dashboard (empty, from a template or imported) and its embed in one call',
  description: `Creates the dashboard \`dashboardId\` in the workspace, recorded as created by \`clientId\`, and embeds it with \`accessSettings\` (required fields as for a dashboard embed). The dashboard is empty, a copy of the filters, layout and metrics of \`templateDashboardId\` (a dashboard of the workspace; metrics made for one client are not copied), or \`importDashboardData\` (a dashboard document or the hosted service's export, checked as on import; the template fills the filters, layout and metrics it lacks). \`isImportMetrics: false\` leaves the metrics (and the layout) out; \`isAllowPrivateMetricsByDefault\` sets the document's flag; \`metadata\` is kept with the dashboard and \`embedDescription\` with the embed, both shown by the embeds list; \`metricImportMode\` takes only \`GALLERY\`. ${takesKey}`,
  auth: DATA_APP_KEY,
  errors: [
    [400, 'WORKSPACE_ID_ERROR', 'workspaceName names no workspace (the hosted service documents this code here).'],
    [400, 'INVALID_DASHBOARD_ID', 'The workspace already has a dashboard with that dashboardId.'],
    [404, 'INVALID_DATAMART'],
    [400, 'TEMPLATE_DASHBOARD_ERROR', 'templateDashboardId names no dashboard of the workspace.'],
    [
      400,
      'INVALID_REQUEST_BODY',
      'Also when accessSettings lacks a required field, the document does not fit the model or a metric fails its dry run, or metadata is over 10,000 characters of JSON or sets createdAt or updatedAt.',
    ],
    [400, 'DATASOURCE_CONNECTION_ERROR'],
  ],
  returns:
    "`id`: the new dashboard's id (dashboardId); `name` and `embedId`: the new embed's; `warnings`: what the document left out, when it was the hosted service's export.",
} satisfies OperationDoc
const legacy = (doc: OperationDoc, preferred: string): OperationDoc => ({
  ...doc,
  summary: `${doc.summary} (legacy)`,
  description: `The legacy form of \`${preferred}\`. ${doc.description}`,
  deprecated: true,
})

/** Embeds: create, list, update, delete, rename, export; data app key; legacy paths too. */
export const docs = operations('embeds', {
  createEmbed: {
    ...create,
    description: `${create.description} The legacy delete shares this path: with \`?embedId=…\` or a body \`{ embedId }\` it deletes that embed (use \`DELETE /api/v2/data-app/embeds\`).`,
    errors: [
      ...createErrors,
      [400, 'INVALID_REQUEST_BODY', `Also, as the legacy delete: ${deleteRefused.replace('Also when', 'when')}`],
    ],
  },
  createEmbedLegacy: legacy(create, 'POST /api/v2/data-app/embeds'),
  listEmbeds: list,
  listEmbedsLegacy: {
    ...legacy(list, 'GET /api/v2/data-app/embeds'),
    summary: 'List the embeds of the data app (legacy, typed body)',
  },
  updateEmbed: update,
  updateEmbedLegacy: {
    ...legacy(update, 'PUT /api/v2/data-app/embeds'),
    description: `${legacy(update, 'PUT /api/v2/data-app/embeds').description} This path also reads the hosted service's older accessSettings spellings: \`isAllowAipilot\` as \`isAllowAiPilot\`, \`tableList\` (items \`{ name, clientColumn }\`) as \`tableTenancySettings\`; both spellings of one field with different values is 400 \`INVALID_ACCESS_SETTINGS\` naming both.`,
  },
  deleteEmbed: {
    summary: 'Delete an embed (and, optionally, its dashboard)',
    description: `Deletes the embed; its guest tokens stop loading it at once. With \`isDeleteDashboard=true\` its dashboard goes too, when the API created it and no other embed uses it. ${takesKey}`,
    auth: DATA_APP_KEY,
    errors: [[400, 'INVALID_REQUEST_BODY', deleteRefused]],
    returns: 'The id of the deleted embed.',
  },
  deleteEmbedOlderLegacy: {
    summary: 'Delete an embed (older legacy path)',
    description: `The older path of \`DELETE /api/v2/data-app/embeds\`: \`{ embedId, isDeleteDashboard? }\` in the body (typed), or \`?embedId=&isDeleteDashboard=\` in the query string; the body wins. ${takesKey}`,
    auth: DATA_APP_KEY,
    errors: [[400, 'INVALID_REQUEST_BODY', `${deleteRefused} Also when no embedId is given.`]],
    returns: 'The id of the deleted embed.',
    deprecated: true,
  },
  renameEmbed: {
    summary: 'Rename an embed (and, optionally, its dashboard)',
    description: `Sets the embed's name; with \`isRenameDashboard: true\` its dashboard gets the name too. ${takesKey}`,
    auth: DATA_APP_KEY,
    errors: [[400, 'INVALID_EMBED_ID']],
    returns: 'The id and the new name.',
  },
  exportEmbed,
  exportEmbedLegacy: legacy(exportEmbed, 'GET /api/v2/data-app/embeds/export'),
  exportEmbedLegacyBody: {
    ...legacy(exportEmbed, 'GET /api/v2/data-app/embeds/export'),
    summary: 'Export an embed with its dashboard document (legacy, typed body)',
  },
  createDashboardEmbed: dashboardEmbed,
  createDashboardEmbedLegacy: legacy(dashboardEmbed, 'POST /api/v2/data-app/dashboard-embeds'),
})
