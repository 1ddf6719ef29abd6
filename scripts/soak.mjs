#!/usr/bin/env node
/**
 * `npm run soak`: a mixed load against the production build for a while, then the verdict.
 *
 *   npm run soak                       # 10 minutes
 *   npm run soak -- --minutes 60       # longer
 *   npm run soak -- --seconds 10 --json   # what test/reliability/soak.integration.test.ts runs
 *   npm run soak -- --mix mint=0,query=1  # only some kinds of request (default mint=1,list=1,query=3,runtime-load=1,runtime-query=4)
 *
 * Starts packages/server/dist/main.js (building it first when missing or older than src/) on a
 * fresh DATA_DIR with the seeded demo (SQLite metadata, DuckDB over the generated CSV dataset),
 * then runs `--concurrency` clients that loop over a mix of guest-token mints, embed lists,
 * backend metric queries and browser runtime loads and queries until the time is up, sampling
 * the server's RSS every second. Prints requests served, errors (any answer but 200, or none),
 * latencies per kind and RSS at start (after warm-up), end and peak. Exits 1 on any error, or
 * when RSS over the second half of the run grows by more than --max-growth-mb.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SERVER = join(ROOT, 'packages', 'server')
const MAIN = join(SERVER, 'dist', 'main.js')

const { values } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    'max-growth-mb': { type: 'string', default: '64' },
    mix: { type: 'string', default: 'mint=1,list=1,query=3,runtime-load=1,runtime-query=4' },
    json: { type: 'boolean', default: false },
  },
})
const seconds = values.seconds !== undefined ? Number(values.seconds) : Number(values.minutes ?? 10) * 60
const concurrency = Number(values.concurrency)
const maxGrowthMb = Number(values['max-growth-mb'])
if (!(seconds > 0) || !(concurrency > 0) || !(maxGrowthMb >= 0)) {
  console.error(
    'usage: npm run soak -- [--minutes N | --seconds N] [--concurrency N] [--max-growth-mb N] [--mix kind=w,…] [--json]',
  )
  process.exit(2)
}
const say = (line) => {
  if (!values.json) console.log(line)
}

// ── the build ──────────────────────────────────────────────────────────────────
function newest(dir) {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) t = Math.max(t, newest(p))
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) t = Math.max(t, statSync(p).mtimeMs)
  }
  return t
}
if (!existsSync(MAIN) || newest(join(SERVER, 'src')) > statSync(MAIN).mtimeMs) {
  say('building packages/server …')
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  spawnSync(process.execPath, [tsc, '-p', join(SERVER, 'tsconfig.build.json')], { stdio: 'inherit' })
  if (!existsSync(MAIN)) {
    console.error('soak: the build left no packages/server/dist/main.js')
    process.exit(1)
  }
}

// ── the server ─────────────────────────────────────────────────────────────────
const dataDir = mkdtempSync(join(tmpdir(), 'strata-soak-'))
const env = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  DEMO: 'true',
  LOG_LEVEL: 'warn',
  RATE_LIMIT: '0',
  // e.g. NODE_OPTIONS=--max-old-space-size=160 npm run soak: is growth garbage or retained?
  ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
}
const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] })
const warnings = []
let address
let demoKey
const ready = new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('the server did not print its demo key within 60 s')), 60_000)
  const check = () => {
    if (address && demoKey) {
      clearTimeout(timer)
      resolve()
    }
  }
  createInterface({ input: child.stdout }).on('line', (line) => {
    let parsed
    try {
      parsed = JSON.parse(line)
    } catch {
      return
    }
    if (parsed.level >= 40) warnings.push(line.slice(0, 500))
  })
  createInterface({ input: child.stderr }).on('line', (line) => {
    const demo = /Strata demo: (\S+)\/demo/.exec(line)
    if (demo) address = demo[1]
    const key = /API key \(shown once\): (\S+)/.exec(line)
    if (key) demoKey = key[1]
    check()
  })
  child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)))
})
let stopping = false
const cleanup = () => {
  if (child.exitCode === null) child.kill('SIGKILL')
  rmSync(dataDir, { recursive: true, force: true })
}
process.on('exit', cleanup)
process.on('SIGINT', () => process.exit(130))

function rssMb() {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
  } catch {
    const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(child.pid)], { encoding: 'utf8' })
    return Number(ps.stdout.trim()) / 1024
  }
}

// ── the load ───────────────────────────────────────────────────────────────────
const TENANTS = ['acme', 'globex', 'initech', 'umbrella']
const METRICS = [
  'revenue',
  'orders',
  'average_order',
  'revenue_by_month',
  'status_share',
  'revenue_by_category',
  'orders_by_channel',
  'top_customers',
]
const COUNTRIES = ['DE', 'FR', 'US', 'JP', 'GB', 'BR', 'IN', 'ES']
const PERIODS = [
  'Last 12 months',
  'This year',
  'Last 90 days',
  'All time',
  { startDate: '2025-03-01', endDate: '2025-09-30' },
]
const pick = (list) => list[Math.floor(Math.random() * list.length)]
/** A few hundred distinct filter sets: a realistic mix of result-cache hits and misses. */
function filters() {
  const f = { period: pick(PERIODS) }
  if (Math.random() < 0.5) f.country = COUNTRIES.filter(() => Math.random() < 0.4)
  if (Math.random() < 0.3) f.amount = { min: 50 * Math.floor(Math.random() * 6) }
  return f
}

