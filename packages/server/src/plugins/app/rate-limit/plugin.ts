import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { RateLimitGroup, RateLimitRule } from '../../../config.js'
import { ApiError } from '../../../errors.js'
import { clientKey, type ProxyTrust } from './client.js'
import type { RateLimitStore, WindowCount } from './stores.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route-specific limit group, applied on top of the global one. */
    rateLimitGroup?: Exclude<RateLimitGroup, 'global'>
  }
}

export interface RateLimitOptions {
  readonly rules: Readonly<Record<RateLimitGroup, RateLimitRule>>
  readonly store: RateLimitStore
  /** Routes whose pattern starts with this prefix are limited (the API, not health or docs). */
  readonly apiPrefix: string
  /** Which peers may name the client in `X-Client-IP` / `X-Forwarded-For`. */
  readonly trusts: ProxyTrust
}

/** How long requests pass unlimited after the store failed, before it is tried again. */
const STORE_RETRY_MS = 2_000

interface Outcome extends WindowCount {
  readonly group: RateLimitGroup
  readonly rule: RateLimitRule
}

/**
 * The rate limits (docs/operations.md#rate-limits): fixed windows per client, the global group on every API route and a
 * route group on top (a request must pass both). The limits belong to the route the router
 * matched, never to the URL's text: every spelling that reaches a route (percent-escapes, a
 * trailing slash, a query string, HEAD for GET) counts for it. A request that matches no route
 * counts against the global group. Register on the root instance, so that unmatched requests
 * (answered by the root's not-found handler) pass through this hook too. Headers per the IETF draft:
 * `RateLimit: limit=…, remaining=…, reset=…` for the tightest applicable limit,
 * `RateLimit-Policy` listing each, `Retry-After` on 429. If the store fails (Redis down),
 * requests pass and the failure is logged: readiness reports the store, not the users.
 */
async function rateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const { rules, store, apiPrefix, trusts } = options
  // After the store fails, let requests through without asking it for a moment, so that an
  // outage costs one slow request per interval rather than a timeout on every request.
  let bypassUntil = 0
  app.addHook('onClose', async () => store.close?.())
  // Callback-style, so that a request no limit applies to costs no promise (the hot paths with
  // RATE_LIMIT=0); the counting itself is async.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const route = request.routeOptions.url // the matched route's pattern; undefined when none matched
    const routeGroup = route === undefined ? undefined : request.routeOptions.config.rateLimitGroup
    if (route !== undefined && routeGroup === undefined && !route.startsWith(apiPrefix)) return done()
    const active: RateLimitGroup[] = rules.global.max > 0 ? ['global'] : []
    if (routeGroup && rules[routeGroup].max > 0) active.push(routeGroup)
    if (active.length === 0 || bypassUntil > Date.now()) return done()
    count(request, reply, active).then(() => done(), done)
  })

  async function count(request: FastifyRequest, reply: FastifyReply, active: RateLimitGroup[]): Promise<void> {
    const client = clientKey(request, trusts)
    let outcomes: Outcome[]
    try {
      outcomes = await Promise.all(
        active.map(async (group) => {
          const rule = rules[group]
          const count = await store.hit(`${group}:${client}`, rule.windowMs)
          return { group, rule, ...count }
        }),
      )
    } catch (err) {
      bypassUntil = Date.now() + STORE_RETRY_MS
      request.log.warn({ err }, `rate limit store unavailable; requests allowed for ${STORE_RETRY_MS} ms`)
      return
    }
    const remaining = (o: Outcome) => Math.max(0, o.rule.max - o.count)
    const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))
    const tightest = outcomes.reduce((a, b) => (remaining(b) < remaining(a) ? b : a))
    reply.header(
      'RateLimit',
      `limit=${tightest.rule.max}, remaining=${remaining(tightest)}, reset=${seconds(tightest.resetMs)}`,
    )
    reply.header('RateLimit-Policy', outcomes.map((o) => `${o.rule.max};w=${o.rule.windowMs / 1000}`).join(', '))
    const exceeded = outcomes.filter((o) => o.count > o.rule.max)
    if (exceeded.length > 0) {
      const retryAfter = Math.max(...exceeded.map((o) => seconds(o.resetMs)))
      reply.header('Retry-After', String(retryAfter))
      const group = exceeded[0] as Outcome
      throw new ApiError(
        'RATE_LIMIT_EXCEEDED',
        429,
        `Too many requests: the limit is ${group.rule.max} per ${group.rule.windowMs / 1000} s${group.group === 'global' ? '' : ` for this route group (${group.group})`}; retry in ${retryAfter} s`,
      )
    }
  }
}

export default fp(rateLimit, { name: 'strata-rate-limit' })
