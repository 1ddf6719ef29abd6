import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/errors.js'
import { createTestApp, type TestContext } from '../helpers/app.js'
import { bearer, bootstrap } from '../helpers/bootstrap.js'

/**
 * `/openapi.json` documents the API the server actually has: every registered route (the
 * API reference at /docs and the document itself aside), each named (operationId, summary,
 * description) and with the failures it can answer, each pointing at the one ErrorResponse
 * schema and naming its codes; probes check that what the routes really answer is documented.
 */
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const

interface Operation {
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly deprecated?: boolean
  readonly parameters?: { name: string; in: string }[]
  readonly requestBody?: { content: Record<string, { schema?: unknown }> }
  readonly responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>
  readonly security?: Record<string, unknown>[]
}
type Paths = Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>

function operationsOf(doc: { paths: Paths }) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method]
      return operation ? [{ where: `${method.toUpperCase()} ${path}`, path, method, operation }] : []
    }),
  )
}

/** The codes a response's description names: "- `CODE`: …" lines. */
const codesOf = (description: string | undefined): string[] =>
  [...(description ?? '').matchAll(/^- `([A-Z_]+)`/gm)].map((m) => m[1] as string)

const AUTH_CODES = new Set(['AUTHENTICATION_ERROR', 'AUTHENTICATION_ERR', 'AUTH_ERROR', 'INVALID_DATA_APP_API_KEY'])

/**
 * The app's routes from `printRoutes({ commonPrefix: false })`, whose lines look like
 * `│   ├── /jwt (POST)`: each segment continues its parent's path.
 */
function registeredRoutes(tree: string): string[] {
  const routes: string[] = []
  const stack: string[] = []
  for (const line of tree.split('\n')) {
    const match = /^(.*?)[├└]── (.*) \(([A-Z, ]+)\)$/.exec(line)
    if (!match) continue
    const depth = (match[1] as string).length / 4
    const path = (stack[depth - 1] ?? '') + match[2]
    stack[depth] = path
    stack.length = depth + 1
    for (const method of (match[3] as string).split(', ')) routes.push(`${method} ${path}`)
  }
  return routes
}

