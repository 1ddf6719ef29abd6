#!/usr/bin/env node
/**
 * node bench/profile-top.mjs FILE.cpuprofile [N] [--inclusive NAME,NAME…]
 * Top N self-time functions of a `node --cpu-prof` profile; with --inclusive, also the total
 * (self + callees) time of the named functions, to see what a request path costs.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { topSelfTime } from './lib/profile.mjs'

const [file, n, flag, names] = process.argv.slice(2)
if (!file) {
  console.error('usage: node bench/profile-top.mjs FILE.cpuprofile [N] [--inclusive NAME,NAME…]')
  process.exit(2)
}
const root = resolve(import.meta.dirname, '..')
const result = topSelfTime(file, { top: Number(n ?? 30), root })
console.log(`busy ${result.busyMs} ms of ${result.totalMs} ms`)
for (const t of result.top)
  console.log(`${String(t.pctOfBusy).padStart(5)}%  ${String(t.selfMs).padStart(6)} ms  ${t.fn}`)

if (flag === '--inclusive' && names) {
  const profile = JSON.parse(readFileSync(file, 'utf8'))
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const self = new Map()
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
  })
  const idle = [...self]
    .filter(([id]) => byId.get(id).callFrame.functionName === '(idle)')
    .reduce((s, [, us]) => s + us, 0)
  const busy = [...self.values()].reduce((s, us) => s + us, 0) - idle
  console.log('\ninclusive:')
  for (const name of names.split(',')) {
    let total = 0
    for (const [id, us] of self) {
      // Count each sample once, however deep the function recurses.
      for (let at = id; at !== undefined; at = parent.get(at)) {
        if (byId.get(at).callFrame.functionName === name) {
          total += us
          break
        }
      }
    }
    console.log(
      `${String(((100 * total) / busy).toFixed(1)).padStart(5)}%  ${String(Math.round(total / 1000)).padStart(6)} ms  ${name}`,
    )
  }
}
