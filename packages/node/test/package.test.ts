import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The package is publishable as it stands: its build (tsconfig.build.json) emits every file
 * package.json's exports name, the built entry imports and exports the client, and no declaration
 * it publishes says `any`.
 */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
  name: string
  files: string[]
  exports: Record<string, string | { types: string; default: string }>
  dependencies: Record<string, string>
}

describe('the published package', () => {
  // built inside the package, so that the built code resolves openapi-fetch as an installed copy would
  let out: string
  beforeAll(async () => {
    out = mkdtempSync(join(PACKAGE_DIR, '.build-check-'))
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
    await promisify(execFile)(process.execPath, [tsc, '-p', join(PACKAGE_DIR, 'tsconfig.build.json'), '--outDir', out])
  }, 120_000)
  afterAll(() => rmSync(out, { recursive: true, force: true }))

  it('is @strata/node, shipping dist and its README, depending on openapi-fetch only', () => {
    expect(pkg.name).toBe('@strata/node')
    expect(pkg.files).toEqual(['dist', 'README.md'])
    expect(Object.keys(pkg.dependencies)).toEqual(['openapi-fetch'])
  })

  it('builds every file its exports name', () => {
    const { types, default: entry } = pkg.exports['.'] as { types: string; default: string }
    for (const target of [types, entry]) {
      expect(target.startsWith('./dist/'), target).toBe(true)
      expect(existsSync(join(out, target.slice('./dist/'.length))), target).toBe(true)
    }
  })

  it('exports the client and its error class from the built entry', async () => {
    const built = (await import(pathToFileURL(join(out, 'index.js')).href)) as Record<string, unknown>
    expect(Object.keys(built).sort()).toEqual(['Strata', 'StrataError'])
    const Strata = built.Strata as new (options: object) => { embeds: { list: unknown } }
    expect(typeof new Strata({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_x' }).embeds.list).toBe('function')
  })

  it('publishes no `any` in its declarations', () => {
    const declarations = readdirSync(out, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.d.ts'))
    expect(declarations).toContain('index.d.ts')
    for (const file of declarations) {
      const code = readFileSync(join(out, file), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '')
      expect(code.match(/\bany\b/g), file).toBeNull()
    }
  })
})
