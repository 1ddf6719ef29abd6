import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { lazySchemaCompilers } from './lazy-schemas.js'

const body = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 2 }, n: { type: 'integer' } },
  required: ['name'],
  additionalProperties: false,
}
const response = { 200: { type: 'object', properties: { name: { type: 'string' }, n: { type: 'integer' } } } }

const apps: FastifyInstance[] = []
async function app(lazy: boolean, routes: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const made = Fastify(lazy ? { schemaController: { compilersFactory: lazySchemaCompilers } } : {})
  apps.push(made)
  routes(made)
  await made.ready()
  return made
}
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()))
})

describe('lazy schema compilers', () => {
  it("validate and serialise exactly as Fastify's own compilers do", async () => {
    const echo = (a: FastifyInstance) =>
      a.post('/echo', { schema: { body, response } }, async (request) => ({ ...(request.body as object), dropped: 1 }))
    const [eager, lazy] = await Promise.all([app(false, echo), app(true, echo)])
    for (const payload of [
      { name: 'ab', n: 3 },
      { name: 'a' },
      { n: 1 },
      { name: 'ab', extra: true },
      { name: 'ab', n: 1.5 },
    ]) {
      const [e, l] = await Promise.all([
        eager.inject({ method: 'POST', url: '/echo', payload }),
        lazy.inject({ method: 'POST', url: '/echo', payload }),
      ])
      expect([l.statusCode, l.body], JSON.stringify(payload)).toEqual([e.statusCode, e.body])
    }
  })

  it('compile a route on its first request, not at start: a schema that cannot compile fails only its route, when called', async () => {
    const broken = { 200: { type: 'object', properties: { a: { $ref: 'nowhere#/a' } } } }
    const routes = (a: FastifyInstance) => {
      a.get('/broken', { schema: { response: broken } }, async () => ({ a: 1 }))
      a.get('/fine', { schema: { response } }, async () => ({ name: 'x', n: 1, more: 2 }))
    }
    await expect(app(false, routes)).rejects.toThrow()
    const lazy = await app(true, routes)
    const fine = await lazy.inject('/fine')
    expect([fine.statusCode, fine.json()]).toEqual([200, { name: 'x', n: 1 }])
    expect((await lazy.inject('/broken')).statusCode).toBe(500)
  })
})
