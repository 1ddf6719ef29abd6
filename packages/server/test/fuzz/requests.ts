import fc from 'fast-check'
import { anyJson, hostileJsonText, hostileString, rawBody } from './hostile.js'
import { jsonText, type NestingInfo, nestedQueryKey, nestedValue, nesting } from './nesting.js'
import { type JsonSchema, mutated, type SchemaContext, validValue } from './schema-arbitraries.js'
import type { TokenKind } from './target.js'

/** One operation of the OpenAPI document the app serves. */
export interface Operation {
  readonly method: string
  /** OpenAPI template, e.g. `/api/v2/embed/runtime/{embedId}`. */
  readonly path: string
  readonly params: readonly { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: JsonSchema }[]
  readonly body: JsonSchema | undefined
  /** The token kind the operation takes (its first scheme); undefined when it needs none. */
  readonly security: TokenKind | undefined
  /** Every token kind it takes: the service-token routes also take the admin's access token. */
  readonly accepted: readonly TokenKind[]
  /** Status → the error codes its response documents (`- \`CODE\`: …` lines of its description). */
  readonly responses: Readonly<Record<string, readonly string[]>>
}

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, OpenApiOperation>>
  readonly components?: { readonly schemas?: Record<string, JsonSchema> }
}
interface OpenApiOperation {
  readonly parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[]
  readonly requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  readonly security?: Record<string, unknown>[]
  readonly responses?: Record<string, { description?: string }>
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const

/** The operations of an OpenAPI 3.1 document. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      const scheme = Object.keys(op.security?.[0] ?? {})[0] as TokenKind | undefined
      out.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p) => ({
          name: p.name,
          in: p.in as 'path' | 'query' | 'header',
          required: p.required === true || p.in === 'path',
          schema: p.schema,
        })),
        body: op.requestBody?.content?.['application/json']?.schema,
        security: scheme,
        accepted: (op.security ?? []).flatMap((entry) => Object.keys(entry) as TokenKind[]),
        responses: Object.fromEntries(
          Object.entries(op.responses ?? {}).map(([status, r]) => [
            status,
            [...(r.description ?? '').matchAll(/^- `([A-Z_]+)`/gm)].map((m) => m[1] as string),
          ]),
        ),
      })
    }
  }
  return out
}

export type AuthChoice =
  | { kind: 'right' }
  | { kind: 'wrong'; as: TokenKind }
  | { kind: 'garbage'; header: string }
  | {
      kind: 'none'
    }

/** A generated request, before the tokens of the moment are filled in. */
export interface FuzzRequest {
  readonly op: Operation | undefined
  readonly method: string
  readonly url: string
  readonly auth: AuthChoice
  readonly headers: Record<string, string>
  /** undefined: no body. */
  readonly payload: Buffer | string | undefined
  readonly label: string
  /** Set when a nesting mutation put deep JSON into the request: where, how deep, what shape. */
  readonly nesting?: NestingInfo
}

const TOKEN_KINDS: TokenKind[] = ['adminToken', 'serviceToken', 'dataAppKey', 'guestToken']

const GARBAGE_AUTH = [
  'Bearer',
  'Bearer ',
  'bearer x',
  'Basic YWxpY2U6cGFzcw==',
  'Bearer a b',
  'Bearer gt_',
  'Bearer sk_',
  'Bearer sk_000000000000_0000',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  'Bearer eyJhbGciOiJIUzI1NiJ9.e30.AAAA',
  `Bearer ${'x'.repeat(513)}`,
  `Bearer ${'gt_'.padEnd(5_000, 'a')}`,
  'Bearer %00',
  "Bearer ' OR 1=1 --",
  'Token abc',
  ',',
]

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/vnd.api+json',
  'application/json, text/plain',
  ';;;',
  'text/html',
]

