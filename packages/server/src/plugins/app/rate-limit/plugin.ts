import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { RateLimitGroup, RateLimitRule } from '../../../config.js'
import { ApiError } from '../../../errors.js'
import { clientKeys, type ProxyTrust } from './client.js'
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

/** The limits a kind of route counts against, with what of their headers is known in advance. */
interface Plan {
  readonly groups: readonly RateLimitGroup[]
  readonly rules: readonly RateLimitRule[]
  /** The store's key prefix per group (`global:`). */
  readonly prefixes: readonly string[]
  /** `RateLimit-Policy`, constant for the plan. */
  readonly policy: string
}

function plan(groups: readonly RateLimitGroup[], rules: RateLimitOptions['rules']): Plan | undefined {
  const active = groups.filter((group) => rules[group].max > 0)
  if (active.length === 0) return undefined
  const ruled = active.map((group) => rules[group])
  return {
    groups: active,
    rules: ruled,
    prefixes: active.map((group) => `${group}:`),
    policy: ruled.map((rule) => `${rule.max};w=${rule.windowMs / 1000}`).join(', '),
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

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
 *
 * Per request, with the limiter on (as shipped) and the memory store, the work is a lookup: the
 * plan of each kind of route (its groups, key prefixes and policy header) is made once here,
 * the client's key once per connection (`clientKeys`), and the count is a Map lookup and an
 * increment answered synchronously (`hitSync`): no promise, no closure. With Redis the count is
 * one round trip, awaited.
 */
async function rateLimit(app: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const { rules, store, apiPrefix } = options
  const clientOf = clientKeys(options.trusts)
  const globalPlan = plan(['global'], rules)
  const groupPlans = new Map<RateLimitGroup, Plan | undefined>()
  for (const group of Object.keys(rules) as RateLimitGroup[]) {
    if (group !== 'global') groupPlans.set(group, plan(['global', group], rules))
  }
  const hitSync = store.hitSync?.bind(store)
  // After the store fails, let requests through without asking it for a moment, so that an
  // outage costs one slow request per interval rather than a timeout on every request.
  let bypassUntil = 0
  app.addHook('onClose', async () => store.close?.())

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const route = request.routeOptions.url // the matched route's pattern; undefined when none matched
    const routeGroup = route === undefined ? undefined : request.routeOptions.config.rateLimitGroup
    if (route !== undefined && routeGroup === undefined && !route.startsWith(apiPrefix)) return done()
    const limits = routeGroup === undefined ? globalPlan : groupPlans.get(routeGroup)
    if (limits === undefined || (bypassUntil !== 0 && bypassUntil > Date.now())) return done()
    const client = clientOf(request)
    if (hitSync !== undefined) {
      const first = hitSync(limits.prefixes[0] + client, (limits.rules[0] as RateLimitRule).windowMs)
      const second =
        limits.groups.length > 1
          ? hitSync(limits.prefixes[1] + client, (limits.rules[1] as RateLimitRule).windowMs)
          : undefined
      return done(judge(reply, limits, first, second))
    }
    Promise.all(
      limits.groups.map((_, i) => store.hit(limits.prefixes[i] + client, (limits.rules[i] as RateLimitRule).windowMs)),
    ).then(
      (counts) => done(judge(reply, limits, counts[0] as WindowCount, counts[1])),
      (err: unknown) => {
        bypassUntil = Date.now() + STORE_RETRY_MS
        request.log.warn({ err }, `rate limit store unavailable; requests allowed for ${STORE_RETRY_MS} ms`)
        done()
      },
    )
  })
}

/**
 * Writes the headers of the plan's counts (one per group, in its order) and answers the error
 * of a request over a limit, if it is.
 */
function judge(reply: FastifyReply, limits: Plan, first: WindowCount, second?: WindowCount): ApiError | undefined {
  const firstRule = limits.rules[0] as RateLimitRule
  const firstLeft = Math.max(0, firstRule.max - first.count)
  let tightest = first
  let tightestRule = firstRule
  let tightestLeft = firstLeft
  if (second !== undefined) {
    const secondRule = limits.rules[1] as RateLimitRule
    const secondLeft = Math.max(0, secondRule.max - second.count)
    if (secondLeft < firstLeft) {
      tightest = second
      tightestRule = secondRule
      tightestLeft = secondLeft
    }
  }
  reply.header('RateLimit', `limit=${tightestRule.max}, remaining=${tightestLeft}, reset=${seconds(tightest.resetMs)}`)
  reply.header('RateLimit-Policy', limits.policy)
  const firstOver = first.count > firstRule.max
  const secondOver = second !== undefined && second.count > (limits.rules[1] as RateLimitRule).max
  if (!firstOver && !secondOver) return undefined
  const retryAfter = Math.max(
    firstOver ? seconds(first.resetMs) : 0,
    secondOver ? seconds((second as WindowCount).resetMs) : 0,
  )
  reply.header('Retry-After', String(retryAfter))
  const index = firstOver ? 0 : 1
  const group = limits.groups[index] as RateLimitGroup
  const rule = limits.rules[index] as RateLimitRule
  return new ApiError(
    'RATE_LIMIT_EXCEEDED',
    429,
    `Too many requests: the limit is ${rule.max} per ${rule.windowMs / 1000} s${group === 'global' ? '' : ` for this route group (${group})`}; retry in ${retryAfter} s`,
  )
}

export default fp(rateLimit, { name: 'strata-rate-limit' })
