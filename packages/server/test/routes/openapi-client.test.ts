import { execFile } from 'node:child_process'
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import openapiTS, { astToString } from 'openapi-typescript'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestApp, type TestContext } from '../helpers/app.js'

/**
 * A generated client comes out usable: /openapi.json passes an OpenAPI validator (Redocly's
 * recommended rules), openapi-typescript turns it into types without a warning, a client
 * program written against those types with openapi-fetch (test/fixtures/openapi-client)
 * type-checks with `tsc --noEmit` (including lines that must not compile: the types are
 * precise, per datasourceType and per embedType), and it runs against the live server, from
 * the admin account to a guest token and the metric the browser loads.
 */
const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const FIXTURE = fileURLToPath(new URL('../fixtures/openapi-client/client.ts', import.meta.url))

describe('a client generated from /openapi.json', () => {
  let t: TestContext
  let url: string
  let dir: string
  let text: string
  beforeAll(async () => {
    t = await createTestApp('sqlite', { LOG_LEVEL: 'warn' })
    url = await t.app.listen({ port: 0, host: '127.0.0.1' })
    text = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body
    dir = mkdtempSync(join(tmpdir(), 'strata-client-'))
    // the program resolves openapi-fetch (and tsc, @types/node) from the repository's node_modules
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }))
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: ['node'],
          strict: true,
          noUncheckedIndexedAccess: true,
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['client.ts', 'strata.d.ts'],
      }),
    )
    copyFileSync(FIXTURE, join(dir, 'client.ts'))
  })
  afterAll(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("is a valid OpenAPI 3.1 document by Redocly's recommended rules", async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        'info-license': 'off', // the project states no license
        'operation-4xx-response': 'off', // the health probes answer 200 or 503, never a 4xx
      },
    })
    const problems = await lintFromString({ source: text, absoluteRef: `${url}/openapi.json`, config })
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([])
  })

  it('generates types without a warning; a program using them type-checks and runs against the server', async () => {
    const warn = vi.spyOn(console, 'warn')
    const error = vi.spyOn(console, 'error')
    try {
      const ast = await openapiTS(new URL(`${url}/openapi.json`))
      writeFileSync(join(dir, 'strata.d.ts'), astToString(ast))
      expect([...warn.mock.calls, ...error.mock.calls]).toEqual([])
    } finally {
      warn.mockRestore()
      error.mockRestore()
    }

    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
    const checked = await run(process.execPath, [tsc, '-p', dir]).catch((err: { stdout: string }) => err)
    expect(checked.stdout, 'tsc --noEmit').toBe('')

    const tsx = join(ROOT, 'node_modules/tsx/dist/cli.mjs')
    const { stdout } = await run(process.execPath, [tsx, 'client.ts'], {
      cwd: dir,
      env: { ...process.env, STRATA_URL: url },
    })
    const got = JSON.parse(stdout) as Record<string, unknown>
    expect(got).toMatchObject({
      file: 'files/orders.csv',
      datasource: { tables: 1 },
      dashboard: 'Imported dashboard Sales with 1 metric',
      metrics: ['revenue'],
      permissions: { underlyingData: true, download: false },
      // the guest token's tenant only: acme's two orders
      rows: [{ revenue: 150 }],
      missing: { status: 403, code: 'UNAUTHORIZED' },
    })
    expect(got.embedId).toMatch(/^emb_/)
  }, 120_000) // two child processes (tsc over the generated types, tsx): ~10 s quiet, 30 s on a loaded machine
})
