import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { principalOf, requireGuestToken } from '../../auth/hooks.js'
import { notFound } from '../../plugins/app/error-handler.js'
import { DashboardFilterSchema, LayoutItemSchema, MetricFormatsSchema } from '../../query/document-schema.js'
import { documentedAs } from '../../schemas/openapi.js'
import { MetricQueryResult, RuntimeQueryBody } from '../../schemas/query.js'
import { EndUserMetricDefinition } from '../../schemas/self-serve.js'
import { fieldsError } from '../../validation/fields.js'
import { sendResult } from '../metric-result.js'
import { corsForGuests } from './cors.js'
import { docs } from './runtime.docs.js'
import selfServeMetrics from './self-serve-metrics.js'

const Params = Type.Object({ embedId: Type.String({ minLength: 1, maxLength: 200 }) })
const MetricParams = Type.Object({
  embedId: Type.String({ minLength: 1, maxLength: 200 }),
  metricId: Type.String({ minLength: 1, maxLength: 200 }),
})
const DownloadQuery = Type.Object(
  { dashboardFilter: Type.Optional(Type.String({ maxLength: 100_000, description: 'JSON object' })) },
  { additionalProperties: false },
)
const RuntimeEmbed = Type.Object({
  embedId: Type.String(),
  embedType: Type.String(),
  name: Type.String(),
  dashboard: Type.Object({
    dashboardId: Type.String(),
    name: Type.String(),
    filters: Type.Immutable(
      Type.Array(
        Type.Object({
          ...DashboardFilterSchema.properties,
          locked: Type.Optional(Type.Literal(true, { description: 'The token fixes its value' })),
          pinned: Type.Optional(Type.Unknown({ description: 'The fixed value, when the token shows it' })),
          isShowOnUrl: Type.Optional(Type.Boolean()),
        }),
      ),
    ),
    layout: Type.Immutable(Type.Array(LayoutItemSchema)),
  }),
  metrics: Type.Immutable(
    Type.Array(
      Type.Object({
        metricId: Type.String(),
        name: Type.String(),
        chart: Type.Unknown(),
        formats: Type.Optional(MetricFormatsSchema),
        timeGrains: Type.Optional(
          Type.Record(Type.String(), Type.String(), {
            description: 'Dimension name → its timeGrain (hour, day, week, month, quarter, year), for axis labels',
          }),
        ),
        origin: Type.Union([Type.Literal('company'), Type.Literal('tenant')], {
          description:
            "company: authored in the dashboard (this tenant's own version of one included); tenant: made by an end user",
        }),
        isPublished: Type.Boolean(),
        visibility: Type.Union([Type.Literal('shared'), Type.Literal('private')]),
        createdByUser: Type.Union([Type.String(), Type.Null()]),
        definition: Type.Optional(EndUserMetricDefinition),
      }),
    ),
  ),
  archivedMetrics: Type.Immutable(
    Type.Array(Type.Object({ metricId: Type.String(), name: Type.String() }), {
      description: 'Archived for or by this tenant, to restore from',
    }),
  ),
  permissions: Type.Object(
    {
      download: Type.Boolean(),
      underlyingData: Type.Boolean(),
      endUserDashboardFilter: Type.Boolean(),
      showSideBar: Type.Boolean(),
      showDashboardName: Type.Boolean(),
      metricCreation: Type.Boolean(),
      metricCreationMode: Type.Union([Type.Literal('DRAG_DROP'), Type.Literal('CHAT')]),
      metricUpdate: Type.Boolean(),
      metricDeletion: Type.Boolean(),
      manageMetrics: Type.Boolean({ description: 'Hide, publish and restore metrics' }),
      archiveMetrics: Type.Boolean(),
      customizeLayout: Type.Boolean(),
      dashboardViews: Type.Boolean(),
      emailReports: Type.Boolean(),
      aiPilot: Type.Boolean(),
    },
    { description: "What the browser may do with this embed: the token's permissions AND the embed's settings" },
  ),
  timezone: Type.String(),
})

/**
 * The web component's API (DESIGN.md §2.4), registered under the prefix
 * `/api/v2/embed/runtime`: CORS from the data apps' whitelists for every answer of this context
 * (its 404s included), then the routes, guest token only.
 */
const runtime: FastifyPluginAsyncTypebox = async (app) => {
  corsForGuests(app)
  app.setNotFoundHandler(notFound)
  // Preflights: answered by the CORS hook before any token check.
  app.options('/*', { schema: { hide: true } }, async (_request, reply) => reply.status(204).send())
  await app.register(routes)
}

const routes: FastifyPluginAsyncTypebox = async (app) => {
  const service = app.services.runtime
  requireGuestToken(app)
  const claims = (request: Parameters<typeof principalOf>[0]) => principalOf(request, 'guest').claims
  await app.register(selfServeMetrics)

  app.get(
    '/:embedId',
    {
      schema: { ...docs.getRuntimeEmbed, params: Params, response: { 200: RuntimeEmbed } },
    },
    async (request) => service.load(claims(request), request.params.embedId),
  )
  app.post(
    '/:embedId/query',
    {
      schema: {
        ...docs.queryRuntimeMetric,
        params: Params,
        body: RuntimeQueryBody,
        response: { 200: MetricQueryResult },
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
        params: Params,
        body: RuntimeQueryBody,
        response: { 200: MetricQueryResult },
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
      const dashboardFilter = parseFilter(request.query.dashboardFilter)
      const result = await service.download(
        claims(request),
        embedId,
        metricId,
        dashboardFilter ? { dashboardFilter } : {},
      )
      const file = `${metricId.replace(/[^A-Za-z0-9_.-]/g, '_')}.csv`
      sendResult(reply, result)
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file}"`)
        .send(result.csv)
    },
  )
}

function parseFilter(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // fall through
  }
  throw fieldsError([{ in: 'query', path: 'dashboardFilter', problem: 'must be a JSON object' }])
}

export default runtime
