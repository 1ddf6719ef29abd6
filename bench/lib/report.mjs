import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const fmt = (n, digits = 0) =>
  n === null || n === undefined ? '–' : Number(n).toLocaleString('en-US', { maximumFractionDigits: digits })

/** A draw's CPU (the server, its engine process), when measured. */
function cpuPerDraw(s) {
  const c = s.cpuMsPerDraw
  return c === undefined ? '' : ` · CPU ${fmt(c.server, 1)} ms server + ${fmt(c.engine, 1)} ms engine per draw`
}

function load(s) {
  const cpu = s.cpuUsPerRequest === undefined ? '' : ` · ${fmt(s.cpuUsPerRequest, 1)} µs CPU/req`
  return `${fmt(s.rps)} req/s · p50 ${fmt(s.p50Ms, 2)} ms · p99 ${fmt(s.p99Ms, 2)} ms${cpu}`
}

const SHORT = { 'guest-token-mint': 'mint', 'query-cache-hit': 'cache hit', 'runtime-query': 'runtime query' }

function cells(r) {
  switch (r.kind) {
    case 'throughput':
      return [load(r.scenario), load(r.baseline), fmt(r.ratio, 2), r.target ? `≥ ${r.target.ratio}` : '–']
    case 'ratios': {
      const entries = Object.entries(r.ratios)
      const get = entries[0]?.[1]
      return [
        entries
          .map(([id, x]) => `${SHORT[id] ?? id} ${fmt(x.scenarioRatio, 2)} (its floor ${fmt(x.floorRatio, 2)})`)
          .join(' · ') || '–',
        get ? `bare \`GET /json\`, ${fmt(get.getRps)} req/s · ${fmt(get.getCpuUsPerRequest, 1)} µs CPU/req` : '–',
        '–',
        '–',
      ]
    }
    case 'query-time':
      return [
        `${fmt(r.scenario.medianMs, 1)} ms median (min ${fmt(r.scenario.minMs, 1)}, n=${r.scenario.reps})`,
        `${fmt(r.baseline.medianMs, 1)} ms median (min ${fmt(r.baseline.minMs, 1)})`,
        fmt(r.ratio, 2),
        `≥ ${r.target.ratio}`,
      ]
    case 'startup': {
      const s = r.scenario
      return [
        `fresh ${fmt(s.freshReadyMs)} ms, ${fmt(s.freshIdleRssMB, 0)} MB · seeded ${fmt(s.seededReadyMs)} ms, ${fmt(s.seededIdleRssMB, 0)} MB`,
        '–',
        '–',
        `≤ ${r.target.readyMs / 1000} s, ≤ ${r.target.rssMB} MB`,
      ]
    }
    case 'memory': {
      const s = r.scenario
      return [
        `${s.perBlockMB.map((mb) => `+${fmt(mb, 1)} MB`).join(', ')} per 1,000 tenants (RSS ${s.rssMB.join(' → ')} MB over ${fmt(s.tenants)} tenants)`,
        '–',
        '–',
        `≤ ${r.target.mbPer1000} MB per 1,000`,
      ]
    }
    case 'web': {
      const s = r.scenario ?? {}
      const parts = []
      if (s.gzipKB !== undefined) parts.push(`${fmt(s.gzipKB, 1)} KB gzip (${fmt(s.rawKB, 0)} KB raw)`)
      if (s.drawnFirstMs !== undefined)
        parts.push(`drawn ${fmt(s.drawnFirstMs)} ms first, ${fmt(s.drawnMedianMs)} ms median of ${s.loads}`)
      return [parts.join(' · ') || '–', '–', '–', `≤ ${r.target.gzipKB} KB, ≤ ${r.target.drawnMs / 1000} s`]
    }
    case 'warehouse-queries': {
      const served = (r) =>
        Object.entries(r.servedFrom)
          .map(([from, n]) => `${from} ${fmt(n)}`)
          .join(', ')
      return [
        `${fmt(r.scenario.warehouseQueries)} warehouse queries with declared rollups (and ${fmt(r.builds?.slowViewQueries)} building them before), ${fmt(r.fewerPct, 1)} % fewer (auto: ${fmt(r.auto.warehouseQueries)}) · ${fmt(r.loads)} loads × 9 metrics by ${fmt(r.tenants)} tenants, answers from ${served(r.scenario)}`,
        `${fmt(r.baseline.warehouseQueries)} without rollups (answers from ${served(r.baseline)}; ${fmt(r.baseline.seconds, 0)} s)`,
        fmt(r.ratio, 3),
        `≥ ${r.target.fewerPct} % fewer (≤ ${fmt(1 - r.target.fewerPct / 100, 2)})`,
      ]
    }
    case 'draw-time':
      return [
        `${fmt(r.scenario.medianMs, 1)} ms median cold draw of 9 metrics (min ${fmt(r.scenario.minMs, 1)}, n=${r.scenario.rounds})${cpuPerDraw(r.scenario)}`,
        `${fmt(r.baseline.medianMs, 1)} ms median cache hit (min ${fmt(r.baseline.minMs, 1)})${cpuPerDraw(r.baseline)}`,
        fmt(r.ratio, 2),
        `≤ ${r.target.ratio}`,
      ]
    case 'refresh-time':
      return [
        `${fmt(r.scenario.medianMs)} ms median refresh (min ${fmt(r.scenario.minMs)}, n=${r.scenario.rounds}) of ${fmt(r.tableRows)} rows, window ${fmt(r.windowRows)} groups`,
        `${fmt(r.baseline.medianMs)} ms median \`GROUP BY\` on \`pg\` (min ${fmt(r.baseline.minMs)})`,
        fmt(r.ratio, 2),
        `≤ ${r.target.ratio}`,
      ]
    case 'correctness':
      return [
        `${fmt(r.scenario.compared)} answers of ${fmt(r.scenario.samples)} samples, ${fmt(r.scenario.fromRollup)} from a rollup, ${fmt(r.scenario.mismatches)} differ`,
        "the warehouse's answers (rollups off)",
        '–',
        'all equal',
      ]
    default:
      return ['–', '–', '–', '–']
  }
}

