import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError, type AuthFailure } from '../errors.js'
import { MAX_SEALED_TOKEN } from '../services/guest-tokens/guest-tokens.js'
import type { Principal, PrincipalKind, PrincipalOf } from './principal.js'
import { andThen, type MaybePromise } from './token-cache.js'
import { missingTokenMessage, rejectedTokenMessage, tokenForm } from './token-kinds.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How this route answers a missing or bad credential (docs/api.md#token-kinds-per-route-group). */
    authFailure?: AuthFailure
  }
  interface FastifyRequest {
    principal: Principal | null
  }
}

/** A credential's principal; from memory without a promise on the hot paths. */
export type Verifier<K extends PrincipalKind> = (token: string) => MaybePromise<PrincipalOf<K> | undefined>

const BEARER = /^Bearer\s+(\S+)\s*$/i

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  return header === undefined ? undefined : BEARER.exec(header)?.[1]
}

/**
 * Installs, in one encapsulated route context, the check for one kind of token. Routes of
 * that context can then only be reached with that kind: a guest-token route never accepts
 * a secret key by accident, and vice versa.
 */
export function requireAuth<K extends PrincipalKind>(
  app: FastifyInstance,
  kind: K,
  verify: Verifier<K>,
  defaultFailure: AuthFailure,
): void {
  // With several instances, a revocation made on another one (a key, a token, an embed) arrives
  // on the Redis bus. It was sent before the revoking request was answered, so it is already
  // readable here; yield once to the event loop so that it is applied before the credential and
  // the caches behind it are consulted (otherwise a request read in the same turn could still
  // be served from the stale cache).
  const sharedBus = app.services.redis !== undefined
  // Callback-style, and synchronous when the verifier answers from memory: no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    const failure = request.routeOptions.config.authFailure ?? defaultFailure
    const token = bearer(request)
    if (token === undefined) return done(new ApiError(failure.code, failure.status, missingTokenMessage(kind)))
    const check = (principal: PrincipalOf<K> | undefined) => {
      if (!principal) {
        return done(new ApiError(failure.code, failure.status, rejectedTokenMessage(kind, token, invalidMessage[kind])))
      }
      request.principal = principal
      done()
    }
    if (token.length > maxTokenLength[kind]) return check(undefined)
    if (sharedBus) {
      new Promise((resolve) => setImmediate(resolve)).then(() => verify(token)).then(check, done)
      return
    }
    const verified = verify(token)
    if (verified instanceof Promise) verified.then(check, done)
    else check(verified)
  })
}

/** Longer bearer values are refused unread (sealed guest tokens carry their claims). */
const maxTokenLength: Record<PrincipalKind, number> = {
  admin: 512,
  service: 512,
  dataApp: 512,
  guest: MAX_SEALED_TOKEN,
}

const invalidMessage: Record<PrincipalKind, string> = {
  admin: 'The admin access token is invalid or expired',
  service: 'The service token is invalid or expired',
  dataApp: 'The data app API key is invalid or expired',
  guest: 'The guest token is invalid, expired or revoked',
}

/** The principal a `requireAuth(kind)` context guarantees. */
export function principalOf<K extends PrincipalKind>(request: FastifyRequest, kind: K): PrincipalOf<K> {
  const principal = request.principal
  if (principal?.kind !== kind) throw new Error(`route expected a ${kind} principal`)
  return principal as PrincipalOf<K>
}

/**
 * The service-token context used by every organization-level route group. The admin's access
 * token (a JWT from sign-in) is taken too, acting for the admin's organization: the admin may
 * create the service token anyway, and the studio works with the signed-in session instead of
 * holding (or replacing) the organization's service token.
 */
export function requireServiceToken(app: FastifyInstance, failure: AuthFailure = SERVICE_FAILURE): void {
  const { admin, serviceTokens } = app.services
  requireAuth(
    app,
    'service',
    (token) => {
      if (tokenForm(token) !== 'admin') return serviceTokens.verify(token)
      return admin
        .verifyAccessToken(token)
        .then((principal) => principal && { kind: 'service' as const, organizationId: principal.organizationId })
    },
    failure,
  )
}

/** The data-app-key context; `failure` is the group's default (routes may override it). */
export function requireDataAppKey(app: FastifyInstance, failure: AuthFailure = DATA_APP_FAILURE): void {
  const { dataApps } = app.services
  requireAuth(app, 'dataApp', (key) => dataApps.verifyKey(key), failure)
}

/** The guest-token context (browser routes). */
export function requireGuestToken(app: FastifyInstance): void {
  const { guestTokens } = app.services
  requireAuth(
    app,
    'guest',
    (token) => andThen(guestTokens.verify(token), (claims) => claims && { kind: 'guest' as const, claims }),
    { code: 'AUTHENTICATION_ERROR', status: 401 },
  )
}

const SERVICE_FAILURE: AuthFailure = { code: 'AUTHENTICATION_ERROR', status: 401 }
const DATA_APP_FAILURE: AuthFailure = { code: 'INVALID_DATA_APP_API_KEY', status: 401 }
