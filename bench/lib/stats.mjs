export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

export const round = (value, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null)

/** Medians of wrk runs: req/s, p50, p99. */
export function summarizeLoads(runs) {
  return {
    rps: round(median(runs.map((r) => r.rps)), 0),
    p50Ms: round(median(runs.map((r) => r.p50Ms))),
    p99Ms: round(median(runs.map((r) => r.p99Ms))),
    cpuUsPerRequest: round(median(runs.map((r) => r.cpuUsPerRequest)), 1),
    requests: runs.reduce((sum, r) => sum + r.requests, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  }
}
