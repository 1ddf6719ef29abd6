import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { propertyRuns } from '../test/property-runs.js'
import { collides, compact, GRID_COLUMNS, type GridItem, MAX_CARD_HEIGHT } from './grid.js'
import { type Direction, moveItem, resizeItem, sameLayout, stepMove, stepResize } from './grid-editing.js'

const item = (metricId: string, x: number, y: number, w: number, h: number): GridItem => ({ metricId, x, y, w, h })
const at = (layout: readonly GridItem[], id: string) => layout.find((i) => i.metricId === id)

/** Two cards side by side on top, a wide one below them. */
const twoAndOne = [item('a', 0, 0, 6, 4), item('b', 6, 0, 6, 4), item('c', 0, 4, 12, 3)]

function overlaps(layout: readonly GridItem[]): string[] {
  const found: string[] = []
  for (const a of layout)
    for (const b of layout) if (a.metricId < b.metricId && collides(a, b)) found.push(`${a.metricId}/${b.metricId}`)
  return found
}

describe('collides', () => {
  it('is true for shared cells only, never for an item with itself', () => {
    expect(collides(item('a', 0, 0, 6, 4), item('b', 5, 3, 2, 2))).toBe(true)
    expect(collides(item('a', 0, 0, 6, 4), item('b', 6, 0, 6, 4))).toBe(false)
    expect(collides(item('a', 0, 0, 6, 4), item('b', 0, 4, 6, 4))).toBe(false)
    expect(collides(item('a', 0, 0, 6, 4), item('a', 0, 0, 6, 4))).toBe(false)
  })
})

describe('compact', () => {
  it('raises every item as far as it goes, in reading order', () => {
    expect(compact([item('a', 0, 3, 6, 2), item('b', 6, 9, 6, 2), item('c', 0, 8, 12, 1)])).toEqual([
      item('a', 0, 0, 6, 2),
      item('c', 0, 2, 12, 1),
      // b came after c in reading order: it rises until it meets c
      item('b', 6, 3, 6, 2),
    ])
  })
  it('separates overlapping items, the later one going below', () => {
    expect(compact([item('a', 0, 0, 6, 4), item('b', 3, 1, 6, 4)])).toEqual([
      item('a', 0, 0, 6, 4),
      item('b', 3, 4, 6, 4),
    ])
  })
})

describe('moveItem', () => {
  it('swaps two cards side by side when one is dropped on the other', () => {
    const moved = moveItem(twoAndOne, 'a', 6, 0)
    // b has no room above a, so it goes below it; the hole on the left stays (vertical compaction only)
    expect(at(moved, 'a')).toEqual(item('a', 6, 0, 6, 4))
    expect(at(moved, 'b')).toEqual(item('b', 6, 4, 6, 4))
    expect(at(moved, 'c')).toEqual(item('c', 0, 8, 12, 3))
    expect(overlaps(moved)).toEqual([])
  })
  it('moves a card down past the one below it once it is dropped over most of it', () => {
    const stacked = [item('a', 0, 0, 12, 4), item('b', 0, 4, 12, 4)]
    expect(moveItem(stacked, 'a', 0, 2)).toEqual(stacked)
    expect(moveItem(stacked, 'a', 0, 4)).toEqual([item('b', 0, 0, 12, 4), item('a', 0, 4, 12, 4)])
  })
  it('lets a card dropped in empty space below rise until it meets another', () => {
    expect(at(moveItem(twoAndOne, 'b', 6, 30), 'b')).toEqual(item('b', 6, 7, 6, 4))
  })
  it('clamps to the grid: never past column 12, never above row 0', () => {
    const moved = moveItem(twoAndOne, 'a', 11, -5)
    expect(at(moved, 'a')).toMatchObject({ x: 6, y: 0 })
    expect(at(moveItem(twoAndOne, 'a', -3, 0), 'a')).toMatchObject({ x: 0 })
  })
  it('keeps a move into the middle of a row of cards without overlaps', () => {
    const row = [item('a', 0, 0, 4, 2), item('b', 4, 0, 4, 2), item('c', 8, 0, 4, 2), item('d', 0, 2, 12, 2)]
    const moved = moveItem(row, 'd', 2, 0)
    expect(overlaps(moved)).toEqual([])
    expect(at(moved, 'd')).toMatchObject({ x: 0, y: 0 })
  })
  it('answers the layout unchanged for an unknown metric', () => {
    expect(moveItem(twoAndOne, 'zz', 0, 0)).toEqual(twoAndOne)
  })
})

describe('resizeItem', () => {
  it('pushes what a wider card now covers below it', () => {
    const resized = resizeItem(twoAndOne, 'a', 8, 4)
    expect(at(resized, 'a')).toEqual(item('a', 0, 0, 8, 4))
    expect(at(resized, 'b')).toEqual(item('b', 6, 4, 6, 4))
    expect(at(resized, 'c')).toEqual(item('c', 0, 8, 12, 3))
    expect(overlaps(resized)).toEqual([])
  })
  it('pulls up what was below a card made shorter', () => {
    expect(at(resizeItem(twoAndOne, 'a', 6, 2), 'c')).toEqual(item('c', 0, 4, 12, 3))
    expect(at(resizeItem(twoAndOne, 'b', 6, 2), 'c')).toEqual(item('c', 0, 4, 12, 3))
    expect(at(resizeItem(resizeItem(twoAndOne, 'a', 6, 2), 'b', 6, 2), 'c')).toEqual(item('c', 0, 2, 12, 3))
  })
  it('clamps the size: 2 columns up to the edge, 2 rows up to 40', () => {
    expect(at(resizeItem(twoAndOne, 'b', 20, 99), 'b')).toMatchObject({ w: 6, h: MAX_CARD_HEIGHT })
    expect(at(resizeItem(twoAndOne, 'b', 0, 0), 'b')).toMatchObject({ w: 2, h: 2 })
  })
  it('never enlarges an item already below the minimum when it shrinks', () => {
    const thin = [item('a', 0, 0, 1, 1)]
    expect(resizeItem(thin, 'a', 0, 0)).toEqual(thin)
  })
})

