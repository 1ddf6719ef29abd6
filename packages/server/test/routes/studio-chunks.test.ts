import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STUDIO_CSP } from '../../src/routes/studio/index.js'
import { createTestApp, type TestContext } from '../helpers/app.js'

/**
 * /studio/: the studio's module and its hashed chunks (the rollups panel loads as one with
 * import() when its tab opens). Only `chunk-<hash>.js` names are served besides the module, so no
 * request reaches another file of the package, let alone outside it.
 */
const dist = dirname(createRequire(import.meta.url).resolve('@strata/studio'))
const chunks = readdirSync(dist).filter((f) => /^chunk-.*\.js$/.test(f))

describe('GET /studio/*', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp('sqlite')
  })
  afterAll(() => t.close())

  it('serves the chunks the module imports, as immutable, under the studio’s CSP', async () => {
    const entry = await t.app.inject({ method: 'GET', url: '/studio/studio.js' })
    expect(entry.statusCode).toBe(200)
    const imported = [...entry.body.matchAll(/["']\.\/(chunk-[A-Za-z0-9_-]+\.js)["']/g)].map((m) => m[1])
    expect(imported.length).toBeGreaterThan(0)
    expect(chunks.length).toBeGreaterThan(1) // a shared chunk and the rollups panel
    for (const file of chunks) {
      const res = await t.app.inject({ method: 'GET', url: `/studio/${file}` })
      expect(res.statusCode, file).toBe(200)
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(res.headers['content-security-policy']).toBe(STUDIO_CSP)
    }
  })

  it('serves nothing else: source maps, package files, traversal, unknown chunks are 404', async () => {
    for (const url of [
      `/studio/${chunks[0]}.map`,
      '/studio/package.json',
      '/studio/..%2Fpackage.json',
      '/studio/chunk-..%2F..%2Fpackage.json',
      '/studio/chunk-%2e%2e%2fpackage.js',
      '/studio/chunk-ZZZZZZZZ.js',
      '/studio/studio.js.map',
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json(), url).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('/studio/') } })
      expect(res.body, url).not.toContain('"name"')
    }
  })
})