async function call(method, path, token, body) {
  const res = await fetch(`${address}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await res.text()
  return { status: res.status, text }
}

const stats = { requests: 0, errors: 0, byKind: {}, errorSamples: [] }
const guestTokens = []
let embedId

function record(kind, ms, ok, detail) {
  stats.requests++
  stats.byKind[kind] ??= { count: 0, errors: 0, latencies: [] }
  const k = stats.byKind[kind]
  k.count++
  if (k.latencies.length < 200_000) k.latencies.push(ms)
  if (!ok) {
    stats.errors++
    k.errors++
    if (stats.errorSamples.length < 10) stats.errorSamples.push(`${kind}: ${detail}`)
  }
}

/** `--mix kind=weight,…`: the share of each kind of request (0 leaves a kind out). */
const KINDS = values.mix.split(',').map((pair) => {
  const [kind, weight] = pair.split('=')
  if (!['mint', 'list', 'query', 'runtime-load', 'runtime-query'].includes(kind) || !(Number(weight) >= 0)) {
    console.error(`soak: bad --mix entry "${pair}"`)
    process.exit(2)
  }
  return [kind, Number(weight)]
})
const TOTAL_WEIGHT = KINDS.reduce((s, [, w]) => s + w, 0)
function chooseKind() {
  let r = Math.random() * TOTAL_WEIGHT
  for (const [kind, w] of KINDS) {
    r -= w
    if (r < 0) return kind
  }
  return 'runtime-query'
}

async function mint() {
  const res = await call('POST', '/api/v2/guest-token/create', demoKey, {
    dataAppName: 'demo',
    clientId: pick(TENANTS),
    expiryTime: 3_600_000,
    permissions: { isEnableDownloadMetrics: true },
  })
  if (res.status === 200) {
    const { token } = JSON.parse(res.text)
    if (guestTokens.length < 500) guestTokens.push(token)
    else guestTokens[Math.floor(Math.random() * guestTokens.length)] = token
  }
  return res
}

async function one(kind) {
  switch (kind) {
    case 'mint':
      return mint()
    case 'list':
      return call('GET', '/api/v2/data-app/embeds', demoKey)
    case 'query':
      return call('POST', '/api/v2/data-app/query', demoKey, {
        embedId,
        metricId: pick(METRICS),
        clientId: pick(TENANTS),
        dashboardFilter: filters(),
      })
    case 'runtime-load':
      return call('GET', `/api/v2/embed/runtime/${embedId}`, pick(guestTokens))
    default:
      return call('POST', `/api/v2/embed/runtime/${embedId}/query`, pick(guestTokens), {
        metricId: pick(METRICS),
        dashboardFilter: filters(),
      })
  }
}

async function worker(deadline) {
  while (!stopping && performance.now() < deadline) {
    const kind = chooseKind()
    const started = performance.now()
    try {
      const res = await one(kind)
      record(kind, performance.now() - started, res.status === 200, `${res.status} ${res.text.slice(0, 200)}`)
    } catch (err) {
      record(kind, performance.now() - started, false, String(err?.cause?.code ?? err?.message ?? err))
    }
  }
}

const percentile = (sorted, p) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]

try {
  await ready
  say(`soak: ${address} (pid ${child.pid}), ${seconds} s, ${concurrency} clients`)
  const embeds = JSON.parse((await call('GET', '/api/v2/data-app/embeds', demoKey)).text)
  embedId = embeds.data[0].embedId
  for (let i = 0; i < 20; i++) await mint()

  const samples = [] // [seconds since start, RSS MB]
  const started = performance.now()
  const deadline = started + seconds * 1000
  const sampler = setInterval(() => {
    const at = (performance.now() - started) / 1000
    samples.push([at, rssMb()])
    const every = seconds >= 120 ? 60 : 5
    if (!values.json && Math.floor(at) % every === 0 && samples.length > 1) {
      console.log(
        `  ${Math.round(at)} s: ${stats.requests} requests, ${stats.errors} errors, RSS ${samples.at(-1)[1].toFixed(0)} MB`,
      )
    }
  }, 1000)
  await Promise.all(Array.from({ length: concurrency }, () => worker(deadline)))
  clearInterval(sampler)
  samples.push([(performance.now() - started) / 1000, rssMb()])
  const durationS = (performance.now() - started) / 1000

  // memory: RSS after warm-up (the first sample past 10% of the run) vs the end; and the trend of
  // the second half (a leak keeps climbing there, a cache that filled does not)
  const warm = samples.find(([t]) => t >= seconds * 0.1) ?? samples[0]
  const end = samples.at(-1)
  const peak = Math.max(...samples.map(([, r]) => r))
  const half = samples.filter(([t]) => t >= seconds / 2)
  const secondHalfGrowth = half.length > 1 ? half.at(-1)[1] - Math.min(...half.map(([, r]) => r)) : 0
  const byKind = Object.fromEntries(
    Object.entries(stats.byKind).map(([kind, k]) => {
      const sorted = k.latencies.sort((a, b) => a - b)
      return [
        kind,
        {
          count: k.count,
          errors: k.errors,
          p50ms: Math.round(percentile(sorted, 0.5) * 10) / 10,
          p99ms: Math.round(percentile(sorted, 0.99) * 10) / 10,
        },
      ]
    }),
  )
  const result = {
    durationS: Math.round(durationS * 10) / 10,
    concurrency,
    requests: stats.requests,
    requestsPerSecond: Math.round(stats.requests / durationS),
    errors: stats.errors,
    errorSamples: stats.errorSamples,
    byKind,
    rssStartMb: Math.round(warm[1]),
    rssEndMb: Math.round(end[1]),
    rssPeakMb: Math.round(peak),
    rssSecondHalfGrowthMb: Math.round(secondHalfGrowth),
    serverWarnings: warnings.length,
    serverAlive: child.exitCode === null,
  }
  const ok = result.errors === 0 && result.serverAlive && secondHalfGrowth <= maxGrowthMb
  if (values.json) console.log(JSON.stringify({ ...result, ok }))
  else {
    console.log(`\nsoak over ${result.durationS} s with ${concurrency} clients:`)
    console.log(`  requests served: ${result.requests} (${result.requestsPerSecond}/s), errors: ${result.errors}`)
    for (const [kind, k] of Object.entries(byKind)) {
      console.log(
        `    ${kind.padEnd(14)} ${String(k.count).padStart(8)}  p50 ${k.p50ms} ms  p99 ${k.p99ms} ms  errors ${k.errors}`,
      )
    }
    console.log(
      `  RSS: ${result.rssStartMb} MB after warm-up, ${result.rssEndMb} MB at the end, peak ${result.rssPeakMb} MB; ` +
        `growth over the second half ${result.rssSecondHalfGrowthMb} MB (limit ${maxGrowthMb} MB)`,
    )
    if (stats.errorSamples.length) console.log(`  first errors:\n    ${stats.errorSamples.join('\n    ')}`)
    if (warnings.length) console.log(`  server warnings/errors logged: ${warnings.length}, first: ${warnings[0]}`)
    console.log(ok ? 'soak: OK' : 'soak: FAILED')
  }
  stopping = true
  child.kill('SIGTERM')
  process.exitCode = ok ? 0 : 1
} catch (err) {
  console.error(`soak: ${err.message}`)
  process.exitCode = 1
}
