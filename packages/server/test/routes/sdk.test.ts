import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'

/**
 * The web component's files: the entry and the chunks it imports (esbuild splitting), served
 * under /sdk/ from packages/embed/dist (built by `npm run build`); nothing else of that folder.
 */
describe('GET /sdk/…', () => {
  let ctx: TestContext
  const dist = dirname(createRequire(import.meta.url).resolve('@strata/embed'))
  const chunks = readdirSync(dist).filter((f) => /^chunk-.*\.js$/.test(f))
  beforeAll(async () => {
    ctx = await createTestApp('sqlite')
  })
  afterAll(async () => ctx?.close())

  it('serves every chunk the entry imports, as JavaScript any origin may load, cached for good', async () => {
    const entry = await ctx.app.inject({ method: 'GET', url: '/sdk/strata-embed.js' })
    expect(entry.statusCode).toBe(200)
    const imported = [...entry.body.matchAll(/"\.\/(chunk-[A-Za-z0-9_-]+\.js)"/g)].map((m) => m[1] as string)
    expect(imported.length).toBeGreaterThan(0)
    for (const file of new Set([...imported, ...chunks])) {
      const res = await ctx.app.inject({ method: 'GET', url: `/sdk/${file}` })
      expect(res.statusCode, file).toBe(200)
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(res.headers['access-control-allow-origin']).toBe('*')
      expect(res.headers['cache-control']).toContain('immutable')
    }
  })

  it('serves nothing else: a missing chunk is 404, any other name 400', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/sdk/chunk-NOSUCHFILE.js' })).statusCode).toBe(404)
    for (const url of ['/sdk/strata-embed.js.map', '/sdk/..%2Fpackage.json', '/sdk/chunk-x.js.map', '/sdk/types']) {
      const res = await ctx.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(400)
      expect(res.json()).toMatchObject({ error: { code: 'INVALID_REQUEST_BODY' } })
    }
  })
})
