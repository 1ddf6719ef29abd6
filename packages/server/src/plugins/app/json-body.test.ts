import { describe, expect, it } from 'vitest'
import { nestsDeeperThan } from './json-body.js'

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)

describe('nestsDeeperThan', () => {
  it('counts nesting, not brackets: many siblings at depth 2 pass, one chain deeper than max does not', () => {
    const wide = JSON.stringify({ list: Array.from({ length: 100 }, (_, i) => ({ i })) })
    expect(nestsDeeperThan(wide, 3)).toBe(false)
    expect(nestsDeeperThan(nested(3), 3)).toBe(false)
    expect(nestsDeeperThan(nested(4), 3)).toBe(true)
    // more opening brackets than max in all, and one chain deeper: the walk decides
    expect(nestsDeeperThan(`[${nested(2)},${nested(4)}]`, 4)).toBe(true)
    expect(nestsDeeperThan(`[${nested(2)},${nested(3)}]`, 4)).toBe(false)
  })

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ s: '[[[[[[[[[[' }), 2)).toBe(false)
    expect(nestsDeeperThan(JSON.stringify({ s: '"[[[[[[\\"{{{{' }), 2)).toBe(false)
    expect(nestsDeeperThan(`{"s":"\\"",${'"a":'.repeat(1)}${nested(3)}}`, 3)).toBe(true)
  })
})
