import type { AddressInfo } from 'node:net'
import express from 'express'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeKinds } from '../../server/test/helpers/app.js'
import { guestTokenRoute as expressRoute } from '../examples/express.js'
import { guestTokenRoute as fastifyRoute } from '../examples/fastify.js'
import { Strata } from '../src/index.js'
import { createSales, REVENUE, type Sales } from './helpers/sales.js'
import { call, useLiveServer } from './helpers/server.js'

/**
 * The examples/ routes in real Express and Fastify apps on loopback, in front of a live Strata:
 * the signed-in user (a stand-in session: the `x-user` header names one of USERS) gets a guest
 * token of their tenant, which the runtime accepts and which sees that tenant's rows only; no
 * user, no token.
 */
const USERS: Record<string, { id: string; tenantId: string }> = {
  ann: { id: 'ann@acme.com', tenantId: 'acme' },
  gus: { id: 'gus@globex.com', tenantId: 'globex' },
}

type Backend = { url: string; close: () => Promise<void> }

async function expressBackend(strata: Strata, dataAppName: string): Promise<Backend> {
  const app = express().use(expressRoute(strata, dataAppName, (req) => USERS[req.get('x-user') ?? '']))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

async function fastifyBackend(strata: Strata, dataAppName: string): Promise<Backend> {
  const app = Fastify()
  await app.register(fastifyRoute(strata, dataAppName, (req) => USERS[String(req.headers['x-user'] ?? '')]))
  return { url: await app.listen({ port: 0, host: '127.0.0.1' }), close: () => app.close() }
}

describe.each(storeKinds)('the examples against a live server (%s store)', (store) => {
  const server = useLiveServer(store)
  let sales: Sales
  beforeAll(async () => {
    sales = await createSales(
      new Strata({ baseUrl: server.url, apiKey: server.apiKey, serviceToken: server.serviceToken }),
    )
  })

  describe.each([
    ['Express', expressBackend],
    ['Fastify', fastifyBackend],
  ] as const)('%s', (_name, start) => {
    let backend: Backend
    beforeAll(async () => {
      backend = await start(new Strata({ baseUrl: server.url, apiKey: server.apiKey }), server.dataAppName)
    })
    afterAll(() => backend?.close())

    const mint = (user?: string) =>
      fetch(`${backend.url}/analytics/token`, { method: 'POST', headers: user ? { 'x-user': user } : {} })

    it("mints a token for the signed-in user that sees their tenant's rows only", async () => {
      for (const [user, tenant] of [
        ['ann', 'acme'],
        ['gus', 'globex'],
      ] as const) {
        const res = await mint(user)
        expect(res.status).toBe(200)
        const { token } = (await res.json()) as { token: string }
        const rows = await call(server.url, 'POST', `/api/v2/embed/runtime/${sales.embedId}/query`, token, {
          metricId: 'revenue',
        })
        expect(rows).toEqual({ status: 200, body: expect.objectContaining({ data: [{ revenue: REVENUE[tenant] }] }) })
      }
    })

    it('refuses without a signed-in user', async () => {
      const res = await mint()
      expect(res.status).toBe(401)
    })
  })
})
