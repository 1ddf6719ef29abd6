import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { violations } from './oracle.js'
import type { FuzzRequest } from './requests.js'
import { send } from './run.js'

/**
 * The oracle itself: what it must call a violation (a 5xx, a hang past the case timeout, an
 * error outside `{ error: { code, message } }`, a deep body served) and what it must let pass.
 * The answers come from a real Fastify app whose routes misbehave on purpose.
 */
describe('the fuzzer’s oracle', () => {
  let app: FastifyInstance
  let release: () => void = () => {}
  const hung = new Promise<void>((resolve) => {
    release = resolve
  })
  beforeAll(async () => {
    app = Fastify({ logger: false })
    app.get('/500', (_, reply) => reply.code(500).send({ error: { code: 'INTERNAL_SERVER_ERROR', message: 'boom' } }))
    app.get('/503', (_, reply) => reply.code(503).send({ error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } }))
    app.get('/fastify-error', (_, reply) =>
      reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: 'body must be object' }),
    )
    app.get('/no-message', (_, reply) => reply.code(400).send({ error: { code: 'INVALID_REQUEST_BODY' } }))
    app.get('/unknown-code', (_, reply) => reply.code(400).send({ error: { code: 'FST_ERR_X', message: 'x' } }))
    app.get('/text', (_, reply) => reply.code(404).type('text/plain').send('Not Found'))
    app.get('/html', (_, reply) => reply.code(400).type('text/html').send('<html>oops</html>'))
    app.get('/ok-error', (_, reply) =>
      reply.code(400).send({ error: { code: 'INVALID_REQUEST_BODY', message: 'The JSON body nests too deep' } }),
    )
    app.post('/ok', () => ({ ok: true }))
    app.get('/ok-json', () => ({ ok: true }))
    app.get('/', (_, reply) => reply.redirect('/demo', 302))
    app.get('/moved', (_, reply) => reply.redirect('/demo', 302))
    app.get('/docs/static/index.html', (_, reply) => reply.redirect('https://evil.example/', 302))
    app.get('/hang', async () => {
      await hung
      return { late: true }
    })
    await app.ready()
  })
  afterAll(async () => {
    release()
    await app.close()
  })

  const request = (method: string, url: string, extra: Partial<FuzzRequest> = {}): FuzzRequest => ({
    op: undefined,
    method,
    url,
    auth: { kind: 'none' },
    headers: {},
    payload: undefined,
    label: `${method} ${url}`,
    ...extra,
  })
  const verdict = async (req: FuzzRequest) => {
    const res = await send(
      { app, tokens: { adminToken: '', serviceToken: '', dataAppKey: '', guestToken: '' } },
      req,
      300,
    )
    if (res === 'rejected') throw new Error('the client refused the request')
    return violations(req, res)
  }

  it('any 5xx is a violation', async () => {
    expect(await verdict(request('GET', '/500'))).toEqual(
      expect.arrayContaining(['status 500', 'INTERNAL_SERVER_ERROR']),
    )
    expect(await verdict(request('GET', '/503'))).toContain('status 503')
  })

  it('an error body that is not { error: { code, message } } with a known code is a violation', async () => {
    expect((await verdict(request('GET', '/fastify-error'))).join()).toMatch(/no error object/)
    expect(await verdict(request('GET', '/no-message'))).toContain('error without a message')
    expect(await verdict(request('GET', '/unknown-code'))).toContain('unknown error code FST_ERR_X')
    expect((await verdict(request('GET', '/text'))).join()).toMatch(/content-type "text\/plain/)
    expect(await verdict(request('GET', '/html'))).toContain('HTML in the answer')
  })

  it('a request not answered within the case timeout is a violation', async () => {
    // the route never answers while the test runs: whatever the machine's speed, it is a timeout
    expect(await verdict(request('GET', '/hang'))).toEqual(['no answer within the case timeout'])
  })

  it('a deeply nested body served is a violation, refused it is not', async () => {
    const nesting = { where: 'body', at: 'dashboardFilter.*', depth: 5_000, shape: 'array' } as const
    const op = {
      method: 'POST',
      path: '/ok',
      params: [],
      body: { type: 'object' },
      security: undefined,
      accepted: [],
      responses: {},
    }
    const deep = request('POST', '/ok', { op, nesting, payload: '{}', headers: { 'content-type': 'application/json' } })
    expect(await verdict(deep)).toEqual(['a body nested 5000 levels deep (at dashboardFilter.*) was served 200'])
    expect(
      await verdict(request('POST', '/ok', { op, payload: '{}', headers: { 'content-type': 'application/json' } })),
    ).toEqual([])
    expect(await verdict(request('GET', '/ok-error', { nesting }))).toEqual([])
  })

  it('a redirect is a violation unless the API documents it (GET / to a path of this server)', async () => {
    expect(await verdict(request('GET', '/'))).toEqual([])
    expect(await verdict(request('HEAD', '/'))).toEqual([])
    expect(await verdict(request('GET', '/moved'))).toEqual(['unexpected status 302'])
    expect(await verdict(request('GET', '/docs/static/index.html'))).toEqual(['unexpected status 302'])
  })

  it('deep JSON in a query parameter that carries JSON served is a violation; in a plain string parameter it is not', async () => {
    const json = { where: 'query', at: 'dashboardFilter=(whole)', depth: 7_000, shape: 'array', json: true } as const
    expect(await verdict(request('GET', '/ok-json', { nesting: json }))).toEqual([
      'query JSON nested 7000 levels deep (at dashboardFilter=(whole)) was served 200',
    ])
    expect(await verdict(request('GET', '/ok-error', { nesting: json }))).toEqual([])
    const { json: _, ...plain } = json
    expect(await verdict(request('GET', '/ok-json', { nesting: plain }))).toEqual([])
  })

  it('a failure /openapi.json does not list for the operation is a violation', async () => {
    const op = (responses: Record<string, string[]>) => ({
      method: 'GET',
      path: '/ok-error',
      params: [],
      body: undefined,
      security: undefined,
      accepted: [],
      responses,
    })
    const listed = op({ '400': ['INVALID_REQUEST_BODY'] })
    expect(await verdict(request('GET', '/ok-error', { op: listed }))).toEqual([])
    expect(await verdict(request('GET', '/ok-error', { op: op({ '400': ['QUERY_ERROR'] }) }))).toEqual([
      '400 INVALID_REQUEST_BODY is not documented for the operation',
    ])
    expect(await verdict(request('GET', '/ok-error', { op: op({}) }))).toEqual([
      'status 400 (INVALID_REQUEST_BODY) is not documented for the operation',
    ])
    // a request that reached another route (a path parameter holding a `/`) is not the operation's answer
    expect((await verdict(request('GET', '/ok-error/x', { op: op({}) }))).join()).not.toMatch(/not documented/)
  })
})
