import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import { ApiError } from '../../errors.js'
import { TRUNCATED_HEADER } from '../metric-result.js'

/** Response headers the host page's script may read: the row-cap mark, the 429 back-off, the id to quote. */
const EXPOSED_HEADERS = `${TRUNCATED_HEADER}, retry-after, x-request-id`
/** A refused origin is logged at most once a minute per origin and data app. */
const REFUSAL_LOG_INTERVAL_MS = 60_000

/**
 * CORS for the embed runtime, from the data apps' whitelist-domains (docs/runtime-api.md#cors), installed
 * in the runtime's route context (routes, preflights and its 404s).
 *
 * The headers are written in `onSend`, which runs for every answer of this context wherever it
 * was decided: a 200, a 401 from the guest-token check (`onRequest`), a 429 from the rate limiter
 * or a 503 while draining (both before any of this context's hooks), a 400 from validation, a 403
 * or a 500 from the error handler, a 404 for an unknown runtime path. A browser reads none of
 * these without `Access-Control-Allow-Origin`: it would see a network error instead, so the web
 * component could never tell an expired token (401 → `strata-token-expired`) from an outage.
 *
 * Which origin is allowed:
 * - a request whose guest token verified: the token's own data app must whitelist the origin;
 *   otherwise the request is refused (403 `UNAUTHORIZED`) and the answer carries no CORS headers;
 * - a request with no valid token (a preflight, which never carries one; a token expired, revoked
 *   or malformed; a 429 before the token is read; an unknown path): there is no data app to ask,
 *   so the origin is allowed when *some* data app whitelists it, as preflights always were. This
 *   reveals nothing: such answers are errors whose bodies name no data app, no tenant and no row,
 *   and a whitelist is not a secret anyway (the tokens are bearer tokens; CORS only decides which
 *   pages may read answers in a browser). Refusing them instead would break the documented token
 *   refresh on every cross-origin page.
 * - same-origin requests (Origin's host = Host) need no whitelist and get no CORS headers.
 *
 * A refused origin is logged at warn with the whitelist that refused it, since the browser shows
 * the page only a network error.
 *
 * Why not `@fastify/cors`: it decides in a request hook (at the latest `preSerialization`, which
 * errors skip), so an answer raised before its hook carries no headers unless it runs first of
 * all — before the rate limiter and the token check, where the token's data app is not known.
 * It also adds a catch-all `OPTIONS *` route to the whole API and answers a preflight without
 * `Access-Control-Request-Method` with a text/plain 400, outside the error contract.
 */
export function corsForGuests(app: FastifyInstance): void {
  const { dataApps } = app.services
  const logged = new LRUCache<string, true>({ max: 1_000, ttl: REFUSAL_LOG_INTERVAL_MS })
  /** Requests whose token's data app already allowed the origin (preHandler): onSend does not ask again. */
  const allowedByToken = new WeakSet<FastifyRequest>()

  // Preflights carry no token: answered here, before the token check of the routes.
  // (Hooks here are callback-style: a request without an Origin header costs no promise.)
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'OPTIONS') return reply.status(204).send()
    done()
  })

  // A valid token used from an origin its own data app does not whitelist is refused.
  app.addHook('preHandler', (request, _reply, done) => {
    const origin = crossOrigin(request)
    const principal = request.principal
    if (origin === undefined || principal?.kind !== 'guest') return done()
    dataApps.allows(principal.claims.dataAppId, origin).then((allowed) => {
      if (!allowed) {
        return done(
          new ApiError(
            'UNAUTHORIZED',
            403,
            `Origin ${origin.slice(0, 200)} is not in the data app's whitelist-domains`,
          ),
        )
      }
      allowedByToken.add(request)
      done()
    }, done)
  })

  app.addHook('onSend', (request, reply, payload, done) => {
    appendVary(reply, 'origin')
    const origin = crossOrigin(request)
    if (origin === undefined) return done(null, payload)
    corsHeaders(request, reply, origin).then(() => done(null, payload), done)
  })

  /** The CORS headers of a cross-origin answer, when the origin is allowed; a refusal is logged (once a minute). */
  async function corsHeaders(request: FastifyRequest, reply: FastifyReply, origin: string): Promise<void> {
    const principal = request.principal?.kind === 'guest' ? request.principal : undefined
    let allowed: boolean
    try {
      allowed =
        allowedByToken.has(request) ||
        (principal ? await dataApps.allows(principal.claims.dataAppId, origin) : await dataApps.anyAllows(origin))
    } catch (err) {
      request.log.warn({ err, origin: origin.slice(0, 200) }, 'CORS: the whitelist could not be read; no CORS headers')
      return
    }
    if (allowed) {
      reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED_HEADERS)
      if (request.method === 'OPTIONS') {
        reply
          .header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS')
          .header('access-control-allow-headers', 'authorization, content-type')
          .header('access-control-max-age', '600')
      }
      return
    }
    const dataAppId = principal?.claims.dataAppId
    const key = `${dataAppId ?? '*'} ${origin}`
    if (!logged.has(key)) {
      logged.set(key, true)
      if (principal) {
        const whitelist = await dataApps.cachedWhitelist(principal.claims.dataAppId).catch(() => [])
        request.log.warn(
          { origin: origin.slice(0, 200), dataApp: principal.claims.dataAppName, whitelist },
          `CORS: origin ${origin.slice(0, 200)} refused: data app ${principal.claims.dataAppName} whitelists ${whitelist.length > 0 ? whitelist.join(', ') : 'no origin'} (PUT /api/v2/data-app/whitelist-domains)`,
        )
      } else {
        request.log.warn(
          { origin: origin.slice(0, 200), whitelist: null },
          `CORS: origin ${origin.slice(0, 200)} refused: no data app whitelists it (PUT /api/v2/data-app/whitelist-domains)`,
        )
      }
    }
  }
}

/** The request's Origin when it is another origin than the server's own (Host). */
function crossOrigin(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin
  if (origin === undefined) return undefined
  try {
    return new URL(origin).host === request.headers.host ? undefined : origin
  } catch {
    return origin
  }
}

function appendVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary')
  const list = current === undefined ? '' : String(current)
  if (list.split(',').some((v) => v.trim().toLowerCase() === name || v.trim() === '*')) return
  reply.header('vary', list ? `${list}, ${name}` : name)
}
