import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { LiveResponse, ReadyResponse } from '../../schemas/health.js'
import { checkReadiness } from '../../services/health/readiness.js'

/** Liveness and readiness probes; no authentication, not rate limited. */
const health: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app
  app.get(
    '/health/live',
    { schema: { tags: ['health'], summary: 'Liveness', response: { 200: LiveResponse } } },
    async () => ({ status: 'live' as const }),
  )
  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200 when every configured check is UP, else 503',
        response: { 200: ReadyResponse, 503: ReadyResponse },
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
