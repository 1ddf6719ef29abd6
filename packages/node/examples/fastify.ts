import type { Strata } from '@strata/node'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'

/** Register after your auth hook: `app.register(guestTokenRoute(strata, 'salesapp', (req) => req.user))`. */
export function guestTokenRoute(
  strata: Strata,
  dataAppName: string,
  signedIn: (req: FastifyRequest) => { id: string; tenantId: string } | undefined,
): FastifyPluginAsync {
  return async (app) => {
    app.post('/analytics/token', async (req, reply) => {
      const user = signedIn(req)
      if (!user) return reply.code(401).send({ error: 'sign in first' })
      return strata.guestTokens.create({ dataAppName, clientId: user.tenantId, params: { userIdentifier: user.id } })
    })
  }
}
