import { describe, expect, it } from 'vitest'
import { nestsDeeperThan, parseJsonText } from './json-text.js'

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

describe('parseJsonText', () => {
  const fault = (text: string, maxLength?: number) => {
    const r = parseJsonText(text, maxLength)
    return 'fault' in r ? r.fault.kind : undefined
  }

  it('parses what is valid, within the depth and the length, a leading byte-order mark ignored', () => {
    expect(parseJsonText('{"a":[1,{"b":null}]}')).toEqual({ value: { a: [1, { b: null }] } })
    expect(parseJsonText(`\ufeff${nested(32)}`)).toEqual({ value: JSON.parse(nested(32)) })
    expect(parseJsonText('{"constructor":"x","s":"__proto__"}')).toEqual({
      value: { constructor: 'x', s: '__proto__' },
    })
  })

  it('refuses text deeper than 32 levels before parsing it, longer than its bound, or malformed', () => {
    expect(fault(nested(33))).toBe('too deep')
    expect(fault(`{"a":${nested(7_000)}}`)).toBe('too deep')
    expect(fault('{"a":"xxxx"}', 11)).toBe('too long')
    expect(fault('{"a":"xxxx"}', 12)).toBeUndefined()
    for (const text of ['{bad', '', '[1,2', '"unterminated', 'undefined']) expect(fault(text)).toBe('malformed')
  })

  it('refuses prototype-poisoning keys, plain or escaped, at any depth', () => {
    for (const text of [
      '{"__proto__":{"polluted":1}}',
      '{"a":[{"\\u005f_proto__":{"polluted":1}}]}',
      '{"constructor":{"prototype":{"polluted":1}}}',
      '{"a":{"\\u0063onstructor":{"prototype":{"polluted":1}}}}',
    ]) {
      expect(fault(text), text).toBe('poisoned')
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
