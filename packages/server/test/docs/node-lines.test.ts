import { describe, expect, it } from 'vitest'
import { readRepoFile } from '../helpers/docs.js'

/**
 * `engines.node` says which Node lines we test, no more and no less: every line it admits is one
 * CI runs (this machine's Node for `npm test`, the others through scripts/node-line.sh), every
 * package that runs in Node says the same, and the docs quote it (docs/operations.md#node-versions).
 */

const engines = (path: string): string | undefined =>
  (JSON.parse(readRepoFile(path)) as { engines?: { node?: string } }).engines?.node

/** `^20.19.0 || ^24.0.0` → the lowest admitted version per major: { 20: [20, 19, 0], 24: [24, 0, 0] }. */
function caretLines(range: string): Map<number, number[]> {
  const lines = new Map<number, number[]>()
  for (const part of range.split('||').map((p) => p.trim())) {
    const match = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(part)
    if (!match) throw new Error(`"${part}" of "${range}" is not a ^major.minor.patch range`)
    const version = match.slice(1).map(Number)
    lines.set(version[0] as number, version)
  }
  return lines
}

const admits = (lines: Map<number, number[]>, version: string): boolean => {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number) as [number, number, number]
  const lowest = lines.get(major)
  if (!lowest) return false
  return minor > (lowest[1] as number) || (minor === lowest[1] && patch >= (lowest[2] as number))
}

describe('the Node lines', () => {
  const range = engines('package.json') as string
  const lines = caretLines(range)

  it('are the same in every package that runs in Node', () => {
    expect(engines('packages/server/package.json')).toBe(range)
    expect(engines('packages/contract/package.json')).toBe(range)
  })

  it('are each run by CI, and CI runs no other', () => {
    const ci = readRepoFile('.ci/run')
    const others = [...ci.matchAll(/^scripts\/node-line\.sh (\d+) /gm)].map((m) => Number(m[1]))
    expect(others.length).toBeGreaterThan(0)
    expect(ci).toMatch(/^npm test$/m) // the machine's line: the lowest one admitted
    expect([...lines.keys()].sort((a, b) => a - b)).toEqual([Math.min(...lines.keys()), ...others])
  })

  it('admit the Node running this test', () => {
    expect(admits(lines, process.version), `${process.version} against ${range}`).toBe(true)
  })

  it('are quoted by the README and the operations page', () => {
    expect(readRepoFile('README.md')).toContain(`\`${range}\``)
    expect(readRepoFile('docs/operations.md')).toContain(`\`${range}\``)
  })

  it('are read the way npm reads a caret range', () => {
    const example = caretLines('^20.19.0 || ^24.0.0')
    expect(['v20.19.0', 'v20.20.2', 'v24.0.0', 'v24.22.3'].filter((v) => !admits(example, v))).toEqual([])
    expect(['v20.18.9', 'v22.12.0', 'v26.1.0', 'v18.20.0'].filter((v) => admits(example, v))).toEqual([])
    expect(() => caretLines('>=20')).toThrow(/not a \^major/)
  })
})
