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
  listDashboardsOlderLegacy: {
    summary: 'List the dashboards of the data app (older legacy path)',
    description: `The older path of \`GET /api/v2/data-app/dashboards\`, with a JSON body of typed values (as the legacy \`POST /api/v2/data-app/dashboards\`). ${listing}`,
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
  listMetricsLegacy: {
    summary: 'List the metrics of an embed that a client sees (legacy, typed body)',
    description:
      'The older path of `GET /api/v2/data-app/metrics`, with its fields in a JSON body of typed values (`isPagination` a boolean, `pageNumber` a number). Takes the data app API key (a bad one: 400 `INVALID_DATA_APP_API_KEY`).',
    auth: DATA_APP_KEY,
    errors: [[400, 'EMBED_PARAM_ERROR']],
    deprecated: true,
  },
  setMetricPublished: {
    summary: "Publish or unpublish an end user's metric",
    description:
      'Sets whether a metric end users made in the embed (`u_…`, whatever their tenant) is published: `isPublished: true` shows it to every user of its tenant (a private one becomes shared), `false` hides it from all but its creator; it is kept, and the metrics list shows it with `isPublished: false`. The metrics of the dashboard itself are always published: `true` changes nothing, `false` is refused. Takes the data app API key.',
    auth: DATA_APP_KEY,
    errors: [
      [400, 'INVALID_METRIC_ID', 'This data app has no embed `embedId`, or the embed no metric `metricId`.'],
      [400, 'INVALID_REQUEST_BODY', "Also when `isPublished: false` names one of the dashboard's own metrics."],
    ],
    returns: 'The id of the metric.',
  },
})
