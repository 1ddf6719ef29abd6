import { cpuMs } from './proc.mjs'
import { median, round, summarizeLoads } from './stats.mjs'
import { runWrk } from './wrk.mjs'

/** One request outside the load, so a misconfigured target fails loudly instead of measuring 4xx. */
async function probe(target) {
  let body = target.body === undefined ? undefined : JSON.stringify(target.body)
  if (body !== undefined && target.rotate) body = body.replace(target.rotate.placeholder, '1')
  const res = await fetch(target.url, {
    method: target.method ?? 'GET',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...target.headers },
    body,
    signal: AbortSignal.timeout(30_000),
  })
  const text = await res.text()
  if (res.status !== 200)
    throw new Error(`${target.method ?? 'GET'} ${target.url}: ${res.status} ${text.slice(0, 300)}`)
}

/**
 * Scenario against its baseline in the same run: a warm-up of each, then `rounds` rounds of
 * (baseline, scenario), each `seconds` long, 50 connections, 2 wrk threads. The ratio is the
 * median of the per-round ratios, so drift in the machine's speed cancels round by round.
 * `reference` (optional): a third target in every round (the old bare GET baseline), reported as
 * `reference` with the scenario's and the baseline's ratios to it; never judged.
 */
export async function comparePair({ id, baseline, scenario, reference, target, opts, log }) {
  await probe(baseline)
  await probe(scenario)
  if (reference) await probe(reference)
  // The server's own CPU time per request (µs): what the profile's wall-clock view blurs, since
  // wrk shares the two cores with it.
  const run = async (t, name, seconds) => {
    const before = cpuMs(t.pid)
    const result = await runWrk({ ...t, seconds, dir: opts.tmp, name: `${id}-${name}` })
    return { ...result, cpuUsPerRequest: ((cpuMs(t.pid) - before) * 1000) / Math.max(1, result.requests) }
  }
  if (opts.warmupSeconds > 0) {
    await run(baseline, 'warmup-baseline', opts.warmupSeconds)
    await run(scenario, 'warmup-scenario', opts.warmupSeconds)
    if (reference) await run(reference, 'warmup-reference', opts.warmupSeconds)
  }
  const rounds = []
  for (let i = 0; i < opts.rounds; i++) {
    const b = await run(baseline, 'baseline', opts.seconds)
    const s = await run(scenario, 'scenario', opts.seconds)
    const r = reference ? await run(reference, 'reference', opts.seconds) : undefined
    rounds.push({ baseline: b, scenario: s, reference: r, ratio: s.rps / b.rps })
    log(
      `  round ${i + 1}: baseline ${b.rps.toFixed(0)} req/s, scenario ${s.rps.toFixed(0)} req/s (${(s.rps / b.rps).toFixed(2)})` +
        (r ? `, reference ${r.rps.toFixed(0)} req/s` : ''),
    )
  }
  const base = summarizeLoads(rounds.map((r) => r.baseline))
  const scen = summarizeLoads(rounds.map((r) => r.scenario))
  const ref = reference ? summarizeLoads(rounds.map((r) => r.reference)) : undefined
  const ratio = round(median(rounds.map((r) => r.ratio)), 3)
  const errors = base.errors + scen.errors + (ref?.errors ?? 0)
  return {
    kind: 'throughput',
    status: errors > 0 ? 'error' : target === undefined ? 'reference' : ratio >= target ? 'pass' : 'fail',
    ...(errors > 0 ? { note: `${errors} failed requests (non-2xx or socket errors): numbers not comparable` } : {}),
    ...(target === undefined ? {} : { target: { ratio: target } }),
    ratio,
    scenario: scen,
    baseline: base,
    ...(ref
      ? {
          reference: {
            ...ref,
            scenarioRatio: round(median(rounds.map((r) => r.scenario.rps / r.reference.rps)), 3),
            baselineRatio: round(median(rounds.map((r) => r.baseline.rps / r.reference.rps)), 3),
          },
        }
      : {}),
    rounds: rounds.map((r) => ({
      baselineRps: round(r.baseline.rps, 0),
      scenarioRps: round(r.scenario.rps, 0),
      ratio: round(r.ratio, 3),
      baselineCpuUsPerRequest: round(r.baseline.cpuUsPerRequest, 1),
      scenarioCpuUsPerRequest: round(r.scenario.cpuUsPerRequest, 1),
      ...(r.reference
        ? {
            referenceRps: round(r.reference.rps, 0),
            referenceCpuUsPerRequest: round(r.reference.cpuUsPerRequest, 1),
          }
        : {}),
    })),
  }
}

/**
 * Latency of one query at a time, server (HTTP) against the driver, alternating; the ratio is
 * driver time / server time (1.0: the server adds nothing).
 */
export async function compareTimes({ server, driver, reps, warmup, target }) {
  for (let i = 0; i < warmup; i++) {
    await server()
    await driver()
  }
  const s = []
  const d = []
  const own = []
  for (let i = 0; i < reps; i++) {
    d.push(await driver())
    const answer = await server()
    s.push(answer.ms)
    if (answer.serverMs !== undefined) own.push(answer.serverMs)
  }
  const serverMs = median(s)
  const driverMs = median(d)
  const ratio = round(driverMs / serverMs, 3)
  return {
    kind: 'query-time',
    status: ratio >= target ? 'pass' : 'fail',
    ...(target === undefined ? {} : { target: { ratio: target } }),
    ratio,
    scenario: {
      medianMs: round(serverMs),
      minMs: round(Math.min(...s)),
      reps,
      // the server's own timeTaken (from its metric compile to the rows): the rest is HTTP and routing
      ...(own.length > 0 ? { timeTakenMedianMs: round(median(own)) } : {}),
    },
    baseline: { medianMs: round(driverMs), minMs: round(Math.min(...d)), reps },
  }
}
