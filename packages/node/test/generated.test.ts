import { readFileSync } from 'node:fs'
import type { OpenAPI3 } from 'openapi-typescript'
import { describe, expect, it } from 'vitest'
import { generateSources } from '../scripts/generate-types.js'
import { useLiveServer } from './helpers/server.js'

/**
 * The committed src/generated/ is what scripts/generate.ts makes from the document the server
 * serves now: a route, a field or an error code changed on the server without regenerating
 * (`npm run generate -w packages/node`) fails here.
 */
describe('the generated types', () => {
  const server = useLiveServer('sqlite')

  it('are those of the OpenAPI document a live server serves', async () => {
    const res = await fetch(`${server.url}/openapi.json`)
    expect(res.status).toBe(200)
    const sources = await generateSources((await res.json()) as OpenAPI3)
    for (const [path, text] of Object.entries(sources)) {
      const committed = readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')
      expect(committed === text, `${path} is stale: run npm run generate -w packages/node`).toBe(true)
    }
  })

  it('cover the backend operations only: no guest-token, admin or legacy route', async () => {
    const { credentials } = await import('../src/generated/credentials.js')
    const operations = Object.keys(credentials)
    expect(operations).toContain('POST /api/v2/guest-token/create')
    expect(operations.filter((o) => /embed\/runtime|admin-account|service-token|dataApp\//.test(o))).toEqual([])
    expect(new Set(Object.values(credentials))).toEqual(new Set(['apiKey', 'serviceToken']))
  })
})
