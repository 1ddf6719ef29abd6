import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { CLI_JS, MAIN_JS, SERVER_DIR } from './helpers/process.js'

/** Newest modification time of the server's non-test sources (a connector's `standin/` is test code). */
function newestSource(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== 'standin') newest = Math.max(newest, newestSource(path))
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs)
    }
  }
  return newest
}

function isStale(): boolean {
  if (!existsSync(MAIN_JS) || !existsSync(CLI_JS)) return true
  const built = Math.min(statSync(MAIN_JS).mtimeMs, statSync(CLI_JS).mtimeMs)
  return newestSource(join(SERVER_DIR, 'src')) > built
}

const CONTRACT_DIR = join(SERVER_DIR, '..', 'contract')

/**
 * The built server imports @strata/contract's dist (tests in this process read its src through
 * the vitest alias): rebuild it first when it is missing or older than its src.
 */
function buildContract(tsc: string): void {
  const built = join(CONTRACT_DIR, 'dist', 'index.js')
  if (existsSync(built) && newestSource(join(CONTRACT_DIR, 'src')) <= statSync(built).mtimeMs) return
  const result = spawnSync(process.execPath, [tsc, '-p', join(CONTRACT_DIR, 'tsconfig.json')], { encoding: 'utf8' })
  if (result.status !== 0) throw new Error(`building packages/contract failed:\n${result.stdout}${result.stderr}`)
}

const EMBED_DIR = join(SERVER_DIR, '..', 'embed')

/**
 * The built server imports the embed's chart option builder from its dist/node
 * (`@strata/embed/chart-options`, reports): rebuild it first when it is missing or older than the
 * sources it compiles (src/chart-options.ts, src/charts, src/lib, src/api).
 */
function buildChartOptions(tsc: string): void {
  const built = join(EMBED_DIR, 'dist', 'node', 'chart-options.js')
  const src = join(EMBED_DIR, 'src')
  const newest = Math.max(
    statSync(join(src, 'chart-options.ts')).mtimeMs,
    ...['charts', 'lib', 'api'].map((dir) => newestSource(join(src, dir))),
  )
  if (existsSync(built) && newest <= statSync(built).mtimeMs) return
  const result = spawnSync(process.execPath, [tsc, '-p', join(EMBED_DIR, 'tsconfig.node.json')], { encoding: 'utf8' })
  if (result.status !== 0)
    throw new Error(`building packages/embed/dist/node failed:\n${result.stdout}${result.stderr}`)
}

/**
 * Whether this vitest run may include a live-process test (test/process/, test/reliability/).
 * Only a run whose command-line filters are all existing paths outside those can skip the build; any
 * other filter (a name fragment, an option's value) counts as "may include", so a stale
 * build is never used by mistake. Unit-test runs of other folders stay fast.
 */
function mayRunLiveTests(argv: readonly string[]): boolean {
  // test/reliability holds live-process tests too (durability, shutdown, faults, soak), the
  // browser tests start the built server as well, and so does the hosted backend's script run
  const liveDirs = ['process', 'reliability', 'browser', 'compat/hosted-backend.test.ts'].map((dir) =>
    join(SERVER_DIR, 'test', dir),
  )
  const filters: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const previous = argv[i - 1]
    if (arg.startsWith('-')) continue
    if (previous?.startsWith('-') && !previous.includes('=')) continue // maybe the option's value
    if (['run', 'watch', 'dev', 'related', 'bench'].includes(arg) && filters.length === 0) continue
    filters.push(arg)
  }
  if (filters.length === 0) return true
  return filters.some((filter) => {
    if (!existsSync(filter)) return true
    const path = resolve(filter)
    return liveDirs.some((liveDir) => path.startsWith(liveDir) || liveDir.startsWith(path))
  })
}

/**
 * The live-process tests run the production build (`dist/main.js`, `dist/cli.js`), as
 * `npm start` does. Build it once per vitest run when it is missing or older than src/.
 * Type errors do not stop the run here (tsc still emits; `npm test` type-checks first),
 * but a build that leaves no entry point does.
 */
export default function setup(): void {
  const cli = process.argv.findIndex((arg, i) => i > 0 && /vitest/.test(arg))
  if (cli !== -1 && !mayRunLiveTests(process.argv.slice(cli + 1))) return
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  buildContract(tsc)
  buildChartOptions(tsc)
  if (!isStale()) return
  const started = performance.now()
  const result = spawnSync(process.execPath, [tsc, '-p', join(SERVER_DIR, 'tsconfig.build.json')], {
    encoding: 'utf8',
  })
  const ms = Math.round(performance.now() - started)
  if (!existsSync(MAIN_JS) || !existsSync(CLI_JS)) {
    throw new Error(`building packages/server failed:\n${result.stdout}${result.stderr}`)
  }
  if (result.status !== 0) {
    console.warn(`\n  ⚠ packages/server built with type errors (${ms} ms):\n${result.stdout}${result.stderr}`)
  } else {
    console.log(`\n  built packages/server/dist for the live-process tests (${ms} ms)`)
  }
}
