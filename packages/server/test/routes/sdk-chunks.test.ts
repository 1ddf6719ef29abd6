import { readdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'

/**
 * /sdk/: the web component's entry module and its hashed chunks (the self-serve UI loads as
 * one with import()). Only `chunk-<hash>.js` names are served besides the entry, so no request
 * reaches another file of the package, let alone outside it.
 */
const dist = dirname(createRequire(import.meta.url).resolve('@strata/embed'))
const chunks = readdirSync(dist).filter((f) => /^chunk-.*\.js$/.test(f))

describe('GET /sdk/*', () => {
  let t: TestContext
  beforeAll(async () => {
    t = await createTestApp('sqlite')
  })
  afterAll(() => t.close())

  it('serves the entry briefly cached, and the chunks it imports as immutable', async () => {
    const entry = await t.app.inject({ method: 'GET', url: '/sdk/strata-embed.js' })
    expect(entry.statusCode).toBe(200)
    expect(entry.headers['cache-control']).toBe('public, max-age=300')
    const imported = [...entry.body.matchAll(/["']\.\/(chunk-[A-Za-z0-9_-]+\.js)["']/g)].map((m) => m[1])
    expect(imported.length).toBeGreaterThan(0)
    expect(chunks.length).toBeGreaterThan(1) // a shared chunk and the lazy self-serve one
    for (const file of chunks) {
      const res = await t.app.inject({ method: 'GET', url: `/sdk/${file}` })
      expect(res.statusCode, file).toBe(200)
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(res.headers['access-control-allow-origin']).toBe('*')
    }
  })

  it('serves nothing else: source maps, package files, traversal, unknown chunks are 404', async () => {
    for (const url of [
      `/sdk/${chunks[0]}.map`,
      '/sdk/package.json',
      '/sdk/..%2Fpackage.json',
      '/sdk/chunk-..%2F..%2Fpackage.json',
      '/sdk/chunk-%2e%2e%2fpackage.js',
      '/sdk/chunk-ZZZZZZZZ.js',
      '/sdk/types%2Findex.d.ts',
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.json(), url).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringContaining('/sdk/') } })
      expect(res.body, url).not.toContain('"name"')
    }
  })
})