describe('keyboard steps', () => {
  it('moves a column at a time, and not past the edge', () => {
    expect(at(stepMove(twoAndOne, 'c', 'right'), 'c')).toMatchObject({ x: 0 })
    const a = stepMove(twoAndOne, 'a', 'right')
    expect(at(a, 'a')).toMatchObject({ x: 1, y: 0 })
    expect(overlaps(a)).toEqual([])
    expect(stepMove(twoAndOne, 'a', 'left')).toEqual(twoAndOne)
  })
  it('moves down to the first place that changes the layout: past the card below', () => {
    const down = stepMove(twoAndOne, 'a', 'down')
    // c cannot rise to the top (b is there): a goes below c in one step
    expect(at(down, 'c')).toMatchObject({ y: 4 })
    expect(at(down, 'a')).toMatchObject({ x: 0, y: 7 })
    expect(at(down, 'b')).toMatchObject({ x: 6, y: 0 })
    expect(stepMove(down, 'a', 'up')).toEqual(compact(twoAndOne))
  })
  it('goes nowhere past the top or the bottom', () => {
    expect(stepMove(twoAndOne, 'a', 'up')).toEqual(twoAndOne)
    expect(stepMove(twoAndOne, 'c', 'down')).toEqual(twoAndOne)
  })
  it('resizes a column or a row at a time', () => {
    expect(at(stepResize(twoAndOne, 'a', 'left'), 'a')).toMatchObject({ w: 5, h: 4 })
    expect(at(stepResize(twoAndOne, 'a', 'down'), 'a')).toMatchObject({ w: 6, h: 5 })
    expect(at(stepResize(twoAndOne, 'b', 'right'), 'b')).toMatchObject({ w: 6 })
  })
})

describe('sameLayout', () => {
  it('compares places, not order', () => {
    expect(sameLayout(twoAndOne, [...twoAndOne].reverse())).toBe(true)
    expect(sameLayout(twoAndOne, moveItem(twoAndOne, 'a', 6, 0))).toBe(false)
    expect(sameLayout(twoAndOne, twoAndOne.slice(1))).toBe(false)
  })
})

describe('any sequence of edits on any layout', () => {
  const layouts = fc
    .array(
      fc.record({
        x: fc.integer({ min: 0, max: 11 }),
        y: fc.integer({ min: 0, max: 30 }),
        w: fc.integer({ min: 1, max: 12 }),
        h: fc.integer({ min: 1, max: 12 }),
      }),
      { minLength: 1, maxLength: 12 },
    )
    .map((items) => compact(items.map((i, n) => item(`m${n}`, i.x, i.y, Math.min(i.w, GRID_COLUMNS - i.x), i.h))))
  const edit = fc.oneof(
    fc.record({
      kind: fc.constant('move' as const),
      n: fc.nat(),
      x: fc.integer({ min: -2, max: 14 }),
      y: fc.integer({ min: -2, max: 60 }),
    }),
    fc.record({
      kind: fc.constant('resize' as const),
      n: fc.nat(),
      x: fc.integer({ min: -2, max: 14 }),
      y: fc.integer({ min: -2, max: 50 }),
    }),
    fc.record({
      kind: fc.constantFrom('step' as const, 'stepResize' as const),
      n: fc.nat(),
      dir: fc.constantFrom<Direction>('left', 'right', 'up', 'down'),
    }),
  )
  it('keeps every item, inside the 12 columns, at most 40 rows high, with no overlap and no hole to rise into', () => {
    fc.assert(
      fc.property(layouts, fc.array(edit, { maxLength: 8 }), (start, edits) => {
        let layout = start
        for (const e of edits) {
          const id = layout[e.n % layout.length]?.metricId ?? ''
          if (e.kind === 'move') layout = moveItem(layout, id, e.x, e.y)
          else if (e.kind === 'resize') layout = resizeItem(layout, id, e.x, e.y)
          else if (e.kind === 'step') layout = stepMove(layout, id, e.dir)
          else layout = stepResize(layout, id, e.dir)
        }
        expect(layout.map((i) => i.metricId).sort()).toEqual(start.map((i) => i.metricId).sort())
        for (const i of layout) {
          expect(i.x).toBeGreaterThanOrEqual(0)
          expect(i.x + i.w).toBeLessThanOrEqual(GRID_COLUMNS)
          expect(i.y).toBeGreaterThanOrEqual(0)
          expect(i.h).toBeLessThanOrEqual(MAX_CARD_HEIGHT)
        }
        expect(overlaps(layout)).toEqual([])
        expect(compact(layout)).toEqual([...layout].sort((a, b) => a.y - b.y || a.x - b.x))
      }),
      propertyRuns(300),
    )
  })
})
