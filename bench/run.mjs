#!/usr/bin/env node
/**
 * Strata's benchmark (bench/README.md): every scenario against its baseline in the same run.
 *
 *   npm run bench                        full run → bench/results/latest.json + bench/README.md table
 *   npm run bench -- --smoke             one short round per scenario, tiny data (a few seconds each)
 *   node bench/run.mjs --out FILE        write the results elsewhere (README untouched)
 *   node bench/run.mjs --only a,b        only these scenario ids
 *   node bench/run.mjs --profile         servers run with --cpu-prof; top self-time functions in the results
 *   --rounds N --seconds S               alternating rounds and their length (default 3 × 5 s)
 *   --rollup-rows N                      orders in the slow warehouse of the rollup rows (default 300,000)
 *   --rollup-refresh-rows N              a table of its own of N orders for the refresh row (10000000: the
 *                                        10M-row target; default: the same table)
 *   --rollup-loads N                     dashboard loads of the warehouse-query row (default 1,000)
 *   --quiet                              reference only: the server at LOG_LEVEL=warn without the rate
 *                                        limiter (the shipped defaults otherwise); never the README table
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { markdown, updateReadme } from './lib/report.mjs'
import { QUIET_ENV, SHIPPED_ENV } from './lib/server-env.mjs'
import { createWarehouse, PG_URL } from './lib/warehouse.mjs'
import { ensureWrk } from './lib/wrk.mjs'
import { DEMO_SCENARIOS, demoScenarios } from './scenarios/demo.mjs'
import { ROLLUP_SCENARIOS, rollupScenarios } from './scenarios/rollups.mjs'
import { SERVER_SCENARIOS, serverScenarios } from './scenarios/server.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SERVER = join(ROOT, 'packages/server')
const MAIN_JS = join(SERVER, 'dist/main.js')
const DEFAULT_OUT = join(ROOT, 'bench/results/latest.json')
const SCENARIOS = { ...SERVER_SCENARIOS, ...DEMO_SCENARIOS, ...ROLLUP_SCENARIOS }

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    out: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    'rollup-rows': { type: 'string' },
    'rollup-refresh-rows': { type: 'string' },
    'rollup-loads': { type: 'string' },
  },
})

const log = (message) => process.stdout.write(`[bench] ${message}\n`)

/** Newest modification time of the server's non-test sources. */
function newestSource(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

/** The bench measures the production build: (re)build it when missing or older than src/. */
function ensureBuild() {
  if (existsSync(MAIN_JS) && statSync(MAIN_JS).mtimeMs >= newestSource(join(SERVER, 'src'))) return
  log('packages/server/dist is missing or older than src: building it (tsc -p tsconfig.build.json)')
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', join(SERVER, 'tsconfig.build.json')], { encoding: 'utf8' })
  if (!existsSync(MAIN_JS)) throw new Error(`building packages/server failed:\n${result.stdout}${result.stderr}`)
  if (result.status !== 0) log(`built with type errors:\n${result.stdout}`)
}

async function checkPostgres() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    await client.query('select 1')
  } catch (err) {
    throw new Error(`PostgreSQL is needed at ${PG_URL} (BENCH_POSTGRES_URL): ${err.message}`)
  } finally {
    await client.end().catch(() => {})
  }
}

function machine() {
  const cpus = os.cpus()
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGB: Number((os.totalmem() / 1024 ** 3).toFixed(1)),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  }
}

function command() {
  const given = process.argv.slice(2).join(' ')
  if (process.env.npm_lifecycle_event === 'bench') return `npm run bench${given ? ` -- ${given}` : ''}`
  return `node bench/run.mjs${given ? ` ${given}` : ''}`
}

