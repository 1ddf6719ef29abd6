import { describe, expect, it, vi } from 'vitest'
import { RuntimeClient } from '../src/api/client.js'
import { StrataApiError } from '../src/api/errors.js'
import { createView, deleteView, listViews, resetLayout, saveLayout } from '../src/self-serve/api.js'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A fetch that records each call and answers with `answer(method, path)`. */
function fakeServer(answer: (method: string, path: string, body: unknown) => Response) {
  const calls: { method: string; path: string; body: unknown; auth: string }[] = []
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const path = new URL(String(url)).pathname.replace('/api/v2/embed/runtime/e1', '')
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    const method = init?.method ?? 'GET'
    calls.push({ method, path, body, auth: ((init?.headers ?? {}) as Record<string, string>).authorization ?? '' })
    return answer(method, path, body)
  }) as unknown as typeof fetch
  return { calls, client: new RuntimeClient('https://s', 'e1', 'tok', { onTokenExpired: () => {} }, fetchImpl) }
}

const layout = [{ metricId: 'a', x: 0, y: 0, w: 6, h: 4 }]

describe('the layout and views calls (docs/runtime-api.md#the-end-users-layout)', () => {
  it('PUT /layout sends { layout } and answers the layout saved', async () => {
    const { calls, client } = fakeServer(() => json(200, { data: { layout }, error: null }))
    expect(await saveLayout(client, layout)).toEqual(layout)
    expect(calls).toEqual([{ method: 'PUT', path: '/layout', body: { layout }, auth: 'Bearer tok' }])
  })
  it('DELETE /layout answers the company layout', async () => {
    const { calls, client } = fakeServer(() => json(200, { data: { layout }, error: null }))
    expect(await resetLayout(client)).toEqual(layout)
    expect(calls[0]).toMatchObject({ method: 'DELETE', path: '/layout', body: undefined })
  })
  it('lists, creates and deletes views', async () => {
    const view = { viewId: 'v1', name: 'Web', filters: { channel: ['Web'] } }
    const { calls, client } = fakeServer((method) =>
      method === 'GET'
        ? json(200, { data: [view] })
        : method === 'POST'
          ? json(200, { data: { viewId: 'v1', name: 'Web' } })
          : json(200, { data: { viewId: 'v/1' }, error: null }),
    )
    expect(await listViews(client)).toEqual([view])
    expect(await createView(client, { name: 'Web', filters: { channel: ['Web'] }, layout })).toEqual({
      viewId: 'v1',
      name: 'Web',
    })
    await deleteView(client, 'v/1')
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /views', 'POST /views', 'DELETE /views/v%2F1'])
    expect(calls[1]?.body).toEqual({ name: 'Web', filters: { channel: ['Web'] }, layout })
  })
  it('turns a refusal into a StrataApiError with the server’s code', async () => {
    const { client } = fakeServer(() =>
      json(403, { error: { code: 'INSUFFICIENT_PERMISSIONS', message: 'This token may not customise the layout' } }),
    )
    const error = await saveLayout(client, layout).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(StrataApiError)
    expect(error).toMatchObject({ code: 'INSUFFICIENT_PERMISSIONS', status: 403 })
  })
})
