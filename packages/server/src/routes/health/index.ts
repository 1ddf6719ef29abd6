import { type FastifyPluginAsyncTypebox, Type } from '@fastify/type-provider-typebox'
import { LiveResponse, ReadyResponse } from '../../schemas/health.js'
import { checkReadiness } from '../../services/health/readiness.js'
import { docs } from './health.docs.js'

/** Liveness and readiness probes; no authentication, not rate limited. */
const health: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app
  app.get('/health/live', { schema: { ...docs.getLiveness, response: { 200: LiveResponse } } }, async () => ({
    status: 'live' as const,
  }))
  app.get(
    '/health/ready',
    {
      schema: {
        ...docs.getReadiness,
        response: {
          200: ReadyResponse,
          // a check DOWN, or (draining) the error shape before the route runs
          503: Type.Union([ReadyResponse, Type.Ref('ErrorResponse')], {
            'x-response-description':
              'The readiness body with `status: "not_ready"` when a configured check is DOWN or UNKNOWN, or the error shape:\n- `SERVICE_UNAVAILABLE`: the server is draining after SIGTERM.',
          }),
        },
      },
    },
    async (_request, reply) => {
      const { redis } = services
      const readiness = await checkReadiness({
        config: services.config,
        pingStore: () => services.store.ping(),
        pingRedis: redis ? async () => void (await redis.ping()) : undefined,
      })
      return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness)
    },
  )
}

export default health
