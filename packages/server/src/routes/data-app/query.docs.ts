import { DATA_APP_KEY, type OperationDoc, operations, WAREHOUSE_ERRORS } from '../../schemas/openapi.js'

const query = {
  summary: 'Query a metric of an embed for one client',
  description:
    "For backends: runs a metric of the embed's dashboard with the tenancy of `clientId` (table tenancy, or its database) and the given dashboard and metric filters, and answers its rows (pages of 100 with `pageNumber`). `datasourceName` / `dataMartName` pick the source in a MULTI_ workspace. Results are cached per tenant. When rows were cut at QUERY_ROW_LIMIT the answer carries `Strata-Truncated: true`. Takes the data app API key.",
  auth: DATA_APP_KEY,
  errors: [
    [400, 'EMBED_PARAM_ERROR', 'The embed is unknown for this data app, or the metric is not in it.'],
    [400, 'DATASOURCE_NAME_ERROR'],
    [400, 'DATAMART_NAME_ERROR'],
    [400, 'INVALID_REQUEST_BODY', 'Also when a filter key names no filter or a filter value does not fit its filter.'],
    ...WAREHOUSE_ERRORS,
  ],
  returns: 'The rows of the metric with their columns.',
} satisfies OperationDoc

/** The metric query of backends (data app key). */
export const docs = operations('metric query', {
  queryMetric: query,
  queryMetricLegacy: {
    ...query,
    summary: `${query.summary} (legacy path)`,
    description: `The legacy path of \`POST /api/v2/data-app/query\`. ${query.description}`,
    deprecated: true,
  },
})