/** Headers a client could send that a server must not trip over. */
const oddHeaders: fc.Arbitrary<Record<string, string>> = fc
  .tuple(
    fc.option(fc.constantFrom('text/html', '*/*', 'application/xml', '', 'text/html;q=1, application/json;q=0.1')),
    fc.option(fc.constantFrom('10.0.0.1', '::1', 'not an ip', '', ',,,', `${'9'.repeat(300)}`, '127.0.0.1, 10.0.0.2')),
    fc.option(fc.constantFrom('1.2.3.4, 5.6.7.8', 'unknown', '', ' , ')),
    fc.option(fc.constantFrom('x', '../../etc', 'a'.repeat(100), 'ok-id_1.2', '%00', '<script>')),
    fc.option(
      fc.constantFrom(
        'https://evil.example',
        'null',
        'http://localhost:3000',
        'file://',
        'not a url',
        'https://app.example.com',
      ),
    ),
    fc.option(fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-unknown')),
    fc.option(fc.constantFrom('keep-alive', 'close', 'upgrade')),
    fc.option(fc.constantFrom('evil.example', '', 'localhost:1', 'a'.repeat(300))),
  )
  .map(([accept, clientIp, forwarded, requestId, origin, encoding, connection, host]) => {
    const headers: Record<string, string> = {}
    if (accept !== null) headers.accept = accept
    if (clientIp !== null) headers['x-client-ip'] = clientIp
    if (forwarded !== null) headers['x-forwarded-for'] = forwarded
    if (requestId !== null) headers['x-request-id'] = requestId
    if (origin !== null) headers.origin = origin
    if (encoding !== null) headers['content-encoding'] = encoding
    if (connection !== null) headers.connection = connection
    if (host !== null) headers.host = host
    return headers
  })

/** Header-safe text: what an HTTP client can put in a header value. */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, '?')

