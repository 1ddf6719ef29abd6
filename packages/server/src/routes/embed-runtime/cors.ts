import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../../errors.js'
import { TRUNCATED_HEADER } from '../metric-result.js'

/**
 * CORS for the browser routes, from the data app's whitelist-domains (DESIGN.md §2.1). A
 * preflight carries no token, so it is answered for any origin some data app allows; the real
 * request is then checked against the token's own data app. Same-origin requests pass.
 */
export function corsForGuests(app: FastifyInstance): void {
  const { dataApps } = app.services
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin
    if (origin === undefined || sameOrigin(request, origin)) return
    if (request.method === 'OPTIONS') {
      if (await dataApps.anyAllows(origin)) {
        reply
          .header('access-control-allow-origin', origin)
          .header('access-control-allow-methods', 'GET, POST, OPTIONS')
          .header('access-control-allow-headers', 'authorization, content-type')
          .header('access-control-max-age', '600')
          .header('vary', 'origin')
      }
      return reply.status(204).send()
    }
  })
  app.addHook('preHandler', async (request, reply) => {
    const origin = request.headers.origin
    if (origin === undefined || sameOrigin(request, origin)) return
    const principal = request.principal
    if (principal?.kind !== 'guest') return
    if (!(await dataApps.allows(principal.claims.dataAppId, origin))) {
      throw new ApiError(
        'UNAUTHORIZED',
        403,
        `Origin ${origin.slice(0, 200)} is not in the data app's whitelist-domains`,
      )
    }
    reply
      .header('access-control-allow-origin', origin)
      .header('access-control-expose-headers', TRUNCATED_HEADER)
      .header('vary', 'origin')
  })
}

function sameOrigin(request: FastifyRequest, origin: string): boolean {
  try {
    return new URL(origin).host === request.headers.host
  } catch {
    return false
  }
}

/** Whether a whitelist entry (`host`, `*.host`, `host:port`) admits an origin. */
export function originAllowed(entries: readonly string[], origin: string): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  const host = url.hostname.toLowerCase()
  const port = url.port
  return entries.some((entry) => {
    const [pattern, entryPort] = entry.toLowerCase().split(':') as [string, string | undefined]
    if (entryPort !== undefined && entryPort !== port) return false
    return pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern
  })
}
