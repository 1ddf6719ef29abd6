import { describe, expect, it, vi } from 'vitest'
import { MAX_EXPIRIES_IN_A_ROW, RuntimeClient } from '../src/api/client.js'
import { StrataApiError } from '../src/api/errors.js'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const expired = () => json(401, { error: { code: 'AUTHENTICATION_ERROR', message: 'Token expired' } })
const ok = (data: unknown[] = []) =>
  json(200, {
    data,
    timeTaken: 1,
    totalRecords: data.length,
    metaData: { columns: [], groupbyColumnList: [] },
    error: null,
  })

interface Call {
  url: string
  init: RequestInit
}

function fakeServer(answer: (call: Call, n: number) => Response) {
  const calls: Call[] = []
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const call = { url: String(url), init: init ?? {} }
    calls.push(call)
    return answer(call, calls.length)
  }) as unknown as typeof fetch
  return { calls, fetchImpl }
}

const tokenOf = (c: Call) => (c.init.headers as Record<string, string>).authorization

describe('RuntimeClient', () => {
  it('sends the bearer token to the runtime paths', async () => {
    const { calls, fetchImpl } = fakeServer(() => ok([{ a: 1 }]))
    const client = new RuntimeClient('https://s.example.com/', 'emb 1', 'tok', { onTokenExpired: () => {} }, fetchImpl)
    await client.query({ metricId: 'm', dashboardFilter: { country: ['DE'] }, pageNumber: 2 })
    expect(calls[0]!.url).toBe('https://s.example.com/api/v2/embed/runtime/emb%201/query')
    expect(tokenOf(calls[0]!)).toBe('Bearer tok')
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      metricId: 'm',
      dashboardFilter: { country: ['DE'] },
      pageNumber: 2,
    })
  })

  it('marks a result the server cut at its row limit (Strata-Truncated header)', async () => {
    const cut = () => {
      const res = ok([{ a: 1 }])
      res.headers.set('strata-truncated', 'true')
      return res
    }
    const { fetchImpl } = fakeServer((_call, n) => (n === 1 ? cut() : ok([{ a: 1 }])))
    const client = new RuntimeClient('https://s', 'e', 't', { onTokenExpired: () => {} }, fetchImpl)
    expect((await client.query({ metricId: 'm' })).truncated).toBe(true)
    expect((await client.query({ metricId: 'm' })).truncated).toBeUndefined()
  })

  it('puts the dashboard filter on the download URL', async () => {
    const { calls, fetchImpl } = fakeServer(() => new Response('a,b\n1,2\n', { status: 200 }))
    const client = new RuntimeClient('https://s', 'e', 't', { onTokenExpired: () => {} }, fetchImpl)
    const blob = await client.download('m/1', { q: 'x' })
    expect(await blob.text()).toBe('a,b\n1,2\n')
    expect(calls[0]!.url).toBe(
      `https://s/api/v2/embed/runtime/e/metrics/m%2F1/download?dashboardFilter=${encodeURIComponent('{"q":"x"}')}`,
    )
  })

  it('turns error envelopes into StrataApiError with code and status', async () => {
    const { fetchImpl } = fakeServer(() => json(403, { error: { code: 'UNAUTHORIZED', message: 'Not allowed' } }))
    const client = new RuntimeClient('https://s', 'e', 't', { onTokenExpired: () => {} }, fetchImpl)
    const error = await client.load().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StrataApiError)
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 403, message: 'Not allowed' })
    const html = fakeServer(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }))
    const client2 = new RuntimeClient('https://s', 'e', 't', { onTokenExpired: () => {} }, html.fetchImpl)
    await expect(client2.load()).rejects.toMatchObject({ code: 'HTTP_502', status: 502 })
  })

  it('reports a network failure as NETWORK_ERROR', async () => {
    const fetchImpl = (async () => {
      throw new TypeError('Failed to fetch')
    }) as typeof fetch
    const client = new RuntimeClient('https://s', 'e', 't', { onTokenExpired: () => {} }, fetchImpl)
    await expect(client.load()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 })
  })

  it('on 401 reports the expiry once, parks every call, and retries them with the new token', async () => {
    const { calls, fetchImpl } = fakeServer((c) => (tokenOf(c) === 'Bearer new' ? ok([{ v: 1 }]) : expired()))
    const onTokenExpired = vi.fn()
    const client = new RuntimeClient('https://s', 'e', 'old', { onTokenExpired }, fetchImpl)
    const a = client.query({ metricId: 'a' })
    const b = client.query({ metricId: 'b' })
    await vi.waitFor(() => expect(calls).toHaveLength(2))
    await vi.waitFor(() => expect(client.isExpired).toBe(true))
    expect(onTokenExpired).toHaveBeenCalledTimes(1)
    // Parked: nothing more is sent until a new token arrives.
    await new Promise((r) => setTimeout(r, 20))
    expect(calls).toHaveLength(2)
    client.setToken('new')
    expect(client.isExpired).toBe(false)
    await expect(a).resolves.toMatchObject({ data: [{ v: 1 }] })
    await expect(b).resolves.toMatchObject({ data: [{ v: 1 }] })
    expect(calls.slice(2).map(tokenOf)).toEqual(['Bearer new', 'Bearer new'])
    // A later expiry is reported again.
    const again = fakeServer(expired)
    const c2 = new RuntimeClient('https://s', 'e', 'x', { onTokenExpired }, again.fetchImpl)
    void c2.load().catch(() => {})
    await vi.waitFor(() => expect(onTokenExpired).toHaveBeenCalledTimes(2))
  })

  it('a parked call can be aborted', async () => {
    const { fetchImpl } = fakeServer(expired)
    const client = new RuntimeClient('https://s', 'e', 'old', { onTokenExpired: () => {} }, fetchImpl)
    const abort = new AbortController()
    const p = client.query({ metricId: 'a' }, abort.signal)
    await vi.waitFor(() => expect(client.isExpired).toBe(true))
    abort.abort()
    await expect(p).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('waits for a token when it starts without one', async () => {
    const { calls, fetchImpl } = fakeServer(() => ok())
    const client = new RuntimeClient('https://s', 'e', '', { onTokenExpired: () => {} }, fetchImpl)
    const p = client.load()
    await new Promise((r) => setTimeout(r, 10))
    expect(calls).toHaveLength(0)
    client.setToken('t')
    await p
    expect(tokenOf(calls[0]!)).toBe('Bearer t')
  })

  it('retries at once when the token was replaced while a call was in flight', async () => {
    let client: RuntimeClient | undefined
    const onTokenExpired = vi.fn()
    const { calls, fetchImpl } = fakeServer((c) => {
      if (tokenOf(c) === 'Bearer old') {
        client!.setToken('new')
        return expired()
      }
      return ok()
    })
    client = new RuntimeClient('https://s', 'e', 'old', { onTokenExpired }, fetchImpl)
    await client.load()
    expect(calls.map(tokenOf)).toEqual(['Bearer old', 'Bearer new'])
    expect(onTokenExpired).not.toHaveBeenCalled()
  })

  describe('stops for good instead of reconnecting forever (issue 24, item 14)', () => {
    const gone = () =>
      json(401, {
        error: {
          code: 'AUTHENTICATION_ERROR',
          message: 'Embed e does not exist or was deleted',
          details: { reason: 'EMBED_GONE' },
        },
      })

    it('a deleted embed: no token is asked for, every call fails with the reason, none is sent again', async () => {
      const { calls, fetchImpl } = fakeServer(gone)
      const onTokenExpired = vi.fn()
      const onStopped = vi.fn()
      const client = new RuntimeClient('https://s', 'e', 't', { onTokenExpired, onStopped }, fetchImpl)
      await expect(client.load()).rejects.toMatchObject({
        code: 'AUTHENTICATION_ERROR',
        status: 401,
        reason: 'EMBED_GONE',
      })
      await expect(client.query({ metricId: 'm' })).rejects.toMatchObject({ reason: 'EMBED_GONE' })
      expect(calls).toHaveLength(1)
      expect(onTokenExpired).not.toHaveBeenCalled()
      expect(onStopped).toHaveBeenCalledTimes(1)
      expect(client.stopped?.reason).toBe('EMBED_GONE')
      expect(client.isExpired).toBe(false)
    })

    it('a parked call fails when the embed turns out to be gone after a renewal', async () => {
      const { fetchImpl } = fakeServer((c) => (tokenOf(c) === 'Bearer new' ? gone() : expired()))
      const onStopped = vi.fn()
      const client = new RuntimeClient('https://s', 'e', 'old', { onTokenExpired: () => {}, onStopped }, fetchImpl)
      const a = client.query({ metricId: 'a' })
      await vi.waitFor(() => expect(client.isExpired).toBe(true))
      client.setToken('new')
      await expect(a).rejects.toMatchObject({ reason: 'EMBED_GONE' })
      expect(onStopped).toHaveBeenCalledTimes(1)
    })

    it.each([
      ['new tokens the server refuses', (n: number) => `new${n}`],
      ['the same expired token again', () => 'old'],
    ])('renewals that keep failing (%s) stop after a bounded number of tries', async (_what, next) => {
      const { calls, fetchImpl } = fakeServer(expired)
      let n = 0
      let client: RuntimeClient | undefined
      const onTokenExpired = vi.fn(() => queueMicrotask(() => client!.setToken(next(++n))))
      const onStopped = vi.fn()
      client = new RuntimeClient('https://s', 'e', 'old', { onTokenExpired, onStopped }, fetchImpl)
      await expect(client.load()).rejects.toMatchObject({ code: 'TOKEN_REFRESH_FAILED', status: 401 })
      expect(calls).toHaveLength(MAX_EXPIRIES_IN_A_ROW)
      expect(onTokenExpired).toHaveBeenCalledTimes(MAX_EXPIRIES_IN_A_ROW - 1)
      expect(onStopped).toHaveBeenCalledTimes(1)
      // stopped: nothing more is sent, a new token alone does not start it again
      await expect(client.query({ metricId: 'm' })).rejects.toMatchObject({ code: 'TOKEN_REFRESH_FAILED' })
      client.setToken('another')
      await expect(client.query({ metricId: 'm' })).rejects.toMatchObject({ code: 'TOKEN_REFRESH_FAILED' })
      expect(calls).toHaveLength(MAX_EXPIRIES_IN_A_ROW)
    })

    it('no new token within the renewal timeout stops it too', async () => {
      const { fetchImpl } = fakeServer(expired)
      const onStopped = vi.fn()
      const client = new RuntimeClient('https://s', 'e', 'old', { onTokenExpired: () => {}, onStopped }, fetchImpl, 50)
      const p = client.load()
      await expect(p).rejects.toMatchObject({
        code: 'TOKEN_REFRESH_FAILED',
        message: 'Your session could not be renewed',
      })
      expect(onStopped).toHaveBeenCalledTimes(1)
    })

    it('renewals that work, however many, never stop it; restart() starts over after a stop', async () => {
      let valid = 'old'
      const { calls, fetchImpl } = fakeServer((c) => (tokenOf(c) === `Bearer ${valid}` ? ok([{ v: 1 }]) : expired()))
      let client: RuntimeClient | undefined
      const onTokenExpired = vi.fn(() => queueMicrotask(() => client!.setToken(valid)))
      client = new RuntimeClient('https://s', 'e', 'old', { onTokenExpired }, fetchImpl)
      for (let i = 0; i < 2 * MAX_EXPIRIES_IN_A_ROW; i++) {
        valid = `t${i}` // the previous token expired
        await expect(client.query({ metricId: 'm' })).resolves.toMatchObject({ data: [{ v: 1 }] })
      }
      expect(client.stopped).toBeUndefined()
      expect(onTokenExpired).toHaveBeenCalledTimes(2 * MAX_EXPIRIES_IN_A_ROW)
      const stopped = new RuntimeClient('https://s', 'e', 'bad', { onTokenExpired: () => {} }, fetchImpl, 20)
      await expect(stopped.load()).rejects.toMatchObject({ code: 'TOKEN_REFRESH_FAILED' })
      stopped.setToken(valid)
      stopped.restart()
      await expect(stopped.query({ metricId: 'm' })).resolves.toMatchObject({ data: [{ v: 1 }] })
      expect(calls.length).toBeGreaterThan(0)
    })
  })
})
