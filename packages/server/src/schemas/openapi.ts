import { Type } from '@fastify/type-provider-typebox'
import type { FastifyContextConfig, FastifySchema, RouteOptions } from 'fastify'
import type { AuthFailure, ErrorCode } from '../errors.js'
import { ERROR_MEANINGS } from './error-meanings.js'

/**
 * What `/openapi.json` says about each operation. A route spreads the entry of its operation
 * into its schema (`schema: { ...docs.createDatasource, body, response: { 200: … } }`); the
 * `onRoute` hook `documentFailures` (app.ts) then adds the error responses the route can answer:
 * the ones every route of its kind answers (validation, its token, body size and type, rate
 * limit, 500, 503), derived from the route itself, plus the ones its service throws, listed
 * here per operation.
 */

/** A bearer scheme of `components.securitySchemes` and what a bad token answers by default. */
export interface Auth {
  readonly scheme: 'adminToken' | 'serviceToken' | 'dataAppKey' | 'guestToken'
  /** Unless the route's `config.authFailure` says otherwise (docs/api.md#token-kinds-per-route-group). */
  readonly failure: AuthFailure
}

export const ADMIN_TOKEN: Auth = { scheme: 'adminToken', failure: { code: 'AUTHENTICATION_ERROR', status: 401 } }
export const SERVICE_TOKEN: Auth = { scheme: 'serviceToken', failure: { code: 'AUTHENTICATION_ERROR', status: 401 } }
export const DATA_APP_KEY: Auth = { scheme: 'dataAppKey', failure: { code: 'INVALID_DATA_APP_API_KEY', status: 401 } }
export const GUEST_TOKEN: Auth = { scheme: 'guestToken', failure: { code: 'AUTHENTICATION_ERROR', status: 401 } }

/** A failure the operation's service can answer: status, code and, for this operation, when. */
export type OperationError = readonly [status: number, code: ErrorCode, when?: string]

/** What an operation that runs a statement on the warehouse (for a tenant) can answer besides its own. */
export const WAREHOUSE_ERRORS: readonly OperationError[] = [
  [400, 'DATASOURCE_CONNECTION_ERROR'],
  [400, 'QUERY_ERROR'],
  [400, 'QUERY_TIMEOUT'],
  [
    400,
    'CLIENT_ID_ERROR',
    'clientId cannot select a tenant: "None" where a tenancy is configured, or no database of the datasource under DATABASE tenancy.',
  ],
]

export interface OperationDoc {
  /** One line. */
  readonly summary: string
  /** What it does, which token it takes, notable behaviour (Markdown). */
  readonly description: string
  /** The token it takes; absent for the few open operations. */
  readonly auth?: Auth
  /** Beyond the failures derived from the route (see documentFailures). */
  readonly errors?: readonly OperationError[]
  /** What the 2xx answer is, when more than "Success" is worth saying. */
  readonly returns?: string
  readonly deprecated?: true
}

const OPERATION = Symbol('strata.operation')

/** The OpenAPI part of a route schema, carrying its OperationDoc for documentFailures. */
export interface OperationSchema {
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly tags: readonly string[]
  readonly security: readonly Record<string, readonly string[]>[]
  readonly deprecated?: boolean
  readonly [OPERATION]: OperationDoc
}

/** The operations of one tag, keyed by their operationId (camelCase, stable: clients name methods after it). */
export function operations<const K extends string>(
  tag: string,
  docs: Record<K, OperationDoc>,
): Record<K, OperationSchema> {
  const out = {} as Record<K, OperationSchema>
  for (const operationId of Object.keys(docs) as K[]) {
    const doc = docs[operationId]
    out[operationId] = {
      operationId,
      summary: doc.summary,
      description: doc.description,
      tags: [tag],
      // an explicit [] says "no token" (an absent security would inherit a global one)
      // the organization routes take the admin's access token too (auth/hooks.ts, requireServiceToken)
      security: !doc.auth
        ? []
        : doc.auth.scheme === 'serviceToken'
          ? [{ serviceToken: [] }, { adminToken: [] }]
          : [{ [doc.auth.scheme]: [] }],
      ...(doc.deprecated ? { deprecated: true } : {}),
      [OPERATION]: doc,
    }
  }
  return out
}

