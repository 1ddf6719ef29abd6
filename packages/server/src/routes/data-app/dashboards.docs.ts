import { DATA_APP_KEY, operations } from '../../schemas/openapi.js'

const listing =
  'The dashboards this data app embeds (name, dashboardId, embedId); pages of 10 when paginating. Takes the data app API key.'

/** Dashboards and metrics lists; data app key. */
export const docs = operations('dashboards', {
  listDashboards: {
    summary: 'List the dashboards of the data app',
    description: `${listing} \`dashboardNames\` (comma-separated) keeps only those names.`,
    auth: DATA_APP_KEY,
  },
  listDashboardsLegacy: {
    summary: 'List the dashboards of the data app (legacy, typed body)',
    description: `The legacy form of \`GET /api/v2/data-app/dashboards\`, with a JSON body of typed values. ${listing}`,
    auth: DATA_APP_KEY,
    deprecated: true,
  },
  listMetrics: {
    summary: 'List the metrics of an embed that a client sees',
    description:
      "The metrics of the embed's dashboard visible to `clientId`: the shared ones and those the client created (private ones only to their `userIdentifier`). Takes the data app API key (a bad one: 400 `INVALID_DATA_APP_API_KEY`).",
    auth: DATA_APP_KEY,
    errors: [[400, 'EMBED_PARAM_ERROR']],
  },
})
