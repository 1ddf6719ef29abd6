import { describe, expect, it } from 'vitest'
import { focusByKey, rovingIndex } from '../src/lib/roving-focus.js'

describe('rovingIndex', () => {
  it('steps down and up, wrapping around the ends when the list wraps', () => {
    expect(rovingIndex('ArrowDown', 0, 3, true)).toBe(1)
    expect(rovingIndex('ArrowDown', 2, 3, true)).toBe(0)
    expect(rovingIndex('ArrowUp', 0, 3, true)).toBe(2)
    expect(rovingIndex('ArrowUp', 2, 3, true)).toBe(1)
  })

  it('stops at the ends when the list does not wrap', () => {
    expect(rovingIndex('ArrowDown', 2, 3, false)).toBe(2)
    expect(rovingIndex('ArrowUp', 0, 3, false)).toBe(0)
    expect(rovingIndex('ArrowDown', 1, 3, false)).toBe(2)
  })

  it('jumps to the first and last entry on Home and End', () => {
    expect(rovingIndex('Home', 2, 5, true)).toBe(0)
    expect(rovingIndex('End', 0, 5, false)).toBe(4)
  })

  it('enters the list from outside it at the first entry, or the last one going up a wrapping list', () => {
    expect(rovingIndex('ArrowDown', -1, 4, true)).toBe(0)
    expect(rovingIndex('ArrowUp', -1, 4, true)).toBe(3)
    expect(rovingIndex('ArrowUp', -1, 4, false)).toBe(0)
  })

  it('answers -1 for other keys and for an empty list', () => {
    expect(rovingIndex('Enter', 0, 3, true)).toBe(-1)
    expect(rovingIndex('ArrowLeft', 0, 3, true)).toBe(-1)
    expect(rovingIndex('ArrowDown', -1, 0, true)).toBe(-1)
    expect(rovingIndex('End', -1, 0, false)).toBe(-1)
  })
})

describe('focusByKey', () => {
  const entries = () => {
    const focused: number[] = []
    const items = [0, 1, 2].map((i) => ({ focus: () => focused.push(i) }))
    return { items, focused }
  }
  const key = (k: string) => {
    const e = { key: k, prevented: false, preventDefault: () => (e.prevented = true) }
    return e
  }

  it('focuses the next entry from the one with focus and keeps the page from scrolling', () => {
    const { items, focused } = entries()
    const e = key('ArrowDown')
    expect(focusByKey(e, items, items[1] ?? null)).toBe(true)
    expect(focused).toEqual([2])
    expect(e.prevented).toBe(true)
  })

  it('wraps unless told not to', () => {
    const a = entries()
    focusByKey(key('ArrowDown'), a.items, a.items[2] ?? null)
    expect(a.focused).toEqual([0])
    const b = entries()
    focusByKey(key('ArrowDown'), b.items, b.items[2] ?? null, false)
    expect(b.focused).toEqual([2])
  })

  it('leaves other keys alone', () => {
    const { items, focused } = entries()
    const e = key('a')
    expect(focusByKey(e, items, items[0] ?? null)).toBe(false)
    expect(focused).toEqual([])
    expect(e.prevented).toBe(false)
  })
})
