import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'

export const ADMIN = { firstName: 'Alice', email: 'alice@example.com', password: 'Str0ng!Pass', companyName: 'Acme' }

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function post<T>(app: FastifyInstance, url: string, body: unknown, token?: string): Promise<T> {
  const res = await app.inject({ method: 'POST', url, payload: body as object, headers: token ? bearer(token) : {} })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as T
}

/** Creates the admin, a service token and a data app: the credentials every API test needs. */
export async function bootstrap(app: FastifyInstance, dataAppName = 'salesapp') {
  const { data } = await post<{ data: { accessToken: string } }>(app, '/api/v2/admin-account', ADMIN)
  const { key: serviceToken } = await post<{ key: string }>(app, '/api/v2/service-token', {}, data.accessToken)
  const { key: dataAppKey } = await post<{ key: string }>(app, '/api/v2/data-app', { name: dataAppName }, serviceToken)
  return { accessToken: data.accessToken, serviceToken, dataAppKey }
}