const STATUS = { pass: '✅ pass', fail: '❌ fail', skipped: '⏭ skipped', error: '⚠ error', reference: 'ℹ reference' }

/** The results as a Markdown table, with the machine, date and command above it. */
export function markdown(results) {
  const m = results.machine
  const lines = [
    `Measured ${results.date} with \`${results.command}\` on ${m.cpus}× ${m.cpuModel}, ${m.memoryGB} GB RAM, ` +
      `Node ${m.node}, ${m.platform}; wrk ${results.load.connections} connections, ${results.load.threads} threads, ` +
      `${results.load.rounds} alternating rounds of ${results.load.seconds} s (after ${results.load.warmupSeconds} s warm-up).`,
    '',
    '| Scenario | Measured | Baseline (same run) | Ratio | Target | Result |',
    '| --- | --- | --- | --- | --- | --- |',
  ]
  for (const [id, r] of Object.entries(results.scenarios)) {
    const [measured, baseline, ratio, target] = cells(r)
    const note = r.note ? ` (${r.note})` : ''
    lines.push(
      `| ${r.title ?? id} | ${measured} | ${baseline} | ${ratio} | ${target} | ${STATUS[r.status] ?? r.status}${note} |`,
    )
  }
  return lines.join('\n')
}

export const BEGIN = '<!-- bench:results:begin (generated by bench/run.mjs) -->'
export const END = '<!-- bench:results:end -->'

/** Replaces the generated block of bench/README.md with the table of `results`. */
export function updateReadme(file, results) {
  const text = readFileSync(file, 'utf8')
  const start = text.indexOf(BEGIN)
  const stop = text.indexOf(END)
  if (start === -1 || stop === -1) throw new Error(`${file}: the generated-results markers are missing`)
  writeFileSync(file, `${text.slice(0, start + BEGIN.length)}\n${markdown(results)}\n${text.slice(stop)}`)
  // `npm test` starts with `biome check .`, which formats Markdown too: align the table as it would
  const biome = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'biome')
  try {
    execFileSync(biome, ['format', '--write', file], { stdio: 'ignore' })
  } catch {
    console.warn(`[bench] could not format ${file} with biome: run \`npx biome format --write ${file}\``)
  }
}
