import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { isCI, requireService } from './helpers/services.js'

/**
 * The benchmark's smoke profile (`node bench/run.mjs --smoke`) runs to the end and writes a
 * results file with every scenario in it. Speed is not asserted: timings belong to
 * `npm run bench`, not to `npm test`. Needs Debian's wrk and PostgreSQL; without wrk the suite
 * is skipped loudly, and under CI=true it fails instead (CI installs wrk).
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const SCENARIOS = [
  'guest-token-mint',
  'post-floor',
  'query-cache-miss',
  'query-cache-hit',
  'runtime-query',
  'get-reference',
  'groupby-1m-duckdb',
  'groupby-1m-postgres',
  'many-tenants',
  'self-serve-load',
  'start-to-ready',
  'web-component',
  'rollup-warehouse-queries',
  'rollup-cold-draw',
  'rollup-refresh',
  'rollup-correctness',
]

function wrkInstalled(): boolean {
  if (spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined) return true
  const message = 'wrk is not installed (apt-get install -y wrk)'
  if (isCI) throw new Error(`${message}; CI=true requires it`)
  console.warn(`\n  ⚠ SKIPPING the bench smoke test: ${message}\n`)
  return false
}

const ready = wrkInstalled() && (await requireService('PostgreSQL', '127.0.0.1', 5432))

describe.skipIf(!ready)('bench smoke profile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-smoke-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('runs every scenario once and writes the results file', { timeout: 600_000 }, async () => {
    const out = join(dir, 'results.json')
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['bench/run.mjs', '--smoke', '--out', out], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-20_000)
      }
      child.stdout.on('data', keep)
      child.stderr.on('data', keep)
      child.once('error', reject)
      child.once('close', (exit) => resolve({ code: exit, output }))
    })
    expect(code, output).toBe(0)
    expect(existsSync(out), output).toBe(true)
    const results = JSON.parse(readFileSync(out, 'utf8'))
    expect(results.smoke).toBe(true)
    expect(results.machine).toMatchObject({ cpus: expect.any(Number), node: process.version })
    expect(Object.keys(results.scenarios).sort()).toEqual([...SCENARIOS].sort())
    for (const [id, scenario] of Object.entries<{ status: string }>(results.scenarios)) {
      expect(['pass', 'fail', 'skipped', 'reference'], `${id}: ${JSON.stringify(scenario)}`).toContain(scenario.status)
    }
  })
})
