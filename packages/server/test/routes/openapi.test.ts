import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'

/**
 * `/openapi.json` documents the API the server actually has: every registered route (the
 * API reference at /docs and the document itself aside), each with its error responses
 * pointing at the one ErrorResponse schema.
 */
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const

interface Operation {
  readonly responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
  readonly security?: Record<string, unknown>[]
}
type Paths = Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>

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
    t = await createTestApp('sqlite')
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
  })

  it('lists every registered route, and nothing else', () => {
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((r) => !r.startsWith('HEAD ') && !r.startsWith('OPTIONS '))
      .filter((r) => {
        const path = r.slice(r.indexOf(' ') + 1)
        // Not API: the reference itself, the SDK bundle, the demo page and the `/` redirect (hidden on purpose).
        return !/^\/(docs|demo|sdk)(\/|\*|$)/.test(path) && path !== '/openapi.json' && path !== '/'
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

  it('gives every API operation its error responses, each referencing ErrorResponse', () => {
    const ref = { $ref: '#/components/schemas/ErrorResponse' }
    for (const [path, item] of Object.entries(doc.paths as Paths)) {
      for (const method of METHODS) {
        const operation = item[method]
        if (!operation) continue
        const where = `${method.toUpperCase()} ${path}`
        expect(operation.responses['200'], where).toBeDefined()
        const failures = Object.entries(operation.responses).filter(([s]) => Number(s) >= 400)
        if (path.startsWith('/api/')) {
          // every API route can fail validation, be rate limited, or fail
          for (const status of ['400', '429', '500'])
            expect(operation.responses[status], `${where} ${status}`).toBeDefined()
        }
        for (const [status, response] of failures) {
          if (path === '/health/ready' && status === '503') continue // the spec's readiness body
          expect(response.content?.['application/json']?.schema, `${where} ${status}`).toEqual(ref)
        }
      }
    }
  })

  it('declares the bearer scheme of each authenticated route', () => {
    const schemes = Object.keys(doc.components.securitySchemes).sort()
    expect(schemes).toEqual(['adminToken', 'dataAppKey', 'guestToken', 'serviceToken'])
    const open = new Set([
      'POST /api/v2/admin-account',
      'POST /api/v2/admin-account/jwt',
      'POST /api/v2/admin-account/jwt/refresh',
    ])
    for (const [path, item] of Object.entries(doc.paths as Paths)) {
      for (const method of METHODS) {
        const where = `${method.toUpperCase()} ${path}`
        const operation = item[method]
        if (!operation || !path.startsWith('/api/') || open.has(where)) continue
        const { security } = operation
        expect(security?.length, `${where} declares its token kind`).toBe(1)
        expect(schemes).toContain(Object.keys(security![0]!)[0])
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
