import { expect } from 'vitest'
import type { Analytics } from './analytics.js'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/**
 * The guest-token side of an analytics suite: a token per tenant from the suite's data app, a
 * runtime call on an embed, and the same call expected to answer 200 (its JSON).
 */
export function runtimeCalls(a: Analytics) {
  const tokenFor = async (clientId: string, extra: object = {}): Promise<string> =>
    (await a.ok('POST', '/api/v2/guest-token/create', a.dataAppKey, { dataAppName: 'salesapp', clientId, ...extra }))
      .token
  const rt = (method: Method, embedId: string, path: string, token: string, body?: object) =>
    a.call(method, `/api/v2/embed/runtime/${embedId}${path}`, token, body)
  const ok = async (method: Method, embedId: string, path: string, token: string, body?: object) => {
    const res = await rt(method, embedId, path, token, body)
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200)
    return res.json()
  }
  return { tokenFor, rt, ok }
}
