import { type OperationError, operations, SERVICE_TOKEN } from '../../schemas/openapi.js'

const actsFor =
  'The same as the data app key route, for the data app named in the path, with the service token or the admin access token (what the studio uses, so the secret key never has to be in the browser).'
const notFound: OperationError = [400, 'DATA_APP_NOT_FOUND', 'No data app of the organization has that name.']

/** Embeds and whitelist-domains of a data app named in the path; service token (or admin access token). */
export const docs = operations('data apps', {
  listAppEmbeds: {
    summary: 'List the embeds of a data app (organization token)',
    description: `As \`GET /api/v2/data-app/embeds\`. ${actsFor}`,
    auth: SERVICE_TOKEN,
    errors: [notFound],
  },
  readAppEmbedAccess: {
    summary: 'Read the access settings of an embed of a data app (organization token)',
    description: `The embed's \`accessSettings\` as stored (what the export's \`_meta.embedDataAppAccessSetting\` shows), to fill a settings form. ${actsFor}`,
    auth: SERVICE_TOKEN,
    errors: [notFound, [404, 'EMBED_NOT_FOUND', 'The data app has no such embed.']],
  },
  createAppEmbed: {
    summary: 'Create an embed for a data app (organization token)',
    description: `As \`POST /api/v2/data-app/embeds\`: a dashboard or one of its metrics, with \`accessSettings\`. ${actsFor}`,
    auth: SERVICE_TOKEN,
    errors: [
      notFound,
      [404, 'INVALID_WORKSPACE_NAME'],
      [404, 'INVALID_DASHBOARD_ID'],
      [404, 'INVALID_METRIC_ID'],
      [404, 'INVALID_DATAMART'],
      [
        400,
        'INVALID_REQUEST_BODY',
        'Also when accessSettings lacks a field required on create (the message names it).',
      ],
    ],
    returns: 'The id of the new embed.',
  },
  updateAppEmbed: {
    summary: 'Change the access settings of an embed of a data app (organization token)',
    description: `As \`PUT /api/v2/data-app/embeds\`: a partial \`accessSettings\`, effective at once for live guest tokens. ${actsFor}`,
    auth: SERVICE_TOKEN,
    errors: [
      notFound,
      [404, 'EMBED_NOT_FOUND'],
      [403, 'INSUFFICIENT_PERMISSIONS', 'The embed belongs to another data app.'],
      [400, 'INVALID_ACCESS_SETTINGS'],
      [404, 'INVALID_WORKSPACE_NAME'],
      [404, 'INVALID_DATAMART'],
      [409, 'CONFLICTING_UPDATE'],
    ],
    returns: 'The id of the embed.',
  },
  deleteAppEmbed: {
    summary: 'Delete an embed of a data app (organization token)',
    description: `As \`DELETE /api/v2/data-app/embeds\`: its guest tokens stop at once. ${actsFor}`,
    auth: SERVICE_TOKEN,
    errors: [
      notFound,
      [
        400,
        'INVALID_REQUEST_BODY',
        'The data app has no such embed, or (with isDeleteDashboard) its dashboard cannot be deleted.',
      ],
    ],
    returns: 'The id of the deleted embed.',
  },
  listAppWhitelistDomains: {
    summary: 'List the origins allowed to load a data app’s embeds (organization token)',
    description: `As \`GET /api/v2/data-app/whitelist-domains\`. ${actsFor}`,
    auth: SERVICE_TOKEN,
    errors: [notFound],
  },
  setAppWhitelistDomains: {
    summary: 'Replace the origins allowed to load a data app’s embeds (organization token)',
    description: `As \`PUT /api/v2/data-app/whitelist-domains\`: the whole list, each entry \`host[:port]\` or \`*.host[:port]\` without a scheme or path; \`[]\` clears it. ${actsFor}`,
    auth: SERVICE_TOKEN,
    errors: [notFound],
    returns: 'The list as stored.',
  },
})