/** `/x/:id` → `/x/{id}`, as OpenAPI spells path parameters. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

describe('OpenAPI document', () => {
  let t: TestContext
  // biome-ignore lint/suspicious/noExplicitAny: the document is asserted field by field
  let doc: any
  beforeAll(async () => {
    t = await createTestApp('sqlite', { BODY_LIMIT: '1024' })
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' })
    expect(res.statusCode).toBe(200)
    doc = res.json()
  })
  afterAll(async () => t.close())

  it('is OpenAPI 3.1 with the ErrorResponse schema', () => {
    expect(doc.openapi).toMatch(/^3\.1\./)
    expect(doc.info.title).toBe('Strata API')
    expect(doc.components.schemas.ErrorResponse).toMatchObject({
      type: 'object',
      required: ['error'],
      properties: { error: { required: ['code', 'message'] } },
    })
    // the codes as an enum: a generated client (packages/node) types `code` as their union
    expect(doc.components.schemas.ErrorResponse.properties.error.properties.code).toEqual({
      type: 'string',
      enum: [...ERROR_CODES],
    })
  })

  it('lists every registered route, and nothing else', () => {
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((r) => !r.startsWith('HEAD ') && !r.startsWith('OPTIONS '))
      .filter((r) => {
        const path = r.slice(r.indexOf(' ') + 1)
        // Not API: the reference itself, the SDK bundle, the demo page, the studio app and the `/` redirect (hidden on purpose).
        return !/^\/(docs|demo|sdk|studio)(\/|\*|$)/.test(path) && path !== '/openapi.json' && path !== '/'
      })
      .map((r) => {
        const [method, path] = r.split(' ') as [string, string]
        return `${method} ${openApiPath(path)}`
      })
      .sort()
    expect(registered.length).toBeGreaterThanOrEqual(14) // the parser found the routes
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`))
      .sort()
    expect(documented).toEqual(registered)
  })

  it('names every operation: a unique camelCase operationId, a one-line summary and a description', () => {
    const ids = new Map<string, string>()
    for (const { where, operation } of operationsOf(doc)) {
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/)
      expect(ids.get(operation.operationId), `${where} reuses the operationId of`).toBeUndefined()
      ids.set(operation.operationId, where)
      expect(operation.summary, where).toMatch(/^\S[^\n]{9,119}$/)
      expect(operation.description?.length ?? 0, `${where} has a description`).toBeGreaterThan(40)
      // legacy paths are deprecated, and say so in their operationId
      expect(operation.deprecated === true, `${where} ${operation.operationId}`).toBe(
        /Legacy/.test(operation.operationId),
      )
    }
    expect(ids.size).toBe(operationsOf(doc).length)
    // the legacy paths of docs/api.md, each still served
    for (const legacy of [
      'POST /api/v2/dataApp/embeds',
      'POST /api/v2/dataApp/embed/list',
      'POST /api/v2/dataApp/query',
    ])
      expect(operationsOf(doc).find((o) => o.where === legacy)?.operation.deprecated, legacy).toBe(true)
  })

  it('gives every operation a 2xx and the failures it can answer, each referencing ErrorResponse and naming its codes', () => {
    const ref = { $ref: '#/components/schemas/ErrorResponse' }
    for (const { where, path, method, operation } of operationsOf(doc)) {
      const statuses = Object.keys(operation.responses)
      expect(statuses.filter((s) => /^2\d\d$/.test(s)).length, `${where} has a 2xx`).toBeGreaterThan(0)
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue
        if (where === 'GET /health/ready' && status === '503') continue // the readiness body, or the error shape
        expect(response.content?.['application/json']?.schema, `${where} ${status}`).toEqual(ref)
        const codes = codesOf(response.description)
        expect(codes.length, `${where} ${status} names its codes`).toBeGreaterThan(0)
        for (const code of codes) expect(ERROR_CODES, `${where} ${status}`).toContain(code)
        // each code is explained
        for (const line of response.description.split('\n'))
          expect(line, `${where} ${status}`).toMatch(/^- `[A-Z_]+`: \S.{10,}/)
      }
      const has = (status: number, code: string) =>
        expect(codesOf(operation.responses[status]?.description), `${where} ${status}`).toContain(code)
      has(500, 'INTERNAL_SERVER_ERROR')
      has(503, 'SERVICE_UNAVAILABLE')
      if (path.startsWith('/api/')) has(429, 'RATE_LIMIT_EXCEEDED')
      else expect(operation.responses['429'], `${where} is not rate limited`).toBeUndefined()
      const takesInput = method !== 'get' || (operation.parameters?.length ?? 0) > 0
      if (takesInput) has(400, 'INVALID_REQUEST_BODY')
      else expect(operation.responses['400'], `${where} takes no input`).toBeUndefined()
      if (operation.requestBody?.content['application/json']) {
        has(413, 'PAYLOAD_TOO_LARGE')
        has(415, 'UNSUPPORTED_MEDIA_TYPE')
      }
      if (operation.security?.length) {
        const auth = [400, 401].flatMap((s) => codesOf(operation.responses[s]?.description))
        expect(auth.filter((c) => AUTH_CODES.has(c)).length, `${where} names its bad-token code`).toBe(1)
      }
    }
    // only what each can answer (every route used to list the same ten statuses)
    const statusesOf = (where: string) =>
      Object.keys(operationsOf(doc).find((o) => o.where === where)?.operation.responses ?? {})
    expect(statusesOf('GET /api/v2/workspace')).toEqual(['200', '401', '429', '500', '503'])
    expect(statusesOf('GET /health/live')).toEqual(['200', '500', '503'])
    expect(statusesOf('POST /api/v2/guest-token/create')).toEqual([
      '200',
      '400',
      '401',
      '413',
      '415',
      '429',
      '500',
      '503',
    ])
    // codes only their own operations answer
    const codesAt = (where: string) =>
      Object.values(operationsOf(doc).find((o) => o.where === where)?.operation.responses ?? {}).flatMap((r) =>
        codesOf(r.description),
      )
    expect(codesAt('PUT /api/v2/data-app/embeds')).toEqual(
      expect.arrayContaining([
        'AUTHENTICATION_ERR',
        'EMBED_NOT_FOUND',
        'CONFLICTING_UPDATE',
        'INSUFFICIENT_PERMISSIONS',
      ]),
    )
    expect(codesAt('GET /api/v2/data-app/embeds')).not.toContain('CONFLICTING_UPDATE')
    expect(codesAt('POST /api/v2/data-app/export-dashboard')).toContain('AUTH_ERROR')
    expect(codesAt('POST /api/v2/admin-account')).toEqual(
      expect.arrayContaining(['INVALID_REQUEST', 'SELFHOSTED_APP_ERROR']),
    )
    expect(codesAt('GET /api/v2/data-app')).not.toContain('INVALID_REQUEST_BODY')
  })

  it('documents what the routes really answer: no token, malformed JSON, another media type, an undeclared parameter, an oversized body', async () => {
    const creds = await bootstrap(t.app)
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/v2/guest-token/create',
      payload: { dataAppName: 'salesapp', clientId: 'acme' },
      headers: bearer(creds.dataAppKey),
    })
    const tokens: Record<string, string> = {
      adminToken: creds.accessToken,
      serviceToken: creds.serviceToken,
      dataAppKey: creds.dataAppKey,
      guestToken: guest.json<{ token: string }>().token,
    }
    const undocumented: string[] = []
    let probes = 0
    for (const { where, path, method, operation } of operationsOf(doc)) {
      const url = path.replace(/\{[^}]+\}/g, 'x')
      const scheme = Object.keys(operation.security?.[0] ?? {})[0]
      const auth = scheme ? bearer(tokens[scheme] as string) : {}
      const probe = async (
        label: string,
        request: { url?: string; headers?: Record<string, string>; payload?: string },
      ) => {
        probes++
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: request.url ?? url,
          headers: request.headers ?? {},
          ...(request.payload !== undefined ? { payload: request.payload } : {}),
        })
        const code = res.statusCode >= 400 ? res.json<{ error: { code: string } }>().error.code : undefined
        const response = operation.responses[String(res.statusCode)]
        if (!response || (code && !codesOf(response.description).includes(code)))
          undocumented.push(`${where} ${label}: ${res.statusCode} ${code ?? ''}`)
      }
      if (scheme) await probe('without a token', {})
      if (method !== 'get' && !operation.requestBody?.content['application/octet-stream']) {
        const json = { ...auth, 'content-type': 'application/json' }
        await probe('malformed JSON', { headers: json, payload: '{"a":' })
        await probe('text/plain', { headers: { ...auth, 'content-type': 'text/plain' }, payload: 'x' })
        await probe('over BODY_LIMIT', { headers: json, payload: JSON.stringify({ a: 'x'.repeat(2048) }) })
      }
      if ((operation.parameters ?? []).some((p) => p.in === 'query' || p.in === 'path'))
        await probe('an undeclared parameter', { url: `${url}?undeclared=1`, headers: auth })
    }
    expect(probes).toBeGreaterThan(150)
    expect(undocumented).toEqual([])
  })

  it('declares the bearer scheme of each authenticated route', () => {
    const schemes = Object.keys(doc.components.securitySchemes).sort()
    expect(schemes).toEqual(['adminToken', 'dataAppKey', 'guestToken', 'serviceToken'])
    const open = new Set([
      'GET /api/v2/admin-account',
      'POST /api/v2/admin-account',
      'POST /api/v2/admin-account/jwt',
      'POST /api/v2/admin-account/jwt/refresh',
    ])
    for (const [path, item] of Object.entries(doc.paths as Paths)) {
      for (const method of METHODS) {
        const where = `${method.toUpperCase()} ${path}`
        const operation = item[method]
        if (!operation) continue
        const { security } = operation
        if (open.has(where) || !path.startsWith('/api/')) {
          expect(security, `${where} takes no token`).toEqual([])
          continue
        }
        const kinds = (security ?? []).map((s) => Object.keys(s)[0])
        // the service-token routes also take the signed-in admin's access token (the studio)
        const expected = kinds[0] === 'serviceToken' ? ['serviceToken', 'adminToken'] : kinds.slice(0, 1)
        expect(kinds, `${where} declares its token kind`).toEqual(expected)
        expect(kinds.length, `${where} declares its token kind`).toBeGreaterThan(0)
        for (const kind of kinds) expect(schemes).toContain(kind)
      }
    }
  })

  it('serves the API reference as HTML at /docs', async () => {
    let res = await t.app.inject({ method: 'GET', url: '/docs' })
    if (res.statusCode >= 300 && res.statusCode < 400) {
      res = await t.app.inject({ method: 'GET', url: new URL(String(res.headers.location), 'http://x/docs/').pathname })
    }
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toMatch(/<html/i)
    expect(res.body).toMatch(/swagger/i)
  })
})
