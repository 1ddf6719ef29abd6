import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { OpenAPI3 } from 'openapi-typescript'
import { buildApp } from '../../server/src/app.js'
import { parseConfig } from '../../server/src/config.js'
import { generateSources } from './generate-types.js'

/**
 * Regenerates src/generated/ from the OpenAPI document: the one a running server serves
 * (`npm run generate -w packages/node -- http://127.0.0.1:8080`), or by default the one the
 * server's sources describe (an app built in this process on a throwaway SQLite store).
 */
async function fetchDocument(base: string): Promise<OpenAPI3> {
  const res = await fetch(new URL('openapi.json', base.endsWith('/') ? base : `${base}/`))
  if (!res.ok) throw new Error(`GET openapi.json: ${res.status}`)
  return (await res.json()) as OpenAPI3
}

async function buildDocument(): Promise<OpenAPI3> {
  const dataDir = mkdtempSync(join(tmpdir(), 'strata-generate-'))
  try {
    const app = await buildApp(parseConfig({ DATA_DIR: dataDir, DEMO: 'false', LOG_LEVEL: 'warn' }))
    try {
      return (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenAPI3
    } finally {
      await app.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const base = process.argv[2]
const sources = await generateSources(base ? await fetchDocument(base) : await buildDocument())
for (const [path, text] of Object.entries(sources)) {
  writeFileSync(new URL(`../${path}`, import.meta.url), text)
  console.log(`wrote packages/node/${path}`)
}
