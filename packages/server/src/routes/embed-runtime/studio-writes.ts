import type { FastifyInstance } from 'fastify'
import { ApiError } from '../../errors.js'

/**
 * A studio token (POST /api/v2/studio/preview-token) saves nothing as an end user: the studio
 * writes what its author builds into the company's document, and a preview must not leave a
 * metric, layout, view or report in the tenant's name. Reads, and the routes named in `except`
 * (the builder's preview), still answer.
 */
export function refuseStudioWrites(app: FastifyInstance, except: readonly string[] = []): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const principal = request.principal
    const url = request.routeOptions.url ?? ''
    if (
      principal?.kind === 'guest' &&
      principal.claims.studio &&
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      !except.some((suffix) => url.endsWith(suffix))
    ) {
      return done(
        new ApiError(
          'INSUFFICIENT_PERMISSIONS',
          403,
          'A studio token saves nothing as an end user: the studio writes the dashboard document',
        ),
      )
    }
    done()
  })
}
