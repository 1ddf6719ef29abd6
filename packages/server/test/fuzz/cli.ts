import { parseArgs } from 'node:util'
import { MIN_NESTING } from './nesting.js'
import { type FuzzStats, histogram, runFuzz } from './run.js'
import { FuzzTarget } from './target.js'

/**
 * `npm run fuzz` (scripts/fuzz.mjs runs this with tsx): the property-based fuzzer of
 * test/fuzz/fuzz.test.ts at volume. Prints the cases run, the status histogram and every
 * distinct violation with its first example; exits 1 when there is any.
 *
 *   npm run fuzz                          # 100,000 cases, a random seed
 *   npm run fuzz -- --runs 20000 --seed 7 # reproduce a run
 *   npm run fuzz -- --case-timeout-ms 5000 # a request unanswered this long is a violation (15 s)
 */
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100000' },
    seed: { type: 'string' },
    'by-operation': { type: 'boolean', default: false },
    'case-timeout-ms': { type: 'string', default: '15000' },
  },
})
const runs = Number(values.runs)
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed)
const caseTimeoutMs = Number(values['case-timeout-ms'])
if (!Number.isSafeInteger(runs) || runs < 1 || !Number.isSafeInteger(seed) || !(caseTimeoutMs > 0)) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S] [--case-timeout-ms MS] [--by-operation]')
  process.exit(2)
}

const line = (s: FuzzStats) =>
  `${s.cases} cases in ${(s.ms / 1000).toFixed(1)} s (${Math.round(s.cases / (s.ms / 1000))}/s); ` +
  `statuses ${histogram(s.statuses)}; violations ${s.failures.length}; rebuilds ${s.rebuilds}`

console.log(`fuzz: ${runs} cases, seed ${seed}`)
const target = await FuzzTarget.create()
console.log(
  target.fixture.analytics
    ? 'fixture: SQLite metadata + Postgres warehouse (setupAnalytics)'
    : 'fixture: SQLite metadata, bootstrap only (PostgreSQL at 127.0.0.1:5432 not reachable: no warehouse)',
)
let stats: FuzzStats
try {
  stats = await runFuzz(target, {
    runs,
    seed,
    caseTimeoutMs,
    progressEvery: Math.max(1000, Math.floor(runs / 20)),
    progress: (s) => console.log(`  … ${line(s)}`),
  })
} finally {
  await target.close()
}
console.log(`\ncases fuzzed: ${stats.cases} (seed ${seed}, ${(stats.ms / 1000).toFixed(1)} s)`)
console.log(`status histogram: ${histogram(stats.statuses)}`)
console.log(`status and code:  ${histogram(stats.codes)}`)
console.log(`operations: ${Object.keys(stats.operations).length} (incl. stray paths)`)
console.log(
  `nested: ${stats.nested.cases} cases ${MIN_NESTING}–${stats.nested.deepest} levels deep, ` +
    `${stats.nested.positions.size} positions (body, query, query keys) over ${Object.keys(stats.nested.operations).length} operations`,
)
if (values['by-operation']) {
  for (const [key, n] of Object.entries(stats.byOperation).sort()) console.log(`  ${key}: ${n}`)
}
console.log(`fixture rebuilds: ${stats.rebuilds}; requests the HTTP client refused to send: ${stats.clientRejected}`)
if (stats.failures.length > 0) {
  console.log(`\n${stats.failures.length} distinct violations:`)
  for (const f of stats.failures) console.log(JSON.stringify(f, null, 2))
  process.exit(1)
}
console.log(
  'violations: 0 (no 5xx, no hang, no HTML, no stack trace, every error in the { error: { code, message } } shape, no deep body served)',
)
