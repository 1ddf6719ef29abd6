import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { principalOf, requireDataAppKey } from '../../auth/hooks.js'
import { ApiError } from '../../errors.js'
import { MetricQueryBody, MetricQueryResult } from '../../schemas/query.js'
import { secretKeyRequest } from '../../services/query/metric-requests.js'
import { sendResult } from '../metric-result.js'
import { docs } from './query.docs.js'

/** The metric query for backends (secret key): tenancy from the clientId it names. */
const metricQuery: FastifyPluginAsyncTypebox = async (app) => {
  const { embeds, dashboards, metricQueries } = app.services
  requireDataAppKey(app)

  for (const [url, doc] of [
    ['/api/v2/data-app/query', docs.queryMetric],
    ['/api/v2/dataApp/query', docs.queryMetricLegacy],
  ] as const) {
    app.post(
      url,
      {
        schema: { ...doc, body: MetricQueryBody, response: { 200: MetricQueryResult } },
      },
      async (request, reply) => {
        const { embedId } = request.body
        const dataApp = principalOf(request, 'dataApp')
        const embed = await embeds.get(embedId)
        const dashboard =
          embed?.dataAppId === dataApp.dataAppId ? await dashboards.get(embed.dashboardRowId) : undefined
        if (!embed || !dashboard) {
          throw new ApiError(
            'EMBED_PARAM_ERROR',
            400,
            `Embed ${embedId} is unknown for data app ${dataApp.dataAppName}`,
          )
        }
        const result = await metricQueries.run(secretKeyRequest(embed, dashboard, request.body))
        return sendResult(reply, result)
      },
    )
  }
}

export default metricQuery