async function main() {
  const smoke = args.smoke
  const out = resolve(args.out ?? DEFAULT_OUT)
  const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : undefined
  for (const id of only ?? []) if (!SCENARIOS[id]) throw new Error(`--only: unknown scenario ${id}`)
  const tmp = mkdtempSync(join(os.tmpdir(), 'strata-bench-'))
  const opts = {
    smoke,
    tmp,
    rounds: Number(args.rounds ?? (smoke ? 1 : 3)),
    seconds: Number(args.seconds ?? (smoke ? 1 : 5)),
    warmupSeconds: smoke ? 0 : 3,
    profile: args.profile,
    quiet: args.quiet,
    ...(args['rollup-rows'] ? { rollupRows: Number(args['rollup-rows']) } : {}),
    ...(args['rollup-refresh-rows'] ? { rollupRefreshRows: Number(args['rollup-refresh-rows']) } : {}),
    ...(args['rollup-loads'] ? { rollupLoads: Number(args['rollup-loads']) } : {}),
    // Kept after the run (the temp dir is not), for a closer look in Chrome DevTools.
    profileDir: join(os.tmpdir(), 'strata-bench-profiles', new Date().toISOString().replace(/[:.]/g, '-')),
  }
  if (opts.profile) mkdirSync(opts.profileDir, { recursive: true })

  ensureBuild()
  ensureWrk(log)
  await checkPostgres()

  const results = {
    machine: machine(),
    date: new Date().toISOString(),
    command: command(),
    smoke,
    // the server under test's logging and limiter (scenarios/server.mjs): the shipped defaults, or
    // the quiet reference
    server: args.quiet ? { config: 'quiet', ...QUIET_ENV } : { config: 'shipped', ...SHIPPED_ENV },
    load: {
      tool: 'wrk',
      connections: 50,
      threads: 2,
      rounds: opts.rounds,
      seconds: opts.seconds,
      warmupSeconds: opts.warmupSeconds,
    },
    scenarios: {},
  }
  const record = (id, result) => {
    results.scenarios[id] = { title: SCENARIOS[id], ...result }
    log(`${id}: ${result.status}${result.ratio !== undefined ? ` (ratio ${result.ratio})` : ''}`)
  }
  const ctx = {
    root: ROOT,
    mainJs: MAIN_JS,
    opts,
    log,
    profiles: {},
    wants: (id) => !only || only.has(id),
  }

  let wh
  const cleanup = async () => {
    await wh?.drop().catch((err) => log(`could not drop ${wh.schema}: ${err.message}`))
    wh = undefined
    rmSync(tmp, { recursive: true, force: true })
  }
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      log(`${signal}: cleaning up`)
      void cleanup().finally(() => process.exit(130))
    })
  }

  try {
    // the sales tables of the server and demo scenarios (the rollup rows make a warehouse of their own)
    if ([SERVER_SCENARIOS, DEMO_SCENARIOS].some((group) => Object.keys(group).some(ctx.wants))) {
      const rows = smoke ? { smallRows: 2_000, bigRows: 20_000 } : { smallRows: 20_000, bigRows: 1_000_000 }
      log(`generating data: ${rows.smallRows} and ${rows.bigRows} rows (PostgreSQL schema, Parquet file)`)
      wh = await createWarehouse({ ...rows, dir: tmp })
      ctx.wh = wh
    }
    for (const [group, run] of [
      [SERVER_SCENARIOS, serverScenarios],
      [DEMO_SCENARIOS, demoScenarios],
      [ROLLUP_SCENARIOS, rollupScenarios],
    ]) {
      if (!Object.keys(group).some(ctx.wants)) continue
      try {
        await run(ctx, record)
      } catch (err) {
        log(`error: ${err.stack ?? err}`)
        for (const id of Object.keys(group)) {
          if (ctx.wants(id) && !results.scenarios[id]) {
            record(id, {
              kind: 'error',
              status: 'error',
              note: String(err.message ?? err)
                .split('\n')[0]
                .slice(0, 300),
            })
          }
        }
      }
    }
  } finally {
    await cleanup()
  }

  // Keep the table's order stable: the catalogue's order, whatever ran first.
  results.scenarios = Object.fromEntries(
    Object.keys(SCENARIOS)
      .filter((id) => results.scenarios[id])
      .map((id) => [id, results.scenarios[id]]),
  )
  if (Object.keys(ctx.profiles).length > 0) {
    results.profiles = Object.fromEntries(
      Object.entries(ctx.profiles).map(([label, p]) => [
        label,
        { file: p.file, totalMs: p.totalMs, busyMs: p.busyMs, top: p.top },
      ]),
    )
  }
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`)
  log(`results: ${out}`)
  if (out === DEFAULT_OUT && !smoke && !only && !args.quiet) updateReadme(join(ROOT, 'bench/README.md'), results)
  process.stdout.write(`\n${markdown(results)}\n`)
  if (results.profiles) {
    for (const [label, p] of Object.entries(results.profiles)) {
      process.stdout.write(`\nTop self time, ${label} (busy ${p.busyMs} ms of ${p.totalMs} ms):\n`)
      for (const t of p.top) process.stdout.write(`  ${String(t.pctOfBusy).padStart(5)}%  ${t.selfMs} ms  ${t.fn}\n`)
    }
  }
  const errors = Object.values(results.scenarios).filter((r) => r.status === 'error').length
  if (errors > 0) process.exitCode = 1
}

main().catch((err) => {
  console.error(`[bench] failed: ${err.stack ?? err}`)
  process.exit(1)
})