type RouteSchema = FastifySchema & { [OPERATION]?: OperationDoc; response?: Record<string, unknown> }

/**
 * `onRoute` hook (app.ts): completes the responses of a route that carries an OperationDoc
 * with every failure it can answer, each `{ $ref: ErrorResponse }` described by its codes, and
 * describes its 2xx answer. A status the route declares itself is left as it is.
 */
export function documentFailures(route: RouteOptions): void {
  const schema = route.schema as RouteSchema | undefined
  const doc = schema?.[OPERATION]
  if (!schema || !doc) return
  // per status, per code: the texts the operation gives (a text starting "Also" adds to the meaning)
  const failures = new Map<number, Map<ErrorCode, string[]>>()
  const add = (status: number, code: ErrorCode, when?: string) => {
    const codes = failures.get(status) ?? new Map<ErrorCode, string[]>()
    failures.set(status, codes)
    const texts = codes.get(code) ?? []
    codes.set(code, texts)
    if (when !== undefined) texts.push(when)
  }
  const describe = (code: ErrorCode, texts: readonly string[]) =>
    (texts.every((t) => t.startsWith('Also')) ? [ERROR_MEANINGS[code], ...texts] : texts).join(' ')
  const readsBody = [route.method].flat().some((m) => m !== 'GET' && m !== 'HEAD')
  // a body (malformed JSON included), a query string or a path parameter can fail validation
  if (readsBody || schema.querystring || schema.params) add(400, 'INVALID_REQUEST_BODY')
  // JSON bodies only, up to BODY_LIMIT (a route with its own `consumes` reads its body itself)
  if (readsBody && !schema.consumes) {
    add(413, 'PAYLOAD_TOO_LARGE')
    add(415, 'UNSUPPORTED_MEDIA_TYPE')
  }
  // a route that takes any body still refuses a Content-Type header that is no media type (`;;;`)
  if (readsBody && schema.consumes) add(415, 'UNSUPPORTED_MEDIA_TYPE', 'The Content-Type header is not a media type.')
  const config = route.config as FastifyContextConfig | undefined
  if (doc.auth) {
    const failure = config?.authFailure ?? doc.auth.failure
    add(failure.status, failure.code)
  }
  for (const [status, code, when] of doc.errors ?? []) add(status, code, when)
  if (route.url.includes('/api/')) add(429, 'RATE_LIMIT_EXCEEDED')
  if (config?.selfHostedOnly) add(500, 'SELFHOSTED_APP_ERROR')
  add(500, 'INTERNAL_SERVER_ERROR')
  add(503, 'SERVICE_UNAVAILABLE')

  const responses: Record<string, unknown> = {}
  for (const [status, raw] of Object.entries(schema.response ?? {})) {
    const response = raw as Record<string, unknown>
    responses[status] =
      Number(status) < 300 && response['x-response-description'] === undefined && response.description === undefined
        ? { ...response, 'x-response-description': doc.returns ?? 'Success' }
        : response
  }
  for (const [status, codes] of [...failures].sort(([a], [b]) => a - b)) {
    if (responses[status] !== undefined) continue
    const lines = [...codes].map(([code, texts]) => `- \`${code}\`: ${describe(code, texts)}`)
    responses[status] = Type.Ref('ErrorResponse', { description: lines.join('\n') })
  }
  schema.response = responses
}

/**
 * Route config for a route that validates a lenient schema (its service checks the rest and
 * words the errors): the document shows the precise `body` and 200 answer instead, so that a
 * generated client is typed.
 */
export function documentedAs(shown: {
  readonly body?: object
  readonly ok?: object
}): Pick<FastifyContextConfig, 'swaggerTransform'> {
  return {
    swaggerTransform: ({ schema, url }) => {
      const current = schema as RouteSchema
      const ok = current.response?.[200] as Record<string, unknown> | undefined
      const description = ok?.['x-response-description'] ?? ok?.description
      // a `content` map (another media type) is described by `description`, a schema by the x- key
      const okShown =
        shown.ok &&
        ('content' in shown.ok ? { ...shown.ok, description } : { ...shown.ok, 'x-response-description': description })
      return {
        schema: {
          ...current,
          ...(shown.body ? { body: shown.body } : {}),
          ...(okShown ? { response: { ...current.response, 200: okShown } } : {}),
        },
        url,
      }
    },
  }
}
