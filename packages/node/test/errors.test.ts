import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from '../../server/test/helpers/app.js'
import { Strata, StrataError } from '../src/index.js'
import { startLiveServer, useLiveServer } from './helpers/server.js'

/**
 * Failures come out typed: an answer in the API's error shape is a StrataError with its code,
 * status, message and request id; an answer that is not (a proxy's page) is one with the code
 * UNEXPECTED_RESPONSE; a method whose secret the client was not given rejects before sending;
 * a request with no answer rejects with fetch's own error after timeoutMs.
 */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  )

describe.each(storeKinds)('errors from a live server (%s store)', (store) => {
  const server = useLiveServer(store)

  it('maps a bad data app key to a StrataError with the API code, status and request id', async () => {
    const strata = new Strata({ baseUrl: server.url, apiKey: 'sk_not_a_key' })
    const err = await rejection(strata.guestTokens.create({ dataAppName: server.dataAppName, clientId: 'acme' }))
    expect(err).toBeInstanceOf(StrataError)
    expect(err).toBeInstanceOf(Error)
    expect(err).toMatchObject({ name: 'StrataError', status: 401, code: 'AUTHENTICATION_ERROR' })
    expect((err as StrataError).message).toMatch(/\S/)
    expect((err as StrataError).requestId).toMatch(/\S/)
    // the secret never travels back in the error
    expect(JSON.stringify(err)).not.toContain('sk_not_a_key')
  })

  it('maps a bad service token the way its route answers it', async () => {
    const strata = new Strata({ baseUrl: server.url, serviceToken: 'not-a-token' })
    const err = await rejection(strata.workspaces.list())
    expect(err).toBeInstanceOf(StrataError)
    expect(err).toMatchObject({ status: 401, code: 'AUTHENTICATION_ERROR' })
    // dashboard documents answer it as the hosted API does
    const exported = await rejection(strata.dashboards.export({ workspaceName: 'main', dashboardId: 'd' }))
    expect(exported).toMatchObject({ code: 'AUTH_ERROR' })
  })

  it('maps a refused body to INVALID_REQUEST_BODY with the message naming the field', async () => {
    const strata = new Strata({ baseUrl: server.url, apiKey: server.apiKey })
    const err = await rejection(strata.guestTokens.create({ dataAppName: 'someoneelse', clientId: 'acme' }))
    expect(err).toMatchObject({ status: 400, code: 'INVALID_REQUEST_BODY' })
    expect((err as StrataError).message).toContain('dataAppName')
  })

  it('refuses, before sending, a method whose secret it was not given', async () => {
    let sent = 0
    const strata = new Strata({
      baseUrl: server.url,
      apiKey: server.apiKey,
      fetch: (request) => {
        sent++
        return fetch(request)
      },
    })
    const err = await rejection(strata.datasources.list())
    expect(err).not.toBeInstanceOf(StrataError)
    expect((err as Error).message).toBe(
      'GET /api/v2/datasource takes the serviceToken: pass { serviceToken } to new Strata()',
    )
    expect(sent).toBe(0)
    // and the key it has goes to the routes that take it
    expect((await strata.embeds.list()).data).toEqual([])
    expect(sent).toBe(1)
  })
})

describe('errors without the API', () => {
  const servers: Server[] = []
  /** A real HTTP server on loopback that answers every request with `handler`. */
  async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const http = createServer(handler)
    servers.push(http)
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  }
  afterAll(async () => {
    for (const http of servers) {
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    }
  })

  it('needs a secret', () => {
    expect(() => new Strata({ baseUrl: 'http://127.0.0.1:1', apiKey: process.env.STRATA_UNSET_KEY })).toThrow(
      'new Strata() needs an apiKey or a serviceToken',
    )
  })

  it("maps an answer that is not the API's error shape (a proxy's page) to UNEXPECTED_RESPONSE", async () => {
    const url = await listen((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'retry-after': '7' }).end('<html>Bad gateway</html>')
    })
    const err = await rejection(new Strata({ baseUrl: url, apiKey: 'sk_x' }).embeds.list())
    expect(err).toBeInstanceOf(StrataError)
    expect(err).toMatchObject({ status: 502, code: 'UNEXPECTED_RESPONSE', retryAfter: 7 })
    expect((err as StrataError).message).toContain('Bad gateway')
  })

  it('abandons a request with no answer after timeoutMs, with fetch’s own error', async () => {
    const url = await listen(() => {}) // accepts, never answers
    const started = performance.now()
    const err = await rejection(new Strata({ baseUrl: url, apiKey: 'sk_x', timeoutMs: 300 }).embeds.list())
    expect(err).not.toBeInstanceOf(StrataError)
    expect((err as Error).name).toBe('TimeoutError')
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})

describe('limits and base paths', () => {
  let limited: Awaited<ReturnType<typeof startLiveServer>>
  let prefixed: Awaited<ReturnType<typeof startLiveServer>>
  beforeAll(async () => {
    limited = await startLiveServer('sqlite', { RATE_LIMIT: '5' })
    prefixed = await startLiveServer('sqlite', { BASE_PATH: '/analytics' })
  })
  afterAll(async () => {
    await limited?.t.close()
    await prefixed?.t.close()
  })

  it('carries Retry-After of a 429 RATE_LIMIT_EXCEEDED as retryAfter', async () => {
    const strata = new Strata({ baseUrl: limited.url, apiKey: limited.apiKey })
    let err: unknown
    for (let i = 0; i < 10 && !err; i++) err = await rejection(strata.embeds.list())
    expect(err).toBeInstanceOf(StrataError)
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' })
    expect((err as StrataError).retryAfter).toBeGreaterThan(0)
  })

  it('reaches a server under BASE_PATH, with or without a trailing slash', async () => {
    for (const baseUrl of [prefixed.url, `${prefixed.url}/`]) {
      const strata = new Strata({ baseUrl, apiKey: prefixed.apiKey })
      expect((await strata.embeds.list()).data).toEqual([])
    }
  })
})
