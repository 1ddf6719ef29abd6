import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Top self-time functions of a V8 .cpuprofile (as `node --cpu-prof` writes it): self time per
 * function (name + file + line), summed over the samples, as ms and % of all samples.
 */
export function topSelfTime(file, { top = 20, root = '' } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  let total = 0
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0
    total += dt
    self.set(id, (self.get(id) ?? 0) + dt)
  })
  const byFunction = new Map()
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame
    const where = url ? `${url.replace(`file://${root}/`, '').replace(/^file:\/\//, '')}:${lineNumber + 1}` : ''
    const key = `${functionName || '(anonymous)'} ${where}`.trim()
    byFunction.set(key, (byFunction.get(key) ?? 0) + us)
  }
  const idle = byFunction.get('(idle)') ?? 0
  const busy = total - idle
  return {
    totalMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    top: [...byFunction]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, us]) => ({ fn, selfMs: Math.round(us / 1000), pctOfBusy: Number(((100 * us) / busy).toFixed(1)) })),
  }
}

/** The newest .cpuprofile in `dir` whose name starts with `prefix`. */
export function profileIn(dir, prefix) {
  const files = readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith('.cpuprofile'))
  return files.length ? join(dir, files.sort().at(-1)) : undefined
}
