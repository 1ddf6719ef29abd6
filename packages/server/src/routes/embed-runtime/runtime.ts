import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import {
  MetricQueryResultSchema,
  RuntimeEmbedSchema,
  RuntimeQueryBodySchema,
  UnderlyingQueryBodySchema,
} from '@strata/contract/runtime'
import { principalOf, requireGuestToken } from '../../auth/hooks.js'
import { notFound } from '../../plugins/app/error-handler.js'
import { documentedAs } from '../../schemas/openapi.js'
import { queryJsonObject } from '../../validation/json-text.js'
import { markTruncated, sendResult } from '../metric-result.js'
import ai from './ai.js'
import { corsForGuests } from './cors.js'
import filterValues from './filter-values.js'
import { EmbedParams, MetricParams } from './params.js'
import reports from './reports.js'
import { docs } from './runtime.docs.js'
import selfServeLayout from './self-serve-layout.js'
import selfServeMetrics from './self-serve-metrics.js'

/** The download's `dashboardFilter` (JSON text in the query string) is at most this many characters. */
const DASHBOARD_FILTER_MAX = 100_000
const DownloadQuery = Type.Object(
  {
    dashboardFilter: Type.Optional(
      Type.String({
        maxLength: DASHBOARD_FILTER_MAX,
        description:
          'A JSON object, read as a body is: at most 32 levels deep, no __proto__ or constructor.prototype key',
      }),
    ),
  },
  { additionalProperties: false },
)
/**
 * The web component's API (docs/runtime-api.md), registered under the prefix
 * `/api/v2/embed/runtime`: CORS from the data apps' whitelists for every answer of this context
 * (its 404s included), then the routes, guest token only.
 */
const runtime: FastifyPluginAsyncTypebox = async (app) => {
  corsForGuests(app)
  app.setNotFoundHandler(notFound)
  // Preflights: answered by the CORS hook before any token check.
  app.options('/*', { schema: { hide: true } }, async (_request, reply) => reply.status(204).send())
  await app.register(routes)
  await app.register(selfServeLayout)
  await app.register(reports)
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.runtime
  requireGuestToken(app)
  const claims = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'guest').claims
  await app.register(selfServeMetrics)
  await app.register(filterValues)
  await app.register(ai)

  app.get(
    '/:embedId',
    {
      schema: { ...docs.getRuntimeEmbed, params: EmbedParams, response: { 200: RuntimeEmbedSchema } },
    },
    async (request) => service.load(claims(request), request.params.embedId),
  )
  app.post(
    '/:embedId/query',
    {
      schema: {
        ...docs.queryRuntimeMetric,
        params: EmbedParams,
        body: RuntimeQueryBodySchema,
        response: { 200: MetricQueryResultSchema },
      },
    },
    async (request, reply) =>
      sendResult(reply, await service.query(claims(request), request.params.embedId, request.body)),
  )
  app.post(
    '/:embedId/underlying',
    {
      schema: {
        ...docs.getUnderlyingData,
        params: EmbedParams,
        body: UnderlyingQueryBodySchema,
        response: { 200: MetricQueryResultSchema },
      },
    },
    async (request, reply) =>
      sendResult(reply, await service.underlying(claims(request), request.params.embedId, request.body)),
  )
  app.get(
    '/:embedId/metrics/:metricId/download',
    {
      // the answer is CSV, its failures JSON
      config: documentedAs({ ok: { content: { 'text/csv': { schema: Type.String() } } } }),
      schema: {
        ...docs.downloadMetric,
        params: MetricParams,
        querystring: DownloadQuery,
        response: { 200: Type.String({ description: 'The metric as CSV' }) },
      },
    },
    async (request, reply) => {
      const { embedId, metricId } = request.params
      const text = request.query.dashboardFilter
      const dashboardFilter =
        text === undefined ? undefined : queryJsonObject('dashboardFilter', text, DASHBOARD_FILTER_MAX)
      const result = await service.download(
        claims(request),
        embedId,
        metricId,
        dashboardFilter ? { dashboardFilter } : {},
      )
      const file = `${metricId.replace(/[^A-Za-z0-9_.-]/g, '_')}.csv`
      markTruncated(reply, result)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}"`)
        .send(result.csv)
    },
  )
}

export default runtime