/** A path or query value, encoded as a client would (or almost). */
function encode(value: unknown, how: number): string {
  const text = typeof value === 'string' ? value : jsonText(value)
  switch (how % 5) {
    case 0:
    case 1:
    case 2:
      return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'))
    case 3:
      // half-encoded: reserved characters left as they are, broken escapes passed through
      return headerSafe(text).replace(/[ #?]/g, (c) => encodeURIComponent(c))
    default:
      return `${encodeURIComponent(headerSafe(text))}%${['', 'G', 'E0%A4%A', '00', 'ZZ'][text.length % 5]}`
  }
}

/** A string parameter that carries JSON (`dashboardFilter` of the runtime's download): an object, in text. */
const takesJson = (schema: JsonSchema & { description?: string }) => /\bJSON\b/.test(schema.description ?? '')
const JSON_OBJECT: JsonSchema = { type: 'object', additionalProperties: {} }

type ParamValue = { value: unknown; nesting?: NestingInfo }
type Body = { payload: Buffer | string | undefined; json: boolean; nesting?: NestingInfo }

/**
 * Requests for one operation: valid, mutated, hostile or deeply nested path and query
 * parameters, a body that is valid, mutated, nested deep at one of its positions, random
 * JSON, raw bytes or absent, the right or a wrong token, and odd headers.
 */
export function requestFor(op: Operation, poolFor: (op: Operation) => SchemaContext): fc.Arbitrary<FuzzRequest> {
  const ctx = poolFor(op)
  const plain = (arb: fc.Arbitrary<unknown>): fc.Arbitrary<ParamValue> => arb.map((value) => ({ value }))
  const paramValue = (schema: JsonSchema, name: string): fc.Arbitrary<ParamValue> =>
    fc.oneof(
      { weight: 5, arbitrary: plain(validValue(schema, ctx, name)) },
      { weight: 2, arbitrary: plain(hostileString) },
      { weight: 1, arbitrary: plain(anyJson) },
    )
  const queryValue = (schema: JsonSchema, name: string): fc.Arbitrary<ParamValue> =>
    takesJson(schema)
      ? fc.oneof(
          { weight: 5, arbitrary: plain(validValue(JSON_OBJECT, ctx, name).map(jsonText)) },
          { weight: 2, arbitrary: paramValue(schema, name) },
          // malformed, prototype-poisoning, not an object, huge
          { weight: 2, arbitrary: plain(hostileJsonText) },
          // deep JSON at every nested position of the object the parameter carries
          {
            weight: 4,
            arbitrary: nestedValue(JSON_OBJECT, ctx, name).map((n) => ({
              value: n.text,
              nesting: {
                where: 'query' as const,
                at: `${name}=${n.at}`,
                depth: n.nesting.depth,
                shape: n.nesting.shape,
                json: true as const,
              },
            })),
          },
        )
      : fc.oneof(
          { weight: 8, arbitrary: paramValue(schema, name) },
          {
            weight: 1,
            arbitrary: nesting.map((n) => ({
              value: n.text,
              nesting: { where: 'query' as const, at: `${name}=(whole)`, depth: n.depth, shape: n.shape },
            })),
          },
        )
  const pathArb = fc.tuple(
    ...op.params.filter((p) => p.in === 'path').map((p) => fc.tuple(fc.constant(p.name), paramValue(p.schema, p.name))),
  )
  const queryArb = fc.tuple(
    ...op.params
      .filter((p) => p.in === 'query')
      .map((p) =>
        fc.tuple(
          fc.constant(p.name),
          p.required ? fc.option(queryValue(p.schema, p.name), { freq: 8 }) : fc.option(queryValue(p.schema, p.name)),
        ),
      ),
  )
  const extraQuery = fc.option(
    fc.oneof(
      fc.tuple(fc.constantFrom('__proto__[x]', 'constructor', 'a', 'isPagination', 'embedId', ''), hostileString),
      fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })),
    ),
    { freq: 4 },
  )
  // parameter names nested with brackets, as qs-style parsers read objects out of them
  const nestedKey = fc.oneof({ weight: 19, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: nestedQueryKey })
  const plainBody = (arb: fc.Arbitrary<unknown>): fc.Arbitrary<Body> =>
    arb.map((v) => ({ payload: stringify(v), json: true }))
  // deep JSON as the whole body, or at one nested position of a body otherwise valid
  const nestedBody: fc.Arbitrary<Body> = op.body
    ? nestedValue(op.body, ctx).map((n) => ({
        payload: n.text,
        json: true,
        nesting: { where: 'body' as const, at: n.at, depth: n.nesting.depth, shape: n.nesting.shape },
      }))
    : nesting.map((n) => ({
        payload: n.text,
        json: true,
        nesting: { where: 'body' as const, at: '(whole)', depth: n.depth, shape: n.shape },
      }))
  const bodyArb: fc.Arbitrary<Body> = op.body
    ? fc.oneof(
        { weight: 4, arbitrary: plainBody(validValue(op.body, ctx)) },
        { weight: 4, arbitrary: plainBody(mutated(op.body, ctx)) },
        { weight: 3, arbitrary: nestedBody },
        { weight: 1, arbitrary: plainBody(anyJson) },
        { weight: 1, arbitrary: rawBody.map((b) => ({ payload: b, json: true })) },
        { weight: 1, arbitrary: fc.constant({ payload: undefined, json: false }) },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant({ payload: undefined, json: false }) },
        { weight: 1, arbitrary: plainBody(anyJson) },
        { weight: 1, arbitrary: nestedBody },
        { weight: 1, arbitrary: rawBody.map((b) => ({ payload: b, json: true })) },
      )
  const authArb: fc.Arbitrary<AuthChoice> = op.security
    ? fc.oneof(
        { weight: 8, arbitrary: fc.constant({ kind: 'right' as const }) },
        {
          weight: 3,
          arbitrary: fc
            .constantFrom(...TOKEN_KINDS.filter((k) => !op.accepted.includes(k)))
            .map((as) => ({ kind: 'wrong' as const, as })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(...GARBAGE_AUTH).map((header) => ({ kind: 'garbage' as const, header })),
        },
        { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      )
    : fc.oneof(
        { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
        { weight: 1, arbitrary: fc.constantFrom(...TOKEN_KINDS).map((as) => ({ kind: 'wrong' as const, as })) },
      )
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constant('application/json; charset=utf-8') },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
  return fc
    .record({
      path: pathArb,
      query: queryArb,
      extraQuery,
      nestedKey,
      body: bodyArb,
      auth: authArb,
      contentType,
      headers: fc.option(oddHeaders, { freq: 3 }),
      how: fc.nat(),
    })
    .map(({ path, query, extraQuery, nestedKey, body, auth, contentType, headers, how }) => {
      let url = op.path
      for (const [name, { value }] of path) url = url.replace(`{${name}}`, encode(value, how))
      const pairs: string[] = []
      // the deepest nesting of the request is the one it is known by
      let nested: NestingInfo | undefined = body.nesting
      const note = (n: NestingInfo | undefined) => {
        if (n && (!nested || n.depth > nested.depth)) nested = n
      }
      for (const [name, param] of query) {
        if (param === null) continue
        // deep JSON text is encoded as a client would (a half-encoded one is another test)
        pairs.push(`${name}=${encode(param.value, param.nesting ? 0 : how >> 3)}`)
        note(param.nesting)
      }
      if (extraQuery) pairs.push(`${encode(extraQuery[0], 0)}=${encode(extraQuery[1], how >> 5)}`)
      if (nestedKey) {
        pairs.push(nestedKey.pair)
        note({ where: 'query key', at: nestedKey.name, depth: nestedKey.depth, shape: 'object' })
      }
      if (how % 17 === 0 && pairs.length > 0) pairs.push(pairs[0] as string) // a repeated parameter: an array
      if (pairs.length > 0) url += `?${pairs.join('&')}`
      const h: Record<string, string> = { ...(headers ?? {}) }
      if (body.payload !== undefined && contentType !== undefined) h['content-type'] = contentType
      return {
        op,
        method: op.method,
        url,
        auth,
        headers: h,
        payload: body.payload,
        label: `${op.method} ${op.path}`,
        ...(nested ? { nesting: nested } : {}),
      }
    })
}

/** Requests no operation expects: unknown paths and methods, traversal, the HEAD and OPTIONS forms. */
export function strayRequest(ops: readonly Operation[]): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
      fc.oneof(
        fc.constantFrom(...ops.map((o) => o.path.replace(/\{[^}]+\}/g, 'x'))),
        fc.constantFrom(
          '/',
          '/api',
          '/api/v2',
          '/api/v2/',
          '/api/v3/embeds',
          '/api/v2/embed/runtime/',
          '/api/v2/embed/runtime/x/metrics/',
          '/api/v2/embed/runtime/%2e%2e/%2e%2e/health/live',
          '/api/v2/data-app/../service-token',
          '/health/../api/v2/data-app',
          '/health/live/',
          '//api//v2//data-app',
          '/api/v2/DATA-APP',
          '/openapi.json/x',
          '/docs/..%2f..%2fetc%2fpasswd',
          '/demo/../../etc/passwd',
          `/api/v2/embed/runtime/${'x'.repeat(250)}`,
          `/${'a/'.repeat(500)}`,
          '/%',
          '/%ZZ',
          '/api/v2/data-app?%',
          '/api/v2/data-app?a=%E0%A4%A',
          '/\u00e9',
        ),
        hostileString.map((s) => `/api/v2/${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))}`),
      ),
      fc.constantFrom<TokenKind | undefined>(undefined, 'adminToken', 'serviceToken', 'dataAppKey', 'guestToken'),
      fc.option(rawBody, { freq: 3 }),
    )
    .map(
      ([method, url, as, body]): FuzzRequest => ({
        op: undefined,
        method,
        url,
        auth: as ? { kind: 'wrong', as } : { kind: 'none' },
        headers: body ? { 'content-type': 'application/json' } : ({} as Record<string, string>),
        payload: body ?? undefined,
        label: 'stray',
      }),
    )
}

/**
 * JSON text of any value, own `__proto__` keys included, however deep: a value too deep for
 * JSON.stringify is sent as it is (it used to become some other body, which hid the server's
 * own stack overflows on deep fields).
 */
const stringify = jsonText
